"""Ultimate Pairs wager — 58 Pa. Code § 674b.1.

Placed with the Criss-Cross Poker wagers (§ 674b.1(a)); wins when the player's two cards form a
combination of the selected paytable (§ 674b.1(e)), paid from paytables A–E (§ 674b.1(f)); stays in
action when the player folds (§ 674b.1(c)). Criss-Cross Poker is dealt from one deck.

Each hand is paid once, on the most specific line that describes it (ace/king suited is paid as
"Ace/king (suited)", not also as "Ace/king"). Where a paytable prints "N/A" for the ace of hearts
and ace of diamonds, that hand is paid as "Ace/ace" (docs/interpretations.md).

>>> from croupier.cards import parse_cards
>>> up = UltimatePairs()
>>> up.evaluate(parse_cards("Ah Ad")), up.evaluate(parse_cards("Js Ac"))
... # doctest: +NORMALIZE_WHITESPACE
(<UltimatePairsOutcome.ACE_HEARTS_ACE_DIAMONDS: 'ace-hearts-ace-diamonds'>,
 <UltimatePairsOutcome.ACE_QUEEN_OR_JACK: 'ace-queen-or-jack'>)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.cards import Card, Rank, Suit
from croupier.wagers.at_table import CardSource
from croupier.wagers.base import CardGroup, DealSpec, Game, OrderedOutcome, Wager
from croupier.wagers.registry import register
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:
    import numpy as np

    from croupier.wagers.base import IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np


class UltimatePairsOutcome(OrderedOutcome):
    """The winning combinations of § 674b.1(f), in printed order."""

    ACE_HEARTS_ACE_DIAMONDS = "ace-hearts-ace-diamonds"
    ACE_ACE = "ace-ace"
    ACE_KING_SUITED = "ace-king-suited"
    ACE_QUEEN_OR_JACK_SUITED = "ace-queen-or-jack-suited"
    ACE_KING = "ace-king"
    KINGS_QUEENS_OR_JACKS = "kings-queens-or-jacks"
    ACE_QUEEN_OR_JACK = "ace-queen-or-jack"
    PAIR_TENS_OR_LESS = "pair-tens-or-less"


_A, _K, _Q, _J, _T = (r.index for r in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN))


@register
class UltimatePairs(Wager):
    """Ultimate Pairs on the player's two Criss-Cross Poker cards (58 Pa. Code § 674b.1)."""

    spec = WagerSpec(
        id="ultimate-pairs",
        name="Ultimate Pairs",
        game=Game.CRISS_CROSS_POKER,
        section="674b.1",
        settle_rule="674b.1(d)",
        outcomes=UltimatePairsOutcome,
        deal=DealSpec((CardGroup("player's two cards", 2, source=CardSource.PLAYER),)),
        allowed_decks=(1,),
        decks_rule="674b.1(a), Criss-Cross Poker of Chapter 674a",
        fallbacks={"ace-hearts-ace-diamonds": "ace-ace"},
        base_wagers=("criss-cross",),
        base_rule="674b.1(a)",
    )

    def classify(self, cards: Sequence[Card]) -> UltimatePairsOutcome | None:
        """§ 674b.1(f): the most specific paytable line the two cards make, or ``None``."""
        a, b = sorted(cards, reverse=True)
        Out = UltimatePairsOutcome
        if a.rank == b.rank:
            if a.rank is Rank.ACE:
                if {a.suit, b.suit} == {Suit.HEARTS, Suit.DIAMONDS}:
                    return Out.ACE_HEARTS_ACE_DIAMONDS
                return Out.ACE_ACE
            if a.rank >= Rank.JACK:
                return Out.KINGS_QUEENS_OR_JACKS
            return Out.PAIR_TENS_OR_LESS
        if a.rank is not Rank.ACE:
            return None
        suited = a.suit == b.suit
        if b.rank is Rank.KING:
            return Out.ACE_KING_SUITED if suited else Out.ACE_KING
        if b.rank in (Rank.QUEEN, Rank.JACK):
            return Out.ACE_QUEEN_OR_JACK_SUITED if suited else Out.ACE_QUEEN_OR_JACK
        return None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on an ``(n, 2)`` array of card indices."""
        r1, r2 = cards[:, 0] // 4, cards[:, 1] // 4
        s1, s2 = cards[:, 0] % 4, cards[:, 1] % 4
        pair = r1 == r2
        red_aces = (
            pair
            & (r1 == _A)
            & (np.minimum(s1, s2) == Suit.DIAMONDS)
            & (np.maximum(s1, s2) == Suit.HEARTS)
        )
        other = np.where(r1 == _A, r2, r1)
        ace_x = ~pair & ((r1 == _A) | (r2 == _A))
        suited = s1 == s2
        q_or_j = (other == _Q) | (other == _J)
        return np.select(
            [
                red_aces,
                pair & (r1 == _A),
                ace_x & (other == _K) & suited,
                ace_x & q_or_j & suited,
                ace_x & (other == _K),
                pair & (r1 >= _J),
                ace_x & q_or_j,
                pair & (r1 <= _T),
            ],
            list(range(8)),
            default=len(UltimatePairsOutcome),
        ).astype(np.int64)
