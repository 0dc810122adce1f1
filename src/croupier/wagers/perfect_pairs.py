"""Perfect Pairs wager — 58 Pa. Code § 633b.1.

Placed with a Blackjack wager; wins when the player's initial two cards are a pair
(§ 633b.1(c)), settled right after the second card is dealt to each player and the dealer
(§ 633b.1(e)), paid from paytable A or B (§ 633b.1(f)). Definitions, § 633b.1(a):

* Perfect Pair — same rank, same color, same suit (only possible from two or more decks);
* Colored Pair — same rank, same color, different suits;
* Mixed Pair — same rank, different colors.

>>> from croupier.cards import parse_cards
>>> pp = PerfectPairs()
>>> [pp.evaluate(parse_cards(h)) for h in ("8s 8s", "8h 8d", "8h 8c", "8h 9h")]
... # doctest: +NORMALIZE_WHITESPACE
[<PerfectPairsOutcome.PERFECT_PAIR: 'perfect-pair'>, <PerfectPairsOutcome.COLORED_PAIR:
 'colored-pair'>, <PerfectPairsOutcome.MIXED_PAIR: 'mixed-pair'>, None]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.cards import Card
from croupier.wagers.at_table import CardSource, SettleWhen
from croupier.wagers.base import CardGroup, DealSpec, Game, OrderedOutcome, Wager
from croupier.wagers.registry import register
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:  # numpy is imported by the vectorised classification (start-up)
    from croupier.wagers.base import IntArray


class PerfectPairsOutcome(OrderedOutcome):
    """The winning combinations of § 633b.1(a), best first."""

    PERFECT_PAIR = "perfect-pair"
    COLORED_PAIR = "colored-pair"
    MIXED_PAIR = "mixed-pair"


@register
class PerfectPairs(Wager):
    """The Perfect Pairs wager on the player's initial two cards (58 Pa. Code § 633b.1)."""

    spec = WagerSpec(
        id="perfect-pairs",
        name="Perfect Pairs",
        game=Game.BLACKJACK,
        section="633b.1",
        settle_rule="633b.1(e)",
        outcomes=PerfectPairsOutcome,
        deal=DealSpec((CardGroup("player's initial two cards", 2, source=CardSource.PLAYER),)),
        base_wagers=("blackjack",),
        base_rule="633b.1(c)",
        settled=SettleWhen.SECOND_CARD,
        lockout_rule="633b.1(d)",
        kernel="croupier.analysis.kernels.plans:perfect_pairs",
    )

    def classify(self, cards: Sequence[Card]) -> PerfectPairsOutcome | None:
        """§ 633b.1(a): the pair the two cards form, or ``None``."""
        a, b = cards
        if a.rank != b.rank:
            return None
        if a.suit == b.suit:
            return PerfectPairsOutcome.PERFECT_PAIR
        if a.color == b.color:
            return PerfectPairsOutcome.COLORED_PAIR
        return PerfectPairsOutcome.MIXED_PAIR

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on an ``(n, 2)`` array of card indices."""
        import numpy as np

        red = np.array([False, True, True, False])  # clubs, diamonds, hearts, spades
        rank, suit = cards // 4, cards % 4
        pair = rank[:, 0] == rank[:, 1]
        same_suit = suit[:, 0] == suit[:, 1]
        same_color = red[suit[:, 0]] == red[suit[:, 1]]
        return np.select(
            [pair & same_suit, pair & same_color, pair],
            [0, 1, 2],
            default=len(PerfectPairsOutcome),
        ).astype(np.int64)
