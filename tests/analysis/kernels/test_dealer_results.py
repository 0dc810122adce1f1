"""The compiled dealer's-results kernel (croupier.analysis.kernels.dealer_results): bit for bit the
numpy code it replaces (blackjack_strategy._dealer_batch), and equal to a dealer played card by
card with exact fractions (the drawing rule of § 633a.7 re-stated here, not read from the engine)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from croupier.analysis.blackjack_dealer import _dealer_hands
from croupier.analysis.blackjack_strategy import _dealer_batch
from croupier.analysis.kernels.dealer_results import BLOCK, dealer_results, dealer_tree


def _compositions(decks: int, upcard: int, rows: int, seed: int) -> np.ndarray:
    """``rows`` shoes of ``decks`` decks less the upcard and a random handful of cards (some
    emptied of a value, so that zero counts and short shoes are covered)."""
    rng = np.random.default_rng(seed)
    base = np.array((4 * decks,) * 9 + (16 * decks,), dtype=np.int64)
    base[upcard] -= 1
    taken = rng.integers(0, 4 * decks + 1, size=(rows, 10)) * (rng.random((rows, 10)) < 0.3)
    out: np.ndarray = np.maximum(base - taken, 0)
    return out


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize("decks", [1, 8])
def test_kernel_equals_the_numpy_dealer_bit_for_bit(decks: int, hits_soft_17: bool) -> None:
    for upcard in range(10):
        # more rows than a block, and not a multiple of it
        comps = _compositions(decks, upcard, 3 * BLOCK + 7, seed=upcard)
        p, p_bj = dealer_results(comps, upcard, hits_soft_17)
        q, q_bj = _dealer_batch(comps, upcard, hits_soft_17)
        assert np.array_equal(p, q)
        assert np.array_equal(p_bj, q_bj)


def _exact_dealer(
    counts: tuple[int, ...], upcard: int, hits_soft_17: bool
) -> tuple[list[Fraction], Fraction]:
    """The dealer's results by drawing card by card: the chances of 17 … 21 and bust given no
    Blackjack, and the chance of a Blackjack (an ace and a ten-valued card in two cards)."""

    @cache
    def walk(left: tuple[int, ...], cards: tuple[int, ...]) -> tuple[Fraction, ...]:
        hard = sum(v + 1 for v in cards)
        soft = 0 in cards and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if len(cards) >= 2 and (total > 17 or (total == 17 and not (soft and hits_soft_17))):
            if len(cards) == 2 and total == 21:
                return (Fraction(0),) * 6 + (Fraction(1),)
            out = [Fraction(0)] * 7
            out[5 if total > 21 else total - 17] = Fraction(1)
            return tuple(out)
        n = sum(left)
        acc = [Fraction(0)] * 7
        for v, c in enumerate(left):
            if c:
                nxt = (*left[:v], c - 1, *left[v + 1 :])
                for i, x in enumerate(walk(nxt, tuple(sorted((*cards, v))))):
                    acc[i] += Fraction(c, n) * x
        return tuple(acc)

    got = walk(counts, (upcard,))
    blackjack = got[6]
    results = [x / (1 - blackjack) for x in got[:6]]
    return results, blackjack


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize("upcard", [0, 5, 9])
def test_kernel_equals_a_dealer_drawn_card_by_card(upcard: int, hits_soft_17: bool) -> None:
    # a single deck less the upcard and a few cards, and a short shoe that runs out of low cards
    shoes = [
        (4, 3, 4, 2, 4, 4, 1, 4, 3, 14),
        (1, 0, 1, 0, 2, 1, 0, 1, 1, 3),
    ]
    for counts in shoes:
        comp = list(counts)
        comp[upcard] = max(comp[upcard] - 1, 0)
        p, p_bj = dealer_results(np.array([comp], dtype=np.int64), upcard, hits_soft_17)
        results, blackjack = _exact_dealer(tuple(comp), upcard, hits_soft_17)
        assert p_bj[0] == pytest.approx(float(blackjack), abs=1e-15)
        assert p[0] == pytest.approx([float(x) for x in results], abs=1e-14)


def test_tree_shares_the_products_of_hands_with_a_common_start() -> None:
    tree = dealer_tree(0, True)
    drawn = _dealer_hands(0, True).drawn
    # one node per hand, and fewer nodes than the hands' factors counted one by one
    assert len(tree.node) == len(set(tree.node.tolist())) == len(drawn)
    assert len(tree.parent) < int((drawn > 0).sum())
    assert (tree.parent < np.arange(len(tree.parent))).all()  # parents first
    assert tree.blackjack >= 0 and tree.size[tree.blackjack] == 1  # ace up: one ten
    assert dealer_tree(4, True).blackjack == -1  # a 5 up makes no Blackjack
