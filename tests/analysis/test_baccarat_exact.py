"""Exact Baccarat and 5 Treasures counts against published figures and two independent methods.

Published 8-deck figures (six-card convention, total 416·415·414·413·412·411):
* Banker wins 2,292,252,566,437,888, Player wins 2,230,518,282,592,256, ties 475,627,426,473,216;
  Fortune 7 (= Dragon 7) 112,633,011,329,024; Golden 8 (= Panda 8) 172,660,763,262,976 — issue 3,
  the same figures as the Wizard of Odds' 5 Treasures page (wizardofodds.com/games/baccarat/
  side-bets/5-treasures/), house edges 7.6113% and 10.1876%;
* Banker wins with a total of 6: 269,232,304,455,680 (excelpunks.com, "Concepts 13: Baccarat vs.
  non-commission baccarat"), giving the no-commission house edge 1.4581%;
* Fortune/Dragon 7 standard deviation 6.0849 and hit frequency 2.2534% (E. Jacobson, "Card
  counting the Dragon/Fortune 7 baccarat side bet").

Second method: :func:`tree_counts` walks each coup card by card, drawing only the cards the coup
needs under the drawing rules typed here from the printed § 631a.11 table, each path weighted by
the physical cards it could be and by (N−k)!/(N−6)! for the unused positions. The library instead
enumerates six-card value multisets. Third method: every ordered six-card deal of a tiny shoe's
physical cards, played by the scalar coup.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from baccarat_reference import Key, tree_counts
from croupier.analysis import exact_counts, exact_parsheet, total_deals
from croupier.cards import Shoe, parse_cards
from croupier.errors import ShoeError
from croupier.games.baccarat import CoupSummary, coup_counts, play_coup, value_counts
from croupier.wagers import get_wager

TOTAL_8 = 416 * 415 * 414 * 413 * 412 * 411
BANKER_WINS = 2_292_252_566_437_888
PLAYER_WINS = 2_230_518_282_592_256
TIES = 475_627_426_473_216
FORTUNE_7 = 112_633_011_329_024
GOLDEN_8 = 172_660_763_262_976
BANKER_SIX = 269_232_304_455_680


def library_counts(values: tuple[int, ...]) -> Counter[Key]:
    out: Counter[Key] = Counter()
    for index, count in enumerate(coup_counts(values)):
        if count:
            s = CoupSummary.from_index(index)
            out[(s.player_total, s.banker_total, s.player_cards, s.banker_cards)] = count
    return out


def eight_decks() -> tuple[int, ...]:
    return value_counts(Shoe.standard(8))


def counts(wager_id: str, decks: int = 8) -> tuple[int, ...]:
    return exact_counts(get_wager(wager_id), Shoe.standard(decks)).counts


# ------------------------------------------------------------------------ published anchors


def test_eight_deck_totals_and_base_results_are_the_published_ones() -> None:
    player = counts("player")  # player wins, tie, loses (banker wins)
    assert player == (PLAYER_WINS, TIES, BANKER_WINS)
    banker = counts("banker")  # other wins, win with 6, win with a 3-card 7, tie, loses
    assert sum(banker[:3]) == BANKER_WINS
    assert banker[1] == BANKER_SIX
    assert banker[2] == FORTUNE_7  # a Banker win with a three-card 7 is the Fortune 7 event
    assert banker[3:] == (TIES, PLAYER_WINS)
    assert counts("tie") == (TIES, TOTAL_8 - TIES)
    assert total_deals(get_wager("tie"), Shoe.standard(8)) == TOTAL_8


def test_fortune_7_and_golden_8_are_the_published_counts() -> None:
    assert counts("fortune-7") == (FORTUNE_7, TOTAL_8 - FORTUNE_7)
    assert counts("golden-8") == (GOLDEN_8, TOTAL_8 - GOLDEN_8)
    f7 = exact_parsheet(get_wager("fortune-7"), "A", decks=8)
    g8 = exact_parsheet(get_wager("golden-8"), "B", decks=8)
    assert round(float(f7.house_edge) * 100, 4) == 7.6113
    assert round(float(g8.house_edge) * 100, 4) == 10.1876
    assert round(f7.standard_deviation, 4) == 6.0849
    assert round(float(f7.hit_frequency) * 100, 4) == 2.2534


def test_base_wager_house_edges_follow_from_the_published_counts() -> None:
    p, b, t = (
        Fraction(PLAYER_WINS, TOTAL_8),
        Fraction(BANKER_WINS, TOTAL_8),
        Fraction(TIES, TOTAL_8),
    )
    six, seven = Fraction(BANKER_SIX, TOTAL_8), Fraction(FORTUNE_7, TOTAL_8)
    expected = {
        ("player", "standard"): p - b,
        ("banker", "commission"): Fraction(19, 20) * b - p,
        ("banker", "no-commission"): (b - six) + six / 2 - p,  # a winning 6 pays 1 to 2
        ("banker", "ez"): (b - seven) - p,  # a winning three-card 7 pushes
        ("tie", "8-to-1"): 8 * t - (1 - t),
        ("tie", "9-to-1"): 9 * t - (1 - t),
    }
    for (wager, paytable), ev in expected.items():
        assert exact_parsheet(get_wager(wager), paytable, decks=8).expected_return == ev
    # the published rounded edges: 1.2351%, 1.0579%, 1.4581%, 1.0183%, 14.3596%, 4.8440%
    assert [round(float(-ev) * 100, 4) for ev in expected.values()] == [
        1.2351,
        1.0579,
        1.4581,
        1.0183,
        14.3596,
        4.844,
    ]


def test_a_push_is_not_a_hit() -> None:
    sheet = exact_parsheet(get_wager("player"), "standard", decks=8)
    assert sheet.hit_frequency == Fraction(PLAYER_WINS, TOTAL_8)


# ------------------------------------------------------------------------- second method


def test_one_deck_agrees_with_the_tree_walk() -> None:
    one = value_counts(Shoe.standard(1))
    assert library_counts(one) == tree_counts(one)


@pytest.mark.parametrize(
    "values",
    [
        (7, 3, 0, 2, 4, 1, 3, 2, 2, 6),  # an odd, partly dealt composition
        (0, 0, 0, 0, 0, 6, 0, 0, 0, 0),  # six fives: 0 against 0, both draw a 5, a 5–5 tie
    ],
)
def test_odd_compositions_agree_with_the_tree_walk(values: tuple[int, ...]) -> None:
    assert library_counts(values) == tree_counts(values)


@pytest.mark.parametrize("decks", [2, 6, 8, 28])
def test_more_decks_agree_with_the_tree_walk(decks: int) -> None:
    # 28 decks (1,456 cards): N!/(N−6)! exceeds 2**63, the library's Python-integer path
    values = value_counts(Shoe.standard(decks))
    assert library_counts(values) == tree_counts(values)


def test_physical_cards_of_a_tiny_shoe_agree() -> None:
    cards = parse_cards("Ah 2c 3d 9s Kh 7c 6d 8s")
    by_hand: Counter[Key] = Counter()
    for deal in permutations(cards, 6):  # 8·7·6·5·4·3 = 20,160 ordered six-card deals
        s = play_coup(deal).summary
        by_hand[(s.player_total, s.banker_total, s.player_cards, s.banker_cards)] += 1
    assert library_counts(value_counts(Shoe.from_cards(cards))) == by_hand


# ------------------------------------------------------------------------------- shoes


@pytest.mark.parametrize("decks", range(1, 9))
def test_every_deck_count_totals_n_falling_6(decks: int) -> None:
    n = 52 * decks
    for wager in ("banker", "heavenly-9", "cover-all"):
        got = exact_counts(get_wager(wager), Shoe.standard(decks))
        assert got.total == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
        assert all(type(c) is int for c in got.counts)


def test_a_partly_dealt_shoe_is_analysed_from_its_composition() -> None:
    dealt = parse_cards("8h 8d 9s 9c 8c 9h")
    shoe = Shoe.standard(8).remove(dealt)
    sheet = exact_parsheet(get_wager("fortune-7"), "A", decks=8, shoe=shoe)
    values = value_counts(shoe)
    wins = sum(
        n for (pt, bt, pn, bn), n in tree_counts(values).items() if bn == 3 and bt == 7 and bt > pt
    )
    assert sheet.rows[0].combinations == wins
    assert sheet.total == 410 * 409 * 408 * 407 * 406 * 405
    # fewer 8s and 9s: fewer naturals, more Banker draws, a better Fortune 7
    assert sheet.house_edge < Fraction(76113, 1_000_000)


def test_fewer_than_six_cards_is_a_shoe_error() -> None:
    with pytest.raises(ShoeError):
        exact_counts(get_wager("banker"), Shoe.from_cards(parse_cards("Ah 2c 3d 9s Kh")))
