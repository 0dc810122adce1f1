"""The four-card poker ranking of Four Card Poker (58 Pa. Code § 641a.6, read as in
shared/regulations/base-games.md), as ordered data, with named and comparable hand values.

High to low: four-of-a-kind, straight flush, three-of-a-kind, flush, straight, two pair, pair,
high card. The ace is high, or low only in A-2-3-4 (no wrap-around: Q-K-A-2 is no straight). Hands
of one category are compared card by card: the cards that make the category first (the
three-of-a-kind before its kicker, the higher pair before the lower), then the remaining cards from
the highest down; hands that compare equal tie.

The player plays the best four of five cards, the dealer the best four of six
(§ 641a.7(d)(1)): :func:`best_four`.

>>> from croupier.cards import parse_cards
>>> a = evaluate_four(parse_cards("Ah 2c 3d 4s"))
>>> a.category, a.tiebreak
(<FourCardCategory.STRAIGHT: 'straight'>, (<Rank.FOUR: 4>,))
>>> a < evaluate_four(parse_cards("2h 3c 4d 5s"))      # A-2-3-4 is the lowest straight
True
>>> best_four(parse_cards("9h 9c 9d Ks 2s")).describe()
'Three-of-a-kind, nines (9h 9c 9d Ks)'
>>> evaluate_four(parse_cards("Qh Kc Ad 2s")).category   # no wrap-around
<FourCardCategory.HIGH_CARD: 'high-card'>

The vectorised kernels (:func:`four_card_keys`, :func:`value_table`) rank card-index arrays for the
exact analysis; :func:`evaluate_four` is an independent scalar implementation of the same order.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

from croupier.cards import Card, Rank, format_cards
from croupier.errors import CardError
from croupier.poker.ranking import RankedCategory, describe_hand

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    COMB: IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np


def __getattr__(name: str) -> Any:
    """``IntArray`` (the numpy array type of card indices) and :data:`COMB`, numpy imported on
    first use (PEP 562)."""
    if name == "IntArray":
        import numpy.typing as npt

        return npt.NDArray[np.int64]
    if name == "COMB":
        return comb_table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class FourCardCategory(RankedCategory):
    """The categories of a four-card hand, declared lowest first; members compare by strength."""

    HIGH_CARD = "high-card"
    PAIR = "pair"
    TWO_PAIR = "two-pair"
    STRAIGHT = "straight"
    FLUSH = "flush"
    THREE_OF_A_KIND = "three-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"


@dataclass(frozen=True, order=True)
class FourCardHand:
    """A four-card hand's value: its category and the ranks that break ties, in comparison order.

    Values compare (and are equal) by ``category`` then ``tiebreak``; ``cards`` — the four cards
    that form the hand — do not take part, so hands of equal value tie.
    """

    category: FourCardCategory
    tiebreak: tuple[Rank, ...]
    cards: tuple[Card, ...] = field(compare=False)

    def describe(self) -> str:
        """``'Two pair, kings and fives (Kh Kd 5c 5s)'``."""
        return describe_hand(self.category, self.tiebreak, self.cards)


def evaluate_four(cards: Sequence[Card]) -> FourCardHand:
    """The value of exactly four cards (one deck: no card twice).

    Raises :class:`~croupier.errors.CardError` naming the cards otherwise.
    """
    hand = tuple(cards)
    if len(hand) != 4 or len(set(hand)) != 4:
        raise CardError(
            f"a four-card hand is four different cards, not {len(set(hand))} of {len(hand)}",
            format_cards(hand),
        )
    category, tiebreak, _ = _four_value(
        tuple(sorted([c.rank for c in hand])), len({c.suit for c in hand}) == 1
    )
    return FourCardHand(category, tiebreak, hand)


@functools.cache
def _four_value(
    ranks: tuple[Rank, ...], flush: bool
) -> tuple[FourCardCategory, tuple[Rank, ...], int]:
    """The category, the tiebreak ranks and the category's strength of four cards whose ranks are
    ``ranks`` (ascending), all of one suit when ``flush``: all a four-card value depends on, so it
    is worked out once for each of the 1,820 rank multisets (× flush or not)."""
    counts = Counter(ranks)
    # ranks ordered by (how many, rank): the made cards first, then kickers high to low
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight_top: Rank | None = None
    if len(counts) == 4:
        values = sorted(r.value for r in counts)
        if values[-1] - values[0] == 3:
            straight_top = Rank(values[-1])
        elif values == [2, 3, 4, 14]:  # A-2-3-4: the ace plays low
            straight_top = Rank.FOUR
    category: FourCardCategory
    tiebreak: tuple[Rank, ...]
    if shape[0] == 4:
        category, tiebreak = FourCardCategory.FOUR_OF_A_KIND, (order[0],)
    elif straight_top is not None and flush:
        category, tiebreak = FourCardCategory.STRAIGHT_FLUSH, (straight_top,)
    elif shape[0] == 3:
        category, tiebreak = FourCardCategory.THREE_OF_A_KIND, tuple(order)
    elif flush:
        category, tiebreak = FourCardCategory.FLUSH, tuple(order)
    elif straight_top is not None:
        category, tiebreak = FourCardCategory.STRAIGHT, (straight_top,)
    elif shape == [2, 2]:
        category, tiebreak = FourCardCategory.TWO_PAIR, tuple(order)
    elif shape[0] == 2:
        category, tiebreak = FourCardCategory.PAIR, tuple(order)
    else:
        category, tiebreak = FourCardCategory.HIGH_CARD, tuple(order)
    return category, tiebreak, category.strength


def best_four(cards: Sequence[Card]) -> FourCardHand:
    """The best four-card hand among ``cards`` (the player's five, the dealer's six;
    58 Pa. Code § 641a.7(d)(1)). Raises :class:`CardError` for fewer than four or repeated cards.

    Where several choices of four cards make the best value, the first in dealing order is shown.
    """
    hand = tuple(cards)
    if len(hand) < 4 or len(set(hand)) != len(hand):
        raise CardError(
            f"the best four-card hand needs at least four different cards, got {len(hand)}",
            format_cards(hand),
        )
    ranks = [c.rank for c in hand]
    suits = [c.suit for c in hand]
    best: tuple[FourCardCategory, tuple[Rank, ...], int] | None = None
    chosen: tuple[int, ...] = ()
    for four in combinations(range(len(hand)), 4):
        a, b, c, d = four
        value = _four_value(
            tuple(sorted((ranks[a], ranks[b], ranks[c], ranks[d]))),
            suits[a] == suits[b] == suits[c] == suits[d],
        )
        # the first of the best values: compared as (strength, tiebreak), as hands compare
        if best is None or (value[2], value[1]) > (best[2], best[1]):
            best, chosen = value, four
    assert best is not None
    return FourCardHand(best[0], best[1], tuple(hand[i] for i in chosen))


# -- vectorised kernels ------------------------------------------------------------------------

KEY_BASE = 13
"""Tiebreak ranks are digits 0–12 (deuce–ace) of a base-13 key under the category's strength."""


def four_card_keys(cards: IntArray) -> IntArray:
    """The ranking key of each row of an ``(n, 4)`` array of card indices (``Card.index``).

    ``key = strength × 13⁴ + tiebreak digits``: keys order hands exactly as :func:`evaluate_four`
    (a second, vectorised implementation, checked against it hand by hand in the tests).
    """
    ranks = -np.sort(-(cards // 4), axis=1)  # descending
    suits = cards % 4
    a, b, c, d = (ranks[:, i] for i in range(4))
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (a != b) & (b != c) & (c != d)
    wheel = distinct & (a == 12) & (b == 2) & (c == 1) & (d == 0)
    straight = distinct & ((a - d == 3) | wheel)
    top = np.where(wheel, 2, a)
    quads = a == d
    trips = ~quads & ((a == c) | (b == d))
    two_pair = (a == b) & (c == d) & ~quads
    pair = ~quads & ~trips & ~two_pair & ~distinct
    z = np.zeros_like(a)
    # trips: the trip rank is b (a==b==c or b==c==d); kicker is the other
    trip_kicker = np.where(a == c, d, a)
    # pair: the paired rank and the two others descending
    pair_rank = np.where(a == b, a, np.where(b == c, b, c))
    k1 = np.where(a == b, c, a)
    k2 = np.where(a == b, d, np.where(b == c, d, b))
    cat = np.select(
        [quads, straight & flush, trips, flush, straight, two_pair, pair],
        [7, 6, 5, 4, 3, 2, 1],
        default=0,
    )
    d1 = np.select(
        [quads, straight, trips, two_pair, pair],
        [a, top, b, a, pair_rank],
        default=a,
    )
    d2 = np.select(
        [quads | straight, trips, two_pair, pair],
        [z, trip_kicker, c, k1],
        default=b,
    )
    d3 = np.select([quads | straight | trips | two_pair, pair], [z, k2], default=c)
    d4 = np.where(quads | straight | trips | two_pair | pair, z, d)
    base = KEY_BASE
    key: IntArray = (((cat * base + d1) * base + d2) * base + d3) * base + d4
    return key.astype(np.int64)


def combinations_array(n: int, k: int) -> IntArray:
    """Every k-subset of ``range(n)`` as rows of increasing indices, in *colex* order (row ``i``
    is the combination whose :func:`colex_index` is ``i``).

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    rows = np.zeros((1, 0), dtype=np.int64)  # the k = 0 combination
    for j in range(1, k + 1):
        # colex: the (j-1)-subsets of range(top) are the first C(top, j-1) rows of those of
        # range(n - 1), so each block is a prefix of the previous level plus the top column
        out = np.empty((comb(n, j), j), dtype=np.int64)
        start = 0
        for top in range(j - 1, n):
            m = comb(top, j - 1)
            out[start : start + m, : j - 1] = rows[:m]
            out[start : start + m, j - 1] = top
            start += m
        rows = out
    return rows


@functools.cache
def comb_table() -> IntArray:
    """``COMB[n, k]`` = C(n, k) for n ≤ 52, k ≤ 7 (also the module attribute ``COMB``)."""
    table: IntArray = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)
    return table


def colex_index(sorted_cards: IntArray) -> IntArray:
    """The colex rank of each row of increasing card indices: Σᵢ C(cᵢ, i+1).

    >>> colex_index(np.array([[0, 1, 2, 3], [48, 49, 50, 51]])).tolist()
    [0, 270724]
    """
    k = sorted_cards.shape[1]
    table = comb_table()
    out = np.zeros(sorted_cards.shape[0], dtype=np.int64)
    for i in range(k):
        out += table[sorted_cards[:, i], i + 1]
    return out


@functools.cache
def _tables() -> tuple[npt.NDArray[np.int16], IntArray]:
    keys = four_card_keys(combinations_array(52, 4))
    distinct = np.unique(keys)
    ordinals = np.searchsorted(distinct, keys).astype(np.int16)
    ordinals.setflags(write=False)
    distinct.setflags(write=False)
    return ordinals, distinct


def value_table() -> npt.NDArray[np.int16]:
    """The strength ordinal (0 = the weakest value, 3314 the strongest) of every four-card hand,
    indexed by colex index: equal ordinals tie, a greater one wins."""
    return _tables()[0]


def distinct_keys() -> IntArray:
    """The 3,315 distinct ranking keys in increasing order (ordinal ``i`` has key ``keys[i]``)."""
    return _tables()[1]


def category_of_ordinal(ordinals: Any) -> Any:
    """The category strength (0–7) of ordinals (array or int)."""
    return distinct_keys()[ordinals] // KEY_BASE**4


def ordinal_of(hand: FourCardHand) -> int:
    """The strength ordinal of a scalar hand value (the position of its value among the 3,315)."""
    digits = [hand.category.strength, *(r.index for r in hand.tiebreak)]
    digits += [0] * (5 - len(digits))
    key = 0
    for dgt in digits:
        key = key * KEY_BASE + dgt
    return int(np.searchsorted(distinct_keys(), key))


def best_four_ordinals(cards: IntArray) -> IntArray:
    """The best-four strength ordinal of each row of an ``(n, m)`` array of card indices, m ≥ 4
    (rows need not be sorted): the maximum over its C(m, 4) four-card subsets."""
    table = value_table()
    srt = np.sort(cards, axis=1)
    best = np.full(srt.shape[0], -1, dtype=np.int64)
    for four in combinations(range(srt.shape[1]), 4):
        best = np.maximum(best, table[colex_index(srt[:, list(four)])])
    return best
