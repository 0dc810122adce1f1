"""The AxMan wager's reading of a hand (58 Pa. Code § 633c.12(e)–(k)): the dealer's hand as a poker
hand, the kings of diamonds wild, the outcomes and their order. Used by the wager
(:mod:`croupier.wagers.axman`) and by its exact count (:mod:`croupier.wagers._axman_exact`), which
therefore import this module and not each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import combinations

from croupier.cards import Card, Rank, Suit, format_cards
from croupier.errors import CardError
from croupier.poker import Category, WildSuit, achievable, highest_pair, read_hand
from croupier.poker.ranking import RankedCategory
from croupier.wagers.base import OrderedOutcome

KING_OF_DIAMONDS = Card(Rank.KING, Suit.DIAMONDS)
"""The wild card of § 633c.12(j)."""


class AxManHand(RankedCategory):
    """The winning poker hands of § 633c.12(k), in the paytable's (paying) order, best first."""

    @classmethod
    def _best_first(cls) -> bool:
        return True

    STRAIGHT_FLUSH = "straight-flush"
    FIVE_OF_A_KIND = "five-of-a-kind"
    FLUSH = "flush"
    STRAIGHT = "straight"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    THREE_OF_A_KIND = "three-of-a-kind"
    TWO_PAIR = "two-pair"
    JACKS_OR_BETTER = "jacks-or-better"


_BY_CATEGORY = (
    (Category.STRAIGHT_FLUSH, AxManHand.STRAIGHT_FLUSH),
    (Category.FIVE_OF_A_KIND, AxManHand.FIVE_OF_A_KIND),
    (Category.FLUSH, AxManHand.FLUSH),
    (Category.STRAIGHT, AxManHand.STRAIGHT),
    (Category.FOUR_OF_A_KIND, AxManHand.FOUR_OF_A_KIND),
    (Category.FULL_HOUSE, AxManHand.FULL_HOUSE),
    (Category.THREE_OF_A_KIND, AxManHand.THREE_OF_A_KIND),
    (Category.TWO_PAIR, AxManHand.TWO_PAIR),
)


_POSITION = {h: i for i, h in enumerate(AxManHand)}
"""Each hand's position in the paytable, best first."""


def better(a: AxManHand | None, b: AxManHand | None) -> AxManHand | None:
    """The better-paying of two readings (``None``: no winning hand)."""
    if a is None:
        return b
    if b is None:
        return a
    return a if a >= b else b


@lru_cache(maxsize=65536)
def axman_hand(counts: tuple[int, ...], wilds: int, flush: bool) -> AxManHand | None:
    """The best AxMan hand of a poker hand (at most five cards) given as natural rank counts, the
    number of wild cards and whether all its cards can be one suit; ``None`` when it loses.

    The five-card hands exist only with five cards (§ 633c.12(g)–(h)); a pair wins only when it is
    jacks or better (§ 633c.12(i), (l)(5)).
    """
    made = achievable(counts, wilds, flush)
    for category, hand in _BY_CATEGORY:
        if category in made:
            return hand
    pair = highest_pair(counts, wilds)
    if pair is not None and pair >= Rank.JACK:
        return AxManHand.JACKS_OR_BETTER
    return None


class WildInFiveHighest(Enum):
    """How § 633c.12(f)'s "five highest cards" treats the wild king of diamonds.

    ``AS_KING`` (default): the king of diamonds is a king when the five highest are chosen (it is
    then wild among them). ``ALWAYS_KEPT``: the wild card is always one of the five (it can be any
    rank, so it is read as high as it needs to be), the rest the highest natural cards.
    """

    AS_KING = "as-king"
    ALWAYS_KEPT = "always-kept"


@dataclass(frozen=True)
class AxManReading:
    """The readings of § 633c.12 croupier had to choose (see docs/interpretations.md)."""

    five_highest: WildInFiveHighest = WildInFiveHighest.AS_KING
    """How the wild card is ranked when the five highest of six or more cards are chosen."""

    wild_suit: WildSuit = WildSuit.KEEPS_SUIT
    """Whether the wild king of diamonds keeps its suit (a diamond) or may take any suit."""


DEFAULT_READING = AxManReading()


def _is_wild(card: Card) -> bool:
    return card == KING_OF_DIAMONDS


def five_highest(
    cards: Sequence[Card], reading: AxManReading = DEFAULT_READING
) -> list[tuple[Card, ...]]:
    """The candidate poker hands of a dealer's hand under § 633c.12(f): the hand itself when it has
    five cards or fewer, else every way to take its five highest cards (several when cards of the
    rank at the cut are not all taken; the best of them is read).

    >>> from croupier.cards import parse_cards
    >>> [format_cards(h) for h in five_highest(parse_cards("2c 3h 2d 4s 5c Ad"))]
    ['Ad 5c 4s 3h 2c', 'Ad 5c 4s 3h 2d']
    """
    if len(cards) <= 5:
        return [tuple(cards)]
    wild_first = reading.five_highest is WildInFiveHighest.ALWAYS_KEPT

    def order(c: Card) -> int:
        return 15 if wild_first and _is_wild(c) else int(c.rank)

    ranked = sorted(cards, key=order, reverse=True)
    cut = order(ranked[4])
    above = [c for c in ranked if order(c) > cut]
    at_cut = [c for c in ranked if order(c) == cut]
    need = 5 - len(above)
    picks = dict.fromkeys(tuple(sorted(p, reverse=True)) for p in combinations(at_cut, need))
    return [tuple(above) + p for p in picks]


def read_poker_hand(
    cards: Sequence[Card], reading: AxManReading = DEFAULT_READING
) -> AxManHand | None:
    """The AxMan hand of at most five dealer cards (the king of diamonds wild)."""
    r = read_hand(cards, _is_wild, reading.wild_suit)
    counts = [0] * 13
    for c in cards:
        if not _is_wild(c):
            counts[c.rank.index] += 1
    return axman_hand(tuple(counts), r.wilds, Category.FLUSH in r.categories)


def read_dealer_hand(
    cards: Sequence[Card], reading: AxManReading = DEFAULT_READING
) -> AxManHand | None:
    """The AxMan hand the dealer's final hand makes (§ 633c.12(e)–(j)), or ``None`` when it loses.

    ``cards`` is the dealer's whole hand, bust card included. Raises :class:`CardError` for fewer
    than two cards.
    """
    if len(cards) < 2:
        raise CardError(
            f"the dealer's hand has at least two cards, got {len(cards)}", format_cards(cards)
        )
    best: AxManHand | None = None
    for hand in five_highest(cards, reading):
        best = better(best, read_poker_hand(hand, reading))
    return best


class AxManOutcome(OrderedOutcome):
    """The paytable's nine hands, each as printed, with one king of diamonds among the player's
    initial two cards (×2) and with two (×5), § 633c.12(j)–(k). Declared best first within a hand."""

    STRAIGHT_FLUSH_TWO_KD = "straight-flush-two-kd"
    STRAIGHT_FLUSH_ONE_KD = "straight-flush-one-kd"
    STRAIGHT_FLUSH = "straight-flush"
    FIVE_OF_A_KIND_TWO_KD = "five-of-a-kind-two-kd"
    FIVE_OF_A_KIND_ONE_KD = "five-of-a-kind-one-kd"
    FIVE_OF_A_KIND = "five-of-a-kind"
    FLUSH_TWO_KD = "flush-two-kd"
    FLUSH_ONE_KD = "flush-one-kd"
    FLUSH = "flush"
    STRAIGHT_TWO_KD = "straight-two-kd"
    STRAIGHT_ONE_KD = "straight-one-kd"
    STRAIGHT = "straight"
    FOUR_OF_A_KIND_TWO_KD = "four-of-a-kind-two-kd"
    FOUR_OF_A_KIND_ONE_KD = "four-of-a-kind-one-kd"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE_TWO_KD = "full-house-two-kd"
    FULL_HOUSE_ONE_KD = "full-house-one-kd"
    FULL_HOUSE = "full-house"
    THREE_OF_A_KIND_TWO_KD = "three-of-a-kind-two-kd"
    THREE_OF_A_KIND_ONE_KD = "three-of-a-kind-one-kd"
    THREE_OF_A_KIND = "three-of-a-kind"
    TWO_PAIR_TWO_KD = "two-pair-two-kd"
    TWO_PAIR_ONE_KD = "two-pair-one-kd"
    TWO_PAIR = "two-pair"
    JACKS_OR_BETTER_TWO_KD = "jacks-or-better-two-kd"
    JACKS_OR_BETTER_ONE_KD = "jacks-or-better-one-kd"
    JACKS_OR_BETTER = "jacks-or-better"

    @property
    def hand(self) -> AxManHand:
        """The dealer's poker hand."""
        return AxManHand(self.line_key)

    @property
    def kings_of_diamonds(self) -> int:
        """How many kings of diamonds the player's initial two cards hold (0, 1 or 2)."""
        return 2 if self.key.endswith("-two-kd") else 1 if self.key.endswith("-one-kd") else 0

    @property
    def line_key(self) -> str:
        """The paytable line: the hand's."""
        return self.key.removesuffix("-two-kd").removesuffix("-one-kd")

    @property
    def multiplier_condition(self) -> str | None:
        """The paytable multiplier of § 633c.12(j) for the player's kings of diamonds."""
        return _CONDITIONS[self.kings_of_diamonds]

    @staticmethod
    def of(hand: AxManHand, kings_of_diamonds: int) -> AxManOutcome:
        """The outcome of ``hand`` with the player holding 0, 1 or 2 kings of diamonds."""
        return _OUTCOME[hand, min(kings_of_diamonds, 2)]


_CONDITIONS: dict[int, str | None] = {
    0: None,
    1: "one-king-of-diamonds",
    2: "two-kings-of-diamonds",
}
_SUFFIX = {0: "", 1: "-one-kd", 2: "-two-kd"}
_OUTCOME = {(h, k): AxManOutcome(h.value + _SUFFIX[k]) for h in AxManHand for k in (0, 1, 2)}


def outcome_position(hand: AxManHand | None, kings_of_diamonds: int) -> int:
    """The :attr:`OrderedOutcome.position` of an AxMan result (27 when the wager loses)."""
    if hand is None:
        return len(AxManOutcome)
    return _POSITION[hand] * 3 + (2 - min(kings_of_diamonds, 2))
