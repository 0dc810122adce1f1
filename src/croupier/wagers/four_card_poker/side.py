"""The Four Card Poker side wagers (§ 641a.7(d)(2), (4)–(8)): Aces Up, the four- and five-card
progressives, the Five Card Hand Bonus (player's and dealer's), the Six Card Bonus and the Bad Beat
Bonus."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from croupier.cards import Card, Shoe
from croupier.errors import InputError
from croupier.games.four_card_poker import (
    DealtRound,
    Result,
)
from croupier.games.four_card_poker_exact import showdown_joint
from croupier.poker.five_card import (
    FiveCardCategory,
    best_five,
    best_five_categories,
    five_card_categories,
)
from croupier.poker.four_card import (
    FourCardCategory,
    best_four,
    best_four_ordinals,
    category_of_ordinal,
    distinct_keys,
)
from croupier.wagers.base import (
    DealSpec,
    OrderedOutcome,
)
from croupier.wagers.four_card_poker.common import (
    _SHOWDOWN_CONVENTION,
    BONUS_CARD,
    DEALER,
    FOUR_CARD_POKER_WAGER,
    PLAYER,
    FourCardPokerWager,
    _aces_pairs,
    _present,
    _subset_categories,
)
from croupier.wagers.registry import register

if TYPE_CHECKING:
    import numpy as np

    from croupier.poker.four_card import IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np

# -- Aces Up and the four-card progressive ---------------------------------------------------------


class AcesUpOutcome(OrderedOutcome):
    """Aces Up: the player's best four-card hand, pair of aces or better (§ 641a.7(d)(2))."""

    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    THREE_OF_A_KIND = "three-of-a-kind"
    FLUSH = "flush"
    STRAIGHT = "straight"
    TWO_PAIR = "two-pair"
    PAIR_OF_ACES = "pair-of-aces"


_FOUR_KEYS = {c.strength: c.value for c in FourCardCategory}


@register
class AcesUp(FourCardPokerWager):
    """The Aces Up wager on the player's best four of five (58 Pa. Code § 641a.7(d)(2))."""

    spec = FOUR_CARD_POKER_WAGER(
        id="aces-up",
        name="Aces Up",
        settle_rule="641a.7(d)(2)",
        outcomes=AcesUpOutcome,
        deal=DealSpec((PLAYER,)),
        stands_alone=True,
        kernel="croupier.analysis.kernels.four_card_poker:best_four_plan",
    )

    def classify(self, cards: Sequence[Card]) -> AcesUpOutcome | None:
        """§ 641a.7(d)(2): the category of the player's best four, pair of aces or better."""
        hand = best_four(cards)
        if hand.category is FourCardCategory.PAIR:
            return AcesUpOutcome.PAIR_OF_ACES if hand.tiebreak[0].value == 14 else None
        if hand.category is FourCardCategory.HIGH_CARD:
            return None
        return AcesUpOutcome(hand.category.value)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 5)`` card indices."""
        keys = distinct_keys()[best_four_ordinals(cards)]
        strength = keys // 13**4
        aces = (keys // 13**3) % 13 == 12
        out = _lut(AcesUpOutcome, _FOUR_KEYS)[strength]
        ace_pair, lose = AcesUpOutcome.PAIR_OF_ACES.position, len(AcesUpOutcome)
        return np.where(strength == 1, np.where(aces, ace_pair, lose), out)

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Every five-card hand from the (one-deck) shoe, counted by its best four."""
        _present(shoe, self.spec.name)
        by_strength = _subset_categories(shoe.counts, 5, "four")
        tallies = list(_tally(AcesUpOutcome, _FOUR_KEYS, by_strength))  # a pair: not yet paid
        tallies[AcesUpOutcome.PAIR_OF_ACES.position] = _aces_pairs(shoe.counts)
        tallies[-1] = sum(by_strength) - sum(tallies[:-1])
        return tuple(tallies)


class FourCardProgressiveOutcome(OrderedOutcome):
    """A Four-Card Progressive Payout Hand: a four-card three-of-a-kind or better (§ 641a.1)."""

    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    THREE_OF_A_KIND = "three-of-a-kind"


@register
class FourCardProgressive(FourCardPokerWager):
    """The Four-Card Progressive Payout wager (58 Pa. Code § 641a.7(d)(4))."""

    spec = FOUR_CARD_POKER_WAGER(
        id="four-card-progressive",
        name="Four-Card Progressive Payout",
        settle_rule="641a.7(d)(4)",
        outcomes=FourCardProgressiveOutcome,
        deal=DealSpec((PLAYER,)),
        # § 641a.7(d)(4): "After placing an Ante Wager or an Aces Up Wager, or both"
        base_wagers=("four-card-poker", "aces-up"),
        base_rule="641a.7(d)(4)",
        kernel="croupier.analysis.kernels.four_card_poker:best_four_plan",
    )

    def classify(self, cards: Sequence[Card]) -> FourCardProgressiveOutcome | None:
        """The player's best four: three-of-a-kind or better."""
        cat = best_four(cards).category
        if cat in (
            FourCardCategory.FOUR_OF_A_KIND,
            FourCardCategory.STRAIGHT_FLUSH,
            FourCardCategory.THREE_OF_A_KIND,
        ):
            return FourCardProgressiveOutcome(cat.value)
        return None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 5)`` card indices."""
        out: IntArray = _lut(FourCardProgressiveOutcome, _FOUR_KEYS)[
            category_of_ordinal(best_four_ordinals(cards))
        ]
        return out

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Every five-card hand from the (one-deck) shoe, by its best four."""
        _present(shoe, self.spec.name)
        return _tally(
            FourCardProgressiveOutcome, _FOUR_KEYS, _subset_categories(shoe.counts, 5, "four")
        )


def _lut(outcomes: type[OrderedOutcome], names: dict[int, str]) -> IntArray:
    pos = {o.key: o.position for o in outcomes}
    lose = len(outcomes)
    return np.array([pos.get(names[s], lose) for s in range(len(names))], dtype=np.int64)


def _tally(
    outcomes: type[OrderedOutcome],
    names: dict[int, str],
    by_strength: Sequence[int],
    scale: int = 1,
) -> tuple[int, ...]:
    lut = _lut(outcomes, names)
    tallies = [0] * (len(outcomes) + 1)
    for s, n in enumerate(by_strength):
        tallies[int(lut[s])] += n * scale
    return tuple(tallies)


# -- five-card wagers ------------------------------------------------------------------------------

_FIVE_KEYS = {c.strength: c.value for c in FiveCardCategory}


class FiveCardProgressiveOutcome(OrderedOutcome):
    """A Five-Card Progressive Payout Hand: a five-card three-of-a-kind or better (§ 641a.1)."""

    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three-of-a-kind"


class FiveCardBonusOutcome(OrderedOutcome):
    """A five-card flush or better (§ 641a.7(d)(7), ranked as § 641a.6(d))."""

    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"


class SixCardBonusOutcome(OrderedOutcome):
    """Three-of-a-kind or better from the player's five cards and the Six Card Bonus card
    (§ 641a.7(d)(8)), read as the best five-card hand of the six."""

    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three-of-a-kind"


FIVE_CARD_WAGER = partial(
    FOUR_CARD_POKER_WAGER, kernel="croupier.analysis.kernels.four_card_poker:five_card_plan"
)
"""The spec of a wager on the best five-card hand of the cards it reads."""


class _FiveCardWager(FourCardPokerWager):
    """A wager on the best five-card hand of the cards it reads."""

    def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
        """The best five-card category, if the wager pays it."""
        key = best_five(cards).category.value
        return self.spec.outcomes(key) if key in self.spec.outcomes._value2member_map_ else None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify`."""
        srt = np.sort(cards, axis=1)
        cats = five_card_categories(srt) if srt.shape[1] == 5 else best_five_categories(srt)
        return _lut(self.spec.outcomes, _FIVE_KEYS)[cats]

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Every set of the cards read from the (one-deck) shoe, by its best five."""
        _present(shoe, self.spec.name)
        k = self.spec.deal.size
        by_strength = _subset_categories(shoe.counts, k, "five")
        scale = 1
        if len(self.spec.deal.groups) == 2:  # five cards + one more card in its own group
            scale = k
        return _tally(self.spec.outcomes, _FIVE_KEYS, by_strength, scale)


@register
class FiveCardProgressive(_FiveCardWager):
    """The Five-Card Progressive Payout wager (58 Pa. Code § 641a.7(d)(5))."""

    spec = FIVE_CARD_WAGER(
        id="five-card-progressive",
        name="Five-Card Progressive Payout",
        settle_rule="641a.7(d)(5)",
        outcomes=FiveCardProgressiveOutcome,
        deal=DealSpec((PLAYER,)),
        # § 641a.7(d)(5): "After placing an Ante Wager or an Aces Up Wager, or both"
        base_wagers=("four-card-poker", "aces-up"),
        base_rule="641a.7(d)(5)",
    )


@register
class FiveCardHandBonus(_FiveCardWager):
    """The Five Card Hand Bonus wager on the player's five cards (§ 641a.7(d)(7))."""

    spec = FIVE_CARD_WAGER(
        id="five-card-hand-bonus",
        name="Five Card Hand Bonus (player's hand)",
        settle_rule="641a.7(d)(7)",
        outcomes=FiveCardBonusOutcome,
        deal=DealSpec((PLAYER,)),
        base_wagers=("four-card-poker",),
        base_rule="641a.7(d)(7)",
    )


@register
class FiveCardHandBonusDealer(_FiveCardWager):
    """The Five Card Hand Bonus wager on the dealer's five-card hand, read as the best five of
    the dealer's six cards (§ 641a.7(d)(7); docs/interpretations.md)."""

    spec = FIVE_CARD_WAGER(
        id="five-card-hand-bonus-dealer",
        name="Five Card Hand Bonus (dealer's hand)",
        settle_rule="641a.7(d)(7)",
        outcomes=FiveCardBonusOutcome,
        deal=DealSpec((DEALER,)),
        base_wagers=("four-card-poker",),
        base_rule="641a.7(d)(7)",
    )


@register
class SixCardBonus(_FiveCardWager):
    """The Six Card Bonus wager (58 Pa. Code § 641a.7(d)(8))."""

    spec = FIVE_CARD_WAGER(
        id="six-card-bonus",
        name="Six Card Bonus",
        settle_rule="641a.7(d)(8)",
        outcomes=SixCardBonusOutcome,
        deal=DealSpec((PLAYER, BONUS_CARD)),
        base_wagers=("four-card-poker",),
        base_rule="641a.7(d)(8)",
    )


# -- wagers on the showdown -----------------------------------------------------------------------


class BadBeatOutcome(OrderedOutcome):
    """The rank of the losing hand, two pair or better, when the other hand outranks it
    (§ 641a.7(d)(6))."""

    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    THREE_OF_A_KIND = "three-of-a-kind"
    FLUSH = "flush"
    STRAIGHT = "straight"
    TWO_PAIR = "two-pair"


def _full_deck(shoe: Shoe, name: str) -> None:
    _present(shoe, name)
    if shoe.total != 52:
        raise InputError(
            f"the exact {name} analysis covers a full deck (it reads the shipped dealer table), "
            f"not a {shoe}"
        )


@register
class BadBeatBonus(FourCardPokerWager):
    """The Bad Beat Bonus wager (58 Pa. Code § 641a.7(d)(6)): wins when the player's hand is two
    pair or better and the dealer's outranks it, or the dealer's is two pair or better and the
    player's outranks it; paid on the rank of the losing hand."""

    spec = FOUR_CARD_POKER_WAGER(
        id="bad-beat-bonus",
        name="Bad Beat Bonus",
        settle_rule="641a.7(d)(6)",
        outcomes=BadBeatOutcome,
        deal=DealSpec((PLAYER, DEALER)),
        kernel="croupier.analysis.kernels.four_card_poker:bad_beat_plan",
    )

    def classify(self, cards: Sequence[Card]) -> BadBeatOutcome | None:
        """The losing hand's category, when it is two pair or better and strictly beaten."""
        show = DealtRound(tuple(cards[:5]), tuple(cards[5:])).showdown()
        if show.result is Result.TIE:
            return None
        loser = show.player if show.result is Result.DEALER_WINS else show.dealer
        key = loser.category.value
        return BadBeatOutcome(key) if key in BadBeatOutcome._value2member_map_ else None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 11)`` card indices."""
        p = best_four_ordinals(cards[:, :5])
        d = best_four_ordinals(cards[:, 5:])
        loser = np.minimum(p, d)
        out = _lut(BadBeatOutcome, _FOUR_KEYS)[category_of_ordinal(loser)]
        return np.where(p == d, len(BadBeatOutcome), out)

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """From the joint (player category, dealer category, result) counts of every deal of the
        player's five and the dealer's six from the (one-deck) shoe: the shipped dealer table's
        for a full deck, else :func:`~croupier.games.four_card_poker_exact.showdown_joint` of the
        cards the shoe holds (a deck less one card: the effect of removal)."""
        joint = showdown_joint([int(i) for i in _present(shoe, self.spec.name)])
        tallies = [0] * (len(BadBeatOutcome) + 1)
        lut = _lut(BadBeatOutcome, _FOUR_KEYS)
        for p in range(8):
            for d in range(8):
                tallies[int(lut[d])] += int(joint[p, d, 0])  # the dealer's hand lost
                tallies[int(lut[p])] += int(joint[p, d, 2])  # the player's hand lost
                tallies[-1] += int(joint[p, d, 1])
        return tuple(tallies)

    def counting_convention(self, shoe: Shoe) -> str:
        """Player's five and dealer's six, unordered, from one deck (or the cards it holds)."""
        if shoe.total == 52:
            return _SHOWDOWN_CONVENTION
        n = shoe.total
        return (
            f"every deal of the player's five cards and the dealer's six from the {n} cards "
            f"left (C({n},5) × C({n - 5},6)); each card distinct"
        )
