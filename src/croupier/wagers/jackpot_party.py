"""Jackpot Party Progressive wager — 58 Pa. Code § 633b.2.

A $1 or $5 progressive wager (§ 633b.2(e)) at a Blackjack table of 1, 2, 4, 6 or 8 decks
(§ 633b.2(b)) that the dealer's two cards and the player's two cards form one of ten combinations
(§ 633b.2(a)); settled right after the second card is dealt to each player and the dealer
(§ 633b.2(g)), for the highest-ranking hand only (§ 633b.2(i)), from one of the paytables P1–P36
(each printed for one deck count). The combinations, best first:

1. Royal Flush (Diamonds): dealer Blackjack, and the four cards are the ace, king, queen and jack of
   diamonds, the dealer holding the ace;
2. Royal Flush (Other Suit): the same in clubs, hearts or spades;
3. Three of a Kind: dealer Blackjack and three of the four cards of one rank;
4. Straight: dealer Blackjack and four cards of consecutive ranks, of more than one suit;
5. Flush: dealer Blackjack and all four cards of one suit;
6. Two Pair: dealer Blackjack and player Blackjack, the dealer's two ranks the player's two ranks;
7. All Cards Same Color: dealer Blackjack and all four cards of one color;
8. Pair: dealer Blackjack and two of the four cards of one rank;
9. Any hand with a dealer Blackjack;
10. Dealer Ace Up: the upcard is an ace and the dealer has no Blackjack.

Ranks are ranks (a king and a queen are not a pair, though both count 10). Readings: see
docs/interpretations.md.

>>> from croupier.cards import parse_cards
>>> jp = JackpotParty()
>>> jp.evaluate(parse_cards("Kd Qd  Ad Jd"))   # player K♦ Q♦, dealer A♦ up, J♦ in the hole
<JackpotPartyOutcome.ROYAL_FLUSH_DIAMONDS: 'royal-flush-diamonds'>
>>> jp.evaluate(parse_cards("As Kh  Ac Kd"))   # both Blackjacks of the same ranks
<JackpotPartyOutcome.TWO_PAIR: 'two-pair'>
>>> jp.evaluate(parse_cards("9s 9h  Ah 7c")) # ace up, no Blackjack
<JackpotPartyOutcome.DEALER_ACE_UP: 'dealer-ace-up'>
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

from croupier.cards import DECK, Card, Rank, Shoe, Suit
from croupier.games.blackjack import card_value, is_blackjack
from croupier.paytables import NotAvailable
from croupier.wagers.at_table import CardSource, SettlementLine, SettleWhen, TableContext
from croupier.wagers.base import (
    CardGroup,
    DealSpec,
    Game,
    OrderedOutcome,
    Settlement,
    Wager,
    line_of,
)
from croupier.wagers.registry import register
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:  # numpy is imported by the vectorised classification (start-up)
    from croupier.wagers.base import IntArray


class JackpotPartyOutcome(OrderedOutcome):
    """The ten combinations of § 633b.2(a)(1)–(10), best first."""

    ROYAL_FLUSH_DIAMONDS = "royal-flush-diamonds"
    ROYAL_FLUSH_OTHER = "royal-flush-other"
    THREE_OF_A_KIND = "three-of-a-kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    TWO_PAIR = "two-pair"
    ALL_SAME_COLOR = "all-same-color"
    PAIR = "pair"
    DEALER_BLACKJACK = "dealer-blackjack"
    DEALER_ACE_UP = "dealer-ace-up"


_ROYAL = frozenset({Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK})


def _consecutive(ranks: set[int]) -> bool:
    """Four distinct ranks in a row, the ace high (J-Q-K-A) or low (A-2-3-4)."""
    if len(ranks) != 4:
        return False
    return any(max(r) - min(r) == 3 for r in (ranks, {1 if x == 14 else x for x in ranks}))


def classify_four(player: Sequence[Card], up: Card, hole: Card) -> JackpotPartyOutcome | None:
    """§ 633b.2(a): the highest combination of the player's two cards and the dealer's upcard and
    hole card, or ``None``."""
    Out = JackpotPartyOutcome
    if not is_blackjack((up, hole)):
        return Out.DEALER_ACE_UP if up.rank is Rank.ACE else None
    four = (*player, up, hole)
    ranks = Counter(c.rank for c in four)
    suits = {c.suit for c in four}
    if set(ranks) == _ROYAL and len(suits) == 1:
        return Out.ROYAL_FLUSH_DIAMONDS if suits == {Suit.DIAMONDS} else Out.ROYAL_FLUSH_OTHER
    if max(ranks.values()) >= 3:
        return Out.THREE_OF_A_KIND
    if _consecutive({int(r) for r in ranks}) and len(suits) > 1:
        return Out.STRAIGHT
    if len(suits) == 1:
        return Out.FLUSH
    if is_blackjack(player) and Counter(c.rank for c in player) == Counter((up.rank, hole.rank)):
        return Out.TWO_PAIR
    if len({c.color for c in four}) == 1:
        return Out.ALL_SAME_COLOR
    if max(ranks.values()) >= 2:
        return Out.PAIR
    return Out.DEALER_BLACKJACK


_TEN_VALUED = tuple(i for i, c in enumerate(DECK) if card_value(c) == 10)
_RANK = tuple(c.rank.value for c in DECK)
_SUIT = tuple(c.suit.value for c in DECK)
_RED = tuple(c.suit in (Suit.DIAMONDS, Suit.HEARTS) for c in DECK)


def _with_dealer_blackjack(p1: int, p2: int, ace: int, ten: int) -> int:
    """The outcome position of § 633b.2(a)(1)–(9) for a dealer Blackjack (``ace`` and ``ten`` the
    dealer's cards) and the player's cards ``p1``, ``p2`` — card indices; the same reading as
    :func:`classify_four`, written on integers for the exact count's inner loop."""
    r1, r2, ra, rt = _RANK[p1], _RANK[p2], _RANK[ace], _RANK[ten]
    s1, s2, sa, st = _SUIT[p1], _SUIT[p2], _SUIT[ace], _SUIT[ten]
    one_suit = s1 == s2 == sa == st
    ranks = sorted((r1, r2, ra, rt))
    if one_suit and ranks == [11, 12, 13, 14]:
        return 0 if sa == Suit.DIAMONDS else 1
    if ranks[0] == ranks[2] or ranks[1] == ranks[3]:
        return 2
    distinct = ranks[0] < ranks[1] < ranks[2] < ranks[3]
    if distinct and not one_suit and ranks == [11, 12, 13, 14]:  # the ace makes J-Q-K-A only
        return 3
    if one_suit:
        return 4
    if sorted((r1, r2)) == sorted((ra, rt)):
        return 5
    if _RED[p1] == _RED[p2] == _RED[ace] == _RED[ten]:
        return 6
    if not distinct:
        return 7
    return 8


_ACES = tuple(i for i, c in enumerate(DECK) if c.rank is Rank.ACE)
_DEALER_BLACKJACKS = frozenset(
    pair for a in _ACES for t in _TEN_VALUED for pair in ((a, t), (t, a))
)
"""The (upcard, hole card) index pairs that make a dealer Blackjack: an ace and a 10-valued
card, either one up."""
_OUTCOMES = tuple(JackpotPartyOutcome)
_WITH_DEALER_BLACKJACK = JackpotPartyOutcome.DEALER_BLACKJACK.position + 1
"""The outcomes that need a dealer Blackjack: the first nine."""


@dataclass(frozen=True)
class _DealerBlackjackDeals:
    """Every dealer Blackjack (``dealer[d]``: an ace and a 10-valued card, by card index) with
    every player pair (``player[q]``: card indices i ≤ j), read once for every shoe:
    ``by_outcome[d][o]`` the pairs q whose outcome position with dealer hand d is o, and
    ``touching[d]`` the (q, o) of the pairs that hold one of the dealer's two kinds of card (their
    count depends on the dealer's cards; every other pair's does not)."""

    dealer: tuple[tuple[int, int], ...]
    player: tuple[tuple[int, int], ...]
    by_outcome: tuple[tuple[tuple[int, ...], ...], ...]
    touching: tuple[tuple[tuple[int, int], ...], ...]


@functools.cache
def _dealer_blackjack_deals() -> _DealerBlackjackDeals:
    """The 64 × 1,378 readings of :func:`_with_dealer_blackjack`, made once, not once a shoe."""
    dealer = tuple((a, t) for a in _ACES for t in _TEN_VALUED)
    player = tuple((i, j) for i in range(52) for j in range(i, 52))
    by_outcome = []
    touching = []
    for a, t in dealer:
        groups: list[list[int]] = [[] for _ in range(_WITH_DEALER_BLACKJACK)]
        near = []
        for q, (i, j) in enumerate(player):
            o = _with_dealer_blackjack(i, j, a, t)
            groups[o].append(q)
            if i in (a, t) or j in (a, t):
                near.append((q, o))
        by_outcome.append(tuple(tuple(g) for g in groups))
        touching.append(tuple(near))
    return _DealerBlackjackDeals(dealer, player, tuple(by_outcome), tuple(touching))


@register
class JackpotParty(Wager):
    """The Jackpot Party Progressive wager (58 Pa. Code § 633b.2). Cards in order: the player's
    two cards, then the dealer's upcard and hole card."""

    spec = WagerSpec(
        id="jackpot-party",
        name="Jackpot Party Progressive",
        game=Game.BLACKJACK,
        section="633b.2",
        settle_rule="633b.2(g)",
        outcomes=JackpotPartyOutcome,
        deal=DealSpec(
            (
                CardGroup("player's two cards", 2, source=CardSource.PLAYER),
                CardGroup("dealer's upcard", 1, ordered=True, source=CardSource.DEALER_UPCARD),
                CardGroup("dealer's hole card", 1, ordered=True, source=CardSource.DEALER_HOLE),
            )
        ),
        allowed_decks=(1, 2, 4, 6, 8),
        decks_rule="633b.2(b)",
        wager_amount_rule="633b.2(e)",
        seed_rule="633b.2(i)",
        base_wagers=("blackjack",),
        base_rule="633b.2(e)",
        settled=SettleWhen.SECOND_CARD,
        lockout_rule="633b.2(d)(2)",
        kernel="croupier.analysis.kernels.plans:jackpot_party",
    )

    def settle_at_table(self, ctx: TableContext) -> tuple[SettlementLine, ...]:
        """Each seat's wager on its two cards and the dealer's first two (§ 633b.2(g)), then, as
        lines of their own, the envy bonuses it receives: one for every hand of *another* player
        holding the wager whose paytable line pays one (§ 633b.2(i), "Pays w/ Envy"), naming
        that seat (:meth:`SettlementLine.envy_bonus`). A meter award is valued at
        ``ctx.meter_cents`` for this wager when given, else at the paytable's seeds.

        Raises what :meth:`settle` raises.
        """
        table = ctx.paytables[self.spec.id]
        meters = dict(ctx.meter_cents[self.spec.id]) if self.spec.id in ctx.meter_cents else None
        settled = {
            b.seat: self.settle(
                self.spec.deal.at_table(ctx, b.seat), table, b.amount_cents, ctx.decks, meters
            )
            for b in ctx.bets
        }
        envy = envy_sources(settled)
        lines: list[SettlementLine] = []
        for b in ctx.bets:
            lines.append(line_of(b.seat, settled[b.seat], b.wager))
            lines += (
                SettlementLine.envy_bonus(b.seat, b.wager, other, label, cents, ENVY_RULE)
                for other, label, cents in envy[b.seat]
            )
        return tuple(lines)

    def classify(self, cards: Sequence[Card]) -> JackpotPartyOutcome | None:
        """§ 633b.2(a), (i): the highest combination the four cards form, or ``None`` — the
        reading of :func:`classify_four`, on the cards' indices (:func:`_with_dealer_blackjack`:
        a table settles a wager at every deal; tests/test_jackpot_party.py checks the two agree
        on every deal with a dealer Blackjack)."""
        p1, p2, up, hole = cards
        u, h = up.index, hole.index
        if (u, h) not in _DEALER_BLACKJACKS:
            return JackpotPartyOutcome.DEALER_ACE_UP if u in _ACES else None
        return _OUTCOMES[_with_dealer_blackjack(p1.index, p2.index, u, h)]

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Exact counts under the generic convention (player's pair unordered, upcard and hole card
        in order), without enumerating the deals that lose or only show an ace.

        Only a dealer Blackjack reads all four cards: its deals are enumerated by card type (ace and
        10-valued card, either one up) with every player pair from the rest. "Dealer Ace Up" is an
        ace up (n_A ways), a hole card that is not 10-valued (N − 1 − n_T) and any player pair of
        the N − 2 cards left; every other deal loses.
        """
        counts = shoe.counts
        n = shoe.total
        tallies = [0] * (len(JackpotPartyOutcome) + 1)
        table = _dealer_blackjack_deals()
        # player pairs from the whole shoe, then corrected for those holding a dealer's card
        whole = [comb(counts[i], 2) if i == j else counts[i] * counts[j] for i, j in table.player]
        for d, (a, t) in enumerate(table.dealer):
            dealer_ways = 2 * counts[a] * counts[t]  # either card up
            if not dealer_ways:
                continue
            for position, pairs in enumerate(table.by_outcome[d]):
                tallies[position] += dealer_ways * sum(map(whole.__getitem__, pairs))
            left = list(counts)
            left[a] -= 1
            left[t] -= 1
            for q, position in table.touching[d]:
                i, j = table.player[q]
                pairs_left = comb(left[i], 2) if i == j else left[i] * left[j]
                tallies[position] += dealer_ways * (pairs_left - whole[q])
        aces = sum(counts[a] for a in _ACES)
        tens = sum(counts[t] for t in _TEN_VALUED)
        if n >= 4:
            ace_up = aces * (n - 1 - tens) * comb(n - 2, 2)
            tallies[JackpotPartyOutcome.DEALER_ACE_UP.position] = ace_up
        total = comb(n, 2) * (n - 2) * (n - 3)
        tallies[-1] = total - sum(tallies)
        return tuple(tallies)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on an ``(n, 4)`` array of card indices (player, player,
        upcard, hole card)."""
        import numpy as np

        rank = cards // 4 + 2  # 2 … 14
        suit = cards % 4
        value = np.where(rank == 14, 1, np.minimum(rank, 10))
        up_ace = rank[:, 2] == 14
        dealer_bj = (value[:, 2] + value[:, 3] == 11) & (up_ace | (rank[:, 3] == 14))
        player_bj = (value[:, 0] + value[:, 1] == 11) & ((rank[:, 0] == 14) | (rank[:, 1] == 14))
        srt = np.sort(rank, axis=1)
        same = srt[:, 1:] == srt[:, :-1]
        run3 = same[:, :-1] & same[:, 1:]
        trips = run3.any(axis=1)
        pair = same.any(axis=1)
        distinct = ~pair
        ace_low = np.where(srt == 14, 1, srt)
        low_sorted = np.sort(ace_low, axis=1)
        consecutive = distinct & (
            (srt[:, 3] - srt[:, 0] == 3) | (low_sorted[:, 3] - low_sorted[:, 0] == 3)
        )
        one_suit = (suit == suit[:, :1]).all(axis=1)
        red = (suit == Suit.DIAMONDS) | (suit == Suit.HEARTS)
        one_color = (red == red[:, :1]).all(axis=1)
        royal = one_suit & distinct & (srt[:, 0] == 11)  # J Q K A
        diamonds = suit[:, 0] == Suit.DIAMONDS
        dealer_ranks = np.sort(rank[:, 2:], axis=1)
        player_ranks = np.sort(rank[:, :2], axis=1)
        two_pair = player_bj & (dealer_ranks == player_ranks).all(axis=1)
        out = np.select(
            [
                dealer_bj & royal & diamonds,
                dealer_bj & royal,
                dealer_bj & trips,
                dealer_bj & consecutive & ~one_suit,
                dealer_bj & one_suit,
                dealer_bj & two_pair,
                dealer_bj & one_color,
                dealer_bj & pair,
                dealer_bj,
                up_ace,
            ],
            list(range(10)),
            default=len(JackpotPartyOutcome),
        )
        return np.asarray(out, dtype=np.int64)


ENVY_RULE = "633b.2(i)"
"""The paragraph whose paytables print the envy bonuses ("Pays w/ Envy", "Pays w/ Max Envy")."""


def envy_sources(
    settled: Mapping[int, Settlement],
) -> dict[int, tuple[tuple[int, str, int], ...]]:
    """For each seat of ``settled`` (seat → its Jackpot Party settlement), the envy bonuses it
    receives (§ 633b.2(i), "Pays w/ Envy"), one per hand of *another* seat whose paid line carries
    one, from the dealer's right: ``(that seat, its line's label, the bonus in integer cents)``.

    >>> from croupier.cards import parse_cards
    >>> jp = JackpotParty()
    >>> p10 = jp.paytable("P10")
    >>> royal = jp.settle(parse_cards("Kd Qd Ad Jd"), p10, 500, decks=6)
    >>> pair = jp.settle(parse_cards("9s 9h Ad Jd"), p10, 500, decks=6)
    >>> envy_sources({1: royal, 2: pair})
    {1: (), 2: ((1, 'Royal Flush (A—J)—Diamonds', 300000),)}
    """
    out: dict[int, tuple[tuple[int, str, int], ...]] = {}
    for seat in settled:
        sources: list[tuple[int, str, int]] = []
        for other, s in sorted(settled.items(), reverse=True):
            line = s.line
            if (
                other != seat
                and line is not None
                and line.envy_cents is not None
                and not isinstance(line.pays, NotAvailable)
            ):
                sources.append((other, line.label, line.envy_cents))
        out[seat] = tuple(sources)
    return out


def envy_bonuses(settled: Mapping[int, Settlement]) -> dict[int, tuple[int, tuple[int, ...]]]:
    """For each seat of ``settled`` (seat → its Jackpot Party settlement), the envy bonus in cents
    it receives for the hands of the *other* seats whose paid line carries one (§ 633b.2(i), "Pays
    w/ Envy"), and those seats, from the dealer's right (the totals of :func:`envy_sources`)."""
    return {
        seat: (sum(c for _, _, c in src), tuple(o for o, _, _ in src))
        for seat, src in envy_sources(settled).items()
    }
