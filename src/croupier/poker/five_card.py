"""The five-card poker ranking used by Four Card Poker's five-card wagers (58 Pa. Code § 641a.6(d),
read as the industry ranking: shared/regulations/base-games.md), as ordered data with named,
comparable hand values.

High to low: royal flush, straight flush, four-of-a-kind, full house, flush, straight,
three-of-a-kind, two pair, pair, high card. The ace is high, or low only in A-2-3-4-5. A royal
flush is the ace-high straight flush, kept as its own category because paytables pay it apart.
Hands of one category compare card by card (the cards that make the category first).

>>> from croupier.cards import parse_cards
>>> h = evaluate_five(parse_cards("Ah 2h 3h 4h 5h"))
>>> h.category, h.tiebreak
(<FiveCardCategory.STRAIGHT_FLUSH: 'straight-flush'>, (<Rank.FIVE: 5>,))
>>> best_five(parse_cards("Th Jh Qh Kh Ah 2c")).category
<FiveCardCategory.ROYAL_FLUSH: 'royal-flush'>
>>> evaluate_five(parse_cards("Kh Kd 5c 5s 9h")) > evaluate_five(parse_cards("Kc Ks 4c 4s Ah"))
True
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from croupier.cards import Card, Rank, format_cards
from croupier.errors import CardError
from croupier.poker.four_card import colex_index, comb_table
from croupier.poker.ranking import RankedCategory, describe_hand

if TYPE_CHECKING:
    import numpy as np

    from croupier.poker.four_card import IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np


class FiveCardCategory(RankedCategory):
    """The categories of a five-card hand, declared lowest first; members compare by strength."""

    HIGH_CARD = "high-card"
    PAIR = "pair"
    TWO_PAIR = "two-pair"
    THREE_OF_A_KIND = "three-of-a-kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full-house"
    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    ROYAL_FLUSH = "royal-flush"


@dataclass(frozen=True, order=True)
class FiveCardHand:
    """A five-card hand's value: category and tie-breaking ranks; ``cards`` do not compare."""

    category: FiveCardCategory
    tiebreak: tuple[Rank, ...]
    cards: tuple[Card, ...] = field(compare=False)

    def describe(self) -> str:
        """``'Full house, kings over fives (Kh Kd Kc 5c 5s)'``."""
        return describe_hand(self.category, self.tiebreak, self.cards)


def evaluate_five(cards: Sequence[Card]) -> FiveCardHand:
    """The value of exactly five different cards; :class:`CardError` otherwise."""
    hand = tuple(cards)
    if len(hand) != 5 or len(set(hand)) != 5:
        raise CardError(
            f"a five-card hand is five different cards, not {len(set(hand))} of {len(hand)}",
            format_cards(hand),
        )
    counts = Counter(c.rank for c in hand)
    order = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    flush = len({c.suit for c in hand}) == 1
    top: Rank | None = None
    if len(counts) == 5:
        values = sorted(r.value for r in counts)
        if values[-1] - values[0] == 4:
            top = Rank(values[-1])
        elif values == [2, 3, 4, 5, 14]:
            top = Rank.FIVE
    cat = FiveCardCategory
    if top is not None and flush:
        return FiveCardHand(
            cat.ROYAL_FLUSH if top is Rank.ACE else cat.STRAIGHT_FLUSH, (top,), hand
        )
    if shape[0] == 4:
        return FiveCardHand(cat.FOUR_OF_A_KIND, order, hand)
    if shape == [3, 2]:
        return FiveCardHand(cat.FULL_HOUSE, order, hand)
    if flush:
        return FiveCardHand(cat.FLUSH, order, hand)
    if top is not None:
        return FiveCardHand(cat.STRAIGHT, (top,), hand)
    if shape[0] == 3:
        return FiveCardHand(cat.THREE_OF_A_KIND, order, hand)
    if shape == [2, 2, 1]:
        return FiveCardHand(cat.TWO_PAIR, order, hand)
    if shape[0] == 2:
        return FiveCardHand(cat.PAIR, order, hand)
    return FiveCardHand(cat.HIGH_CARD, order, hand)


def best_five(cards: Sequence[Card]) -> FiveCardHand:
    """The best five-card hand among five or more different cards (e.g. the dealer's six)."""
    hand = tuple(cards)
    if len(hand) < 5 or len(set(hand)) != len(hand):
        raise CardError(
            f"the best five-card hand needs at least five different cards, got {len(hand)}",
            format_cards(hand),
        )
    return max(
        (evaluate_five(five) for five in combinations(hand, 5)),
        key=lambda h: (h.category.strength, h.tiebreak),
    )


# -- vectorised kernels ------------------------------------------------------------------------


def five_card_categories(cards: IntArray) -> IntArray:
    """The category strength (0 high card … 9 royal flush) of each row of an ``(n, 5)`` array of
    card indices — a second, vectorised implementation of :func:`evaluate_five`'s categories."""
    ranks = np.sort(cards // 4, axis=1)
    suits = cards % 4
    flush = (suits == suits[:, :1]).all(axis=1)
    eq = ranks[:, 1:] == ranks[:, :-1]  # adjacent equal ranks (4 flags)
    pairs = eq.sum(axis=1)  # 5 − number of distinct ranks
    # runs of equal ranks: a four-of-a-kind has three consecutive flags set
    three_run = (eq[:, :-1] & eq[:, 1:]).any(axis=1)
    four_run = (eq[:, :-2] & eq[:, 1:-1] & eq[:, 2:]).any(axis=1)
    lo, hi = ranks[:, 0], ranks[:, 4]
    distinct = pairs == 0
    wheel = distinct & (hi == 12) & (ranks[:, 3] == 3)
    straight = distinct & ((hi - lo == 4) | wheel)
    royal = straight & flush & (lo == 8)
    return np.select(
        [
            royal,
            straight & flush,
            four_run,
            three_run & (pairs == 3),
            flush,
            straight,
            three_run,
            pairs == 2,
            pairs == 1,
        ],
        [9, 8, 7, 6, 5, 4, 3, 2, 1],
        default=0,
    ).astype(np.int64)


@functools.cache
def five_card_category_table() -> IntArray:
    """The category strength of every five-card hand from one deck, by colex index.

    Built a block at a time, the hands whose highest card is the same (in colex order the hands
    topped by card ``top`` are the C(top, 4) four-card sets below it, in their own colex order,
    each with ``top``): the classifier's working arrays stay a few MB, not the ~400 MB of
    classifying all 2,598,960 hands at once."""
    from croupier.poker.four_card import combinations_array

    below = combinations_array(51, 4)
    table = np.empty(comb(52, 5), dtype=np.int8)
    start = 0
    for top in range(4, 52):
        m = comb(top, 4)
        hands = np.empty((m, 5), dtype=np.int64)
        hands[:, :4] = below[:m]
        hands[:, 4] = top
        table[start : start + m] = five_card_categories(hands)
        start += m
    table.setflags(write=False)
    return table  # type: ignore[return-value]


def best_five_categories(sorted_cards: IntArray) -> IntArray:
    """The best five-card category strength of each row of an ``(n, m)`` array of *increasing*
    card indices, m ≥ 5: the maximum over its five-card subsets, read from the colex table."""
    table = five_card_category_table()
    m = sorted_cards.shape[1]
    combs = comb_table()
    best = np.zeros(sorted_cards.shape[0], dtype=np.int8)
    for five in combinations(range(m), 5):
        idx = np.zeros(sorted_cards.shape[0], dtype=np.int64)
        for i, col in enumerate(five):
            idx += combs[sorted_cards[:, col], i + 1]
        best = np.maximum(best, table[idx])
    return best.astype(np.int64)


__all__ = [
    "FiveCardCategory",
    "FiveCardHand",
    "best_five",
    "best_five_categories",
    "colex_index",
    "evaluate_five",
    "five_card_categories",
    "five_card_category_table",
]
