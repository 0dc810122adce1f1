"""The round procedure's vocabulary: the phases of a round, the actions, which actions each phase
allows at each game (:data:`PROCEDURE`), and the events of the round record.

A round moves through four phases (:class:`Phase`): betting is open; the dealer announces "No more
bets" (the lock-out); the cards are dealt; the wagers are settled. The state machine itself is
:class:`croupier.table.round.TableRound`; each action as an immutable record of its own kind is in
:mod:`croupier.table.actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from croupier.cards import Card, format_cards
from croupier.errors import citation
from croupier.frozen import stored_at_once
from croupier.wagers.at_table import SettlementLine, TableGame


class Phase(Enum):
    """Where a round stands."""

    __hash__ = object.__hash__
    """Identity: members are singletons compared by identity, and the C slot spares the round
    Enum's Python-level ``hash(self._name_)`` at every lookup of a step."""

    BETTING = "betting open"
    LOCKED = "no more bets"
    DEALT = "dealt"
    SETTLED = "settled"


PHASE_WORDS: Mapping[Phase, str] = {
    Phase.BETTING: "while betting is open",
    Phase.LOCKED: 'after "No more bets"',
    Phase.DEALT: "once the cards are dealt",
    Phase.SETTLED: "once the round is settled",
}
"""Where a round stands, as a sentence says it ("settle is not allowed while betting is open"):
the phases' values (``betting open``, ``no more bets``) are the record's words, not prose."""


class Action(Enum):
    """What can be done to a round (one event kind each, plus ``settlement``)."""

    __hash__ = object.__hash__
    """Identity: members are singletons compared by identity, and the C slot spares the round
    Enum's Python-level ``hash(self._name_)`` at every lookup of a step."""

    OPEN = "open"
    BET = "bet"
    NO_MORE_BETS = "no-more-bets"
    DEAL = "deal"
    PLAY = "play"
    FOLD = "fold"
    SETTLE = "settle"
    SETTLEMENT = "settlement"
    RECORDED = "recorded"
    SWITCH = "switch"
    KEEP = "keep"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    DEALER_DRAW = "dealer-draw"


BLACKJACK_MOVES = frozenset(
    {
        Action.SWITCH,
        Action.KEEP,
        Action.HIT,
        Action.STAND,
        Action.DOUBLE,
        Action.SPLIT,
        Action.SURRENDER,
    }
)
"""The players' decisions in a Blackjack round (:mod:`croupier.table.blackjack_play`); the dealer's
draws after them are :attr:`Action.DEALER_DRAW` (§ 633a.7)."""

DECISIONS = BLACKJACK_MOVES | {Action.PLAY, Action.FOLD}
"""Every player's decision after the deal, at any game: what a :class:`Turn` offers."""


def or_list(words: list[str], last: str = "or") -> str:
    """``['hit', 'stand', 'double']`` as ``'hit, stand or double'`` (none: ``'nothing'``);
    ``last="and"``: ``'hit, stand and double'``."""
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


@dataclass(frozen=True)
class Turn:
    """A player whose decision the round takes now: the seat, the hand (Blackjack: its number
    among the seat's hands, from 1, ``None`` for the keep-or-switch choice and at games of one
    hand a seat), how many hands the seat plays, the cards of that hand and the decisions the
    round would accept from it now (each checked against the round's rules)."""

    seat: int
    actions: frozenset[Action]
    hand: int | None = None
    hands: int = 1
    cards: tuple[Card, ...] = ()

    def describe(self) -> str:
        """``'seat 1, hand 2 of 2 (8h 3c): hit or stand'``."""
        where = f"seat {self.seat}"
        if self.hand is not None and self.hands > 1:
            where += f", hand {self.hand} of {self.hands}"
        if self.cards:
            where += f" ({format_cards(self.cards)})"
        return f"{where}: {or_list(sorted(a.value for a in self.actions))}"

    def to_json(self) -> dict[str, object]:
        """The turn as plain JSON values."""
        return {
            "seat": self.seat,
            "hand": self.hand,
            "hands": self.hands,
            "cards": format_cards(self.cards),
            "actions": sorted(a.value for a in self.actions),
        }


_COMMON: dict[Phase, frozenset[Action]] = {
    Phase.BETTING: frozenset({Action.BET, Action.NO_MORE_BETS}),
    Phase.LOCKED: frozenset({Action.DEAL}),
    Phase.DEALT: frozenset({Action.SETTLE}),
    Phase.SETTLED: frozenset(),
}
PROCEDURE: Mapping[TableGame, Mapping[Phase, frozenset[Action]]] = {
    TableGame.BLACKJACK: {
        **_COMMON,
        Phase.DEALT: frozenset({*BLACKJACK_MOVES, Action.DEALER_DRAW, Action.SETTLE}),
    },
    TableGame.BACCARAT: _COMMON,
    TableGame.FOUR_CARD_POKER: {
        **_COMMON,
        Phase.DEALT: frozenset({Action.PLAY, Action.FOLD, Action.SETTLE}),
    },
    TableGame.CRISS_CROSS_POKER: {**_COMMON, Phase.DEALT: frozenset({Action.FOLD, Action.SETTLE})},
}
"""The state machine: per game, the actions each phase allows (an action moves the round to the
next phase: ``no-more-bets`` → LOCKED, ``deal`` → DEALT, ``settle`` → SETTLED)."""


@stored_at_once
@dataclass(frozen=True)
class Event:
    """One immutable entry of the round record: who (seat), what (action, wager), amount, outcome,
    pay and the net result, with the section the step follows. A settlement (or a bet recorded as
    the base game's) carries its :class:`~croupier.wagers.at_table.SettlementLine`."""

    index: int
    action: Action
    phase: Phase
    section: str
    detail: str
    seat: int | None = None
    wager: str | None = None
    amount_cents: int | None = None
    outcome: str | None = None
    pays: str | None = None
    win_cents: int | None = None
    returned_cents: int | None = None
    pending_validation: bool = False
    outcome_key: str | None = None
    """The paytable line's outcome key a settlement was paid on (``None``: lost or not a
    paytable line), what the progressive ledger reads (:mod:`croupier.table.progressive`)."""
    line: SettlementLine | None = None

    def to_json(self) -> dict[str, object]:
        """The event as plain JSON values (money in cents)."""
        return {
            "index": self.index,
            "action": self.action._value_,  # .value, without the enum property's Python call
            "phase": self.phase._value_,
            "seat": self.seat,
            "wager": self.wager,
            "amount_cents": self.amount_cents,
            "outcome": self.outcome,
            "pays": self.pays,
            "win_cents": self.win_cents,
            "returned_cents": self.returned_cents,
            "pending_validation": self.pending_validation,
            "outcome_key": self.outcome_key,
            "section": self.section,
            "citation": citation(self.section),
            "detail": self.detail,
        }


__all__ = [
    "BLACKJACK_MOVES",
    "DECISIONS",
    "PHASE_WORDS",
    "PROCEDURE",
    "Action",
    "Event",
    "Phase",
    "Turn",
    "or_list",
]
