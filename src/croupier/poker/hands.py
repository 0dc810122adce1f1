"""Which poker hands a handful of cards (at most five) can make, with duplicates and wild cards.

Cards from a multi-deck shoe can repeat (two 7♠), so five-of-a-kind exists and a flush may hold a
pair. A *wild* card "can be assigned any rank" (58 Pa. Code § 633c.12(j)); whether it also takes any
suit is a reading (:class:`WildSuit`). The evaluator works on *rank counts* (how many natural cards
of each rank) and a *suit pattern* (whether every card can be of one suit), never by enumerating
what the wild cards stand for: :func:`achievable` answers, for each category, whether some
assignment of the wild cards makes it.

The categories are defined as a containment, the way a regulation's definitions read ("Three of the
dealer's cards are the same rank"): a full house *also* makes three-of-a-kind and a pair. The game
ranks what was made by its own paytable (AxMan ranks a flush above four-of-a-kind).

* five-of-a-kind, straight flush, full house, flush and straight need exactly five cards;
* straight: five consecutive ranks, the ace high (10-J-Q-K-A) or low (A-2-3-4-5), no wrap-around;
* two pair: two pairs of different ranks; four-of-a-kind: four cards of one rank.

>>> from croupier.cards import parse_cards
>>> sorted(c.name for c in read_hand(parse_cards("As 2d 3c 4h 5s")).categories)
['HIGH_CARD', 'STRAIGHT']
>>> wild = lambda c: str(c) == "Kd"
>>> Category.STRAIGHT in read_hand(parse_cards("Ah 3c 4s 5d Kd"), wild).categories  # K♦ as a 2
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from croupier.cards import Card, Rank, Suit, format_cards
from croupier.errors import CardError
from croupier.poker.ranking import RankedCategory

RankCounts = tuple[int, ...]
"""How many natural cards of each rank, indexed by :attr:`Rank.index` (deuce 0 … ace 12)."""


class Category(RankedCategory):
    """A poker hand category, in the usual order with wild cards (five-of-a-kind highest),
    declared best first."""

    @classmethod
    def _best_first(cls) -> bool:
        return True

    FIVE_OF_A_KIND = "five-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three-of-a-kind"
    TWO_PAIR = "two-pair"
    PAIR = "pair"
    HIGH_CARD = "high-card"


class WildSuit(Enum):
    """Whether a wild card keeps its own suit (``KEEPS_SUIT``: the rule assigns it a rank only, so
    the king of diamonds is still a diamond) or may also stand for any suit (``ANY_SUIT``)."""

    KEEPS_SUIT = "keeps-suit"
    ANY_SUIT = "any-suit"


_WINDOWS: tuple[frozenset[int], ...] = (
    frozenset({12, 0, 1, 2, 3}),
    *tuple(frozenset(range(low, low + 5)) for low in range(9)),
)
"""The ten straights as sets of rank indices: A-2-3-4-5, 2-3-4-5-6, …, 10-J-Q-K-A."""


@lru_cache(maxsize=65536)
def achievable(counts: RankCounts, wilds: int, flush: bool) -> frozenset[Category]:
    """The categories that ``counts`` natural cards and ``wilds`` wild cards can make.

    ``flush`` says whether every card can be of one suit (see :func:`suits_allow_flush`); it
    matters only with five cards. Raises :class:`~croupier.errors.CardError` for more than five
    cards or a malformed count.

    >>> sevens = tuple(3 if i == 5 else 0 for i in range(13))        # 7 7 7
    >>> sorted(c.name for c in achievable(sevens, 2, False))[:3]
    ['FIVE_OF_A_KIND', 'FOUR_OF_A_KIND', 'FULL_HOUSE']
    """
    if len(counts) != 13 or min(counts) < 0 or wilds < 0:
        raise CardError(f"rank counts need 13 entries ≥ 0, got {counts} and {wilds} wild", "")
    n = sum(counts) + wilds
    if n > 5:
        raise CardError(f"a poker hand here has at most five cards, not {n}", "")
    made = {Category.HIGH_CARD}
    present = sorted((c for c in counts if c), reverse=True)
    top = present[0] if present else 0
    second = present[1] if len(present) > 1 else 0
    if top + wilds >= 2:
        made.add(Category.PAIR)
    if top + wilds >= 3:
        made.add(Category.THREE_OF_A_KIND)
    if top + wilds >= 4:
        made.add(Category.FOUR_OF_A_KIND)
    if n >= 4 and max(0, 2 - top) + max(0, 2 - second) <= wilds:
        made.add(Category.TWO_PAIR)
    if n == 5:
        if len(present) <= 1:
            made.add(Category.FIVE_OF_A_KIND)
        if len(present) <= 2 and top <= 3:
            made.add(Category.FULL_HOUSE)
        ranks = frozenset(i for i, c in enumerate(counts) if c)
        straight = top <= 1 and any(ranks <= w for w in _WINDOWS)
        if straight:
            made.add(Category.STRAIGHT)
        if flush:
            made.add(Category.FLUSH)
            if straight:
                made.add(Category.STRAIGHT_FLUSH)
    return frozenset(made)


def highest_pair(counts: RankCounts, wilds: int) -> Rank | None:
    """The highest rank of a pair the cards can make, or ``None`` (two wild cards pair as aces).

    >>> highest_pair((0,) * 9 + (1, 0, 0, 0), 1)   # a jack and a wild card: a pair of jacks
    <Rank.JACK: 11>
    """
    for i in range(12, -1, -1):
        if counts[i] + wilds >= 2 and (counts[i] or wilds >= 2):
            return Rank(i + 2)
    return None


def suits_allow_flush(
    natural_suits: Sequence[Suit], wild_suits: Sequence[Suit], reading: WildSuit
) -> bool:
    """Whether every card can be of one suit: the natural cards share a suit and each wild card
    either has it (:attr:`WildSuit.KEEPS_SUIT`) or takes it (:attr:`WildSuit.ANY_SUIT`)."""
    suits = set(natural_suits)
    if len(suits) > 1:
        return False
    if reading is WildSuit.ANY_SUIT:
        return True
    return len(suits | set(wild_suits)) <= 1


@dataclass(frozen=True)
class PokerReading:
    """What a hand of at most five cards can make: its categories and its highest pair."""

    cards: tuple[Card, ...]
    wilds: int
    categories: frozenset[Category]
    highest_pair: Rank | None


def read_hand(
    cards: Sequence[Card],
    wild: Callable[[Card], bool] | None = None,
    wild_suit: WildSuit = WildSuit.KEEPS_SUIT,
) -> PokerReading:
    """Read up to five cards as a poker hand; ``wild`` says which cards are wild.

    Raises :class:`~croupier.errors.CardError` naming the cards when there are more than five.

    >>> from croupier.cards import parse_cards
    >>> r = read_hand(parse_cards("Qh Qh 9s 9s 9s"))
    >>> Category.FULL_HOUSE in r.categories, r.highest_pair
    (True, <Rank.QUEEN: 12>)
    """
    if len(cards) > 5:
        raise CardError(
            f"a poker hand here has at most five cards, not {len(cards)}", format_cards(cards)
        )
    is_wild = wild or (lambda _c: False)
    counts = [0] * 13
    naturals: list[Suit] = []
    wilds: list[Suit] = []
    for c in cards:
        if is_wild(c):
            wilds.append(c.suit)
        else:
            counts[c.rank.index] += 1
            naturals.append(c.suit)
    key = tuple(counts)
    flush = len(cards) == 5 and suits_allow_flush(naturals, wilds, wild_suit)
    return PokerReading(
        tuple(cards),
        len(wilds),
        achievable(key, len(wilds), flush),
        highest_pair(key, len(wilds)),
    )
