"""How many k-card sets from one deck (or the cards left of one) make each poker category, counted
by rank multiset and suit rather than set by set.

A set's best category depends only on its *ranks* (a multiset: how many cards of each rank) unless
one suit holds enough of its cards for a flush — and with no more than seven cards at most one
suit can. So the count is made in two passes:

1. every rank multiset of k cards the shoe can give, weighted by the ways its cards can be chosen
   (Π C(cards of rank r left, m_r)), is classed by its ranks alone (no flush);
2. the sets where one suit holds j ≥ f cards (f = 5 for a five-card flush, 4 for a four-card one)
   are walked apart: the j suited ranks, then the multiset of the other k − j cards from the
   other suits. Such a set's best hand is the better of its rank class and its suited cards'
   flush (a straight flush if they hold a straight); where that is the flush, its weight moves
   from the rank class to the flush class.

Suits holding the same ranks (with the same cards left in the other suits) are walked once and
counted for each. The six-card walk visits about 18,000 rank multisets and 19,000 suited sets,
not the 20,358,520 sets of six cards (issue 33): the counts are the same integers.

The categories are numbered by strength as :class:`~croupier.poker.five_card.FiveCardCategory`
(``"five"``: 0 high card … 9 royal flush) and
:class:`~croupier.poker.four_card.FourCardCategory` (``"four"``: 0 high card … 7
four-of-a-kind, Four Card Poker's order in which three-of-a-kind beats a flush).

>>> full = (1,) * 52
>>> category_counts(full, 5, "five")[9], category_counts(full, 5, "five")[8]  # royal, straight flush
(4, 36)
>>> category_counts(full, 6, "five")[9]  # six cards holding a royal flush: 4 × 47
188
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Literal

from croupier.errors import ShoeError

Kind = Literal["four", "five"]
"""Which best hand is read: the best five cards (``"five"``) or Four Card Poker's best four."""

RANKS = 13
SUITS = 4

_STRAIGHTS = {
    "five": (*(0b11111 << lo for lo in range(RANKS - 4)), 1 << 12 | 0b1111),
    "four": (*(0b1111 << lo for lo in range(RANKS - 3)), 1 << 12 | 0b111),
}
"""The rank masks of the straights (rank index 0 = deuce … 12 = ace; the ace also plays low)."""
_ROYAL = 0b11111 << 8
_FLUSH_SIZE = {"five": 5, "four": 4}
_SIZES = {"five": 10, "four": 8}

PAIR_LABEL = 1
"""A set whose best hand is one pair is labelled ``PAIR_LABEL * RANKS + pair rank index``, not by
strength alone (:func:`pair_counts`); every other label is ``strength * RANKS``."""


@functools.cache
def _straight_masks(kind: Kind) -> tuple[bool, ...]:
    """Whether each of the 8,192 rank masks holds a straight."""
    return tuple(any(m & s == s for s in _STRAIGHTS[kind]) for m in range(1 << RANKS))


def _label(mask: int, high: int, pairs: int, pair_rank: int, kind: Kind) -> int:
    """The label of the best hand, no flush counted, of cards whose distinct ranks are ``mask``,
    the most of one rank ``high``, ``pairs`` ranks held twice or more (the highest
    ``pair_rank``)."""
    if high >= 4:
        return 7 * RANKS
    if kind == "five":
        if high == 3 and pairs >= 2:
            return 6 * RANKS  # full house
        if _straight_masks(kind)[mask]:
            return 4 * RANKS
        if high == 3:
            return 3 * RANKS
    else:
        if high == 3:
            return 5 * RANKS
        if _straight_masks(kind)[mask]:
            return 3 * RANKS
    if pairs >= 2:
        return 2 * RANKS
    if pairs == 1:
        return PAIR_LABEL * RANKS + pair_rank
    return 0


@functools.lru_cache(maxsize=1 << 16)
def _rank_label(mults: tuple[int, ...], kind: Kind) -> int:
    """The label of the best hand of cards with these rank multiplicities, no flush counted."""
    mask = high = pairs = pair_rank = 0
    for r, m in enumerate(mults):
        if m:
            mask |= 1 << r
            high = max(high, m)
            if m >= 2:
                pairs += 1
                pair_rank = r
    return _label(mask, high, pairs, pair_rank, kind)


def _flush_strength(mask: int, kind: Kind) -> int:
    """The strength of the best hand of suited cards of ranks ``mask`` (enough for a flush)."""
    if kind == "five":
        if mask & _ROYAL == _ROYAL:
            return 9
        return 8 if _straight_masks(kind)[mask] else 5
    return 6 if _straight_masks(kind)[mask] else 4


def _multisets(left: tuple[int, ...], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every rank multiset of k cards drawn from ``left[r]`` cards of rank r, with the number of
    ways to choose its cards: (multiplicities, ways)."""
    mults = [0] * RANKS

    def walk(r: int, need: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if need == 0:
            yield tuple(mults), ways
            return
        if r == RANKS:
            return
        for m in range(min(left[r], need) + 1):
            mults[r] = m
            yield from walk(r + 1, need - m, ways * comb(left[r], m))
        mults[r] = 0

    yield from walk(0, k, 1)


def _labelled_multisets(per_rank: tuple[int, ...], k: int, kind: Kind) -> Iterator[tuple[int, int]]:
    """The label (no flush counted) and the number of ways to choose its cards of every rank
    multiset of k cards drawn from ``per_rank[r]`` cards of rank r: what :func:`_multisets` and
    :func:`_rank_label` give, the label's parts carried down the walk."""

    def walk(
        r: int, need: int, ways: int, mask: int, high: int, pairs: int, pair_rank: int
    ) -> Iterator[tuple[int, int]]:
        if need == 0:
            yield _label(mask, high, pairs, pair_rank, kind), ways
            return
        if r == RANKS:
            return
        yield from walk(r + 1, need, ways, mask, high, pairs, pair_rank)
        for m in range(1, min(per_rank[r], need) + 1):
            yield from walk(
                r + 1,
                need - m,
                ways * comb(per_rank[r], m),
                mask | 1 << r,
                max(high, m),
                pairs + (m >= 2),
                r if m >= 2 else pair_rank,
            )

    yield from walk(0, k, 1, 0, 0, 0, 0)


@functools.lru_cache(maxsize=32)
def labelled_counts(composition: tuple[int, ...], k: int, kind: Kind) -> dict[int, int]:
    """The number of k-card sets from the cards of ``composition`` (52 entries of 0 or 1, card
    index = rank index × 4 + suit) by the label of their best hand (``strength × 13``, or for one
    pair ``13 + pair rank``). Raises :class:`~croupier.errors.ShoeError` for more than one copy
    of a card or k outside 4–7 (two suits could then hold a flush)."""
    if len(composition) != RANKS * SUITS or any(n not in (0, 1) for n in composition):
        raise ShoeError("counting by suit classes needs one deck, each card at most once")
    if not 4 <= k <= 7:
        raise ShoeError(f"counting by suit classes reads 4 to 7 cards, not {k}")
    per_rank = tuple(sum(composition[r * SUITS : (r + 1) * SUITS]) for r in range(RANKS))
    counts: Counter[int] = Counter()
    for label, ways in _labelled_multisets(per_rank, k, kind):
        counts[label] += ways
    # the suits holding a flush's worth of cards, grouped by what they and the others hold
    suits: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for s in range(SUITS):
        mask = sum(1 << r for r in range(RANKS) if composition[r * SUITS + s])
        if mask.bit_count() >= _FLUSH_SIZE[kind]:
            others = tuple(per_rank[r] - (mask >> r & 1) for r in range(RANKS))
            suits[mask, others] += 1
    for (mask, others), alike in suits.items():
        ranks = [r for r in range(RANKS) if mask >> r & 1]
        for j in range(_FLUSH_SIZE[kind], k + 1):
            rest = list(_multisets(others, k - j))
            for suited in combinations(ranks, j):
                suited_mask = sum(1 << r for r in suited)
                flush = _flush_strength(suited_mask, kind) * RANKS
                for mults, ways in rest:
                    both = list(mults)
                    for r in suited:
                        both[r] += 1
                    label = _rank_label(tuple(both), kind)
                    if flush > label:
                        counts[label] -= ways * alike
                        counts[flush] += ways * alike
    return {label: n for label, n in counts.items() if n}


def category_counts(composition: tuple[int, ...], k: int, kind: Kind) -> tuple[int, ...]:
    """The number of k-card sets from the cards of ``composition`` whose best hand is each
    category, by strength (10 five-card categories or 8 four-card ones); see
    :func:`labelled_counts` for the shoe and the errors."""
    out = [0] * _SIZES[kind]
    for label, n in labelled_counts(composition, k, kind).items():
        out[label // RANKS] += n
    return tuple(out)


def pair_counts(composition: tuple[int, ...], k: int, kind: Kind) -> tuple[int, ...]:
    """The number of k-card sets whose best hand is one pair, by the pair's rank index (0 deuces
    … 12 aces)."""
    labelled = labelled_counts(composition, k, kind)
    return tuple(labelled.get(PAIR_LABEL * RANKS + r, 0) for r in range(RANKS))


__all__ = ["Kind", "category_counts", "labelled_counts", "pair_counts"]
