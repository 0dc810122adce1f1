"""A round's settlement as croupier writes it: each wager's line
(:meth:`croupier.wagers.at_table.SettlementLine.to_json`), the settlement
(:meth:`~croupier.wagers.at_table.RoundSettlement.to_json`) and the events of the round's
procedure; on a stored round's read, what the line and the event said when recorded beside
what the progressive's ledger has now (:mod:`croupier.service.paid`).

Money is integer cents (US$ 0.01), each amount with its text for people beside it.
"""

from __future__ import annotations

from typing import Literal

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import Absent, Citation, Section, Signed, absent
from croupier.progressive import AwardStatus
from croupier.wagers.base_games import SettledBy

EventAction = Literal[
    "open",
    "bet",
    "no-more-bets",
    "deal",
    "play",
    "fold",
    "settle",
    "settlement",
    "recorded",
    "switch",
    "keep",
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "dealer-draw",
    "void",
]
"""What an event records: a step's action (croupier.table.procedure.Action) or ``void`` (the
round voided at an open table)."""

BaseGame = SettledBy
"""Who settles the round's base game: "croupier" (the default: every Blackjack hand played out in
the steps) or "external" (the table's own system: each base wager is a line
settled_by_base_game, its win and returned null, outside the net). One enumeration
(``SettledBy``), so a generated client has one type for it."""

EventPhase = Literal["betting open", "no more bets", "dealt", "settled", "voided"]
"""The round's phase (croupier.table.procedure.Phase), or ``voided``."""


class SettlementLine(Shape):
    """One wager's settlement line (croupier.wagers.at_table.SettlementLine.to_json)."""

    seat: int
    """The seat (or betting position) the wager is at."""
    wager: str
    """The wager as shown: its id, or the side of a base game (player, banker, ...)."""
    bet: str
    """The id of the wager bet (the key the hold report counts by)."""
    outcome: str | None
    """The outcome in words; null when there is none to name."""
    pays: str | None
    """The pay as printed in the paytable ("25 to 1"); null when nothing pays."""
    stake_cents: int
    """The stake, in integer cents (US$ 0.01)."""
    stake: str
    """The stake formatted for people, e.g. "$5,000" or "$0.1875"."""
    win_cents: int | None
    """The player's net win (negative: lost), in integer cents; null when the base game settles
    the line outside croupier (settled_by_base_game) — never a 0 that sums as a push."""
    win: Signed | None
    """The player's result with its sign: "+$10", "-$5"; null with win_cents."""
    returned_cents: int | None
    """What goes back to the player (stake and win), in integer cents; null with win_cents."""
    pending_validation: bool
    """Whether the pay awaits a floorperson's validation (a progressive award)."""
    outcome_key: str | None
    """The paytable's key of the outcome; null when no paytable line applies."""
    section: Section
    """The paragraph of 58 Pa. Code, e.g. "633b.3(h)(3)"."""
    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""
    rounding_dropped_cent_fraction: str
    """What rounding the pay down to the cent did not pay, as an exact fraction of a cent
    ("1/2": half a cent of a Banker win); "0/1" when nothing."""
    settled_by_base_game: bool
    """Whether the table's own base game settles the line (its money then null here)."""
    kind: Literal["wager", "envy-bonus"]
    """What the line settles: the bet itself, or an envy bonus paid for another seat's hand
    (58 Pa. Code § 633b.2(i))."""
    from_seat: int | None
    """The seat whose hand paid an envy bonus; null for a bet's own line."""


class Settlement(Shape):
    """The one settlement record of a round (RoundSettlement.to_json)."""

    lines: list[SettlementLine]
    """Every line, in settlement order."""
    net_cents: int
    """The players' net over the lines croupier settled, in integer cents (US$ 0.01)."""
    net: Signed
    """The players' net with its sign: "+$10", "-$5"."""
    returned_cents: int
    """Everything returned to the players over the lines croupier settled, in integer cents."""


class RoundEvent(Shape):
    """One event of the round's procedure (a step taken, a card dealt, a line settled)."""

    index: int
    """Its place in the round, from 0."""
    action: EventAction
    """What happened (a step's action, or the procedure's own: deal, settle, ...)."""
    phase: EventPhase
    """The round's phase when it happened."""
    seat: int | None
    """The seat it concerns; null for the table's own events."""
    wager: str | None
    """The wager it concerns; null when none."""
    amount_cents: int | None
    """The amount of the step, in integer cents; null when not applicable."""
    outcome: str | None
    """A settlement's outcome in words; null for other events."""
    pays: str | None
    """A settlement's pay as printed; null when none."""
    win_cents: int | None
    """The net win, in integer cents; null when not applicable."""
    returned_cents: int | None
    """Returned to the player, in integer cents; null when not applicable."""
    pending_validation: bool
    """Whether the pay awaits a floorperson's validation."""
    outcome_key: str | None
    """The paytable's key of the outcome; null when none."""
    section: Section
    """The paragraph of 58 Pa. Code the event follows, e.g. "633b.3(h)(3)"."""
    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""
    detail: str
    """The event in words."""


class SettledLine(SettlementLine):
    """One wager's settlement line of a single deal, settled by croupier (never left to the base
    game): its outcome, pay and money are always there."""

    outcome: str
    """The outcome in words."""
    pays: str
    """The pay as printed in the paytable ("25 to 1", "loses")."""
    win_cents: int
    """The player's net win (negative: lost), in integer cents."""
    win: Signed
    """The player's result with its sign: "+$10", "-$5"."""
    returned_cents: int
    """What goes back to the player (stake and win), in integer cents."""


class SettledSettlement(Settlement):
    """The settlement of a single deal, every line settled by croupier."""

    lines: list[SettledLine]  # type: ignore[assignment]
    """Every line, in settlement order."""


class PlayedRound(Shape):
    """A round dealt and settled through the round procedure (the round record of ``croupier
    play`` and ``croupier blackjack-round``)."""

    round: str
    """The round's id."""
    submission: str
    """The Rules Submission the round was played under."""
    base_game: BaseGame
    """Who settles the round's base game: "croupier" (every Blackjack hand played out in the
    steps) or "external" (the table's own system; its base wagers' lines hold no win)."""
    cards: str | None
    """The cards dealt, as text; null when none were."""
    events: list[RoundEvent]
    """Every event of the round's procedure, in order."""
    settlement: Settlement
    """The round's settlement."""
    net_cents: int
    """The players' net result of the round, in integer cents (US$ 0.01)."""


class LineAsSettled(Shape):
    """On a read: what the line said at settlement (its own fields say what the ledger has
    now)."""

    pays: str | None
    """The pay recorded."""
    win_cents: int | None
    """The net win recorded, in integer cents; null when not applicable."""
    win: str | None
    """The net win recorded, for people."""
    returned_cents: int | None
    """Returned as recorded, in integer cents; null when not applicable."""
    pending_validation: bool | None
    """Whether it awaited validation when recorded."""


class EventAsSettled(Shape):
    """On a read: what the settlement event said when it was recorded."""

    pays: str | None
    """The pay recorded."""
    win_cents: int | None
    """The net win recorded, in integer cents; null when not applicable."""
    returned_cents: int | None
    """Returned as recorded, in integer cents; null when not applicable."""
    pending_validation: bool | None
    """Whether it awaited validation when recorded."""
    detail: str | None
    """The event's words when recorded."""


class AwardNow(Shape):
    """An award of a line as the progressive's ledger has it now."""

    award: int
    """The award's id on the ledger."""
    progressive: str
    """The progressive that pays it."""
    status: AwardStatus
    """The award's status on the ledger now."""
    amount_cents: int
    """The award on the ledger now, in integer cents (US$ 0.01)."""
    amount: str
    """The amount formatted for people, e.g. "$5,000"."""
    validated_by: str | None
    """Who validated it; null until then, and for a voided award."""
    voided_by: str | Absent = absent()
    """Who voided it; absent unless voided."""
    recorded_status: str
    """Its status recorded at settlement."""
    recorded_amount_cents: int
    """Its amount recorded at settlement, in integer cents (US$ 0.01)."""


class LedgerNow(Shape):
    """On a read: the line's awards as the progressive's ledger has them now."""

    awards: list[AwardNow]
    """The line's awards."""
    paid_cents: int
    """Paid now, in integer cents (US$ 0.01)."""
    pending_cents: int
    """Awaiting a floorperson's validation, in integer cents (US$ 0.01)."""
    voided_cents: int
    """Voided: not paid, in integer cents (US$ 0.01)."""


class StoredLine(SettlementLine):
    """A stored round's settlement line: on a read of a line with progressive awards, its
    awards as the ledger has them now (``ledger``) and what it said at settlement
    (``as_settled``)."""

    ledger: LedgerNow | Absent = absent()
    """On a read of a progressive's line: its awards as the ledger has them now."""
    as_settled: LineAsSettled | Absent = absent()
    """On a read of a progressive's line: what it said at settlement."""


class StoredSettlement(Settlement):
    """A stored round's settlement: its lines as a read shows them (:class:`StoredLine`)."""

    lines: list[StoredLine]  # type: ignore[assignment]
    """Every line, in settlement order."""


class StoredEvent(RoundEvent):
    """A stored round's event: on a read of a progressive's settlement event, what it said when
    recorded (``as_settled``)."""

    as_settled: EventAsSettled | Absent = absent()
    """On a read: what the settlement event said when it was recorded."""


__all__ = [
    "AwardNow",
    "AwardStatus",
    "BaseGame",
    "EventAction",
    "EventAsSettled",
    "EventPhase",
    "LedgerNow",
    "LineAsSettled",
    "PlayedRound",
    "RoundEvent",
    "SettledLine",
    "SettledSettlement",
    "Settlement",
    "SettlementLine",
    "StoredEvent",
    "StoredLine",
    "StoredSettlement",
]
