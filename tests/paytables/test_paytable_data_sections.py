"""The built-in paytable data of §§ 633b.1, 633b.3, 633b.4, 633c.12, 674b.1 and 631c.3.

Every expected value below was typed by hand from the regulation text (shared/regulations), row by
row as printed, and is never read back from the data files. The tables are written here in the
printed row order ("row: values of Paytable 1, 2, ...") while the data files hold one column per
paytable, so the two transcriptions are independent.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.errors import PaytableError, UnknownPaytableError
from croupier.paytables import (
    MeterLevel,
    MeterShare,
    NotAvailable,
    OddsTo,
    Paytable,
    builtin_paytables,
    parse_section_text,
)


def _table(section: str, key: str, decks: int | None = None) -> Paytable:
    return builtin_paytables().get(section, key, decks=decks)


def _pay(section: str, key: str, outcome: str, decks: int | None = None) -> str:
    line = _table(section, key, decks).line(outcome)
    assert line is not None, f"§ {section} paytable {key} has no line {outcome!r}"
    return str(line.pays)


# --------------------------------------------------------------------------- counts per section


@pytest.mark.parametrize(
    ("section", "keys"),
    [
        ("633b.1", ["A", "B"]),
        ("633b.3", [str(n) for n in range(1, 11)] * 2),
        ("633b.4", ["switch-hands", "blackjack-premium"]),
        ("633c.12", ["standard"]),
        ("674b.1", ["A", "B", "C", "D", "E"]),
        ("631c.3", ["A", "B"]),
    ],
)
def test_number_and_order_of_paytables(section: str, keys: list[str]) -> None:
    assert [t.key for t in builtin_paytables().for_section(section)] == keys


# --------------------------------------------------------------------------- § 633b.1(f)

# Perfect Pair, Colored Pair, Mixed Pair: Paytable A, Paytable B
PERFECT_PAIRS = {
    "perfect-pair": ("25 to 1", "30 to 1"),
    "colored-pair": ("12 to 1", "10 to 1"),
    "mixed-pair": ("6 to 1", "5 to 1"),
}


@pytest.mark.parametrize(
    ("key", "outcome", "expected"),
    [
        (key, outcome, pays[i])
        for outcome, pays in PERFECT_PAIRS.items()
        for i, key in enumerate("AB")
    ],
)
def test_633b1_every_cell(key: str, outcome: str, expected: str) -> None:
    assert _pay("633b.1", key, outcome, decks=6) == expected


@pytest.mark.parametrize("key", ["A", "B"])
def test_633b1_printed_order(key: str) -> None:
    assert _table("633b.1", key, 6).outcomes() == ("perfect-pair", "colored-pair", "mixed-pair")


# --------------------------------------------------------------------------- § 633b.3(i), (j)

MTD_ORDER = (
    "two-suited-match-aces-of-spades",
    "two-suited-match",
    "non-suited-and-suited-match",
    "suited-match",
    "two-non-suited-matches",
    "non-suited-match",
)
MTD_LABELS = (
    "2 Suited Match—Aces of Spades",
    "2 Suited Match—All Others",
    "1 Non-Suited and 1 Suited Match",
    "1 Suited Match",
    "2 Non-Suited Matches",
    "1 Non-Suited Match",
)

# The four odds rows ("N to 1"), values for Paytables 1..10, as printed in three blocks (1–4, 5–8,
# 9–10). The two meter-share rows are the same in every table: 100% and 10% Progressive.
MTD_SIX_DECKS = {
    "non-suited-and-suited-match": [12, 10, 8, 75, 12, 13, 11, 100, 15, 13],
    "suited-match": [10, 7, 4, 4, 9, 10, 7, 5, 12, 9],
    "two-non-suited-matches": [4, 6, 8, 15, 6, 6, 8, 20, 6, 8],
    "non-suited-match": [2, 3, 4, 3, 3, 3, 4, 3, 3, 4],
}
MTD_EIGHT_DECKS = {
    "non-suited-and-suited-match": [9, 12, 8, 75, 12, 10, 13, 14, 100, 15],
    "suited-match": [6, 10, 4, 4, 9, 6, 10, 11, 5, 12],
    "two-non-suited-matches": [6, 4, 8, 15, 6, 8, 6, 6, 20, 6],
    "non-suited-match": [3, 2, 4, 3, 3, 4, 3, 3, 3, 3],
}
MTD_CELLS = [
    (decks, str(n + 1), outcome, f"{wins[n]} to 1")
    for decks, rows in ((6, MTD_SIX_DECKS), (8, MTD_EIGHT_DECKS))
    for outcome, wins in rows.items()
    for n in range(10)
]
MTD_KEYS = [(decks, str(n)) for decks in (6, 8) for n in range(1, 11)]


def test_633b3_cell_table_is_complete() -> None:
    assert len(MTD_CELLS) == 2 * 10 * 4


@pytest.mark.parametrize(("decks", "key", "outcome", "expected"), MTD_CELLS)
def test_633b3_every_odds_cell(decks: int, key: str, outcome: str, expected: str) -> None:
    assert _pay("633b.3", key, outcome, decks=decks) == expected


@pytest.mark.parametrize(("decks", "key"), MTD_KEYS)
def test_633b3_meter_share_cells(decks: int, key: str) -> None:
    table = _table("633b.3", key, decks)
    aces = table.line("two-suited-match-aces-of-spades")
    others = table.line("two-suited-match")
    assert aces is not None and others is not None
    assert str(aces.pays) == "100% of Progressive"
    assert str(others.pays) == "10% of Progressive"
    assert aces.pays == MeterShare(Fraction(1), MeterLevel.PROGRESSIVE)
    assert others.pays == MeterShare(Fraction(1, 10), MeterLevel.PROGRESSIVE)


@pytest.mark.parametrize(("decks", "key"), MTD_KEYS)
def test_633b3_order_labels_decks_title(decks: int, key: str) -> None:
    table = _table("633b.3", key, decks)
    assert table.outcomes() == MTD_ORDER
    assert tuple(line.label for line in table.lines) == MTD_LABELS
    assert table.decks == (decks,)
    word = {6: "Six", 8: "Eight"}[decks]
    assert table.title == f"{word} Decks—Paytable {key}"
    assert table.citation == "58 Pa. Code § 633b.3(i)"


@pytest.mark.parametrize(("decks", "key"), MTD_KEYS)
def test_633b3_progressive_seed_and_rates(decks: int, key: str) -> None:
    progressive = _table("633b.3", key, decks).progressive
    assert progressive is not None
    assert progressive.wager_cents == (100, 500)  # "$1 or $5", § 633b.3(e)
    assert len(progressive.meters) == 1
    meter = progressive.meters[0]
    assert meter.level is MeterLevel.PROGRESSIVE
    assert meter.seed_wager_multiple == 1000  # § 633b.3(j)
    assert meter.seed_cents is None
    assert meter.increment_rate == Fraction(15, 100)
    assert meter.secondary_increment_rate == Fraction(6, 100)
    assert meter.seed_for(100) == 1_000_00
    assert meter.seed_for(500) == 5_000_00


def test_633b3_six_and_eight_deck_tables_differ() -> None:
    six, eight = _table("633b.3", "1", 6), _table("633b.3", "1", 8)
    assert six is not eight
    assert str(six.line("non-suited-and-suited-match").pays) == "12 to 1"  # type: ignore[union-attr]
    assert str(eight.line("non-suited-and-suited-match").pays) == "9 to 1"  # type: ignore[union-attr]


def test_633b3_needs_a_deck_count_and_allows_only_6_or_8() -> None:
    with pytest.raises(UnknownPaytableError, match="several deck counts"):
        _table("633b.3", "1")
    with pytest.raises(UnknownPaytableError, match="allowed: 6, 8"):
        _table("633b.3", "1", 4)


# --------------------------------------------------------------------------- § 674b.1(f)

UP_ORDER = (
    "ace-hearts-ace-diamonds",
    "ace-ace",
    "ace-king-suited",
    "ace-queen-or-jack-suited",
    "ace-king",
    "kings-queens-or-jacks",
    "ace-queen-or-jack",
    "pair-tens-or-less",
)
UP_LABELS = (
    "Ace of hearts and ace of diamonds",
    "Ace/ace",
    "Ace/king (suited)",
    "Ace/queen (suited) or player ace/jack (suited)",
    "Ace/king",
    "King/king, queen/queen or jack/jack",
    "Ace/queen or ace/jack",
    "Pair—10s or less",
)
# rows as printed; values for Paytables A, B, C, D, E
ULTIMATE_PAIRS = {
    "ace-hearts-ace-diamonds": ("N/A", "N/A", "100 to 1", "50 to 1", "N/A"),
    "ace-ace": ("30 to 1", "30 to 1", "30 to 1", "25 to 1", "25 to 1"),
    "ace-king-suited": ("25 to 1", "20 to 1", "20 to 1", "20 to 1", "20 to 1"),
    "ace-queen-or-jack-suited": ("20 to 1", "20 to 1", "20 to 1", "20 to 1", "20 to 1"),
    "ace-king": ("15 to 1", "10 to 1", "10 to 1", "10 to 1", "10 to 1"),
    "kings-queens-or-jacks": ("10 to 1", "5 to 1", "4 to 1", "5 to 1", "5 to 1"),
    "ace-queen-or-jack": ("5 to 1", "10 to 1", "10 to 1", "10 to 1", "10 to 1"),
    "pair-tens-or-less": ("3 to 1", "5 to 1", "4 to 1", "5 to 1", "5 to 1"),
}


@pytest.mark.parametrize(
    ("key", "outcome", "expected"),
    [
        (key, outcome, pays[i])
        for outcome, pays in ULTIMATE_PAIRS.items()
        for i, key in enumerate("ABCDE")
    ],
)
def test_674b1_every_cell(key: str, outcome: str, expected: str) -> None:
    assert _pay("674b.1", key, outcome, decks=1) == expected


@pytest.mark.parametrize("key", ["A", "B", "E"])
def test_674b1_not_available_is_kept(key: str) -> None:
    line = _table("674b.1", key).line("ace-hearts-ace-diamonds")
    assert line is not None and isinstance(line.pays, NotAvailable)


@pytest.mark.parametrize("key", list("ABCDE"))
def test_674b1_order_labels_decks(key: str) -> None:
    table = _table("674b.1", key)
    assert table.outcomes() == UP_ORDER
    assert tuple(line.label for line in table.lines) == UP_LABELS
    assert table.decks == (1,)
    assert table.progressive is None
    assert table.citation == "58 Pa. Code § 674b.1(f)"


# --------------------------------------------------------------------------- § 631c.3(h)

FT_ORDER = (
    "fortune-7",
    "golden-8",
    "heavenly-9-both",
    "heavenly-9",
    "blazing-7s-three-card",
    "blazing-7s-two-card",
    "cover-all",
)
FT_LABELS = (
    "Fortune 7",
    "Golden 8",
    "Heavenly 9, player and banker",
    "Heavenly 9, player or banker",
    "3-card Blazing 7s",
    "2-card Blazing 7s",
    "Cover All",
)
# rows as printed; values for Paytables A, B
FIVE_TREASURES = {
    "fortune-7": ("40 to 1", "40 to 1"),
    "golden-8": ("25 to 1", "25 to 1"),
    "heavenly-9-both": ("75 to 1", "75 to 1"),
    "heavenly-9": ("10 to 1", "10 to 1"),
    "blazing-7s-three-card": ("400 to 1", "200 to 1"),
    "blazing-7s-two-card": ("N/A", "50 to 1"),
    "cover-all": ("6 to 1", "6 to 1"),
}


@pytest.mark.parametrize(
    ("key", "outcome", "expected"),
    [
        (key, outcome, pays[i])
        for outcome, pays in FIVE_TREASURES.items()
        for i, key in enumerate("AB")
    ],
)
def test_631c3_every_cell(key: str, outcome: str, expected: str) -> None:
    assert _pay("631c.3", key, outcome, decks=8) == expected


@pytest.mark.parametrize("key", ["A", "B"])
def test_631c3_order_labels_decks(key: str) -> None:
    table = _table("631c.3", key)
    assert table.outcomes() == FT_ORDER
    assert tuple(line.label for line in table.lines) == FT_LABELS
    assert table.decks == (1, 2, 3, 4, 5, 6, 7, 8)
    assert table.citation == "58 Pa. Code § 631c.3(h)"


# --------------------------------------------------------------------------- § 633c.12(k), (j)

AXMAN = (
    ("straight-flush", "Straight flush (five cards)", "1000 to 1"),
    ("five-of-a-kind", "Five-of-a-kind (five cards)", "500 to 1"),
    ("flush", "Flush (five cards)", "200 to 1"),
    ("straight", "Straight (five cards)", "100 to 1"),
    ("four-of-a-kind", "Four-of-a-kind", "50 to 1"),
    ("full-house", "Full house (five cards)", "30 to 1"),
    ("three-of-a-kind", "Three-of-a-kind", "20 to 1"),
    ("two-pair", "Two pair", "12 to 1"),
    ("jacks-or-better", "Jacks or better pair", "5 to 1"),
)


@pytest.mark.parametrize(("outcome", "label", "expected"), AXMAN)
def test_633c12_every_cell(outcome: str, label: str, expected: str) -> None:
    line = _table("633c.12", "standard", 8).line(outcome)
    assert line is not None
    assert str(line.pays) == expected
    assert line.label == label


def test_633c12_order_decks_citation_title() -> None:
    table = _table("633c.12", "standard")
    assert table.outcomes() == tuple(outcome for outcome, _, _ in AXMAN)
    assert table.decks == (6, 8)  # § 633c.12(a)
    assert table.citation == "58 Pa. Code § 633c.12(k)"
    assert table.title == "AxMan paytable"
    assert table.progressive is None
    with pytest.raises(UnknownPaytableError):
        _table("633c.12", "standard", 1)


def test_633c12_king_of_diamonds_multipliers() -> None:
    multipliers = _table("633c.12", "standard").multipliers
    assert [(m.condition, m.factor) for m in multipliers] == [
        ("one-king-of-diamonds", 2),
        ("two-kings-of-diamonds", 5),
    ]
    assert all(m.label for m in multipliers)


# --------------------------------------------------------------------------- § 633b.4(i), (o)

SWITCH_HANDS = (
    ("not-switched-win", "1 to 1"),  # (i)(1)
    ("not-switched-blackjack", "3 to 2"),  # (i)(1)
    ("switched-win", "1 to 1"),  # (i)(2) "(j)(1)" read as (i)(1)
    ("switched-blackjack", "3 to 2"),  # same reading
    ("switched-same-suit-or-color-blackjack", "2 to 1"),  # (i)(2)(i)
    ("switched-tie-blackjack", "1 to 2"),  # (i)(2)(ii), optional
)
BLACKJACK_PREMIUM = (
    ("win", "1 to 1"),
    ("blackjack", "3 to 2"),
    ("tie-blackjack", "1 to 2"),
    ("ante-same-suit-or-color-blackjack", "2 to 1"),
)


@pytest.mark.parametrize(
    ("key", "outcome", "expected"),
    [("switch-hands", o, p) for o, p in SWITCH_HANDS]
    + [("blackjack-premium", o, p) for o, p in BLACKJACK_PREMIUM],
)
def test_633b4_every_cell(key: str, outcome: str, expected: str) -> None:
    assert _pay("633b.4", key, outcome, decks=6) == expected


@pytest.mark.parametrize(
    ("key", "lines", "subsection"),
    [("switch-hands", SWITCH_HANDS, "(i)"), ("blackjack-premium", BLACKJACK_PREMIUM, "(o)")],
)
def test_633b4_order_decks_citation(
    key: str, lines: tuple[tuple[str, str], ...], subsection: str
) -> None:
    table = _table("633b.4", key)
    assert table.outcomes() == tuple(outcome for outcome, _ in lines)
    assert table.decks == (1, 2, 3, 4, 5, 6, 7, 8)
    assert table.citation == f"58 Pa. Code § 633b.4{subsection}"
    assert all(f"§ 633b.4{subsection}" in line.label for line in table.lines)


def test_633b4_odds_values() -> None:
    premium = _table("633b.4", "blackjack-premium")
    assert premium.line("blackjack").pays == OddsTo(3, 2)  # type: ignore[union-attr]
    assert premium.line("tie-blackjack").pays.net == Fraction(1, 2)  # type: ignore[union-attr]


def test_633b4_optional_tie_pay_is_described() -> None:
    table = _table("633b.4", "switch-hands")
    tie = table.line("switched-tie-blackjack")
    assert tie is not None
    assert "rules submission" in tie.label
    assert "rules submission" in table.notes
    assert "(j)(1)" in table.notes


# --------------------------------------------------------------------------- loader errors

_VALID = """\
section = "999z.1"
title = "Test wager"
citation = "nowhere"

[[paytables]]
id = "A"
decks = [1]
lines = [
  { outcome = "big", label = "Big", pays = "25 to 1" },
  { outcome = "small", label = "Small", pays = "PAY" },
]
"""


def _parse(text: str) -> None:
    parse_section_text(text, "x.toml")


def test_loader_accepts_the_valid_base() -> None:
    (table,) = parse_section_text(_VALID.replace("PAY", "3 to 2"), "x.toml")
    assert table.outcomes() == ("big", "small")
    assert str(table.line("small").pays) == "3 to 2"  # type: ignore[union-attr]


def test_loader_rejects_unknown_pay_text() -> None:
    with pytest.raises(PaytableError, match=r"x\.toml.*cannot read pay 'twelve to one'"):
        _parse(_VALID.replace("PAY", "twelve to one"))


def test_loader_rejects_zero_stake() -> None:
    with pytest.raises(PaytableError, match="zero stake"):
        _parse(_VALID.replace("PAY", "5 to 0"))


def test_loader_rejects_duplicate_outcome() -> None:
    text = _VALID.replace("PAY", "3 to 2").replace('"small"', '"big"')
    with pytest.raises(PaytableError, match="outcome keys repeat: big"):
        _parse(text)


def test_loader_rejects_meter_share_without_meter() -> None:
    with pytest.raises(PaytableError, match="defines no Progressive meter"):
        _parse(_VALID.replace("PAY", "10% of Progressive"))


def test_loader_rejects_bad_money() -> None:
    text = _VALID.replace("PAY", "3 to 2") + (
        '[paytables.progressive]\nwagers = ["5 dollars"]\n'
        'meters = [{ level = "Progressive", seed_wager_multiple = 1000 }]\n'
    )
    with pytest.raises(PaytableError, match=r"wagers.*not a dollar amount: '5 dollars'"):
        _parse(text)


def test_loader_rejects_bad_seed_money() -> None:
    text = _VALID.replace("PAY", "3 to 2") + (
        '[paytables.progressive]\nwagers = ["$5"]\n'
        'meters = [{ level = "Progressive", seed = "lots" }]\n'
    )
    with pytest.raises(PaytableError, match="not a dollar amount: 'lots'"):
        _parse(text)


def test_loader_rejects_missing_field() -> None:
    text = _VALID.replace("PAY", "3 to 2").replace("decks = [1]\n", "")
    with pytest.raises(
        PaytableError, match=r"x\.toml: paytable 1 \(id [^)]*\), decks: Field required"
    ):
        _parse(text)


def test_loader_rejects_invalid_toml() -> None:
    with pytest.raises(PaytableError, match="not valid TOML"):
        _parse(_VALID.replace('"PAY"', "PAY"))
