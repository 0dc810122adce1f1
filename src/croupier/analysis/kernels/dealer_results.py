"""The dealer's final results for many shoe compositions at once, compiled (numba): the kernel of
the rule-set engine's tables (:mod:`croupier.analysis.blackjack_tables`).

For one upcard the dealer's final hands are fixed multisets of values
(:func:`croupier.analysis.blackjack_dealer._dealer_hands`, with the number of orders in which the
drawing rule deals each); a hand's chance from a composition ``c`` (the upcard out, ``N`` cards) is
``orders · Π_v (c_v)_{d_v} / (N)_k`` in falling factorials, ``d`` the values it drew and ``k`` how
many. The kernel evaluates that for every composition and every final hand with the float
operations of :func:`croupier.analysis.blackjack_strategy._dealer_batch` in the same order — the
falling factorials by repeated multiplication, each hand's product over its values in increasing
order, the results summed over the hands in their order — so its figures are those of the numpy
code to the last bit (tests/analysis/kernels/test_dealer_results.py). The products are shared
through a prefix tree (:class:`DealerTree`): hands whose first values agree share those factors'
product, which is the same left-to-right product.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from croupier.analysis.blackjack_dealer import FloatArray, IntArray, _dealer_hands

__all__ = ["DealerTree", "dealer_results", "dealer_tree"]


@dataclass(frozen=True)
class DealerTree:
    """One upcard's final dealer hands as a prefix tree of their (value, count) factors.

    Node ``i`` multiplies its ``parent[i]``'s product (none: −1) by the falling factorial
    ``(c_{value[i]})_{count[i]}``; parents come before their children. Hand ``h`` (in
    :func:`_dealer_hands`'s order) is node ``node[h]``, dealt in ``orders[h]`` orders, draws
    ``size[h]`` cards and ends in ``result[h]`` (0 … 4 for 17 … 21, 5 bust); ``blackjack`` is the
    hand that makes a dealer Blackjack, or −1. ``kmax`` is the most cards a hand draws."""

    parent: IntArray
    value: IntArray
    count: IntArray
    node: IntArray
    orders: FloatArray
    size: IntArray
    result: IntArray
    blackjack: int
    kmax: int


@lru_cache(maxsize=32)
def dealer_tree(upcard: int, hits_soft_17: bool) -> DealerTree:
    """The :class:`DealerTree` of the dealer's final hands to ``upcard`` (§ 633a.7 drawing rule:
    hits soft 17 or not)."""
    hands = _dealer_hands(upcard, hits_soft_17)
    index: dict[tuple[tuple[int, int], ...], int] = {}
    parent: list[int] = []
    value: list[int] = []
    count: list[int] = []
    node: list[int] = []
    for drawn in hands.drawn.tolist():
        factors = tuple((v, d) for v, d in enumerate(drawn) if d)
        at = -1
        for i in range(1, len(factors) + 1):
            key = factors[:i]
            got = index.get(key)
            if got is None:
                got = index[key] = len(parent)
                parent.append(at)
                value.append(key[-1][0])
                count.append(key[-1][1])
            at = got
        node.append(at)
    blackjack = np.flatnonzero(hands.blackjack)
    return DealerTree(
        np.array(parent, dtype=np.int64),
        np.array(value, dtype=np.int64),
        np.array(count, dtype=np.int64),
        np.array(node, dtype=np.int64),
        hands.orders.astype(np.float64),
        hands.size.astype(np.int64),
        hands.result.astype(np.int64),
        int(blackjack[0]) if len(blackjack) else -1,
        hands.kmax,
    )


def dealer_results(
    comps: IntArray, upcard: int, hits_soft_17: bool
) -> tuple[FloatArray, FloatArray]:
    """The dealer's results from each row of ``comps`` (compositions by value, the upcard out):
    ``(p, p_blackjack)``, ``p`` of shape ``(rows, 6)`` — the chances of 17, 18, 19, 20, 21 and
    bust given no dealer Blackjack — and ``p_blackjack`` ``(rows,)``. Equal to
    :func:`croupier.analysis.blackjack_strategy._dealer_batch` bit for bit."""
    tree = dealer_tree(upcard, hits_soft_17)
    rows = comps.shape[0]
    out = np.zeros((rows, 6), dtype=np.float64)
    p_bj = np.zeros(rows, dtype=np.float64)
    if rows:
        _results(
            np.ascontiguousarray(comps, dtype=np.int64),
            tree.parent,
            tree.value,
            tree.count,
            tree.node,
            tree.orders,
            tree.size,
            tree.result,
            tree.blackjack,
            tree.kmax,
            out,
            p_bj,
        )
    return out, p_bj


BLOCK = 64
"""Compositions evaluated together: each operation runs over a block of them (SIMD lanes)."""


@njit(cache=True, nogil=True)
def _results(  # type: ignore[no-untyped-def]
    comps, parent, value, count, node, orders, size, result, blackjack, kmax, out, p_bj
):
    """Fill ``out`` ``(rows, 6)`` and ``p_bj`` ``(rows,)`` for each composition (see
    :func:`dealer_results`): for each composition the operations of ``_dealer_batch``, in its
    order; a block of compositions at a time, each operation over the block."""
    rows, values = comps.shape
    table = np.empty((values + 1, kmax + 1, BLOCK), dtype=np.float64)
    weight = np.empty((parent.shape[0], BLOCK), dtype=np.float64)
    acc = np.empty((6, BLOCK), dtype=np.float64)
    bj = np.empty(BLOCK, dtype=np.float64)
    n = np.empty((values + 1, BLOCK), dtype=np.float64)
    for start in range(0, rows, BLOCK):
        m = min(BLOCK, rows - start)
        n[:] = 0.0
        for b in range(m):
            total = 0
            for v in range(values):
                total += comps[start + b, v]
                n[v, b] = float(comps[start + b, v])
            n[values, b] = float(total)
        for v in range(values + 1):
            for b in range(BLOCK):
                table[v, 0, b] = 1.0
            for j in range(1, kmax + 1):
                step = float(j - 1)
                for b in range(BLOCK):
                    table[v, j, b] = table[v, j - 1, b] * max(n[v, b] - step, 0.0)
        for i in range(parent.shape[0]):
            p = parent[i]
            f = table[value[i], count[i]]
            w = weight[i]
            if p < 0:
                for b in range(BLOCK):
                    w[b] = f[b]
            else:
                up = weight[p]
                for b in range(BLOCK):
                    w[b] = up[b] * f[b]
        acc[:] = 0.0
        bj[:] = 0.0
        for h in range(node.shape[0]):
            den = table[values, size[h]]
            w = weight[node[h]]
            o = orders[h]
            if h == blackjack:
                for b in range(BLOCK):
                    bj[b] = (o * w[b]) / den[b] if den[b] > 0.0 else 0.0
            else:
                into = acc[result[h]]
                for b in range(BLOCK):
                    into[b] += (o * w[b]) / den[b] if den[b] > 0.0 else 0.0
        for b in range(m):
            q = bj[b]
            for i in range(6):
                out[start + b, i] = acc[i, b] / (1.0 - q) if q < 1.0 else acc[i, b]
            p_bj[start + b] = q
