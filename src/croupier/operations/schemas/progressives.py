"""The progressive controller's JSON: a progressive's status and § 605a.7(a) meters, an award,
the ledger's history and significant events, the verification, and the answers of the changes
(create, link, adjust, suspend and resume, reconfigure) — what ``croupier meters ... --json``
prints and the service's progressive routes answer (:mod:`croupier.progressive.views` makes
both). Money is integer cents (``*_cents``) or, on a meter, integer micro-dollars
(``*_micros``: US$ 0.000001, meters accrue sub-cent increments), with the amount in dollars
beside it for people."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from croupier.operations.schemas import Shape
from croupier.paytables import MeterLevel
from croupier.progressive import (
    AwardKind,
    AwardStatus,
    EnvyRule,
    HitPolicy,
    ReseedFunding,
    ResetTiming,
    Role,
    SignificantCode,
)
from croupier.progressive.checkpoint import FORMAT
from croupier.progressive.model import EventKind


def omitted(schema: dict[str, Any]) -> None:
    """A key the JSON leaves out when it does not apply (not ``null``): no ``default``."""
    schema.pop("default", None)


OptionalStr = Annotated[str | SkipJsonSchema[None], Field(json_schema_extra=omitted)]
"""A text key present only where it applies (never ``null``)."""
OptionalInt = Annotated[int | SkipJsonSchema[None], Field(json_schema_extra=omitted)]
"""A whole-number key present only where it applies (never ``null``)."""

Dollars = Annotated[str, Field(examples=["$5,000", "$0.1875"])]
"""An amount formatted for people ("$5,000"; a meter's to the micro-dollar, "$0.1875"): the
integer ``*_cents`` or ``*_micros`` beside it is the figure."""


class Award(Shape):
    """A progressive award as the ledger shows it: pending validation, paid, or voided
    (§ 633b.2(h), § 633b.3(h))."""

    award: int
    """The award's id, counting every payout (``POST /awards/{award_id}/validate``,
    ``croupier meters validate``)."""
    number: int | None
    """The award's number as people are told it ("award 1"): meter awards alone, those a
    floorperson validates, numbered 1, 2, … in the order they were made; null for an odds or
    envy pay, which the table pays at once."""
    progressive: str
    """The progressive it is paid from."""
    round: str
    """The round it was won in."""
    table: str
    """The table of that round."""
    position: int
    """The seat (betting position) it is paid to."""
    outcome: str
    """The winning hand, as the paytable names it."""
    kind: AwardKind
    """``meter``: a share of a level; ``odds``: a fixed pay; ``envy``: a bonus for another
    player's hand."""
    status: AwardStatus
    """``pending`` (awaiting a floorperson's validation), ``paid`` or ``voided``."""
    level: MeterLevel | None
    """The meter level it is a share of; null for odds and envy pays."""
    share: str | None
    """The share of the level as a percentage ("100%", "10%"); null for odds and envy pays."""
    amount: Dollars
    """The award in dollars."""
    amount_cents: int
    """The award, in integer cents (US$ 0.01)."""
    validated_by: str | None
    """Who validated it (paid after validation); null until then, and for a voided award."""
    voided_by: OptionalStr = None
    """Who voided it: present only on a voided award."""
    envy_for_position: OptionalInt = None
    """An envy bonus: the seat whose hand earned it (present only on an envy bonus)."""


class VoidedAward(Award):
    """An award just voided (``POST /awards/{award_id}/void``, ``croupier meters void``): the
    award, who voided it and why; its amount stays on the meter (§ 633b.2(h)(1))."""

    voided_by: str
    """Who voided it."""
    reason: str
    """Why: the hand was found not to be a winning one."""


class SuspendedBy(Shape):
    """Who took a progressive out of play, why and since when."""

    by: str | None
    """The member who suspended it."""
    reason: str | None
    """Their reason."""
    since: str
    """When (ISO 8601)."""


class ProgressiveLevel(Shape):
    """One level of a progressive: its definition and § 605a.7(a) meters."""

    level: MeterLevel
    """The level's name (§ 633b.2(i))."""
    seed: Dollars
    """The seed in dollars."""
    seed_cents: int
    """The level's seed (its reset amount), in integer cents."""
    primary_rate: str
    """The share of each wager added to the meter, as a percentage."""
    secondary_rate: str
    """The share of each wager added to the reserve, as a percentage."""
    meter: Dollars
    """The meter in dollars."""
    held: Dollars
    """Held for pending awards, in dollars."""
    available: Dollars
    """Meter less held, in dollars."""
    reserve: Dollars
    """The reserve in dollars."""
    meter_micros: int
    """The meter, in integer micro-dollars."""
    held_micros: int
    """Held for pending awards, in integer micro-dollars."""
    available_micros: int
    """Meter less held, in integer micro-dollars."""
    reserve_micros: int
    """The reserve (secondary increments), in integer micro-dollars."""
    wagered: Dollars
    """Wagered to date, in dollars."""
    wagered_cents: int
    """Wagered to date, in integer cents."""
    paid: Dollars
    """Paid to date, in dollars."""
    paid_cents: int
    """Paid to date, in integer cents."""
    hits: int
    """Hits of the level to date."""
    limit_cents: int | None
    """The progressive limit (ceiling) of the meter shown to players, in integer cents; null:
    none."""
    overflow_micros: int
    """The overflow meter: contributions above the limit, put on the reserve instead, in integer
    micro-dollars."""
    paid_by_attendant_cents: int
    """Share-of-meter payouts paid by an attendant (not from the table inventory, § 633b.2(h)(4),
    § 633b.3(h)(4)), in integer cents."""
    cumulative_paid_cents: int
    """The cumulative payout meter: everything paid out of the level (§ 605a.7(a)(4)), in
    integer cents."""
    qualifying_wagers: int
    """Progressive wagers that contributed to the level."""
    wins: int
    """Hits of the level paid."""


class Progressive(Shape):
    """A progressive's definition, levels and meters, linked tables and pending awards
    (``GET /progressives/{name}``, ``croupier meters create --json``)."""

    suspended: SuspendedBy | None
    """Null in play; else who suspended it, why and since when."""
    name: str
    """Its name."""
    section: Annotated[str, Field(pattern=r"^[0-9]{3}[a-z]\.[0-9]+")]
    """The section of 58 Pa. Code its wager is in, e.g. 633b.3."""
    citation: Annotated[str, Field(pattern="^58 Pa\\. Code § ")]
    """The full citation: 58 Pa. Code § 633b.3."""
    paytable: str
    """The paytable's id."""
    decks: int
    """The table's deck count."""
    wager: Dollars
    """The progressive wager's stake in dollars."""
    wager_cents: int
    """The progressive wager's stake, in integer cents."""
    reset_timing: ResetTiming
    """When a share award leaves the meter and a 100% award resets it."""
    envy_rule: EnvyRule
    """Envy bonuses per player per round: each, or the largest only."""
    reseed_funding: ReseedFunding
    """Who funds a level's reset after a 100% award: the reserve (the house topping it up to
    the seed) or a new seed from the house."""
    paytable_sha256: str | None
    """SHA-256 of the approved paytable's canonical data, stored when the progressive was
    created (null: made before digests)."""
    submission_sha256: str | None
    """SHA-256 of the approved Rules Submission, when the progressive was created under one."""
    hit_policy: HitPolicy | None
    """How near-simultaneous 100% hits at linked tables are resolved (null: none declared)."""
    tables: list[str]
    """The linked tables (§ 605a.8)."""
    levels: list[ProgressiveLevel]
    """Its levels, highest first."""
    paid_by_table_cents: int
    """Odds-line and envy pays, paid by the table from its inventory at settlement, in integer
    cents."""
    table_pays: int
    """The number of pays the table made."""
    pending: list[Award]
    """The awards awaiting validation."""


class LedgerEvent(Shape):
    """One event of the ledger's chained log: who did what, in which role, with every meter
    delta."""

    seq: int
    """The event's place in the ledger's chained log."""
    at: str
    """When it was recorded (ISO 8601, UTC)."""
    progressive: str | None
    """The progressive it concerns; null for a staff or controller event."""
    kind: EventKind
    """What happened."""
    level: MeterLevel | None
    """The level it moved, if one."""
    round: str | None
    """The round, if one."""
    table: str | None
    """The table, if one."""
    position: int | None
    """The seat, if one."""
    award: int | None
    """The award's id, if one."""
    meter_delta_micros: int
    """Change of the meter, in integer micro-dollars."""
    reserve_delta_micros: int
    """Change of the reserve, in integer micro-dollars."""
    held_delta_micros: int
    """Change of the held amount, in integer micro-dollars."""
    amount_cents: int | None
    """The event's amount, in integer cents; null when not applicable."""
    amount: str | None
    """The event's amount in dollars, as every view writes money ("$5,000.18"); null when not
    applicable."""
    by: str | None
    """The staff member who did it; null for the controller itself."""
    role: str | None
    """Their role then."""
    detail: dict[str, Any]
    """What the kind of event records besides (a reason, an approval, a definition)."""


class MetersStatus(Shape):
    """Every progressive's levels and pending awards (``GET /progressives``, ``croupier meters
    --json``)."""

    database: str
    """The ledger's database, its password hidden."""
    progressives: list[Progressive]
    """Every progressive, by name."""
    history: Annotated[
        list[LedgerEvent] | SkipJsonSchema[None], Field(json_schema_extra=omitted)
    ] = None
    """The ledger's events (``croupier meters --history`` only)."""


class History(Shape):
    """A progressive's ledger events in order (``GET /progressives/{name}/history``)."""

    history: list[LedgerEvent]
    """The events, oldest first."""


class Awards(Shape):
    """Awards, oldest first (``GET /awards``)."""

    awards: list[Award]
    """The awards."""


class SignificantEvent(Shape):
    """A significant event of the controller (GLI-13; N.J.A.C. 13:69D-1.52, NY 9 NYCRR 5320.8)."""

    seq: int
    """The event's place in the ledger's chained log."""
    at: str
    """When it was recorded (ISO 8601, UTC)."""
    code: SignificantCode
    """What happened."""
    progressive: str | None
    """The progressive it concerns, if one."""
    table: str | None
    """The table, if one."""
    by: str | None
    """The staff member, or null for the controller itself."""
    role: str | None
    """Their role."""
    detail: dict[str, Any]
    """What the code records (session, result, digests, differences, error, the state a
    recovery replayed to)."""


class SignificantEvents(Shape):
    """The controller's significant events (``GET /significant-events``, ``croupier meters
    events --json``)."""

    events: list[SignificantEvent]
    """The events, oldest first."""


class Verified(Shape):
    """The whole ledger replayed and its chain checked (``GET /verify``)."""

    events: int
    """The events replayed."""
    chain_checked: bool
    """Whether each event's mac was checked against the ledger key."""
    verified: dict[str, dict[MeterLevel, Dollars]]
    """Progressive → level → its meter as replayed, in dollars."""
    verified_micros: dict[str, dict[MeterLevel, int]]
    """Progressive → level → its meter as replayed, in integer micro-dollars."""


class CheckpointChecked(Shape):
    """A checkpoint file the ledger was checked against."""

    file: str
    """The file."""
    seq: int
    """The head it names (the event's sequence number)."""


class ConfigurationDigests(Shape):
    """A progressive's approved configuration digests against the running ones."""

    paytable_sha256: str | None
    """The approved paytable's digest (null: made before digests)."""
    running_paytable_sha256: str | None
    """The running paytable's."""
    submission_sha256: str | None
    """The approved Rules Submission's."""
    running_submission_sha256: str | None
    """The running Rules Submission's."""


class MetersVerified(Shape):
    """``croupier meters verify --json``: the ledger replayed, its head and checkpoints checked,
    each progressive's configuration compared."""

    events: int
    """The events replayed."""
    chain_checked: bool
    """Whether each event's mac was checked against the ledger key."""
    head_kept: int | None
    """The head (sequence number) the head file kept; null: none."""
    head_recreated: str | None
    """The head file made anew, if it was missing."""
    checkpoints: list[CheckpointChecked]
    """The checkpoints checked (--checkpoint)."""
    verified: dict[str, dict[MeterLevel, Dollars]]
    """Progressive → level → its meter as replayed, in dollars."""
    verified_micros: dict[str, dict[MeterLevel, int]]
    """Progressive → level → its meter as replayed, in integer micro-dollars."""
    configuration: dict[str, ConfigurationDigests]
    """Progressive → its configuration digests."""


class Linked(Shape):
    """A table linked to a progressive (§ 605a.8)."""

    progressive: str
    """The progressive."""
    table: str
    """The table linked."""
    linked_by: str
    """The shift manager who linked it."""


class Adjusted(Shape):
    """A level after a manual correction (§ 605a.7(a)(6))."""

    progressive: str
    """The progressive."""
    level: MeterLevel
    """The level corrected."""
    adjusted_by: str
    """The pit manager (or above) who corrected it."""
    reason: str
    """Why."""
    meter: Dollars
    """The meter after, in dollars."""
    meter_micros: int
    """The meter after, in integer micro-dollars."""
    reserve: Dollars
    """The reserve after, in dollars."""
    reserve_micros: int
    """The reserve after, in integer micro-dollars."""


class SuspendedState(Shape):
    """A progressive's link taken out of play, or put back (§ 605a.8)."""

    progressive: str
    """The progressive."""
    suspended: bool
    """True: out of play (suspended); false: back in play (resumed)."""
    by: str
    """The pit manager (or above) who did it."""


Change = Annotated[list[int | str | None], Field(min_length=2, max_length=2)]
"""A parameter's ``[old, new]``."""


class Reconfigured(Shape):
    """A suspended progressive's parameters changed, with the approval (§ 605a.7)."""

    progressive: str
    """The progressive."""
    by: str
    """The shift manager who changed them."""
    approval: str
    """The approval's reference."""
    changes: dict[str, dict[str, Change]]
    """Level → parameter → ``[old, new]``: seeds and limits (``seed_cents``, ``limit_cents``)
    in integer cents (a limit null: none); rates (``primary_rate``, ``secondary_rate``) as
    exact fractions "p/q" — over HTTP as percentages ("15%"), the exact fractions beside as
    ``primary_rate_exact``, ``secondary_rate_exact``."""


class Bootstrapped(Shape):
    """``croupier meters bootstrap --json``: the first shift manager, and where the ledger key
    is."""

    user: str
    """The member made."""
    role: Role
    """Their role (a shift manager)."""
    key_file: str | None
    """The ledger key's file; null: held in memory."""


class LoggedIn(Shape):
    """``croupier meters login --json``: a member's credential checked."""

    user: str
    """The member."""
    role: Role
    """Their role."""
    authenticated: Literal[True]
    """Always true (a wrong credential is an error)."""


class CheckpointLevel(Shape):
    """A level's meters at a checkpoint's head."""

    meter_micros: int
    """The meter, in integer micro-dollars."""
    reserve_micros: int
    """The reserve, in integer micro-dollars."""
    held_micros: int
    """Held for pending awards, in integer micro-dollars."""
    wagered_cents: int
    """Wagered to date, in integer cents."""
    paid_cents: int
    """Paid to date, in integer cents."""
    hits: int
    """Hits to date."""


CHECKPOINT_EXAMPLE: dict[str, Any] = {
    "format": FORMAT,
    "ledger": "d00529a51771b517e12a34a5c3451359",
    "key_id": "5b3a6f87dac9d4f7",
    "seq": 412,
    "head_mac": "c69b21d6cb7e5ffdd059c2e1cefea2447f7f5d3fe4f0a789b65087b28397c256",
    "time": "2026-12-06T21:30:00.123456Z",
    "reason": "taken",
    "meters": {
        "mtd-5": {
            "Progressive": {
                "meter_micros": 5_003_750_000,
                "reserve_micros": 0,
                "held_micros": 500_370_000,
                "wagered_cents": 2_500,
                "paid_cents": 0,
                "hits": 0,
            }
        }
    },
    "mac": "966f992a0e097ed9ed9a9c1cfad9fdf41fc9ec5ee5d6b3f371ac944ddc0fd45b",
}
"""A checkpoint as ``GET /checkpoint`` answers it."""


class Checkpoint(Shape):
    """A signed checkpoint of the ledger's chain head (:mod:`croupier.progressive.checkpoint`):
    keep it as it is — any change of a field breaks its ``mac``."""

    model_config = ConfigDict(json_schema_extra={"examples": [CHECKPOINT_EXAMPLE]})

    format: Literal["croupier-checkpoint/1"]
    """Always 'croupier-checkpoint/1'."""
    ledger: str
    """The ledger's identity (SHA-256 of its first event's mac)."""
    key_id: str
    """Which ledger key signed it (not the key)."""
    seq: Annotated[int, Field(ge=1)]
    """The sequence number of the last event: the head."""
    head_mac: str
    """That event's mac (HMAC-SHA256 chain, 64 hex digits)."""
    time: str
    """When it was made (UTC, ISO 8601)."""
    reason: str
    """'taken' (asked for) or the event an automatic one followed."""
    meters: dict[str, dict[MeterLevel, CheckpointLevel]]
    """Each progressive's levels at that head: meter, reserve and held in micro-dollars,
    wagered and paid in cents, hits."""
    mac: str
    """HMAC-SHA256 of every other field under the ledger key."""


__all__ = [
    "CHECKPOINT_EXAMPLE",
    "Adjusted",
    "Award",
    "Awards",
    "Bootstrapped",
    "Checkpoint",
    "CheckpointChecked",
    "CheckpointLevel",
    "ConfigurationDigests",
    "History",
    "LedgerEvent",
    "Linked",
    "LoggedIn",
    "MetersStatus",
    "MetersVerified",
    "OptionalInt",
    "OptionalStr",
    "Progressive",
    "ProgressiveLevel",
    "Reconfigured",
    "SignificantEvent",
    "SignificantEvents",
    "SuspendedBy",
    "SuspendedState",
    "Verified",
    "VoidedAward",
    "omitted",
]
