"""Effect of removal, the balanced count and its play in simulated shoes.

Independent anchors: the signs of E. Jacobson's published counts for the same events — Dragon 7
(= Fortune 7) tags A..T {0,0,0,−1,−1,−1,−1,2,2,0} and Panda 8 (= Golden 8) tags
{1,1,−2,−2,−2,−1,−1,−2,4,1} ("Co-card counting the Dragon and Panda side bets in EZ Baccarat"):
where a published tag is not zero, the exact effect of removing that rank has its sign. The
effects themselves are checked against the tree-walk counts of tests/analysis/test_baccarat_exact.py on a
one-deck shoe, and the gain per true-count point against its formula.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from baccarat_reference import tree_counts
from croupier.analysis.baccarat_shoe import simulate_shoes, summary_nets
from croupier.analysis.eor import (
    RANK_ORDER,
    balanced_count,
    count_in_shoes,
    effect_of_removal,
    tags_by_value,
    true_counts,
)
from croupier.analysis.parsheet import exact_parsheet
from croupier.cards import Card, Rank, Shoe, Suit
from croupier.errors import CroupierError
from croupier.games.baccarat import BaccaratRules, coup_counts, expected_values, value_counts
from croupier.wagers import get_wager
from croupier.wagers.baccarat import BaccaratWager

# A, 2, …, 9, ten-valued — as published
DRAGON_7 = (0, 0, 0, -1, -1, -1, -1, 2, 2, 0)
PANDA_8 = (1, 1, -2, -2, -2, -1, -1, -2, 4, 1)


def _published_by_rank(tags: tuple[int, ...]) -> dict[Rank, int]:
    out = {Rank.ACE: tags[0]}
    for r in RANK_ORDER[1:]:
        out[r] = tags[int(r) - 1] if r <= Rank.NINE else tags[9]
    return out


@pytest.mark.parametrize(("wager", "published"), [("fortune-7", DRAGON_7), ("golden-8", PANDA_8)])
def test_effects_have_the_signs_of_the_published_counts(
    wager: str, published: tuple[int, ...]
) -> None:
    eor = effect_of_removal(get_wager(wager), "A", 8)
    for rank, tag in _published_by_rank(published).items():
        if tag:
            assert (eor.effect(rank) > 0) == (tag > 0), rank
    count = balanced_count(eor)
    for rank, tag in _published_by_rank(published).items():
        if tag:
            assert count.tag(rank) * tag > 0, rank


def test_one_deck_tie_effects_match_the_tree_walk() -> None:
    eor = effect_of_removal(get_wager("tie"), "8-to-1", 1)

    def tie_return(shoe: Shoe) -> Fraction:
        counts = tree_counts(value_counts(shoe))
        ties = sum(n for (pt, bt, _, _), n in counts.items() if pt == bt)
        p = Fraction(ties, sum(counts.values()))
        return 8 * p - (1 - p)

    full = tie_return(Shoe.standard(1))
    assert eor.expected_return == full
    for rank in (Rank.ACE, Rank.FIVE, Rank.NINE, Rank.KING):
        without = tie_return(Shoe.standard(1).remove([Card(rank, Suit.HEARTS)]))
        assert eor.effect(rank) == without - full


def test_ten_valued_ranks_share_an_effect_and_tag() -> None:
    eor = effect_of_removal(get_wager("heavenly-9"), "B", 6)
    tens = {eor.effect(r) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)}
    assert len(tens) == 1
    count = balanced_count(eor)
    assert len({count.tag(r) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)}) == 1


@pytest.mark.parametrize(
    ("wager", "paytable"),
    [("fortune-7", "A"), ("blazing-7s", "B"), ("cover-all", "A"), ("banker", "commission")],
)
def test_counts_are_balanced_and_bounded(wager: str, paytable: str) -> None:
    eor = effect_of_removal(get_wager(wager), paytable, 8)
    count = balanced_count(eor)
    assert sum(count.tags) == 0  # four of each rank per deck: a full shoe counts zero
    assert max(abs(t) for t in count.tags) <= count.level
    assert count.betting_correlation > 0.95
    # the linear gain per true-count point, recomputed from its formula
    e = [float(r.effect) for r in eor.effects]
    gain = 415 / 52 * sum(a * b for a, b in zip(e, count.tags, strict=True))
    gain /= sum(t * t for t in count.tags)
    assert count.gain_per_true_count == pytest.approx(gain)
    assert count.threshold == pytest.approx(-float(eor.expected_return) / gain)


def test_count_in_simulated_shoes() -> None:
    wager = get_wager("fortune-7")
    assert isinstance(wager, BaccaratWager)
    count = balanced_count(effect_of_removal(wager, "A", 8))
    sim = simulate_shoes(400, 5, BaccaratRules(), record=True)
    played = count_in_shoes(wager, "A", count, sim, sample=300)
    assert played.bets > 0 and played.evaluated == min(300, played.bets)
    # betting only at or above the threshold, the exact edge is on average positive
    assert played.average_edge is not None and played.average_edge > 0
    assert played.win_per_shoe > 0
    # a full shoe before the first coup: true count of the one face-up burn card only
    tc = true_counts(sim, count)
    records = sim.records
    assert records is not None
    first = np.flatnonzero(np.r_[True, records.shoe[1:] != records.shoe[:-1]])
    assert (records.seen[first].sum(axis=1) == 1).all()
    tags = np.array(tags_by_value(count))
    burn_value = records.seen[first].argmax(axis=1)
    assert np.allclose(tc[first], tags[burn_value] / (415 / 52))


def test_float_expected_values_match_exact_par_sheets() -> None:
    wager = get_wager("golden-8")
    assert isinstance(wager, BaccaratWager)
    table = wager.paytable("A", 8)
    shoes = [
        Shoe.standard(8),
        Shoe.standard(8).remove([Card(Rank.NINE, s) for s in Suit] * 3),
        Shoe.standard(1).remove([Card(Rank.EIGHT, Suit.CLUBS), Card(Rank.TWO, Suit.SPADES)]),
    ]
    got = expected_values([value_counts(s) for s in shoes], summary_nets(wager, table))
    for value, shoe in zip(got, shoes, strict=True):
        exact = exact_parsheet(wager, table, decks=8 if shoe.total > 52 else 1, shoe=shoe)
        assert value == pytest.approx(float(exact.expected_return), abs=1e-12)


def test_float_expected_values_match_the_exact_six_card_counts_late_in_a_shoe() -> None:
    """The factored float sum (issue 33) against Fractions of the exact six-card counts, on
    shoes as a simulation leaves them, down to a shoe with no cards of several values left."""
    wager = get_wager("fortune-7")
    assert isinstance(wager, BaccaratWager)
    nets = summary_nets(wager, wager.paytable("A", 8))
    shoes = [
        (128, 32, 32, 32, 32, 32, 32, 32, 32, 32),
        (97, 30, 11, 25, 32, 0, 19, 3, 28, 31),
        (5, 0, 1, 0, 0, 3, 0, 2, 1, 0),
        (0, 0, 0, 6, 0, 0, 0, 0, 0, 0),
    ]
    got = expected_values(shoes, nets, chunk=3)
    for value, shoe in zip(got, shoes, strict=True):
        counts = coup_counts(shoe)
        exact = sum(
            (Fraction(c) * Fraction(float(n)) for c, n in zip(counts, nets, strict=True)),
            Fraction(0),
        ) / sum(counts)
        assert value == pytest.approx(float(exact), abs=1e-15)


def test_count_in_shoes_needs_records_and_a_baccarat_wager() -> None:
    fortune = get_wager("fortune-7")
    count = balanced_count(effect_of_removal(fortune, "A", 8))
    sim = simulate_shoes(10, 1)
    with pytest.raises(CroupierError, match="record"):
        count_in_shoes(fortune, "A", count, sim)
    with pytest.raises(CroupierError, match="Baccarat"):
        count_in_shoes(get_wager("perfect-pairs"), "A", count, sim)
