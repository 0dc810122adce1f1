"""The progressive controller over HTTP: what ``croupier meters`` does, for every linked table.

Reading (any staff member's token): ``GET /progressives`` (every progressive's levels, linked
tables and pending awards — the JSON of ``croupier meters --json``), ``GET
/progressives/{name}``, ``GET /progressives/{name}/history``, ``GET /awards?status=pending``,
``GET /verify`` (``croupier meters verify --json``: the whole ledger replayed, its chain checked).

Changing (each with ``Idempotency-Key``; the authenticated member is the ledger's actor, and the
ledger checks their role against its own log and the rule): ``POST /progressives`` (a shift
manager creates one, § 605a.7), ``POST /progressives/{name}/links`` (§ 605a.8), ``POST
/progressives/{name}/adjust`` (a pit manager, § 605a.7(a)(6)), ``POST /awards/{id}/validate``
and ``POST /awards/{id}/void`` (a floorperson or above, § 633b.2(h)(3), § 633b.3(h)(3): a dealer
is refused with a 403 problem citing the paragraph — (h)(3) for a validation, (h)(1) for a void,
a hand found not to be a winning one — before the award is looked up: the same answer for an
award that exists and one that does not). ``GET /significant-events`` is a shift manager's or
an auditor's (:data:`EVENTS_READER`). The staff routes (``/staff``) are
:mod:`croupier.service.routes.staff`'s.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from croupier.names import PROGRESSIVE, TABLE, exact
from croupier.operations.progressives import significant_events as ops_significant_events
from croupier.operations.rounds import checked_submission
from croupier.operations.schemas.progressives import (
    Adjusted,
    Award,
    Linked,
    MetersStatus,
    Progressive,
    SignificantEvents,
    Verified,
    VoidedAward,
)
from croupier.operations.schemas.progressives import (
    Awards as AwardList,
)
from croupier.operations.schemas.progressives import (
    History as HistoryBody,
)
from croupier.progressive import (
    AwardStatus,
    EnvyRule,
    HitPolicy,
    Ledger,
    ProgressiveDefinition,
    ReseedFunding,
    ResetTiming,
    Role,
    SignificantCode,
    StaffMember,
    format_micros,
)
from croupier.progressive.create import FIELDS, new_definition
from croupier.progressive.model import VOID_RULE, VOIDING
from croupier.progressive.significant import READER as EVENTS_READER
from croupier.progressive.significant import READER_RULE, READER_SECTION, READING
from croupier.progressive.staffing import STAFF_SECTION
from croupier.progressive.views import award_dict as _award_dict
from croupier.progressive.views import event_dict as _event_dict
from croupier.progressive.views import signed_cents as _signed_cents
from croupier.progressive.views import significant_dict
from croupier.progressive.views import status_dict as _status_dict
from croupier.service.award_decisions import Decision, may_decide, voided_answer
from croupier.service.common import AwardId
from croupier.service.dependencies import LedgerDep, Once, require, signed_in
from croupier.table.submission_file import InlineSubmission
from croupier.units import amount_schema
from croupier.wagers import ProgressiveStake

Dollars = Annotated[str, Field(json_schema_extra=amount_schema())]
"""An amount in dollars, at most croupier's limit (:data:`~croupier.units.MAX_CENTS`)."""
SignedDollars = Annotated[str, Field(json_schema_extra=amount_schema(signed=True))]
"""An amount in dollars added (or, with ``-``, taken), at most croupier's limit either way."""

router = APIRouter()


def _staff(what: str) -> Any:
    """The authenticated member (any role: the ledger checks the operation's own), ``what``
    naming the route's action in its 401 problem."""
    return Depends(signed_in(what))


Progressives = Annotated[StaffMember, _staff("reading the progressives")]
OneProgressive = Annotated[StaffMember, _staff("reading a progressive")]
History = Annotated[StaffMember, _staff("reading a progressive's history")]
Significant = Annotated[
    StaffMember, Depends(require(EVENTS_READER, READER_SECTION, READING, also=READER_RULE))
]
"""A shift manager or an auditor (:data:`EVENTS_READER`), as ``croupier meters events``."""
Awards = Annotated[StaffMember, _staff("reading the awards")]
Verifier = Annotated[StaffMember, _staff("verifying the ledger")]
Validator = Annotated[StaffMember, _staff("validating an award")]
Voider = Annotated[StaffMember, _staff("voiding an award")]
Creator = Annotated[StaffMember, _staff("creating a progressive")]
Linker = Annotated[StaffMember, _staff("linking a table")]
Adjuster = Annotated[StaffMember, _staff("adjusting a meter")]
Hirer = Annotated[StaffMember, _staff("adding staff")]


def may(
    ledger: Ledger, member: StaffMember, role: Role, section: str, what: str, name: str | None
) -> object:
    """The ledger's role check of an operation on progressive ``name``, made before a stored
    response is answered again (the ``authorize`` of
    :meth:`~croupier.service.idempotency.Idempotent.replay`): the role first, then the
    progressive's existence — a member who may not make the request is refused alike whether
    ``name`` exists or not (docs/interpretations.md, *What a role can learn*)."""
    found = ledger.check_role(member.name, role, section, what)
    if name is not None:
        ledger.definition(name)
    return found


def _status(ledger: Ledger, name: str) -> dict[str, Any]:
    """Progressive ``name`` as ``croupier meters --json`` shows it: definition, levels, the
    § 605a.7(a) meter set, linked tables, pending awards — from one read snapshot of the stored
    state (:meth:`Ledger.snapshot`: a few indexed reads, not a replay of the log) — and
    ``suspended``: ``null`` in play, else who suspended it, why and since when
    (:meth:`Ledger.suspension`)."""
    return _status_dict(*ledger.snapshot(name), ledger.suspension(name))


@router.get(
    "/progressives",
    response_model=MetersStatus,
    response_model_exclude_unset=True,
    summary="Every progressive: levels, linked tables, pending awards",
)
def progressives(ledger: LedgerDep, _member: Progressives) -> dict[str, Any]:
    """As ``croupier meters --json``: meters in micro-dollars (``*_micros``) and dollars."""
    return {
        "database": ledger.display_url,
        "progressives": [_status(ledger, n) for n in ledger.names()],
    }


@router.get(
    "/progressives/{name}",
    response_model=Progressive,
    response_model_exclude_unset=True,
    summary="One progressive",
)
def progressive(ledger: LedgerDep, _member: OneProgressive, name: str) -> dict[str, Any]:
    """Its definition, levels, linked tables and pending awards."""
    return _status(ledger, name)


@router.get(
    "/progressives/{name}/history",
    response_model=HistoryBody,
    summary="A progressive's ledger events",
)
def history(
    ledger: LedgerDep,
    _member: History,
    name: str,
    limit: Annotated[int | None, Query(ge=1, le=10_000, description="Only the last N.")] = None,
) -> dict[str, Any]:
    """The events in ledger order (who did what, in which role, with every meter delta); the
    significant events are ``GET /significant-events``'s, for a shift manager or an auditor."""
    events = ledger.history(name, limit, significant=False)
    return {"history": [_event_dict(e) for e in events]}


@router.get(
    "/significant-events",
    response_model=SignificantEvents,
    summary="The controller's significant events",
)
def significant_events(
    ledger: LedgerDep,
    _member: Significant,
    code: Annotated[
        SignificantCode | None,
        Query(description="Only this code, e.g. startup-self-check or crash-recovery."),
    ] = None,
    progressive: Annotated[str | None, Query(description="Only this progressive's.")] = None,
    limit: Annotated[int | None, Query(ge=1, le=10_000, description="Only the last N.")] = None,
) -> dict[str, Any]:
    """As ``croupier meters events --json`` (GLI-13; N.J.A.C. 13:69D-1.52, NY 9 NYCRR 5320.8):
    start-up self-checks, verification failures, configuration mismatches, recoveries after a
    crash and shutdowns, failed logins and lockouts, each with its table, code, time and actor.
    A shift manager or an auditor reads them (NIST SP 800-53 AU-9(4): they name members and
    client addresses); any other role is a 403 problem."""
    found = ops_significant_events(ledger, progressive, None if code is None else code.value, limit)
    return {"events": [significant_dict(e) for e in found]}


@router.get(
    "/awards",
    response_model=AwardList,
    response_model_exclude_unset=True,
    summary="Awards, e.g. those pending validation",
)
def awards(
    ledger: LedgerDep,
    _member: Awards,
    status: Annotated[AwardStatus | None, Query(description="pending, paid or voided.")] = None,
    progressive: Annotated[str | None, Query(description="Only this progressive.")] = None,
) -> dict[str, Any]:
    """Every award (of one progressive, or all), oldest first."""
    names = [progressive] if progressive else ledger.names()
    return {"awards": [_award_dict(a) for n in names for a in ledger.awards(n, status)]}


@router.get(
    "/verify", response_model=Verified, summary="Replay the whole ledger and check its chain"
)
def verify(
    ledger: LedgerDep,
    _member: Verifier,
    name: Annotated[str | None, Query(description="Only this progressive's levels.")] = None,
) -> dict[str, Any]:
    """As ``croupier meters verify --json``; the first difference is a 500 problem
    (``LedgerIntegrityError``)."""
    report = ledger.audit()
    names = [name] if name else ledger.names()
    if name is not None:
        ledger.definition(name)
    return {
        "events": report.events,
        "chain_checked": report.chain_checked,
        "verified": {
            n: {lv.value: format_micros(s.meter) for lv, s in report.levels[n].items()}
            for n in names
        },
        "verified_micros": {
            n: {lv.value: s.meter for lv, s in report.levels[n].items()} for n in names
        },
    }


class Reason(BaseModel):
    """Why an award is voided."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"reason": "the hand was misread: not a suited match"}]},
    )
    reason: str = Field(min_length=1, max_length=500)


@router.post(
    "/awards/{award_id}/validate",
    response_model=Award,
    summary="Validate a pending award (floorperson)",
)
def validate(ledger: LedgerDep, member: Validator, award_id: AwardId, once: Once) -> Response:
    """A floorperson or above validates a pending share of a meter; it is then paid and, after
    a 100% award, the level resets (§ 633b.2(h)(3)–(4), § 633b.3(h)(3)–(4)). A member below:
    403 citing the paragraph, whether the award exists or not; an award paid already: 409."""

    check = partial(may_decide, ledger, member, "validating a progressive payout", "(h)(3)")
    if (replayed := once.replay({"award": award_id}, member.name, authorize=check)) is not None:
        return replayed
    decide = partial(ledger.validate, award_id, by=member.name)
    return once.commit(Decision(decide, _award_dict).write())


@router.post(
    "/awards/{award_id}/void",
    response_model=VoidedAward,
    summary="Void a pending award (floorperson)",
)
def void(
    ledger: LedgerDep, member: Voider, award_id: AwardId, body: Reason, once: Once
) -> Response:
    """Void a pending award that is not a winning hand (§ 633b.2(h)(1)); its amount stays on
    the meter. Who may, and what else is answered: as a validation."""

    check = partial(may_decide, ledger, member, VOIDING, VOID_RULE)
    if (replayed := once.replay(body.model_dump(), member.name, authorize=check)) is not None:
        return replayed
    decide = partial(ledger.void_award, award_id, by=member.name, reason=body.reason)
    return once.commit(Decision(decide, partial(voided_answer, member.name, body.reason)).write())


FCP_SUBMISSION_EXAMPLE: dict[str, Any] = {
    "game": "four-card-poker",
    "name": "4CP-1 progressive",
    "decks": 1,
    "seats": 6,
    "adjacent_boxes": 2,
    "wagers": [
        {"wager": "four-card-poker", "paytable": "25-20-2", "min": "$10", "max": "$500"},
        {"wager": "aces-up", "paytable": "pa-casino", "min": "$5", "max": "$100"},
        {
            "wager": "four-card-progressive",
            "paytable": "example-four-card-progressive",
            "amounts": ["$1"],
        },
    ],
}
"""examples/submissions/four-card-poker-progressive.toml's table, with the Four-Card Progressive
Payout wager (§ 641a.7(d)(4)) on its EXAMPLE paytable."""


class NewProgressive(BaseModel):
    """A progressive from a paytable (as ``croupier meters create``, with the same options and
    checks: :func:`croupier.progressive.create.new_definition` is both)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "paytable": "match-the-dealer:1",
                    "decks": 6,
                    "amount": "$5",
                    "name": "mtd-5",
                    "tables": ["BJ-1"],
                },
                {
                    "paytable": "four-card-progressive:example-four-card-progressive",
                    "decks": 1,
                    "amount": "$1",
                    "name": "fcp-1",
                    "tables": ["4CP-1"],
                    "reset_timing": "on-award",
                    "hit_policy": "first-takes-meter",
                    "reseed": "house",
                    "limits": {"Progressive": "$50,000"},
                    "submission": FCP_SUBMISSION_EXAMPLE,
                },
            ]
        },
    )
    paytable: str = Field(
        description="SECTION:PAYTABLE or WAGER:PAYTABLE, e.g. 633b.3:1, match-the-dealer:1 or "
        "four-card-progressive:example-four-card-progressive (--paytable)."
    )
    decks: StrictInt = Field(ge=1, le=8, description="The table's deck count (--decks).")
    amount: Dollars = Field(description="The progressive wager's stake in dollars (--amount).")
    name: str = Field(
        description="A name for it (--name; croupier.names: at most 100 characters, no '/')."
    )
    tables: list[str] = Field(
        default_factory=list,
        description="Table ids to link (§ 605a.8; --table; no space, no '/').",
    )
    reset_timing: ResetTiming = Field(
        ResetTiming.ON_VALIDATION,
        description="When a share award leaves the meter and a 100% award resets it "
        "(--reset-timing).",
    )
    envy: EnvyRule = Field(EnvyRule.EACH, description="Envy bonuses per player per round (--envy).")
    stake: ProgressiveStake = Field(
        ProgressiveStake.COLLECTED,
        description="Whether a meter award returns the stake (--progressive-stake).",
    )
    reseed: ReseedFunding = Field(
        ReseedFunding.RESERVE,
        description="Who funds a level's reset after a 100% award: the reserve (the house tops "
        "it up to the seed) or a new seed from the house, the reserve on top (--reseed).",
    )
    hit_policy: HitPolicy | None = Field(
        None,
        description="Near-simultaneous 100% hits at linked tables: the first takes the meter "
        "and the next the reseeded value, or they share the first's value; needs reset_timing "
        "on-award (--hit-policy).",
    )
    limits: dict[str, Dollars] = Field(
        default_factory=dict,
        description="LEVEL: dollars, each level's progressive limit (ceiling; § 605a.7(a)): "
        "contributions above it go to the reserve, counted on the overflow meter (--limit).",
    )
    submission: InlineSubmission | None = Field(
        None,
        description="The Rules Submission the progressive is offered under, as POST /tables "
        "takes it (checked as croupier check does): its digest is stored with the paytable's, "
        "and play is refused while the running one differs (--submission).",
    )


@router.post(
    "/progressives",
    status_code=201,
    response_model=Progressive,
    summary="Create a progressive (shift manager)",
)
def create(ledger: LedgerDep, member: Creator, body: NewProgressive, once: Once) -> Response:
    """Its levels at their seeds, its tables linked; a shift manager does it (§ 605a.7). Every
    progressive ``croupier meters create`` makes, with its options: Jackpot Party, Match the
    Dealer and the Four Card Poker progressives on their EXAMPLE paytables. A paytable its
    section does not print, or not for that deck count, is a 422 citing the section."""

    check = partial(
        may, ledger, member, Role.SHIFT_MANAGER, STAFF_SECTION, "creating a progressive", None
    )
    replayed = once.replay(body.model_dump(mode="json"), member.name, authorize=check)
    if replayed is not None:
        return replayed
    definition = _definition(body)
    ledger.create_progressive(definition, tables=body.tables, by=member.name)
    return once.answer(201, _status(ledger, definition.name))


def _definition(body: NewProgressive) -> ProgressiveDefinition:
    """The progressive ``body`` asks for, checked as ``croupier meters create`` checks it."""
    exact(PROGRESSIVE, body.name)  # the name rule (croupier.names), the name as given
    for table in body.tables:
        exact(TABLE, table)  # a table's id as every route takes it: as given
    return new_definition(
        body.paytable,
        decks=body.decks,
        amount=body.amount,
        name=body.name,
        reset_timing=body.reset_timing,
        envy=body.envy,
        stake=body.stake,
        reseed=body.reseed,
        hit_policy=body.hit_policy,
        limits=list(body.limits.items()),
        submission=None
        if body.submission is None
        else checked_submission(body.submission, "submission")[1],
        words=FIELDS,
    )


class Link(BaseModel):
    """A table to link."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"table": "BJ-2"}]})
    table: str = Field(description="The table's id (croupier.names: no space, no '/').")


@router.post(
    "/progressives/{name}/links",
    status_code=201,
    response_model=Linked,
    summary="Link a table (§ 605a.8)",
)
def link(ledger: LedgerDep, member: Linker, name: str, body: Link, once: Once) -> Response:
    """Link a table to the progressive's meters; a shift manager does it."""
    check = partial(may, ledger, member, Role.SHIFT_MANAGER, "605a.8", "linking a table", name)
    if (replayed := once.replay(body.model_dump(), member.name, authorize=check)) is not None:
        return replayed
    exact(TABLE, body.table)  # a table's id as every route takes it: as given
    ledger.link_table(name, body.table, by=member.name)
    return once.answer(201, {"progressive": name, "table": body.table, "linked_by": member.name})


class Adjustment(BaseModel):
    """A manual correction of a level (§ 605a.7(a)(6))."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"level": "Progressive", "meter": "-10.00", "reason": "meter test at opening"}
            ]
        },
    )
    level: str
    meter: SignedDollars = Field("0", description="Dollars added to the meter (negative: taken).")
    reserve: SignedDollars = Field(
        "0", description="Dollars added to the reserve (negative: taken)."
    )
    reason: str = Field(min_length=1, max_length=500)


@router.post(
    "/progressives/{name}/adjust",
    response_model=Adjusted,
    summary="Correct a level (pit manager)",
)
def adjust(
    ledger: LedgerDep, member: Adjuster, name: str, body: Adjustment, once: Once
) -> Response:
    """Dollars added to (or, negative, taken off) the meter and reserve, with a reason; a pit
    manager or above does it."""

    check = partial(
        may, ledger, member, Role.PIT_MANAGER, "605a.7(a)(6)", "adjusting a meter", name
    )
    if (replayed := once.replay(body.model_dump(), member.name, authorize=check)) is not None:
        return replayed
    lv = ledger.definition(name).named_level(body.level)
    after = ledger.adjust(
        name,
        lv,
        meter_cents=_signed_cents(body.meter, "the meter field"),
        reserve_cents=_signed_cents(body.reserve, "the reserve field"),
        by=member.name,
        reason=body.reason,
    )
    return once.answer(
        200,
        {
            "progressive": name,
            "level": lv.value,
            "adjusted_by": member.name,
            "reason": body.reason,
            "meter": format_micros(after.meter),
            "meter_micros": after.meter,
            "reserve": format_micros(after.reserve),
            "reserve_micros": after.reserve,
        },
    )
