"""AxMan wager — 58 Pa. Code § 633c.12.

Placed with a Blackjack wager at a table using six or eight decks (§ 633c.12(a)). After the round is
completed (§ 633c.12(d)–(e)) the dealer's hand, the bust card included, is read as a poker hand:
every card when the hand has five or fewer, the five highest when it has six or more (§ 633c.12(f)).
With fewer than five cards only a jacks-or-better pair, two pair, three- and four-of-a-kind exist
(§ 633c.12(g)); with five, also a full house, straight, flush, five-of-a-kind and straight flush
(§ 633c.12(h)); anything less loses (§ 633c.12(i)). The king of diamonds in the dealer's hand is wild;
one king of diamonds among the player's initial two cards doubles a winning AxMan pay, two multiply it
by five (§ 633c.12(j)). Pays from the paytable of § 633c.12(k).

Readings (docs/interpretations.md), each an :class:`AxManReading` option:

* *five highest* ranks cards by poker rank, aces high, the king of diamonds counting as a king
  (:attr:`WildInFiveHighest.AS_KING`); when cards of one rank straddle the cut, the five that make
  the best hand are taken. The alternative keeps the wild card always (``ALWAYS_KEPT``).
* the wild card takes any rank but keeps its suit, a diamond (:attr:`WildSuit.KEEPS_SUIT`), as
  § 633c.12(j) says "assigned any rank"; the alternative lets it take any suit.
* the hand is ranked by the paytable's order (a flush, 200 to 1, beats four-of-a-kind, 50 to 1) and
  the wild card makes the best-paying hand it can.

Outcomes are the paytable's nine hands, each in three variants — paid as printed, ×2 (one king of
diamonds among the player's two cards) and ×5 (two) — so a par sheet counts each pay separately.

>>> from croupier.cards import parse_cards
>>> read_dealer_hand(parse_cards("Kd 7c 7s"))          # K♦ wild: three sevens
<AxManHand.THREE_OF_A_KIND: 'three-of-a-kind'>
>>> read_dealer_hand(parse_cards("Ah 3c 4s 5d Kd"))    # K♦ as a deuce: A-2-3-4-5
<AxManHand.STRAIGHT: 'straight'>
>>> AxMan().evaluate(parse_cards("Kd 9c  Qh Qs"))      # player K♦ 9♣, dealer Q♥ Q♠ (20)
<AxManOutcome.JACKS_OR_BETTER_ONE_KD: 'jacks-or-better-one-kd'>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from croupier.cards import Card, CardsLike, Shoe, as_cards, format_cards
from croupier.errors import CardError, CroupierError, ProcedureError
from croupier.games.blackjack import (
    BlackjackRules,
    DealerCompletion,
    PlayerStrategy,
    SoftSeventeen,
    check_dealer_hand,
)
from croupier.paytables import Paytable
from croupier.wagers._axman_exact import hand_distribution, round_counts
from croupier.wagers._axman_hands import (
    DEFAULT_READING,
    KING_OF_DIAMONDS,
    AxManHand,
    AxManOutcome,
    AxManReading,
    WildInFiveHighest,
    _is_wild,
    axman_hand,
    better,
    five_highest,
    outcome_position,
    read_dealer_hand,
    read_poker_hand,
)
from croupier.wagers.at_table import CardSource, SettleWhen, TableContext
from croupier.wagers.base import CardGroup, DealSpec, Game, Wager
from croupier.wagers.registry import register
from croupier.wagers.spec import WagerSpec


@register
@dataclass(frozen=True)
class AxMan(Wager):
    """The AxMan wager on the dealer's final hand, dealer standing on soft 17 (58 Pa. Code
    § 633c.12). Cards in order: the player's initial two cards, then the dealer's hand (upcard, hole
    card, every card drawn, the bust card included)."""

    spec = WagerSpec(
        id="axman",
        name="AxMan",
        game=Game.BLACKJACK,
        section="633c.12",
        settle_rule="633c.12(e)",
        outcomes=AxManOutcome,
        deal=DealSpec(
            (
                CardGroup("player's initial two cards", 2, source=CardSource.PLAYER),
                CardGroup(
                    "dealer's final hand (2 or more cards, bust card included)",
                    2,
                    ordered=True,
                    source=CardSource.DEALER,
                ),
            )
        ),
        allowed_decks=(6, 8),
        decks_rule="633c.12(a)",
        base_wagers=("blackjack",),
        base_rule="633c.12(a)",
        settled=SettleWhen.ROUND_END,
        lockout_rule="633c.12(c)",
        limits_rule="633c.12(c)",
        aliases=("axman-h17",),
        kernel="croupier.analysis.kernels.plans:axman",
    )
    soft_17: ClassVar[SoftSeventeen] = SoftSeventeen.STANDS
    """The dealer's soft-17 rule at the tables this wager's par sheets describe."""
    reading: ClassVar[AxManReading] = DEFAULT_READING
    """The readings of § 633c.12 this wager applies."""
    dealer_completion: DealerCompletion = DealerCompletion.ALWAYS
    """Whether the dealer completes the hand with no live player hand (see
    :class:`~croupier.games.blackjack.DealerCompletion`); the registered wagers and the exact
    analysis use the default."""

    @property
    def soft_17_phrase(self) -> str:
        """``'standing on'`` or ``'hitting'``."""
        return "hitting" if self.soft_17 is SoftSeventeen.HITS else "standing on"

    def rules(self, decks: int = 6) -> BlackjackRules:
        """The Blackjack rules of the table (this wager's soft-17 rule)."""
        return BlackjackRules(
            decks=decks, soft_17=self.soft_17, dealer_completion=self.dealer_completion
        )

    def at_table(self, ctx: TableContext) -> tuple[Wager, Paytable]:
        """After the round (§ 633c.12(e)) the bets are settled as the AxMan of the table's soft-17
        rule (:func:`axman_for`), under its paytable of the key the table offers.

        Raises :class:`ProcedureError` without the table's house rules, and what
        :meth:`~croupier.wagers.base.Wager.paytable` raises.
        """
        if ctx.rules is None:
            raise ProcedureError("AxMan is settled at a Blackjack table", section="633c.12(a)")
        axman = axman_for(ctx.rules)
        return axman, axman.paytable(ctx.paytables[self.spec.id].key, ctx.decks)

    def check_cards(self, cards: CardsLike, decks: int | None = None) -> None:
        """Two player cards and a finished dealer hand (§ 633a.7 drawing rule, this wager's soft-17
        rule); with ``decks``, cards a shoe of that many decks can hold."""
        cards = as_cards(cards)
        if len(cards) < 4:
            raise CardError(
                f"the {self.spec.name} wager reads the player's two cards and the dealer's hand "
                f"(at least two cards), got {len(cards)} cards",
                format_cards(cards),
            )
        check_dealer_hand(cards[2:], self.rules(decks or 6))
        if decks is not None:
            Shoe.standard(decks).check_deal(cards)

    def classify(self, cards: Sequence[Card]) -> AxManOutcome | None:
        """§ 633c.12(e)–(k): the dealer's hand as a poker hand, the player's kings of diamonds as
        the multiplier; ``None`` when the wager loses."""
        hand = read_dealer_hand(cards[2:], self.reading)
        if hand is None:
            return None
        return AxManOutcome.of(hand, sum(1 for c in cards[:2] if _is_wild(c)))

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Exact counts from the dealer's final-hand distribution
        (:func:`croupier.wagers._axman_exact.round_counts`)."""
        self._exact_reading_only()
        return round_counts(shoe, self.soft_17 is SoftSeventeen.HITS, self.reading).counts

    def _exact_reading_only(self) -> None:
        if self.dealer_completion is not DealerCompletion.ALWAYS:
            raise CroupierError(
                "the exact AxMan analysis assumes the dealer always completes the hand; with "
                "the dealer stopping when no player hand is live, simulate instead"
            )

    def counting_convention(self, shoe: Shoe) -> str:
        """The convention of :meth:`count_exact`."""
        self._exact_reading_only()
        return round_counts(shoe, self.soft_17 is SoftSeventeen.HITS, self.reading).convention

    def simulate_own(
        self,
        shoe: Shoe,
        rounds: int,
        seed: int,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[int, ...]:
        """Counts from whole simulated rounds (see :func:`simulate_axman`)."""
        return simulate_axman(self, shoe, rounds, seed, progress=progress)

    def simulation_convention(self, shoe: Shoe, rounds: int, seed: int) -> str:
        """What :meth:`simulate_own` deals."""
        return (
            f"{rounds:,} whole rounds from a freshly shuffled {shoe} each: three seats playing "
            f"basic hit/stand, the dealer {self.soft_17_phrase} soft 17 with peek; seed {seed}"
        )


@register
@dataclass(frozen=True)
class AxManHitsSoft17(AxMan):
    """The AxMan wager at a table where the dealer hits soft 17 (58 Pa. Code § 633c.12)."""

    spec = replace(
        AxMan.spec, id="axman-h17", name="AxMan (dealer hits soft 17)", aliases=("axman",)
    )
    soft_17 = SoftSeventeen.HITS


def axman_for(rules: BlackjackRules) -> AxMan:
    """The AxMan wager for the table's soft-17 rule (the registered ``axman`` or ``axman-h17``)
    and its reading of the dealer's completion."""
    cls = AxManHitsSoft17 if rules.hits_soft_17 else AxMan
    return cls(dealer_completion=rules.dealer_completion)


SIMULATION_SEATS = 3
"""Seats at the simulated table; the AxMan player sits in the first."""

BLOCK = 100_000


def simulate_axman(
    wager: AxMan,
    shoe: Shoe,
    rounds: int,
    seed: int,
    seats: int = SIMULATION_SEATS,
    strategy: PlayerStrategy = PlayerStrategy.BASIC,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, ...]:
    """Observed AxMan outcome counts over ``rounds`` whole rounds of Blackjack.

    Each round is dealt from a freshly shuffled ``shoe`` in the regulated order to ``seats`` players
    and the dealer; the players hit or stand by ``strategy``, then the dealer completes the hand
    (:func:`croupier.games.blackjack.simulate_rounds`). The AxMan wager of the first seat is read
    from the dealer's final hand and that seat's kings of diamonds — by the scalar
    :func:`read_dealer_hand`, memoised per distinct hand.
    """
    import numpy as np

    from croupier.cards import DECK
    from croupier.games.blackjack import simulate_rounds

    rng = np.random.Generator(np.random.PCG64(seed))
    tallies = [0] * (len(AxManOutcome) + 1)
    memo: dict[tuple[int, ...], AxManHand | None] = {}
    kd = KING_OF_DIAMONDS.index
    rules = wager.rules(shoe.decks or 6)
    done = 0
    while done < rounds:
        n = min(BLOCK, rounds - done)
        dealt = simulate_rounds(shoe, rules, n, rng, seats=seats, strategy=strategy)
        player_kd = (dealt.players[:, 0, :] == kd).sum(axis=1).tolist()
        lengths = dealt.dealer_cards.tolist()
        for row, length, k in zip(dealt.dealer.tolist(), lengths, player_kd, strict=True):
            key = tuple(sorted(row[:length]))
            if key in memo:
                hand = memo[key]
            else:
                hand = memo[key] = read_dealer_hand([DECK[c] for c in key], wager.reading)
            tallies[outcome_position(hand, k)] += 1
        done += n
        if progress is not None:
            progress(done)
    return tuple(tallies)


__all__ = [
    "DEFAULT_READING",
    "KING_OF_DIAMONDS",
    "AxMan",
    "AxManHand",
    "AxManHitsSoft17",
    "AxManOutcome",
    "AxManReading",
    "WildInFiveHighest",
    "axman_for",
    "axman_hand",
    "better",
    "five_highest",
    "hand_distribution",
    "outcome_position",
    "read_dealer_hand",
    "read_poker_hand",
    "simulate_axman",
]
