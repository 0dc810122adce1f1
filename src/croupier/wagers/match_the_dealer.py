"""Match the Dealer Progressive wager — 58 Pa. Code § 633b.3.

Placed with a Blackjack wager at a 6- or 8-deck table (§ 633b.3(b)) for $1 or $5 (§ 633b.3(e));
wins when one or both of the player's two cards match the dealer's upcard (§ 633b.3(a)); settled
right after the second card is dealt to each player and the dealer (§ 633b.3(g)), from one of the
six- or eight-deck paytables 1–10 (§ 633b.3(i)). The two suited-match lines pay a share of the
progressive meter, seeded at 1,000 times the wager (§ 633b.3(j)).

A *suited match* is a player card of the upcard's rank and suit; a *non-suited match* one of its rank
in another suit.

>>> from croupier.cards import parse_cards
>>> mtd = MatchTheDealer()
>>> mtd.evaluate(parse_cards("As As As"))
<MatchTheDealerOutcome.TWO_SUITED_MATCH_ACES_OF_SPADES: 'two-suited-match-aces-of-spades'>
>>> mtd.evaluate(parse_cards("7h 7c 7h"))   # player 7♥ 7♣, dealer upcard 7♥
<MatchTheDealerOutcome.NON_SUITED_AND_SUITED_MATCH: 'non-suited-and-suited-match'>
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING

from croupier.cards import Card, Rank, Shoe, Suit
from croupier.wagers.at_table import CardSource, SettleWhen
from croupier.wagers.base import CardGroup, DealSpec, Game, OrderedOutcome, Wager
from croupier.wagers.registry import register
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:  # numpy is imported by the vectorised classification (start-up)
    from croupier.wagers.base import IntArray


class MatchTheDealerOutcome(OrderedOutcome):
    """The six winning combinations of § 633b.3(a)(1)–(6), best first."""

    TWO_SUITED_MATCH_ACES_OF_SPADES = "two-suited-match-aces-of-spades"
    TWO_SUITED_MATCH = "two-suited-match"
    NON_SUITED_AND_SUITED_MATCH = "non-suited-and-suited-match"
    SUITED_MATCH = "suited-match"
    TWO_NON_SUITED_MATCHES = "two-non-suited-matches"
    NON_SUITED_MATCH = "non-suited-match"


_ACE_OF_SPADES = Card(Rank.ACE, Suit.SPADES).index


@register
class MatchTheDealer(Wager):
    """Match the Dealer Progressive: the player's two cards against the dealer's upcard
    (58 Pa. Code § 633b.3). Cards in dealing order: player's two cards, then the upcard."""

    spec = WagerSpec(
        id="match-the-dealer",
        name="Match the Dealer Progressive",
        game=Game.BLACKJACK,
        section="633b.3",
        settle_rule="633b.3(g)",
        outcomes=MatchTheDealerOutcome,
        deal=DealSpec(
            (
                CardGroup("player's two cards", 2, source=CardSource.PLAYER),
                CardGroup("dealer's upcard", 1, ordered=True, source=CardSource.DEALER_UPCARD),
            )
        ),
        allowed_decks=(6, 8),
        decks_rule="633b.3(b)",
        wager_amount_rule="633b.3(e)",
        seed_rule="633b.3(j)",
        base_wagers=("blackjack",),
        base_rule="633b.3(e)",
        settled=SettleWhen.SECOND_CARD,
        lockout_rule="633b.3(d)(2)",
        kernel="croupier.analysis.kernels.plans:match_the_dealer",
    )

    def classify(self, cards: Sequence[Card]) -> MatchTheDealerOutcome | None:
        """§ 633b.3(a): the combination the player's two cards make with the upcard, or ``None``."""
        p1, p2, up = cards
        suited = (p1 == up) + (p2 == up)
        non_suited = (p1.rank == up.rank and p1 != up) + (p2.rank == up.rank and p2 != up)
        if suited == 2:
            if up.rank is Rank.ACE and up.suit is Suit.SPADES:
                return MatchTheDealerOutcome.TWO_SUITED_MATCH_ACES_OF_SPADES
            return MatchTheDealerOutcome.TWO_SUITED_MATCH
        if suited == 1:
            if non_suited == 1:
                return MatchTheDealerOutcome.NON_SUITED_AND_SUITED_MATCH
            return MatchTheDealerOutcome.SUITED_MATCH
        if non_suited == 2:
            return MatchTheDealerOutcome.TWO_NON_SUITED_MATCHES
        if non_suited == 1:
            return MatchTheDealerOutcome.NON_SUITED_MATCH
        return None

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Exact counts under the generic convention (the player's pair unordered, the upcard any
        card), by the cards each upcard leaves rather than deal by deal: an upcard of which the
        shoe holds u copies leaves u − 1 suited copies, m cards of its rank in other suits and
        the rest; the player's pair is two of them (C(u − 1, 2) two suited matches, and so on)."""
        out = MatchTheDealerOutcome
        tallies = [0] * (len(out) + 1)
        counts = shoe.counts
        n = shoe.total
        for up, copies in enumerate(counts):
            if not copies:
                continue
            suited = copies - 1
            rank = up - up % 4  # card index: rank index × 4 + suit
            non_suited = sum(counts[rank : rank + 4]) - copies
            others = n - 1 - suited - non_suited
            two_suited = (
                out.TWO_SUITED_MATCH_ACES_OF_SPADES
                if up == _ACE_OF_SPADES
                else out.TWO_SUITED_MATCH
            )
            for outcome, pairs in (
                (two_suited, comb(suited, 2)),
                (out.NON_SUITED_AND_SUITED_MATCH, suited * non_suited),
                (out.SUITED_MATCH, suited * others),
                (out.TWO_NON_SUITED_MATCHES, comb(non_suited, 2)),
                (out.NON_SUITED_MATCH, non_suited * others),
                (None, comb(others, 2)),
            ):
                tallies[len(out) if outcome is None else outcome.position] += copies * pairs
        return tuple(tallies)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on an ``(n, 3)`` array of card indices."""
        import numpy as np

        up = cards[:, 2]
        suited = (cards[:, 0] == up).astype(np.int64) + (cards[:, 1] == up)
        same_rank = (cards[:, :2] // 4) == (up // 4)[:, None]
        non_suited = (same_rank & (cards[:, :2] != up[:, None])).sum(axis=1)
        return np.select(
            [
                (suited == 2) & (up == _ACE_OF_SPADES),
                suited == 2,
                (suited == 1) & (non_suited == 1),
                suited == 1,
                non_suited == 2,
                non_suited == 1,
            ],
            [0, 1, 2, 3, 4, 5],
            default=len(MatchTheDealerOutcome),
        ).astype(np.int64)
