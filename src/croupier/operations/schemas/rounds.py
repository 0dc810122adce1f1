"""A settled round as croupier writes it: ``croupier settle --json`` (:class:`SettledRound`),
the service's stored round (:class:`StoredRound`: ``POST /rounds/settle``, ``GET
/rounds/{table}/{round}``, ``GET /rounds``, a table's ``settled`` and ``voided``), the listing
and the summary of the stored rounds, and an open table's round so far (:class:`TableState`).

Money is integer cents (US$ 0.01). A key marked "absent" is left out, never written ``null``.
"""

from __future__ import annotations

from typing import Literal

from croupier.operations.schemas import Shape
from croupier.operations.schemas.settlement import (
    BaseGame,
    EventPhase,
    RoundEvent,
    Settlement,
    StoredEvent,
    StoredSettlement,
)
from croupier.operations.schemas.values import Absent, Sha256, Timestamp, absent
from croupier.paytables import MeterLevel
from croupier.progressive import AwardKind, AwardStatus

StepAction = Literal[
    "bet",
    "no-more-bets",
    "deal",
    "play",
    "fold",
    "switch",
    "keep",
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "dealer-draw",
    "settle",
]
"""The kind of a step (croupier.table.steps: each its own model, by ``action``)."""


class SettledRound(Shape):
    """One round file settled by ``croupier settle --json``."""

    stored_already: Literal[True] | Absent = absent()
    """Present when the round was on the progressive ledger already (croupier settle
    --progressive of a round settled before): nothing was settled or fed again, and its
    progressive lines show each award as the ledger has it now (validated or voided since)."""
    round: str
    """The round's id, as the round file gives it."""
    submission: str
    """The Rules Submission's name (or its game when it has none)."""
    base_game: BaseGame
    """Who settles the round's base game: "croupier" (every Blackjack hand played out in the
    steps) or "external" (the table's own system; its base wagers' lines hold no win)."""
    cards: str | None
    """The cards dealt, as text; null when none were."""
    events: list[RoundEvent]
    """The round's procedure, event by event."""
    settlement: Settlement
    """The round's settlement."""
    net_cents: int
    """The players' net result of the round, in integer cents (US$ 0.01)."""


class RoundAward(Shape):
    """A progressive award of a stored round (the ledger's award as settled; on a read its
    status and amount are the ledger's now, what was recorded beside them)."""

    award: int
    """The award's id on the ledger."""
    number: int | Absent = absent()
    """A meter award's number as people are told it ("award 1": meter awards alone are
    numbered); absent for a fixed or envy pay, and in a round stored before awards had one."""
    progressive: str
    """The progressive that pays it."""
    round: str
    """The ledger's round id."""
    table: str
    """The table."""
    position: int
    """The seat (betting position) it was won at."""
    outcome: str
    """The paytable outcome that won it."""
    kind: AwardKind
    """What it pays: a meter level, a fixed pay or an envy bonus."""
    status: AwardStatus
    """The award's status; on a read, the ledger's now."""
    level: MeterLevel | None
    """The meter level it pays from; null for a fixed pay."""
    share: str | None
    """The share of the meter it pays ("10%"); null when not a share."""
    amount: str
    """The amount formatted for people, e.g. "$5,000"."""
    amount_cents: int
    """The award, in integer cents (US$ 0.01)."""
    validated_by: str | None
    """Who validated it; null until then, and for a voided award."""
    envy_for_position: int | Absent = absent()
    """An envy bonus: the seat whose hand earned it; absent otherwise."""
    voided_by: str | Absent = absent()
    """Who voided it; absent unless voided."""
    recorded_status: str | Absent = absent()
    """On a read: its status recorded at settlement (status is the ledger's now)."""
    recorded_amount_cents: int | Absent = absent()
    """On a read: its amount recorded at settlement, in integer cents (US$ 0.01)."""


class FedProgressive(Shape):
    """What one progressive the round fed paid (the ledger's settlement)."""

    progressive: str
    """The progressive."""
    ledger_round: str
    """The ledger's TABLE/ROUND."""
    idempotency_key: str
    """The ledger's key: PROGRESSIVE/TABLE/ROUND."""
    awards: list[RoundAward]
    """The awards the round won there."""


class TotalsAsSettled(Shape):
    """On a read of a round with awards on a progressive's ledger: the totals recorded at
    settlement (the document's own totals being the ledger's now)."""

    net_cents: int
    """The round's net as recorded at settlement, in integer cents (US$ 0.01)."""
    settlement_net_cents: int
    """The settlement's net as recorded, in integer cents (US$ 0.01)."""
    returned_cents: int
    """Everything returned as recorded, in integer cents (US$ 0.01)."""
    changed_since: bool
    """Whether any line's amount, pay or pending validation differs now (an award validated,
    voided or shared since)."""


class Voided(Shape):
    """A round voided at an open table before it was settled (POST /tables/{table}/void):
    every wager returned."""

    by: str
    """The floorperson or above who voided it."""
    reason: str
    """Why, as given."""
    phase: EventPhase
    """The round's phase when it was voided."""
    returned_cents: int
    """Every wager returned, in integer cents (US$ 0.01)."""
    returned: str
    """The amount returned, formatted for people, e.g. "$5,000"."""
    ledger_rounds_voided: list[str]
    """The progressives whose ledger round was voided with it (its progressive wagers
    accepted there)."""


class StoredRound(Shape):
    """A settled round as the service stores and shows it."""

    stored_already: Literal[True] | Absent = absent()
    """Present on an answer that settled nothing and shows the round as stored: POST
    /rounds/settle of a round stored already (200), any answer given again under its
    Idempotency-Key (Idempotent-Replayed: true), an open table's settle step given again; its
    awards are then the ledger's now (Content-Location names GET /rounds/{table}/{round})."""
    table: str
    """The table's id."""
    round: str
    """The round's id."""
    submission: str
    """The Rules Submission's name (or its game when it has none)."""
    submission_digest: Sha256
    """SHA-256 of the Rules Submission as canonical JSON (as croupier check prints it)."""
    content_digest: Sha256
    """SHA-256 of the round's content (croupier.table.progressive.round_content)."""
    base_game: BaseGame | Absent = absent()
    """Who settles the round's base game: "croupier" (every Blackjack hand played out in the
    steps) or "external" (the table's own system; its base wagers' lines hold no win); absent
    from a round stored before rounds declared it."""
    cards: str | None
    """The cards dealt, as text; null when none were."""
    events: list[StoredEvent]
    """The round's procedure, event by event."""
    settlement: StoredSettlement
    """The round's settlement."""
    net_cents: int
    """The players' net result of the round, in integer cents (US$ 0.01)."""
    wagers: list[str]
    """The wager ids bet in the round."""
    progressives: list[FedProgressive]
    """What each progressive the round fed paid."""
    recorded_by: str
    """The authenticated staff member who recorded it."""
    settled_at: Timestamp
    """When it was stored (ISO 8601 with its offset)."""
    as_settled: TotalsAsSettled | Absent = absent()
    """On a read (GET /rounds, GET /rounds/{table}/{round}, an open table's 'settled') of a
    round with awards on a progressive's ledger: the totals recorded at settlement."""
    voided: Voided | Absent = absent()
    """A round voided at an open table before it was settled: who, why, what was returned."""


class RoundList(Shape):
    """``GET /rounds``: the stored rounds matching the filters, oldest first."""

    count: int
    """How many rounds match (all pages)."""
    offset: int
    """The first round's place among them, from 0."""
    rounds: list[StoredRound]
    """This page's rounds, each as GET /rounds/{table}/{round} shows it."""


class SummaryFilters(Shape):
    """The filters a summary was made with (null: not given)."""

    table: str | None
    """Only this table's rounds."""
    since: str | None
    """Settled at or after (ISO 8601), as given."""
    until: str | None
    """Settled before (ISO 8601), as given."""
    wager: str | None
    """Only this wager, as given."""


class WagerTotals(Shape):
    """One wager's totals over the rounds summarized."""

    wager: str
    """The wager id bet."""
    rounds: int
    """Rounds holding it."""
    lines: int
    """Lines croupier settled."""
    stake_cents: int
    """The handle: the amount wagered on those lines, in integer cents."""
    win_cents: int
    """The players' net win, in integer cents (a progressive's award as the ledger has it
    now)."""
    pending_cents: int
    """Awards awaiting validation, in integer cents (not in the net)."""
    voided_cents: int
    """Awards voided, in integer cents (paid nothing)."""
    settled_by_base_game: int
    """Lines the table's own base game settled (counted apart)."""
    base_game_stake_cents: int
    """Their stakes, in integer cents."""
    hold_cents: int
    """What the table kept: -win_cents, in integer cents."""


class RoundSummary(Shape):
    """``GET /rounds/summary``: handle, the players' net win and the hold, by wager."""

    rounds: int
    """Rounds settled (voided rounds apart)."""
    voided_rounds: int
    """Rounds voided at an open table: every wager returned."""
    filters: SummaryFilters
    """The filters applied."""
    wagers: list[WagerTotals]
    """Each wager's totals, by wager id."""


class Turn(Shape):
    """A player whose decision the round takes now."""

    seat: int
    """The seat."""
    hand: int | None
    """The hand's number among the seat's hands, from 1 (null: the keep-or-switch choice, or a
    game of one hand a seat)."""
    hands: int
    """How many hands the seat has."""
    cards: str
    """The hand's cards, as text."""
    actions: list[StepAction]
    """The steps the player may take."""


class TableState(Shape):
    """An open table's round so far, and what it takes next."""

    table: str
    """The table's id."""
    round: str
    """The round's id (round-N), as GET /rounds/{table}/{id} takes it once settled."""
    round_number: int
    """The round's number at the table."""
    submission_digest: Sha256
    """SHA-256 of the table's Rules Submission."""
    base_game: BaseGame
    """Who settles the table's base game: "croupier" (every Blackjack hand played out in the
    steps) or "external" (the table's own system; its base wagers' lines hold no win)."""
    progressives: list[str]
    """The progressives linked to the table."""
    phase: EventPhase
    """The round's phase."""
    allowed: list[StepAction]
    """Exactly the kinds of step the round would accept now (each asked of the round: its
    phase, whose turn it is, the hand's cards, the Rules Submission's options)."""
    to_act: list[Turn]
    """The players whose decisions the round takes now: at Blackjack the one in turn (the
    Switch Hands choice, highest seat first, then each hand from seat 1), at Four Card Poker
    every seat yet to play or fold, at Criss-Cross Poker every seat that may fold; empty when
    none (the dealer draws, or the round settles)."""
    cards: str | None
    """The cards dealt, as text; null before the deal."""
    events: list[RoundEvent]
    """The round's procedure so far."""
    settlement: Settlement
    """The settlement so far."""
    net_cents: int
    """The players' net so far, in integer cents."""
    estimate: str | Absent = absent()
    """Present when a share of a meter is shown at the live meter before the round is
    settled."""
    settled: StoredRound | Absent = absent()
    """After the settle step: the stored round."""
    voided: StoredRound | Absent = absent()
    """After a void: the voided round, stored."""


class ListedTable(Shape):
    """An open table in ``GET /tables``."""

    table: str
    """The table's id."""
    submission_digest: Sha256
    """SHA-256 of its Rules Submission."""
    base_game: BaseGame
    """Who settles the table's base game: "croupier" (every Blackjack hand played out in the
    steps) or "external" (the table's own system; its base wagers' lines hold no win)."""
    progressives: list[str]
    """The progressives linked to it."""
    round: str
    """Its current round's id (round-N)."""
    round_number: int
    """Its current round's number."""
    opened_by: str
    """The pit manager who opened it."""
    opened_at: Timestamp
    """When (UTC, ISO 8601)."""


class TableList(Shape):
    """``GET /tables``: every open table."""

    tables: list[ListedTable]
    """By table id."""


class TableClosed(Shape):
    """``DELETE /tables/{table}``: the table closed."""

    table: str
    """The table's id."""
    closed: Literal[True]
    """Always true."""
    closed_by: str
    """Who closed it."""
    closed_at: Timestamp
    """When (UTC, ISO 8601)."""
    round_not_played: str
    """The round id the table would have played next."""


SettledRounds = list[SettledRound]
"""``croupier settle --json``: each round file settled, in order."""

__all__ = [
    "FedProgressive",
    "ListedTable",
    "RoundAward",
    "RoundList",
    "RoundSummary",
    "SettledRound",
    "SettledRounds",
    "StoredRound",
    "SummaryFilters",
    "TableClosed",
    "TableList",
    "TableState",
    "TotalsAsSettled",
    "Turn",
    "Voided",
    "WagerTotals",
]
