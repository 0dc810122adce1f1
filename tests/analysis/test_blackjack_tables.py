"""The rule-set engine's tables (croupier.analysis.blackjack_tables): the memo of the dealer's
results answers each composition as the kernel computes it, however the compositions are asked
(in one batch, in overlapping batches, repeated, or beyond what the shoe holds)."""

from __future__ import annotations

import numpy as np

from croupier.analysis.blackjack_strategy import _family
from croupier.analysis.blackjack_tables import UpcardShoe, clear_shoes, upcard_shoe
from croupier.analysis.kernels.dealer_results import dealer_results


def test_memo_answers_as_the_kernel_in_overlapping_batches() -> None:
    shoe = UpcardShoe(1, 9, True, True)
    hands = _family(None).counts
    first, second = hands[:1500], hands[1000:]
    got_first = shoe.dealer(first)
    got_second = shoe.dealer(np.concatenate((second, second[:50])))  # repeats too
    for taken, (p, p_bj, valid) in ((first, got_first), (second, got_second)):
        comps = shoe.base - taken
        fits = (comps >= 0).all(axis=1)
        q, q_bj = dealer_results(comps[fits], 9, True)
        assert np.array_equal(valid[: len(taken)], fits)
        assert np.array_equal(p[: len(taken)][fits], q)
        assert np.array_equal(p_bj[: len(taken)][fits], q_bj)
        # hands a one-deck shoe cannot hold (five tens) have no dealer's results
        assert not p[: len(taken)][~fits].any() and not p_bj[: len(taken)][~fits].any()
    assert not fits.all()


def test_tables_are_kept_by_the_shoe_until_cleared() -> None:
    clear_shoes()
    shoe = upcard_shoe(6, 0, False, True)
    assert shoe.table(3, 2) is shoe.table(3, 2)
    assert upcard_shoe(6, 0, False, True) is shoe
    clear_shoes()
    assert upcard_shoe(6, 0, False, True) is not shoe


def test_memo_answers_hands_the_shoe_cannot_hold_with_zeros() -> None:
    shoe = UpcardShoe(1, 0, False, True)
    too_many = np.zeros((2, 10), dtype=np.int64)
    too_many[:, 9] = 17  # seventeen tens from one deck
    p, p_bj, valid = shoe.dealer(too_many)
    assert not valid.any() and not p.any() and not p_bj.any()
