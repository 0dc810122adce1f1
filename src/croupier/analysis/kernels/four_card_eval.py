"""Compiled (numba) poker evaluators on card indices for the Four Card Poker kernels.

* :func:`four_key` — the ranking key of exactly four cards, the key of
  :func:`croupier.poker.four_card.four_card_keys`: ``strength × 13⁴ + tiebreak digits`` (base 13,
  ranks deuce 0 … ace 12), so keys order hands exactly as :func:`croupier.poker.four_card.
  evaluate_four` does (58 Pa. Code § 641a.6): the category ordinal is ``key // 13⁴`` (0 high card
  … 7 four-of-a-kind), the tie-break key ``key % 13⁴``.
* :func:`best_four_key` — the best key over every four of the first ``m`` cards (the player's five,
  the dealer's six; § 641a.7(d)(1)).
* :func:`five_category` / :func:`best_five_category` — the five-card category strength (0 high card
  … 9 royal flush) of :func:`croupier.poker.five_card.five_card_categories`, and the best over every
  five of ``m`` cards (the dealer's Five Card Hand Bonus, the Six Card Bonus).

A hand is first sorted by card index, highest first: the ranks (``index // 4``) are then in
descending order in every subset taken in index order, so no subset is sorted again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BASE = 13
"""Digits of the tie-break key: ranks deuce (0) to ace (12)."""
CATEGORY_UNIT = BASE**4
"""``key // CATEGORY_UNIT`` is the four-card category strength."""


@njit(cache=True, nogil=True, inline="always")
def sort_desc(hand, m, out):  # type: ignore[no-untyped-def]
    """The first ``m`` cards of ``hand`` into ``out``, highest card index first (insertion
    sort: m ≤ 6)."""
    for i in range(m):
        c = hand[i]
        j = i
        while j > 0 and out[j - 1] < c:
            out[j] = out[j - 1]
            j -= 1
        out[j] = c


@njit(cache=True, nogil=True, inline="always")
def _key(category, d1, d2, d3, d4):  # type: ignore[no-untyped-def]
    """``category × 13⁴ + d1 × 13³ + d2 × 13² + d3 × 13 + d4``."""
    return (((category * BASE + d1) * BASE + d2) * BASE + d3) * BASE + d4


@njit(cache=True, nogil=True, inline="always")
def four_key_sorted(c0, c1, c2, c3):  # type: ignore[no-untyped-def]
    """:func:`four_key` of four cards given highest card index first."""
    a = c0 // 4
    b = c1 // 4
    c = c2 // 4
    d = c3 // 4
    s = c0 % 4
    flush = c1 % 4 == s and c2 % 4 == s and c3 % 4 == s
    distinct = a != b and b != c and c != d
    wheel = distinct and a == 12 and b == 2 and c == 1 and d == 0
    straight = distinct and (a - d == 3 or wheel)
    if a == d:  # four of a kind
        return _key(7, a, 0, 0, 0)
    if straight and flush:
        return _key(6, 2 if wheel else a, 0, 0, 0)
    if a == c or b == d:  # three of a kind: the trip rank is b, the kicker the other card
        return _key(5, b, d if a == c else a, 0, 0)
    if flush:
        return _key(4, a, b, c, d)
    if straight:
        return _key(3, 2 if wheel else a, 0, 0, 0)
    if a == b and c == d:  # two pair
        return _key(2, a, c, 0, 0)
    if not distinct:  # one pair: the pair, then the others high to low
        if a == b:
            return _key(1, a, c, d, 0)
        if b == c:
            return _key(1, b, a, d, 0)
        return _key(1, c, a, b, 0)
    return _key(0, a, b, c, d)


@njit(cache=True, nogil=True)
def four_key(hand):  # type: ignore[no-untyped-def]
    """The ranking key of the four card indices ``hand`` (any order; one deck)."""
    srt = np.empty(4, dtype=np.int64)
    sort_desc(hand, 4, srt)
    return four_key_sorted(srt[0], srt[1], srt[2], srt[3])


@njit(cache=True, nogil=True, inline="always")
def best_four_sorted(s, m):  # type: ignore[no-untyped-def]
    """The best :func:`four_key` over every four of the ``m`` cards ``s`` (highest first)."""
    best = -1
    for i in range(m - 3):
        for j in range(i + 1, m - 2):
            for k in range(j + 1, m - 1):
                for n in range(k + 1, m):
                    key = four_key_sorted(s[i], s[j], s[k], s[n])
                    if key > best:
                        best = key
    return best


@njit(cache=True, nogil=True)
def best_four_key(hand, m):  # type: ignore[no-untyped-def]
    """The best four-card key among the first ``m`` (4–6) card indices of ``hand``."""
    srt = np.empty(6, dtype=np.int64)
    sort_desc(hand, m, srt)
    return best_four_sorted(srt, m)


@njit(cache=True, nogil=True, inline="always")
def five_category_sorted(c0, c1, c2, c3, c4):  # type: ignore[no-untyped-def]
    """:func:`five_category` of five cards given highest card index first."""
    r0 = c0 // 4
    r1 = c1 // 4
    r2 = c2 // 4
    r3 = c3 // 4
    r4 = c4 // 4
    s = c0 % 4
    flush = c1 % 4 == s and c2 % 4 == s and c3 % 4 == s and c4 % 4 == s
    e0 = r0 == r1
    e1 = r1 == r2
    e2 = r2 == r3
    e3 = r3 == r4
    pairs = int(e0) + int(e1) + int(e2) + int(e3)  # 5 − distinct ranks
    three_run = (e0 and e1) or (e1 and e2) or (e2 and e3)
    four_run = (e0 and e1 and e2) or (e1 and e2 and e3)
    if pairs == 0:
        wheel = r0 == 12 and r1 == 3
        straight = r0 - r4 == 4 or wheel
        if straight and flush:
            return 9 if r4 == 8 else 8
        if flush:
            return 5
        if straight:
            return 4
        return 0
    if four_run:
        return 7
    if three_run and pairs == 3:
        return 6
    if flush:  # a paired flush: only from more than one deck
        return 5
    if three_run:
        return 3
    return 2 if pairs == 2 else 1


@njit(cache=True, nogil=True)
def five_category(hand):  # type: ignore[no-untyped-def]
    """The five-card category strength (0 high card … 9 royal flush) of five card indices."""
    srt = np.empty(5, dtype=np.int64)
    sort_desc(hand, 5, srt)
    return five_category_sorted(srt[0], srt[1], srt[2], srt[3], srt[4])


@njit(cache=True, nogil=True, inline="always")
def best_five_sorted(s, m):  # type: ignore[no-untyped-def]
    """The best :func:`five_category` over every five of the ``m`` (5 or 6) cards ``s``
    (highest first)."""
    if m == 5:
        return five_category_sorted(s[0], s[1], s[2], s[3], s[4])
    s0, s1, s2, s3, s4, s5 = s[0], s[1], s[2], s[3], s[4], s[5]
    return max(
        five_category_sorted(s1, s2, s3, s4, s5),
        five_category_sorted(s0, s2, s3, s4, s5),
        five_category_sorted(s0, s1, s3, s4, s5),
        five_category_sorted(s0, s1, s2, s4, s5),
        five_category_sorted(s0, s1, s2, s3, s5),
        five_category_sorted(s0, s1, s2, s3, s4),
    )


@njit(cache=True, nogil=True)
def best_five_category(hand, m):  # type: ignore[no-untyped-def]
    """The best five-card category among the first ``m`` (5 or 6) card indices of ``hand``."""
    srt = np.empty(6, dtype=np.int64)
    sort_desc(hand, m, srt)
    return best_five_sorted(srt, m)


@njit(cache=True, nogil=True)
def four_keys_of(rows):  # type: ignore[no-untyped-def]
    """:func:`best_four_key` of each row of an ``(n, m)`` array of card indices (m 4–6)."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for r in range(rows.shape[0]):
        out[r] = best_four_key(rows[r], rows.shape[1])
    return out


@njit(cache=True, nogil=True)
def five_categories_of(rows):  # type: ignore[no-untyped-def]
    """:func:`best_five_category` of each row of an ``(n, m)`` array of card indices (m 5–6)."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for r in range(rows.shape[0]):
        out[r] = best_five_category(rows[r], rows.shape[1])
    return out
