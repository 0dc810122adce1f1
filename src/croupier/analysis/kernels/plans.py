"""Kernel plans (named by the wagers' :attr:`~croupier.wagers.base.Wager.kernel`): the Blackjack
side wagers on the engine of whole Blackjack rounds they share, and the Baccarat wagers on the
engine of Baccarat coups."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from croupier.analysis.kernels import KernelPlan
from croupier.analysis.kernels import baccarat as kbac
from croupier.analysis.kernels import blackjack as kb
from croupier.analysis.kernels.axman import axman_positions
from croupier.cards import Shoe
from croupier.errors import CroupierError, ShoeError
from croupier.games.blackjack import BlackjackRules, DealerCompletion, PlayerStrategy, basic_hits
from croupier.poker import WildSuit
from croupier.wagers.base import IntArray, Wager

SEATS = 3
"""Seats at the simulated table (the side wager's player sits in the first), as in
:data:`croupier.wagers.axman.SIMULATION_SEATS`."""


def hit_table(strategy: PlayerStrategy) -> np.ndarray:
    """``table[total, soft, upcard value]``: whether a simulated player hits (totals 0–31)."""
    table = np.zeros((32, 2, 11), dtype=np.bool_)
    if strategy is PlayerStrategy.STAND:
        return table
    for t in range(32):
        for s in (0, 1):
            for u in range(1, 11):
                if strategy is PlayerStrategy.MIMIC_DEALER:
                    table[t, s, u] = t < 17
                else:
                    table[t, s, u] = basic_hits(t, bool(s), u)
    return table


def _check(status: int, shoe_cards: IntArray) -> None:
    """Raise for a round kernel's failing status."""
    if status == kb.OUT_OF_CARDS:
        raise ShoeError(f"a round ran out of cards: the shoe holds {shoe_cards.size}")
    if status != 0:
        raise CroupierError(f"the Blackjack round kernel failed (status {status})")


@dataclass(frozen=True)
class BlackjackRounds:
    """Engine: whole Blackjack rounds (:func:`croupier.analysis.kernels.blackjack.deal_rounds`) at
    ``seats`` seats playing ``strategy``, the dealer by ``rules``."""

    rules: BlackjackRules
    seats: int = SEATS
    strategy: PlayerStrategy = PlayerStrategy.BASIC

    def buffers(self, rounds: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Records, lengths and the hit table."""
        return (
            np.empty((rounds, kb.WIDTH), dtype=np.int8),
            np.empty(rounds, dtype=np.int8),
            hit_table(self.strategy),
        )

    def deal(
        self,
        shoe_cards: IntArray,
        state: np.ndarray,
        rounds: int,
        buffers: Any,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rounds`` round records (first seat's two cards, the dealer's hand) and lengths."""
        records, lengths, table = buffers
        status = kb.deal_rounds(
            shoe_cards,
            state,
            self.seats,
            table,
            self.rules.hits_soft_17,
            self.rules.peek,
            self.rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS,
            records[:rounds],
            lengths[:rounds],
        )
        _check(status, shoe_cards)
        return records[:rounds], lengths[:rounds]

    def count(
        self, shoe_cards: IntArray, state: np.ndarray, rounds: int, plans: Sequence[KernelPlan]
    ) -> list[np.ndarray]:
        """Each plan's tallies over ``rounds`` whole rounds read while dealt
        (:func:`croupier.analysis.kernels.blackjack.deal_count`, by each plan's reader)."""
        readers = np.zeros((len(plans), kb.READERS), dtype=np.int64)
        for k, plan in enumerate(plans):
            if plan.reader is None or not 1 <= len(plan.reader) <= kb.READERS:
                raise CroupierError(
                    f"a Blackjack round reader is a code and its arguments, not {plan.reader}"
                )
            readers[k, : len(plan.reader)] = plan.reader
        width = max(p.positions for p in plans)
        tallies = np.zeros((len(plans), width), dtype=np.int64)
        status = kb.deal_count(
            shoe_cards,
            state,
            self.seats,
            hit_table(self.strategy),
            self.rules.hits_soft_17,
            self.rules.peek,
            self.rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS,
            rounds,
            readers,
            tallies,
        )
        _check(status, shoe_cards)
        return [tallies[k, : p.positions] for k, p in enumerate(plans)]

    def describe(self, shoe: Shoe) -> str:
        """One simulated round in words."""
        return (
            f"whole rounds from a freshly shuffled {shoe} each: {self.seats} seats playing "
            f"{self.strategy.value} hit/stand, the dealer "
            f"{'hitting' if self.rules.hits_soft_17 else 'standing on'} soft 17"
            f"{' with peek' if self.rules.peek else ''}"
        )


def _rules(wager: Wager, shoe: Shoe) -> BlackjackRules:
    """The table's rules: the wager's own (:meth:`rules`, AxMan's soft-17 rule) when it has them."""
    decks = shoe.decks or 6
    own = getattr(wager, "rules", None)
    return own(decks) if callable(own) else BlackjackRules(decks=decks)


WHOLE_ROUND_SHOE = 52
"""The fewest cards a shoe needs for the initial-card wagers to be read from whole rounds; a
smaller (partly dealt) shoe is dealt by the numpy simulator's top cards, which never runs out."""


def _plan(
    wager: Wager, shoe: Shoe, classify: Any, reader: tuple[int, ...], *args: Any
) -> KernelPlan:
    return KernelPlan(
        BlackjackRounds(_rules(wager, shoe)), classify, args, len(wager.outcomes) + 1, reader
    )


def perfect_pairs(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """Perfect Pairs (§ 633b.1) on the first seat's two cards of whole rounds."""
    return (
        _plan(wager, shoe, kb.perfect_pairs, (kb.READ_PAIRS,))
        if shoe.total >= WHOLE_ROUND_SHOE
        else None
    )


def match_the_dealer(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """Match the Dealer (§ 633b.3) on the first seat's two cards and the upcard."""
    return (
        _plan(wager, shoe, kb.match_the_dealer, (kb.READ_MATCH,))
        if shoe.total >= WHOLE_ROUND_SHOE
        else None
    )


def jackpot_party(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """Jackpot Party (§ 633b.2) on the first seat's two cards, the upcard and the hole card."""
    return (
        _plan(wager, shoe, kb.jackpot_party, (kb.READ_PARTY,))
        if shoe.total >= WHOLE_ROUND_SHOE
        else None
    )


def axman(wager: Wager, shoe: Shoe) -> KernelPlan:
    """AxMan (§ 633c.12) on the first seat's two cards and the dealer's final hand, by the wager's
    reading (:attr:`AxMan.reading`)."""
    from croupier.wagers.axman import AxMan, WildInFiveHighest

    if not isinstance(wager, AxMan):
        raise CroupierError(f"the AxMan kernel reads AxMan wagers, not {wager.name}")
    reading = wager.reading
    always_kept = reading.five_highest is WildInFiveHighest.ALWAYS_KEPT
    any_suit = reading.wild_suit is WildSuit.ANY_SUIT
    reader = (kb.READ_AXMAN, int(always_kept), int(any_suit))
    return _plan(wager, shoe, axman_positions, reader, always_kept, any_suit)


@dataclass(frozen=True)
class BaccaratCoups:
    """Engine: Baccarat coups (:func:`croupier.analysis.kernels.baccarat.deal_coups`), the third
    cards by § 631a.11."""

    def buffers(self, rounds: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Records, lengths and the Banker's drawing table."""
        from croupier.games.baccarat import BANKER_DRAW_TABLE

        return (
            np.empty((rounds, kbac.WIDTH), dtype=np.int8),
            np.empty(rounds, dtype=np.int8),
            np.ascontiguousarray(BANKER_DRAW_TABLE),
        )

    def deal(
        self, shoe_cards: IntArray, state: np.ndarray, rounds: int, buffers: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rounds`` coup records (the cards in dealing order) and their card counts."""
        records, lengths, table = buffers
        if kbac.deal_coups(shoe_cards, state, table, records[:rounds], lengths[:rounds]) != 0:
            raise ShoeError(f"a coup needs six cards in the shoe, not {shoe_cards.size}")
        return records[:rounds], lengths[:rounds]

    def describe(self, shoe: Shoe) -> str:
        """One simulated coup in words."""
        return (
            f"coups from a freshly shuffled {shoe} each, the third cards by the drawing rules "
            "(§ 631a.11)"
        )


def baccarat_coup(wager: Wager, shoe: Shoe) -> KernelPlan:
    """Any Baccarat wager (the 5 Treasures included): the coup's summary looked up in the wager's
    :meth:`~croupier.wagers.baccarat.BaccaratWager.summary_positions`."""
    positions = getattr(wager, "summary_positions", None)
    if not callable(positions):
        raise CroupierError(f"the Baccarat coup kernel reads Baccarat wagers, not {wager.name}")
    table = np.ascontiguousarray(positions(), dtype=np.int64)
    return KernelPlan(BaccaratCoups(), kbac.summary_positions, (table,), len(wager.outcomes) + 1)
