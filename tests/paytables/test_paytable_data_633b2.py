"""The § 633b.2 data file against the regulation: Jackpot Party Progressive paytables P1–P36.

Every expected value below is typed by hand from 58 Pa. Code § 633b.2(i) (shared/regulations/001),
never read back from the data file.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.errors import UnknownPaytableError
from croupier.paytables import MeterLevel, MeterShare, OddsTo, Paytable, builtin_paytables

SECTION = "633b.2"

OUTCOMES = (
    "royal-flush-diamonds",
    "royal-flush-other",
    "three-of-a-kind",
    "straight",
    "flush",
    "two-pair",
    "all-same-color",
    "pair",
    "dealer-blackjack",
    "dealer-ace-up",
)

MEGA = MeterLevel.MEGA
MAJOR = MeterLevel.MAJOR
MINOR = MeterLevel.MINOR
MINI = MeterLevel.MINI
MICRO = MeterLevel.MICRO
PROG = MeterLevel.PROGRESSIVE

# Deck count of each printed id, from its heading ("Single Deck"/"One Deck" = 1).
DECKS = {
    "P1": 6, "P2": 6, "P3": 6, "P4": 8, "P5": 8, "P6": 8,
    "P7": 1, "P8": 2, "P9": 4, "P10": 6, "P11": 8,
    "P12": 1, "P13": 2, "P14": 4, "P15": 6, "P16": 8,
    "P17": 1, "P18": 2, "P19": 4, "P20": 6, "P21": 8,
    "P22": 1, "P23": 2, "P24": 4, "P25": 6, "P26": 8,
    "P27": 1, "P28": 2, "P29": 4, "P30": 6, "P31": 8,
    "P32": 1, "P33": 2, "P34": 4, "P35": 6, "P36": 8,
}  # fmt: skip


def _get(key: str) -> Paytable:
    printed_id = key.split("-")[0]
    return builtin_paytables().get(SECTION, key, decks=DECKS[printed_id])


def _pays(t: Paytable, outcome: str) -> str:
    line = t.line(outcome)
    assert line is not None, f"{t.key} has no line {outcome!r}"
    return str(line.pays)


def _keys() -> list[str]:
    keys = [f"P{n}" for n in range(1, 17)]
    keys += [f"P{n}-{opt}" for n in range(17, 37) for opt in "ABC"]
    return keys


ALL_KEYS = _keys()


# --- counts, order, file-level facts ---------------------------------------------------------


def test_counts() -> None:
    tables = builtin_paytables().for_section(SECTION)
    assert len(tables) == 76
    assert len({t.id for t in tables}) == 36
    assert {t.id for t in tables} == {f"P{n}" for n in range(1, 37)}
    assert sorted(t.key for t in tables) == sorted(ALL_KEYS)


def test_file_order_is_printed_order() -> None:
    assert [t.key for t in builtin_paytables().for_section(SECTION)] == ALL_KEYS


@pytest.mark.parametrize("key", ALL_KEYS)
def test_ten_outcomes_in_printed_order(key: str) -> None:
    t = _get(key)
    assert t.outcomes() == OUTCOMES
    assert t.section == SECTION
    assert t.citation == "58 Pa. Code § 633b.2(i)"
    assert t.progressive is not None


@pytest.mark.parametrize("key", ALL_KEYS)
def test_one_deck_count_from_heading(key: str) -> None:
    assert _get(key).decks == (DECKS[key.split("-")[0]],)


def test_options_only_for_p17_to_p36() -> None:
    for t in builtin_paytables().for_section(SECTION):
        n = int(t.id[1:])
        if n <= 16:
            assert t.option is None
        else:
            assert t.option in {"A", "B", "C"}


def test_wrong_deck_count_is_refused() -> None:
    with pytest.raises(UnknownPaytableError):
        builtin_paytables().get(SECTION, "P17-A", decks=6)
    with pytest.raises(UnknownPaytableError):
        builtin_paytables().get(SECTION, "P1", decks=8)


# The printed heading of each id; P17–P36 add ", Option A" (B, C) to it.
HEADINGS = {
    "P1": "Six Decks—P1", "P2": "Six Decks—P2", "P3": "Six Decks—P3",
    "P4": "Eight Decks—P4", "P5": "Eight Decks—P5", "P6": "Eight Decks—P6",
    "P7": "Single Deck—P7", "P8": "Two Decks—P8", "P9": "Four Decks—P9",
    "P10": "Six Decks—P10", "P11": "Eight Decks—P11",
    "P12": "Single Deck—P12", "P13": "Two Decks—P13", "P14": "Four Decks—P14",
    "P15": "Six Decks—P15", "P16": "Eight Decks—P16",
    "P17": "One Deck—P17", "P18": "Two Decks—P18", "P19": "Four Decks—P19",
    "P20": "Six Decks—P20", "P21": "Eight Decks—P21",
    "P22": "One Deck—P22", "P23": "Two Decks—P23", "P24": "Four Decks—P24",
    "P25": "Six Decks—P25", "P26": "Eight Decks—P26",
    "P27": "Single Deck—P27", "P28": "Two Decks—P28", "P29": "Four Decks—P29",
    "P30": "Six Decks—P30", "P31": "Eight Decks—P31",
    "P32": "Single Deck—P32", "P33": "Two Decks—P33", "P34": "Four Decks—P34",
    "P35": "Six Decks—P35", "P36": "Eight Decks—P36",
}  # fmt: skip


@pytest.mark.parametrize("key", ALL_KEYS)
def test_titles_as_printed(key: str) -> None:
    pid, _, option = key.partition("-")
    expected = HEADINGS[pid] + (f", Option {option}" if option else "")
    assert _get(key).title == expected


# --- every cell of P1 ------------------------------------------------------------------------

P1_LINES = [
    ("royal-flush-diamonds", "Royal Flush—Diamonds", "100% of Progressive"),
    ("royal-flush-other", "Royal Flush—Other", "10% of Progressive"),
    ("three-of-a-kind", "Three-of-a-Kind", "150 to 1"),
    ("straight", "Straight", "80 to 1"),
    ("flush", "Flush", "60 to 1"),
    ("two-pair", "Two Pair", "40 to 1"),
    ("all-same-color", "All Same Color", "20 to 1"),
    ("pair", "Pair", "10 to 1"),
    ("dealer-blackjack", "Dealer Blackjack", "5 to 1"),
    ("dealer-ace-up", "Dealer Ace Up (No Blackjack)", "2 to 1"),
]


@pytest.mark.parametrize(("outcome", "label", "pays"), P1_LINES)
def test_p1_lines(outcome: str, label: str, pays: str) -> None:
    line = _get("P1").line(outcome)
    assert line is not None
    assert line.label == label
    assert str(line.pays) == pays
    assert line.envy_cents is None


def test_p1_heading_and_progressive() -> None:
    t = _get("P1")
    assert t.title == "Six Decks—P1"
    assert t.decks == (6,)
    assert t.lines[0].pays == MeterShare(Fraction(1), PROG)
    assert t.lines[1].pays == MeterShare(Fraction(1, 10), PROG)
    assert t.lines[2].pays == OddsTo(150, 1)
    p = t.progressive
    assert p is not None
    assert p.wager_cents == (500,)
    assert p.total_increment_rate is None
    assert p.envy_heading is None
    assert len(p.meters) == 1
    m = p.meter(PROG)
    assert m.seed_cents == 5_000_000
    assert m.seed_wager_multiple is None
    assert m.increment_rate == Fraction(16, 100)
    assert m.secondary_increment_rate == Fraction(375, 10000)


# --- every cell of P7 ------------------------------------------------------------------------

P7_LINES = [
    ("royal-flush-diamonds", "Royal Flush (A—J)—Diamonds", "100% of Progressive", 300_000),
    ("royal-flush-other", "Royal Flush (A—J)—Other", "10% of Progressive", 100_000),
    ("three-of-a-kind", "Three-of-a-Kind", "150 to 1", None),
    ("straight", "Straight", "70 to 1", None),
    ("flush", "Flush", "50 to 1", None),
    ("two-pair", "Two Pair", "30 to 1", None),
    ("all-same-color", "All Same Color", "15 to 1", None),
    ("pair", "Pair", "10 to 1", None),
    ("dealer-blackjack", "Dealer Blackjack", "5 to 1", None),
    ("dealer-ace-up", "Dealer Ace Up (No BJ)", "3 to 1", None),
]


@pytest.mark.parametrize(("outcome", "label", "pays", "envy"), P7_LINES)
def test_p7_lines(outcome: str, label: str, pays: str, envy: int | None) -> None:
    line = _get("P7").line(outcome)
    assert line is not None
    assert line.label == label
    assert str(line.pays) == pays
    assert line.envy_cents == envy


def test_p7_heading_and_progressive() -> None:
    t = _get("P7")
    assert t.title == "Single Deck—P7"
    assert t.decks == (1,)
    p = t.progressive
    assert p is not None
    assert p.envy_heading == "Pays w/ Envy"
    assert p.wager_cents == (500,)
    assert p.total_increment_rate == Fraction(1850, 10000)
    assert len(p.meters) == 1
    m = p.meter(PROG)
    assert m.seed_cents == 5_000_000
    assert m.increment_rate is None
    assert m.secondary_increment_rate is None


# --- every cell of P17 and P32, all options --------------------------------------------------

P17_LINES = [
    ("royal-flush-diamonds", "Royal Flush (A—J)—Diamonds", "100% Mega", 300_000),
    ("royal-flush-other", "Royal Flush (A—J)—Other", "100% Major", 100_000),
    ("three-of-a-kind", "Three-of-a-Kind", "100% Minor", None),
    ("straight", "Straight", "150 to 1", None),
    ("flush", "Flush", "50 to 1", None),
    ("two-pair", "Two Pair", "40 to 1", None),
    ("all-same-color", "All Same Color", "20 to 1", None),
    ("pair", "Pair", "10 to 1", None),
    ("dealer-blackjack", "Dealer Blackjack", "5 to 1", None),
    ("dealer-ace-up", "Dealer Ace Up (No BJ)", "2 to 1", None),
]

P32_LINES = [
    ("royal-flush-diamonds", "Royal Flush (A—J)—Diamonds", "100% Mega", 300_000),
    ("royal-flush-other", "Royal Flush (A—J)—Other", "100% Major", 100_000),
    ("three-of-a-kind", "Three-of-a-Kind", "100% Minor", None),
    ("straight", "Straight", "100% Mini", None),
    ("flush", "Flush", "100% Micro", None),
    ("two-pair", "Two Pair", "40 to 1", None),
    ("all-same-color", "All Same Color", "20 to 1", None),
    ("pair", "Pair", "10 to 1", None),
    ("dealer-blackjack", "Dealer Blackjack", "5 to 1", None),
    ("dealer-ace-up", "Dealer Ace Up (No BJ)", "2 to 1", None),
]


@pytest.mark.parametrize("option", ["A", "B", "C"])
@pytest.mark.parametrize(("outcome", "label", "pays", "envy"), P17_LINES)
def test_p17_lines(option: str, outcome: str, label: str, pays: str, envy: int | None) -> None:
    line = _get(f"P17-{option}").line(outcome)
    assert line is not None
    assert line.label == label
    assert str(line.pays) == pays
    assert line.envy_cents == envy


@pytest.mark.parametrize("option", ["A", "B", "C"])
@pytest.mark.parametrize(("outcome", "label", "pays", "envy"), P32_LINES)
def test_p32_lines(option: str, outcome: str, label: str, pays: str, envy: int | None) -> None:
    line = _get(f"P32-{option}").line(outcome)
    assert line is not None
    assert line.label == label
    assert str(line.pays) == pays
    assert line.envy_cents == envy


# (option, title, [(level, seed cents, increment rate), ...]) as printed
P17_METERS = [
    (
        "A",
        "One Deck—P17, Option A",
        [
            (MEGA, 5_000_000, Fraction(6, 100)),
            (MAJOR, 500_000, Fraction(7, 100)),
            (MINOR, 50_000, Fraction(7, 100)),
        ],
    ),
    (
        "B",
        "One Deck—P17, Option B",
        [
            (MEGA, 2_500_000, Fraction(7, 100)),
            (MAJOR, 500_000, Fraction(7, 100)),
            (MINOR, 50_000, Fraction(7, 100)),
        ],
    ),
    (
        "C",
        "One Deck—P17, Option C",
        [
            (MEGA, 1_000_000, Fraction(75, 1000)),
            (MAJOR, 500_000, Fraction(7, 100)),
            (MINOR, 50_000, Fraction(7, 100)),
        ],
    ),
]

P32_METERS = [
    (
        "A",
        "Single Deck—P32, Option A",
        [
            (MEGA, 5_000_000, Fraction(6, 100)),
            (MAJOR, 500_000, Fraction(5, 100)),
            (MINOR, 50_000, Fraction(3, 100)),
            (MINI, 30_000, Fraction(3, 100)),
            (MICRO, 25_000, Fraction(3, 100)),
        ],
    ),
    (
        "B",
        "Single Deck—P32, Option B",
        [
            (MEGA, 2_500_000, Fraction(7, 100)),
            (MAJOR, 500_000, Fraction(5, 100)),
            (MINOR, 50_000, Fraction(3, 100)),
            (MINI, 30_000, Fraction(3, 100)),
            (MICRO, 25_000, Fraction(3, 100)),
        ],
    ),
    (
        "C",
        "Single Deck—P32, Option C",
        [
            (MEGA, 1_000_000, Fraction(75, 1000)),
            (MAJOR, 500_000, Fraction(5, 100)),
            (MINOR, 50_000, Fraction(3, 100)),
            (MINI, 30_000, Fraction(3, 100)),
            (MICRO, 25_000, Fraction(3, 100)),
        ],
    ),
]


@pytest.mark.parametrize(
    ("key", "title", "meters"),
    [(f"P17-{o}", title, m) for o, title, m in P17_METERS]
    + [(f"P32-{o}", title, m) for o, title, m in P32_METERS],
)
def test_p17_p32_heading_and_meters(
    key: str, title: str, meters: list[tuple[MeterLevel, int, Fraction]]
) -> None:
    t = _get(key)
    assert t.title == title
    assert t.decks == (1,)
    assert t.option == key[-1]
    p = t.progressive
    assert p is not None
    assert p.envy_heading == "Pays w/ Max Envy"
    # no Wager row printed: read as $5 like the tables of the same seeds that print one
    assert p.wager_cents == (500,)
    assert p.total_increment_rate is None
    assert [m.level for m in p.meters] == [level for level, _, _ in meters]
    for level, seed, rate in meters:
        m = p.meter(level)
        assert m.seed_cents == seed
        assert m.increment_rate == rate
        assert m.secondary_increment_rate is None
        assert m.seed_wager_multiple is None


# --- a sample of cells from every paytable ---------------------------------------------------

# (key, outcome, pays, outcome, pays, meter level, seed cents) typed from the tables
SAMPLES = [
    ("P1", "straight", "80 to 1", "dealer-ace-up", "2 to 1", PROG, 5_000_000),
    ("P2", "straight", "70 to 1", "dealer-ace-up", "3 to 1", PROG, 5_000_000),
    ("P3", "three-of-a-kind", "100 to 1", "dealer-blackjack", "4 to 1", PROG, 1_000_000),
    ("P4", "flush", "60 to 1", "two-pair", "40 to 1", PROG, 5_000_000),
    ("P5", "flush", "50 to 1", "all-same-color", "15 to 1", PROG, 5_000_000),
    ("P6", "straight", "75 to 1", "two-pair", "25 to 1", PROG, 1_000_000),
    ("P7", "straight", "70 to 1", "dealer-ace-up", "3 to 1", PROG, 5_000_000),
    ("P8", "three-of-a-kind", "150 to 1", "two-pair", "30 to 1", PROG, 5_000_000),
    ("P9", "flush", "50 to 1", "pair", "10 to 1", PROG, 5_000_000),
    ("P10", "straight", "70 to 1", "dealer-blackjack", "5 to 1", PROG, 5_000_000),
    ("P11", "all-same-color", "15 to 1", "dealer-ace-up", "3 to 1", PROG, 5_000_000),
    ("P12", "three-of-a-kind", "100 to 1", "straight", "75 to 1", PROG, 5_000_000),
    ("P13", "two-pair", "25 to 1", "dealer-blackjack", "4 to 1", PROG, 5_000_000),
    ("P14", "straight", "75 to 1", "dealer-ace-up", "2 to 1", PROG, 5_000_000),
    ("P15", "three-of-a-kind", "100 to 1", "flush", "50 to 1", PROG, 5_000_000),
    ("P16", "two-pair", "25 to 1", "all-same-color", "15 to 1", PROG, 5_000_000),
    ("P17-B", "straight", "150 to 1", "flush", "50 to 1", MEGA, 2_500_000),
    ("P18-A", "three-of-a-kind", "100% Minor", "straight", "150 to 1", MEGA, 5_000_000),
    ("P18-C", "royal-flush-other", "100% Major", "two-pair", "40 to 1", MEGA, 1_000_000),
    ("P19-B", "straight", "150 to 1", "all-same-color", "20 to 1", MAJOR, 500_000),
    ("P20-A", "royal-flush-diamonds", "100% Mega", "flush", "50 to 1", MINOR, 50_000),
    ("P21-C", "straight", "150 to 1", "dealer-ace-up", "2 to 1", MEGA, 1_000_000),
    ("P22-A", "straight", "100% Mini", "flush", "50 to 1", MINI, 30_000),
    ("P23-B", "straight", "100% Mini", "flush", "50 to 1", MEGA, 2_500_000),
    ("P24-C", "three-of-a-kind", "100% Minor", "flush", "50 to 1", MEGA, 1_000_000),
    ("P25-A", "straight", "100% Mini", "two-pair", "40 to 1", MAJOR, 500_000),
    ("P26-B", "flush", "50 to 1", "pair", "10 to 1", MINI, 30_000),
    ("P27-A", "straight", "100% Mini", "flush", "60 to 1", MEGA, 5_000_000),
    ("P28-B", "flush", "60 to 1", "two-pair", "40 to 1", MEGA, 2_500_000),
    ("P29-C", "flush", "60 to 1", "dealer-blackjack", "5 to 1", MEGA, 1_000_000),
    ("P30-A", "royal-flush-other", "100% Major", "flush", "60 to 1", MINI, 30_000),
    ("P31-B", "flush", "60 to 1", "all-same-color", "20 to 1", MINOR, 50_000),
    ("P32-C", "flush", "100% Micro", "two-pair", "40 to 1", MICRO, 25_000),
    ("P33-A", "flush", "100% Micro", "straight", "100% Mini", MEGA, 5_000_000),
    ("P34-B", "flush", "100% Micro", "pair", "10 to 1", MEGA, 2_500_000),
    ("P35-C", "flush", "100% Micro", "dealer-ace-up", "2 to 1", MEGA, 1_000_000),
    ("P36-A", "straight", "100% Mini", "flush", "100% Micro", MICRO, 25_000),
]


@pytest.mark.parametrize(
    ("key", "outcome1", "pays1", "outcome2", "pays2", "level", "seed"), SAMPLES
)
def test_sample_cells(
    key: str,
    outcome1: str,
    pays1: str,
    outcome2: str,
    pays2: str,
    level: MeterLevel,
    seed: int,
) -> None:
    t = _get(key)
    assert _pays(t, outcome1) == pays1
    assert _pays(t, outcome2) == pays2
    assert t.progressive is not None
    assert t.progressive.meter(level).seed_cents == seed


def test_samples_cover_every_printed_id() -> None:
    assert {key.split("-")[0] for key, *_ in SAMPLES} == {f"P{n}" for n in range(1, 37)}


# P1–P6: primary and secondary increment rates (per meter), as printed
P1_TO_P6_RATES = [
    ("P1", Fraction(16, 100), Fraction(375, 10000)),
    ("P2", Fraction(15, 100), Fraction(350, 10000)),
    ("P3", Fraction(19, 100), Fraction(425, 10000)),
    ("P4", Fraction(16, 100), Fraction(375, 10000)),
    ("P5", Fraction(15, 100), Fraction(350, 10000)),
    ("P6", Fraction(19, 100), Fraction(425, 10000)),
]


@pytest.mark.parametrize(("key", "primary", "secondary"), P1_TO_P6_RATES)
def test_p1_to_p6_rates(key: str, primary: Fraction, secondary: Fraction) -> None:
    p = _get(key).progressive
    assert p is not None
    assert p.total_increment_rate is None
    m = p.meter(PROG)
    assert m.increment_rate == primary
    assert m.secondary_increment_rate == secondary


# P7–P16: total increment rate only
P7_TO_P16_RATES = [
    ("P7", Fraction(1850, 10000)),
    ("P8", Fraction(1850, 10000)),
    ("P9", Fraction(1850, 10000)),
    ("P10", Fraction(1850, 10000)),
    ("P11", Fraction(1850, 10000)),
    ("P12", Fraction(2325, 10000)),
    ("P13", Fraction(2325, 10000)),
    ("P14", Fraction(2325, 10000)),
    ("P15", Fraction(2325, 10000)),
    ("P16", Fraction(2325, 10000)),
]


@pytest.mark.parametrize(("key", "total"), P7_TO_P16_RATES)
def test_p7_to_p16_total_rate(key: str, total: Fraction) -> None:
    p = _get(key).progressive
    assert p is not None
    assert p.total_increment_rate == total
    assert [m.level for m in p.meters] == [PROG]
    assert p.meter(PROG).seed_cents == 5_000_000
    assert p.meter(PROG).increment_rate is None


# P17–P36: (printed id, meter levels, Major rate, Minor rate) — the rates shared by A/B/C
MULTI_LEVEL = [
    ("P17", (MEGA, MAJOR, MINOR), Fraction(7, 100), Fraction(7, 100)),
    ("P18", (MEGA, MAJOR, MINOR), Fraction(7, 100), Fraction(7, 100)),
    ("P19", (MEGA, MAJOR, MINOR), Fraction(7, 100), Fraction(7, 100)),
    ("P20", (MEGA, MAJOR, MINOR), Fraction(7, 100), Fraction(7, 100)),
    ("P21", (MEGA, MAJOR, MINOR), Fraction(7, 100), Fraction(7, 100)),
    ("P22", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P23", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P24", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P25", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P26", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P27", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P28", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P29", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P30", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P31", (MEGA, MAJOR, MINOR, MINI), Fraction(5, 100), Fraction(3, 100)),
    ("P32", (MEGA, MAJOR, MINOR, MINI, MICRO), Fraction(5, 100), Fraction(3, 100)),
    ("P33", (MEGA, MAJOR, MINOR, MINI, MICRO), Fraction(5, 100), Fraction(3, 100)),
    ("P34", (MEGA, MAJOR, MINOR, MINI, MICRO), Fraction(5, 100), Fraction(3, 100)),
    ("P35", (MEGA, MAJOR, MINOR, MINI, MICRO), Fraction(2, 100), Fraction(3, 100)),
    ("P36", (MEGA, MAJOR, MINOR, MINI, MICRO), Fraction(2, 100), Fraction(3, 100)),
]

# Option: (Mega seed cents, Mega increment rate) — the same in every table P17–P36
MEGA_BY_OPTION = {
    "A": (5_000_000, Fraction(6, 100)),
    "B": (2_500_000, Fraction(7, 100)),
    "C": (1_000_000, Fraction(75, 1000)),
}


@pytest.mark.parametrize("option", ["A", "B", "C"])
@pytest.mark.parametrize(("pid", "levels", "major_rate", "minor_rate"), MULTI_LEVEL)
def test_p17_to_p36_meters(
    pid: str,
    levels: tuple[MeterLevel, ...],
    major_rate: Fraction,
    minor_rate: Fraction,
    option: str,
) -> None:
    p = _get(f"{pid}-{option}").progressive
    assert p is not None
    assert tuple(m.level for m in p.meters) == levels
    assert p.total_increment_rate is None
    assert p.wager_cents == (500,)
    mega_seed, mega_rate = MEGA_BY_OPTION[option]
    assert p.meter(MEGA).seed_cents == mega_seed
    assert p.meter(MEGA).increment_rate == mega_rate
    assert p.meter(MAJOR).seed_cents == 500_000
    assert p.meter(MAJOR).increment_rate == major_rate
    assert p.meter(MINOR).seed_cents == 50_000
    assert p.meter(MINOR).increment_rate == minor_rate
    if MINI in levels:
        assert p.meter(MINI).seed_cents == 30_000
        assert p.meter(MINI).increment_rate == Fraction(3, 100)
    if MICRO in levels:
        assert p.meter(MICRO).seed_cents == 25_000
        assert p.meter(MICRO).increment_rate == Fraction(3, 100)


# P17–P36: pays of the lines from Straight down, shared by A/B/C
# (straight, flush, two pair, all same color, pair, dealer blackjack, dealer ace up)
P17_TO_P21_PAYS = ("150 to 1", "50 to 1", "40 to 1", "20 to 1", "10 to 1", "5 to 1", "2 to 1")
P22_TO_P26_PAYS = ("100% Mini", "50 to 1", "40 to 1", "20 to 1", "10 to 1", "5 to 1", "2 to 1")
P27_TO_P31_PAYS = ("100% Mini", "60 to 1", "40 to 1", "20 to 1", "10 to 1", "5 to 1", "2 to 1")
P32_TO_P36_PAYS = ("100% Mini", "100% Micro", "40 to 1", "20 to 1", "10 to 1", "5 to 1", "2 to 1")
LOWER = OUTCOMES[3:]


@pytest.mark.parametrize("option", ["A", "B", "C"])
@pytest.mark.parametrize(
    ("pid", "pays"),
    [(f"P{n}", P17_TO_P21_PAYS) for n in range(17, 22)]
    + [(f"P{n}", P22_TO_P26_PAYS) for n in range(22, 27)]
    + [(f"P{n}", P27_TO_P31_PAYS) for n in range(27, 32)]
    + [(f"P{n}", P32_TO_P36_PAYS) for n in range(32, 37)],
)
def test_p17_to_p36_pays(pid: str, pays: tuple[str, ...], option: str) -> None:
    t = _get(f"{pid}-{option}")
    assert _pays(t, "royal-flush-diamonds") == "100% Mega"
    assert _pays(t, "royal-flush-other") == "100% Major"
    assert _pays(t, "three-of-a-kind") == "100% Minor"
    assert tuple(_pays(t, o) for o in LOWER) == pays


# --- envy columns, wagers, labels -------------------------------------------------------------

# Printed envy column heading per id (None: no envy column)
ENVY_HEADING = {
    **{f"P{n}": None for n in range(1, 7)},
    "P7": "Pays w/ Envy",
    **{f"P{n}": "Pays w/ Max Envy" for n in range(8, 12)},
    "P12": "Pays w/ Envy",
    **{f"P{n}": "Pays w/ Max Envy" for n in range(13, 27)},
    **{f"P{n}": None for n in range(27, 32)},
    **{f"P{n}": "Pays w/ Max Envy" for n in range(32, 37)},
}


@pytest.mark.parametrize("key", ALL_KEYS)
def test_envy(key: str) -> None:
    t = _get(key)
    heading = ENVY_HEADING[key.split("-")[0]]
    assert t.progressive is not None
    assert t.progressive.envy_heading == heading
    envy = {line.outcome: line.envy_cents for line in t.lines if line.envy_cents is not None}
    if heading is None:
        assert envy == {}
    else:
        assert envy == {"royal-flush-diamonds": 300_000, "royal-flush-other": 100_000}


# The printed Wager row; P10, P11 and P17–P36 print none and are read as $5 (docs/interpretations.md).
WAGERS = {
    "P1": (500,), "P2": (500,), "P3": (100,), "P4": (500,), "P5": (500,), "P6": (100,),
    "P7": (500,), "P8": (500,), "P9": (500,), "P10": (500,), "P11": (500,),
    "P12": (500,), "P13": (500,), "P14": (500,), "P15": (500,), "P16": (500,),
    **{f"P{n}": (500,) for n in range(17, 37)},
}  # fmt: skip


@pytest.mark.parametrize("key", ALL_KEYS)
def test_wagers(key: str) -> None:
    t = _get(key)
    assert t.progressive is not None
    assert t.progressive.wager_cents == WAGERS[key.split("-")[0]]
    if key.split("-")[0] in NO_WAGER_ROW:
        assert "633b.2(e)" in t.notes


NO_WAGER_ROW = {"P10", "P11", *(f"P{n}" for n in range(17, 37))}


@pytest.mark.parametrize("key", ALL_KEYS)
def test_labels_as_printed(key: str) -> None:
    t = _get(key)
    labels = tuple(line.label for line in t.lines)
    if int(key.split("-")[0][1:]) <= 6:
        assert labels == (
            "Royal Flush—Diamonds",
            "Royal Flush—Other",
            "Three-of-a-Kind",
            "Straight",
            "Flush",
            "Two Pair",
            "All Same Color",
            "Pair",
            "Dealer Blackjack",
            "Dealer Ace Up (No Blackjack)",
        )
    else:
        assert labels == (
            "Royal Flush (A—J)—Diamonds",
            "Royal Flush (A—J)—Other",
            "Three-of-a-Kind",
            "Straight",
            "Flush",
            "Two Pair",
            "All Same Color",
            "Pair",
            "Dealer Blackjack",
            "Dealer Ace Up (No BJ)",
        )


# P2–P16 pays from Three-of-a-Kind down (the royal flushes are 100% / 10% of Progressive)
P_SINGLE_METER_PAYS = {
    "P2": (150, 70, 50, 30, 15, 10, 5, 3),
    "P3": (100, 75, 50, 25, 15, 10, 4, 2),
    "P4": (150, 80, 60, 40, 20, 10, 5, 2),
    "P5": (150, 70, 50, 30, 15, 10, 5, 3),
    "P6": (100, 75, 50, 25, 15, 10, 4, 2),
    "P8": (150, 70, 50, 30, 15, 10, 5, 3),
    "P9": (150, 70, 50, 30, 15, 10, 5, 3),
    "P10": (150, 70, 50, 30, 15, 10, 5, 3),
    "P11": (150, 70, 50, 30, 15, 10, 5, 3),
    "P12": (100, 75, 50, 25, 15, 10, 4, 2),
    "P13": (100, 75, 50, 25, 15, 10, 4, 2),
    "P14": (100, 75, 50, 25, 15, 10, 4, 2),
    "P15": (100, 75, 50, 25, 15, 10, 4, 2),
    "P16": (100, 75, 50, 25, 15, 10, 4, 2),
}


@pytest.mark.parametrize(("key", "odds"), sorted(P_SINGLE_METER_PAYS.items()))
def test_p2_to_p16_pays(key: str, odds: tuple[int, ...]) -> None:
    t = _get(key)
    assert _pays(t, "royal-flush-diamonds") == "100% of Progressive"
    assert _pays(t, "royal-flush-other") == "10% of Progressive"
    pays = tuple(line.pays for line in t.lines[2:])
    assert pays == tuple(OddsTo(x, 1) for x in odds)
