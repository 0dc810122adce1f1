"""The values of playing every hand of a table (:class:`croupier.analysis.blackjack_tables.Table`),
compiled (numba): one pass over the hands, the most cards first, each hand's draw valued from its
children's values.

A draw's value is the sum over the ten next values of ``chance × value of the hand it makes``,
added as numpy adds a row of ten (``array.sum(axis=1)``: eight running sums, combined pairwise,
then the last two), so the figures are those of the numpy code they replace to the last bit
(tests/analysis/kernels/test_hand_values.py).
"""

from __future__ import annotations

from numba import njit

__all__ = ["play_hands"]


@njit(cache=True, nogil=True)
def play_hands(probs, child, stand, totals, hits, optimal, out, draws):  # type: ignore[no-untyped-def]
    """Fill ``out`` ``(rows + 1,)`` with each hand's value and ``draws`` ``(rows,)`` with whether
    it draws. ``probs`` ``(rows, 10)`` are the next card's chances, ``child`` ``(rows, 10)`` the
    row each card makes (``rows``: a bust, worth −1), ``stand`` the value of standing; a hand's
    children come before it. With ``optimal`` a hand draws when its total is under 21 and the
    draw is worth more than standing; else it draws where ``hits`` says."""
    rows = stand.shape[0]
    out[rows] = -1.0
    for r in range(rows):
        t0 = probs[r, 0] * out[child[r, 0]]
        t1 = probs[r, 1] * out[child[r, 1]]
        t2 = probs[r, 2] * out[child[r, 2]]
        t3 = probs[r, 3] * out[child[r, 3]]
        t4 = probs[r, 4] * out[child[r, 4]]
        t5 = probs[r, 5] * out[child[r, 5]]
        t6 = probs[r, 6] * out[child[r, 6]]
        t7 = probs[r, 7] * out[child[r, 7]]
        t8 = probs[r, 8] * out[child[r, 8]]
        t9 = probs[r, 9] * out[child[r, 9]]
        hit = ((((t0 + t1) + (t2 + t3)) + ((t4 + t5) + (t6 + t7))) + t8) + t9
        draw = (totals[r] < 21 and hit > stand[r]) if optimal else hits[r]
        draws[r] = draw
        out[r] = hit if draw else stand[r]
