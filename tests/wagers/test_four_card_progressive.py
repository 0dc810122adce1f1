"""The Four-Card and Five-Card Progressive Payout wagers (58 Pa. Code § 641a.7(d)(4), (5)):
exact par sheets against hand combinatorics and brute force, simulation agreement, the placement
rule, settlement through the table engine and their hit odds."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.hit_odds import longer_than, odds_text
from croupier.cards import DECK, Shoe, parse_cards
from croupier.cli import app
from croupier.errors import ProcedureError, RulesError
from croupier.table import DealtCards, TableRound, submission_from_data
from croupier.table.progressive import progressive_wager, progressive_wagers
from croupier.wagers import get_wager
from croupier.wagers.four_card_poker import FourCardPokerBets, settle_round
from repo_paths import ROOT

SCHEMAS = ROOT / "docs" / "schemas"
C52_5 = comb(52, 5)
runner = CliRunner()

# -- hand combinatorics (derived here, not read from croupier) ---------------------------------

# best four of five cards (§ 641a.1: a Four-Card Progressive Payout Hand is three-of-a-kind or
# better of the four-card ranking, four-of-a-kind > straight flush > three-of-a-kind)
FOUR_QUADS = 13 * 48  # the four of a rank, any fifth card
# 11 four-card straight flushes per suit (A-2-3-4 … J-Q-K-A, no wrap) with any fifth card; a
# five-card straight flush (10 per suit) holds two of them and was counted twice
FOUR_SF = 11 * 4 * 48 - 10 * 4
FOUR_TRIPS = 13 * comb(4, 3) * comb(48, 2)  # exactly three of a rank (a full house included)
# five-card ranking (§ 641a.6(d), industry): royal > straight flush > … > three-of-a-kind
ROYAL = 4
STRAIGHT_FLUSH = 10 * 4 - ROYAL
QUADS = 13 * 48
FULL_HOUSE = 13 * comb(4, 3) * 12 * comb(4, 2)
FLUSH = 4 * comb(13, 5) - 10 * 4
STRAIGHT = 10 * 4**5 - 10 * 4
TRIPS = 13 * comb(4, 3) * comb(12, 2) * 4 * 4


def test_the_hand_counts_are_the_textbook_ones() -> None:
    # the five-card distribution of every poker text, and the four-card one of Four Card Poker
    assert (ROYAL, STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS) == (
        4, 36, 624, 3_744, 5_108, 10_200, 54_912,
    )  # fmt: skip
    assert (FOUR_QUADS, FOUR_SF, FOUR_TRIPS) == (624, 2_072, 58_656)


def _pays(wager: str, table: str) -> dict[str, Any]:
    t = get_wager(wager).paytable(table, 1)
    return {line.outcome: line.pays for line in t.lines}


def test_four_card_progressive_exact_par_sheet() -> None:
    sheet = exact_parsheet(
        get_wager("four-card-progressive"), "example-four-card-progressive", decks=1
    )
    assert sheet.total == C52_5
    counts = [r.combinations for r in sheet.rows]
    assert counts == [FOUR_QUADS, FOUR_SF, FOUR_TRIPS, C52_5 - FOUR_QUADS - FOUR_SF - FOUR_TRIPS]
    # the return at the $500 seed on a $1 wager, stake collected: 100% of $500 is a net 499;
    # "200 to 1" and "20 to 1" net 200 and 20 (the EXAMPLE table's pays)
    pays = _pays("four-card-progressive", "example-four-card-progressive")
    assert str(pays["straight-flush"]) == "200 to 1" and str(pays["three-of-a-kind"]) == "20 to 1"
    losers = C52_5 - FOUR_QUADS - FOUR_SF - FOUR_TRIPS
    expected = Fraction(FOUR_QUADS * 499 + FOUR_SF * 200 + FOUR_TRIPS * 20 - losers, C52_5)
    assert sheet.expected_return == expected
    assert not sheet.regulation and "EXAMPLE" in sheet.paytable_citation


def test_five_card_progressive_exact_par_sheet() -> None:
    sheet = exact_parsheet(
        get_wager("five-card-progressive"), "example-five-card-progressive", decks=1
    )
    counts = [r.combinations for r in sheet.rows]
    wins = [ROYAL, STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS]
    assert counts == [*wins, C52_5 - sum(wins)]
    # $25,000 seed, $1 wager: royal 100% nets 24,999, straight flush 10% nets 2,499
    nets = [24_999, 2_499, 300, 75, 50, 40, 9]
    expected = Fraction(sum(n * x for n, x in zip(wins, nets, strict=True)) - (C52_5 - sum(wins)))
    assert sheet.expected_return == expected / C52_5


@pytest.mark.parametrize("wager", ["four-card-progressive", "five-card-progressive"])
def test_counts_on_a_partly_dealt_deck_by_brute_force(wager: str) -> None:
    """The 20 cards ten to ace: the wager's exact counts against each hand classified alone."""
    cards = [c for c in DECK if c.rank.value >= 10]
    w = get_wager(wager)
    got = w.count_exact(Shoe.from_cards(cards))
    tallies = [0] * (len(w.outcomes) + 1)
    for hand in combinations(cards, 5):
        o = w.classify(hand)
        tallies[len(w.outcomes) if o is None else o.position] += 1
    assert got is not None and list(got) == tallies
    assert sum(tallies) == comb(20, 5)


@pytest.mark.parametrize(
    ("wager", "table"),
    [
        ("four-card-progressive", "example-four-card-progressive"),
        ("five-card-progressive", "example-five-card-progressive"),
    ],
)
def test_simulation_agrees_outcome_by_outcome(wager: str, table: str) -> None:
    """Each outcome's observed count within 4.5 binomial standard deviations of the exact
    expectation (+1 for the rarest lines), and the mean return within 4 standard errors."""
    w = get_wager(wager)
    n = 300_000
    sim = simulate(w, table, rounds=n, seed=641, decks=1)
    exact = exact_parsheet(w, table, decks=1)
    for s, e in zip(sim.rows, exact.rows, strict=True):
        p = e.probability
        sd = float(n * p * (1 - p)) ** 0.5
        assert s.hits is not None
        assert abs(s.hits - float(n * p)) <= 4.5 * sd + 1, (s.outcome, s.hits, float(n * p))
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) < 4 * sim.standard_error


# -- hit odds ---------------------------------------------------------------------------------


def test_hit_odds_of_each_level_and_award() -> None:
    four = exact_parsheet(
        get_wager("four-card-progressive"), "example-four-card-progressive", decks=1
    )
    (level,) = four.hit_odds
    assert level.probability == Fraction(FOUR_QUADS, C52_5) == Fraction(1, 4165)
    assert level.odds == "1 in 4,165" and level.one_in == 4165
    five = exact_parsheet(
        get_wager("five-card-progressive"), "example-five-card-progressive", decks=1
    )
    (level,) = five.hit_odds  # one meter, paid 100% on a royal flush and 10% on a straight flush
    assert level.probability == Fraction(ROYAL + STRAIGHT_FLUSH, C52_5) == Fraction(1, 64_974)
    assert [(a.outcome, a.probability) for a in level.awards] == [
        ("royal-flush", Fraction(1, 649_740)),
        ("straight-flush", Fraction(STRAIGHT_FLUSH, C52_5)),
    ]
    d = five.to_dict()["hit_odds"][0]
    assert d["probability_exact"] == "1/64974" and d["one_in_exact"] == "64974/1"
    assert d["awards"][0]["odds"] == "1 in 649,740"


def test_hit_odds_of_match_the_dealer_by_hand() -> None:
    """Six decks: both player cards of the upcard's rank and suit — 5 × 4 of the 311 × 310
    ordered pairs left, whatever the upcard; the aces-of-spades award is 1/52 of it."""
    sheet = exact_parsheet(get_wager("match-the-dealer"), "1", decks=6)
    (level,) = sheet.hit_odds
    assert level.probability == Fraction(5 * 4, 311 * 310)
    spades = next(a for a in level.awards if a.outcome == "two-suited-match-aces-of-spades")
    assert spades.probability == Fraction(5 * 4, 311 * 310) / 52


def test_a_paytable_without_a_meter_has_no_hit_odds() -> None:
    sheet = exact_parsheet(get_wager("aces-up"), "pa-casino", decks=1)
    assert sheet.hit_odds == () and "hit_odds" not in sheet.to_dict()


def test_odds_text_and_the_bound() -> None:
    assert odds_text(Fraction(1, 4165)) == "1 in 4,165"
    assert odds_text(Fraction(3, 216_580)) == "1 in 72,193"  # 72,193.33…
    assert odds_text(Fraction(2, 3)) == "1 in 1.50"
    assert odds_text(Fraction(0)) == "never"
    sheet = exact_parsheet(
        get_wager("four-card-progressive"), "example-four-card-progressive", decks=1
    )
    (level,) = sheet.hit_odds
    assert not longer_than(level, 4165)  # exactly 1 in 4,165: not longer
    assert longer_than(level, 4164)


def test_cli_par_sheet_prints_hit_odds_and_digest() -> None:
    res = runner.invoke(app, ["analyze", "five-card-progressive"])
    assert res.exit_code == 0, res.output
    assert "hit odds, Progressive meter: 1 in 64,974" in res.output
    assert "Royal flush 1 in 649,740" in res.output
    assert "paytable sha256 " in res.output
    res = runner.invoke(app, ["analyze", "five-card-progressive", "--json"])
    d = json.loads(res.stdout)
    schema = json.loads((SCHEMAS / "analyze.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(d, schema)
    assert d["hit_odds"][0]["odds"] == "1 in 64,974"
    assert len(d["paytable_sha256"]) == 64


# -- placement: after an Ante or an Aces Up wager, or both ------------------------------------


def test_registry_declares_the_placement_rule() -> None:
    for wid, rule in (("four-card-progressive", "(4)"), ("five-card-progressive", "(5)")):
        w = get_wager(wid)
        assert set(w.base_wagers) == {"four-card-poker", "aces-up"}
        assert w.base_rule == f"641a.7(d){rule}"


@pytest.mark.parametrize(
    ("bets", "section"),
    [
        (FourCardPokerBets(four_card_progressive_cents=100), "641a.7(d)(4)"),
        (FourCardPokerBets(five_card_progressive_cents=100), "641a.7(d)(5)"),
    ],
)
def test_a_progressive_alone_is_refused(bets: FourCardPokerBets, section: str) -> None:
    with pytest.raises(RulesError) as e:
        settle_round(parse_cards("9h 9c 9d Ks 2s"), parse_cards("Ah Ad 7c 7s 3d 4h"), bets)
    assert e.value.section == section


SUBMISSION: dict[str, Any] = {
    "game": "four-card-poker",
    "decks": 1,
    "adjacent_boxes": 2,
    "wagers": [
        {"wager": "four-card-poker", "paytable": "25-20-2", "min": "$10", "max": "$500"},
        {"wager": "aces-up", "paytable": "pa-casino", "min": "$5", "max": "$100"},
        {
            "wager": "four-card-progressive",
            "paytable": "example-four-card-progressive",
            "amounts": ["$1"],
        },
        {
            "wager": "five-card-progressive",
            "paytable": "example-five-card-progressive",
            "amounts": ["$1"],
        },
    ],
}


def test_the_table_takes_a_progressive_only_after_ante_or_aces_up() -> None:
    sub = submission_from_data(SUBMISSION)
    r = TableRound.open(sub)
    with pytest.raises(ProcedureError) as e:
        r.bet(1, "five-card-progressive", 100)
    assert e.value.section == "641a.7(d)(5)"
    r.bet(1, "aces-up", 500).bet(1, "five-card-progressive", 100)  # after Aces Up alone: ok
    r.bet(2, "four-card-poker", 1000).bet(2, "four-card-progressive", 100)


def test_settled_through_the_table_engine() -> None:
    """Seat 1 holds a royal flush (five-card: 100% of the meter, pending validation; four-card:
    its best four is a straight flush, 200 to 1); seat 2's trips take the five-card envy."""
    sub = submission_from_data(SUBMISSION)
    r = (
        TableRound.open(sub)
        .bet(1, "four-card-poker", 1000)
        .bet(1, "four-card-progressive", 100)
        .bet(1, "five-card-progressive", 100)
        .bet(2, "aces-up", 500)
        .bet(2, "five-card-progressive", 100)
        .no_more_bets()
    )
    cards = DealtCards(
        players=((1, parse_cards("As Ks Qs Js Ts")), (2, parse_cards("9h 9c 9d 2s 3c"))),
        dealer=parse_cards("2h 3h 4h 5h 7d 8c"),
    )
    r = r.deal(cards).play(1, 3000).settle()
    got = {(e.seat, e.wager): e for e in r.settlements()}
    royal = got[(1, "five-card-progressive")]
    assert royal.pending_validation and royal.outcome_key == "royal-flush"
    assert royal.win_cents == 25_000_00 - 100  # at the seed, the stake collected
    four = got[(1, "four-card-progressive")]
    assert four.outcome_key == "straight-flush" and four.win_cents == 200 * 100
    trips = got[(2, "five-card-progressive")]
    # 9 to 1 on the EXAMPLE table, and the $1,000 envy of seat 1's royal flush
    assert trips.outcome_key == "three-of-a-kind" and trips.win_cents == 9 * 100 + 1_000_00


def test_progressive_wagers_are_found_through_the_registry() -> None:
    ids = {w.id for w in progressive_wagers()}
    assert {"four-card-progressive", "five-card-progressive"} <= ids
    assert {"jackpot-party", "match-the-dealer"} <= ids
    assert "aces-up" not in ids
    assert progressive_wager("641a.7", "EXAMPLE-five-card-progressive").id == (
        "five-card-progressive"
    )
    assert progressive_wager("641a.7", "example-four-card-progressive").id == (
        "four-card-progressive"
    )
    assert progressive_wager("633b.3", "1").id == "match-the-dealer"


def test_cli_four_card_poker_values_the_meter_given() -> None:
    args = ["four-card-poker", "As Ks Qs Js Ts", "2h 3h 4h 5h 7d 8c", "-b", "ante=10",
            "-b", "five-card-progressive=1"]  # fmt: skip
    seed = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    given = json.loads(
        runner.invoke(app, [*args, "--meter", "five-card-progressive=31000", "--json"]).stdout
    )

    def royal(d: dict[str, Any]) -> dict[str, Any]:
        return next(w for w in d["wagers"] if w["wager"] == "five-card-progressive")

    # 100% of the meter, the $1 stake collected: the $25,000 seed, then the $31,000 given
    assert royal(seed)["win_cents"] == 25_000_00 - 100
    assert royal(given)["win_cents"] == 31_000_00 - 100 and royal(given)["pending_validation"]
    text = runner.invoke(app, [*args, "--meter", "five-card-progressive=31000"]).stdout
    assert "valued at the meter given" in text and "§ 605a.7" in text
