"""The values of playing every hand of a table (:class:`croupier.analysis.blackjack_tables.Table`),
compiled (numba): one pass over the hands, the most cards first, each hand's draw valued from its
children's values; and the chances of the player's next card from many shoes.

A draw's value is the sum over the ten next values of ``chance × value of the hand it makes``,
added as numpy adds a row of ten (``array.sum(axis=1)``: eight running sums, combined pairwise,
then the last two), so the figures are those of the numpy code they replace to the last bit
(tests/analysis/kernels/test_hand_values.py); the next card's chances likewise repeat the numpy
code's operations.
"""

from __future__ import annotations

from numba import njit

__all__ = ["next_card_chances", "play_hands"]


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


@njit(cache=True, nogil=True)
def next_card_chances(comps, hole, out):  # type: ignore[no-untyped-def]
    """Fill ``out`` ``(rows, 10)`` with the chance of each value being the player's next card
    from each composition (rows of ``comps``, by value); zero for a shoe without a card. With
    ``hole`` ≥ 0 (the peek showed no Blackjack) the dealer's hole card is one of the unseen cards
    and not of the value ``hole``: a card of another value ``v`` comes next with chance
    ``(c_v − c_v / (N − c_hole)) / (N − 1)``, one of ``hole`` with ``c_hole / (N − 1)``."""
    rows, values = comps.shape
    for r in range(rows):
        n = 0.0
        for v in range(values):
            n += float(comps[r, v])
        if hole < 0:
            for v in range(values):
                out[r, v] = float(comps[r, v]) / n if n > 0.0 else 0.0
            continue
        other = n - float(comps[r, hole])
        for v in range(values):
            c = float(comps[r, v])
            out[r, v] = (c - c / other) / (n - 1.0) if other > 0.0 and n > 1.0 else 0.0
        out[r, hole] = float(comps[r, hole]) / (n - 1.0) if n > 1.0 else 0.0
