"""The Four Card Poker showdown counts over a depleted deck (issue 18: the Bad Beat Bonus's effect
of removal): :func:`croupier.games.four_card_poker_exact.showdown_removals` against brute force
over small decks, the wager's count over a depleted deck against its own classifier deal by
deal, and the shipped counts of the full deck less each card against two identities that hold
whatever the engine does."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.eor_store import card_counts
from croupier.cards import DECK, Shoe
from croupier.errors import InputError, RulesError
from croupier.games.four_card_poker_exact import load_dealer_table, showdown_removals
from croupier.poker.four_card import best_four_ordinals, category_of_ordinal
from croupier.wagers import get_wager


def _deals(deck: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Every deal of the player's five and the dealer's six from ``deck``, as rows of 11."""
    rows = []
    for p in combinations(deck, 5):
        rest = [c for c in deck if c not in p]
        rows += [p + d for d in combinations(rest, 6)]
    return np.array(rows, dtype=np.int64).reshape(-1, 11)


def _brute_joint(deck: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """The joint (player category, dealer category, result) by classifying every deal."""
    deals = _deals(deck)
    joint = np.zeros((8, 8, 3), dtype=np.int64)
    if deals.size:
        p = best_four_ordinals(deals[:, :5])
        d = best_four_ordinals(deals[:, 5:])
        result = np.where(p > d, 0, np.where(p == d, 1, 2))
        np.add.at(joint, (category_of_ordinal(p), category_of_ordinal(d), result), 1)
    return joint


SMALL_DECKS = {
    # the four suits of A, K, Q and a J and a 9: four of a kind, three of a kind, two pair
    "four ranks": tuple(sorted([*(c.index for c in DECK if str(c)[0] in "AKQ"), 39, 31])),
    # the hearts from 9 up and a few more: straight flushes, flushes and straights
    "a suit": tuple(
        sorted({c.index for c in DECK if str(c) in "9h Th Jh Qh Kh Ah"} | {0, 1, 5, 29, 33, 37, 41})
    ),
}


@pytest.mark.parametrize("name", list(SMALL_DECKS))
def test_the_removals_agree_with_brute_force(name: str) -> None:
    deck = SMALL_DECKS[name]
    got = showdown_removals(deck)
    assert got.cards == deck
    assert (got.joint == _brute_joint(deck)).all()
    for x in deck:
        rest = tuple(c for c in deck if c != x)
        assert (got.without(x) == _brute_joint(rest)).all(), DECK[x]


def test_bad_beat_counts_a_depleted_deck_as_its_classifier_does() -> None:
    wager = get_wager("bad-beat-bonus")
    deck = SMALL_DECKS["four ranks"]
    shoe = Shoe(tuple(1 if i in deck else 0 for i in range(52)))
    outcomes = len(wager.outcomes) + 1
    by_deal = np.bincount(wager.classify_indices(_deals(deck)), minlength=outcomes)
    assert wager.count_exact(shoe) == tuple(int(n) for n in by_deal)
    assert "14 cards left" in (wager.counting_convention(shoe) or "")


def test_bad_decks_are_refused_in_one_line() -> None:
    with pytest.raises(InputError, match="at least 11 distinct cards"):
        showdown_removals(range(10))
    with pytest.raises(InputError, match="at least 11 distinct cards"):
        showdown_removals([0, 0, *range(1, 12)])
    with pytest.raises(InputError, match="not in the deck"):
        showdown_removals(range(12)).without(40)
    two_decks = Shoe.standard(2)
    with pytest.raises(RulesError, match="one deck"):
        get_wager("bad-beat-bonus").count_exact(two_decks)


def test_the_shipped_removal_counts_keep_the_deck_s_identities() -> None:
    """Each deal of the full deck leaves out 41 of its 52 cards, so over the 52 decks less one
    card every outcome is counted 41 times its full-deck count; and the wager is blind to suits,
    so the four suits of a rank give the same counts."""
    wager = get_wager("bad-beat-bonus")
    per_card, method = card_counts(wager, 1, budget_seconds=1.0)
    assert "stored" in method
    full = wager.count_exact(Shoe.standard(1))
    assert full is not None
    for o in range(len(full)):
        assert sum(c[o] for c in per_card) == 41 * full[o]
    for card in DECK:
        same = [per_card[c.index] for c in DECK if c.rank is card.rank]
        assert all(s == same[0] for s in same)
    # and the shipped dealer table is the full deck's joint the engine starts from
    assert int(load_dealer_table().joint.sum()) == sum(full)
