"""The progressive controller's configuration and reconciliation over HTTP: what ``croupier
meters suspend | resume | reconfigure | report`` do (:mod:`croupier.commands.meters_config`,
:mod:`croupier.commands.meters_report`), calling the ledger directly.

* ``POST /progressives/{name}/suspend`` (``{"reason": ...}``) and ``POST
  /progressives/{name}/resume`` — a pit manager or above takes a link out of play before a
  reconfiguration and puts it back (58 Pa. Code § 605a.8; NY 9 NYCRR 5321.18(b)(4) as
  supporting; docs/interpretations.md).
* ``POST /progressives/{name}/reconfigure`` — a shift manager changes a *suspended*
  progressive's seeds, rates or limits, naming the approval (58 Pa. Code § 605a.7; N.J.A.C.
  13:69E-1.39C); the meters
  are not moved.
* ``GET /reconciliation`` — each progressive and level over a period (``?from=``, ``?to=``,
  ``?name=``): opening meter, contributions, awards from the meter, resets, adjustments, closing
  meter, the balance equation checked (58 Pa. Code § 605a.7(a)); the JSON of ``croupier meters
  report --json``, or its CSV with ``?format=csv``.

Each POST takes an ``Idempotency-Key``; the authenticated member is the ledger's actor and the
ledger checks their role against its own log (a dealer suspending is a 403 problem citing
§ 605a.7). Money in: dollars as text (``"$2,500"``); rates as percentages (``"15%"``, a
secondary after ``+``: ``"12%+3%"``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from croupier.errors import InputError
from croupier.operations.presenters.reports import REPORT_COLUMNS, progressive_json, report_rows
from croupier.operations.progressives import reconcile_progressives, reconfigure_progressive
from croupier.operations.schemas.progressives import Reconfigured, SuspendedState
from croupier.operations.schemas.reports import Reconciliation
from croupier.paytables import MeterLevel
from croupier.progressive import ProgressiveDefinition, Role, StaffMember
from croupier.progressive.report import check_period
from croupier.service.common import ledger_of
from croupier.service.dependencies import Once, report_reader, signed_in
from croupier.service.idempotency import Write
from croupier.service.jsontext import dumps
from croupier.units import amount_schema, format_percent, parse_amount
from croupier.units import parse_time as _when

Dollars = Annotated[str, Field(json_schema_extra=amount_schema())]
"""An amount in dollars, at most croupier's limit (:data:`~croupier.units.MAX_CENTS`)."""

router = APIRouter()


def _staff(what: str) -> Any:
    """The authenticated member (any role: the ledger checks the operation's own)."""
    return Depends(signed_in(what))


Suspender = Annotated[StaffMember, _staff("suspending a progressive")]
Resumer = Annotated[StaffMember, _staff("resuming a progressive")]
Reconfigurer = Annotated[StaffMember, _staff("reconfiguring a progressive")]
Reader = Annotated[StaffMember, _staff("reading the reconciliation")]


def _may(
    request: Request, member: StaffMember, role: Role, what: str, name: str
) -> Callable[[], object]:
    """The ledger's role check (§ 605a.7) of an operation on progressive ``name``, before a
    stored response is answered again: the role first, then the progressive's existence (a
    member who may not make the request is refused alike whether ``name`` exists or not)."""

    def check() -> object:
        ledger = ledger_of(request)
        found = ledger.check_role(member.name, role, "605a.7", what)
        ledger.definition(name)
        return found

    return check


Reports = Annotated[StaffMember, Depends(report_reader("reading the reconciliation"))]


def _answer(status: int, body: Any) -> Write:
    def run(_conn: Any) -> tuple[int, Any]:
        return status, body

    return Write(run)


class Suspension(BaseModel):
    """Why a progressive is taken out of play."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"reason": "new seed approved: ticket CHG-118"}]},
    )
    reason: str = Field(min_length=1, max_length=500)


@router.post(
    "/progressives/{name}/suspend",
    response_model=SuspendedState,
    summary="Take a progressive out of play (pit manager)",
)
def suspend(
    request: Request, member: Suspender, name: str, body: Suspension, once: Once
) -> Response:
    """No wager is accepted at its tables until it is resumed; a pit manager or above does it
    (a ``suspend`` event with the reason). Suspended already: 409."""
    check = _may(request, member, Role.PIT_MANAGER, "suspending a progressive", name)
    data = {"progressive": name, **body.model_dump()}
    if (replayed := once.replay(data, member.name, authorize=check)) is not None:
        return replayed
    ledger_of(request).suspend(name, by=member.name, reason=body.reason)
    return once.commit(_answer(200, {"progressive": name, "suspended": True, "by": member.name}))


@router.post(
    "/progressives/{name}/resume",
    response_model=SuspendedState,
    summary="Put a suspended progressive back in play",
)
def resume(request: Request, member: Resumer, name: str, once: Once) -> Response:
    """A pit manager or above (a ``resume`` event). In play already: 409."""
    check = _may(request, member, Role.PIT_MANAGER, "resuming a progressive", name)
    if (replayed := once.replay({"progressive": name}, member.name, authorize=check)) is not None:
        return replayed
    ledger_of(request).resume(name, by=member.name)
    return once.commit(_answer(200, {"progressive": name, "suspended": False, "by": member.name}))


class Reconfiguration(BaseModel):
    """New parameters of a suspended progressive's levels, by level name, and the approval."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "approval": "CHG-118",
                    "seeds": {"Progressive": "$12,000"},
                    "rates": {"Progressive": "12%+3%"},
                    "limits": {"Progressive": "$250,000"},
                }
            ]
        },
    )
    approval: str = Field(min_length=1, max_length=500, description="The approval's reference.")
    seeds: dict[str, Dollars] = Field(default_factory=dict, description="LEVEL: dollars.")
    rates: dict[str, str] = Field(
        default_factory=dict, description="LEVEL: primary % (and + secondary %)."
    )
    limits: dict[str, Dollars | None] = Field(
        default_factory=dict, description="LEVEL: dollars, or null for no limit."
    )


def _level(defn: ProgressiveDefinition, text: str) -> MeterLevel:
    return defn.named_level(text)


def _rate(text: str, what: str) -> Fraction:
    t = text.strip().removesuffix("%")
    try:
        if not t.isascii():  # Fraction reads every script's digits: "１５" would be 15
            raise ValueError(t)
        r = Fraction(t) / 100
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{what} {text!r} is not a percentage (e.g. 15%, 3.75%)") from None
    if not 0 <= r < 1:
        raise InputError(f"{what} {text!r} must be from 0% up to (not including) 100%")
    return r


def shown_changes(changes: dict[str, dict[str, list[Any]]]) -> dict[str, dict[str, list[Any]]]:
    """The reconfiguration's changes as the request gives them and ``GET /progressives`` shows
    them: each rate ``[old, new]`` as percentages (``["18.5%", "15%"]``), its exact fractions
    beside as ``…_rate_exact`` (``["37/200", "3/20"]``, what the ledger's event records); seeds
    and limits in integer cents, as recorded."""
    out: dict[str, dict[str, list[Any]]] = {}
    for level, fields in changes.items():
        shown: dict[str, list[Any]] = {}
        for f, values in fields.items():
            if f.endswith("_rate"):
                shown[f] = [format_percent(Fraction(v)) for v in values]
                shown[f"{f}_exact"] = list(values)
            else:
                shown[f] = list(values)
        out[level] = shown
    return out


def _reconfiguration(
    defn: ProgressiveDefinition, body: Reconfiguration
) -> tuple[
    dict[MeterLevel, int],
    dict[MeterLevel, tuple[Fraction, Fraction]],
    dict[MeterLevel, int | None],
]:
    """The request's new seeds (cents), rates (primary, secondary) and limits (cents or none), by
    level of ``defn``; a rate given without ``+`` keeps the level's secondary rate."""
    seeds = {_level(defn, lv): parse_amount(v, f"seed of {lv}") for lv, v in body.seeds.items()}
    rates: dict[MeterLevel, tuple[Fraction, Fraction]] = {}
    for lv, v in body.rates.items():
        level = _level(defn, lv)
        primary, _, secondary = v.partition("+")
        rates[level] = (
            _rate(primary, f"rate of {lv}"),
            _rate(secondary, f"rate of {lv}") if secondary else defn.level(level).secondary_rate,
        )
    limits = {
        _level(defn, lv): None if v is None else parse_amount(v, f"limit of {lv}")
        for lv, v in body.limits.items()
    }
    return seeds, rates, limits


@router.post(
    "/progressives/{name}/reconfigure",
    response_model=Reconfigured,
    summary="Reconfigure a suspended progressive",
)
def reconfigure(
    request: Request, member: Reconfigurer, name: str, body: Reconfiguration, once: Once
) -> Response:
    """Change seeds, rates or limits of a suspended progressive, as a shift manager, naming the
    approval; one ``reconfigure`` event records the old and new definitions. In play: 409
    (suspend it first); a change of nothing: 422."""
    check = _may(request, member, Role.SHIFT_MANAGER, "reconfiguring a progressive", name)
    data = {"progressive": name, **body.model_dump()}
    if (replayed := once.replay(data, member.name, authorize=check)) is not None:
        return replayed
    ledger = ledger_of(request)
    seeds, rates, limits = _reconfiguration(ledger.definition(name), body)
    changes = reconfigure_progressive(
        ledger,
        name,
        by=member.name,
        approval=body.approval,
        seeds_cents=seeds,
        rates=rates,
        limits_cents=limits,
        suspend_with=f"POST /progressives/{name}/suspend",
    )
    shown = {
        "progressive": name,
        "by": member.name,
        "approval": body.approval.strip(),
        "changes": shown_changes(changes),
    }
    return once.commit(_answer(200, shown))


CSV_SCHEMA: dict[str, Any] = {
    "type": "string",
    "description": "CSV with a header, one row per level (?format=csv): "
    + ", ".join(REPORT_COLUMNS)
    + "; money in integer micro-dollars (*_micros) or cents (*_cents), as "
    "croupier.operations.schemas.reports.ReportRow describes each column.",
}
"""The CSV answer's schema (the columns of :data:`REPORT_COLUMNS`)."""


class ReportFormat(StrEnum):
    """How ``GET /reconciliation`` answers."""

    JSON = "json"
    CSV = "csv"


@router.get(
    "/reconciliation",
    summary="Reconcile each progressive and level over a period (§ 605a.7(a))",
    response_model=Reconciliation,
    responses={200: {"content": {"text/csv": {"schema": CSV_SCHEMA}}}},
)
def reconciliation(
    request: Request,
    _member: Reports,
    name: Annotated[str | None, Query(description="Only this progressive.")] = None,
    start: Annotated[
        str | None, Query(alias="from", description="Start of the period (ISO, UTC).")
    ] = None,
    end: Annotated[
        str | None, Query(alias="to", description="End of the period, excluded (ISO, UTC).")
    ] = None,
    fmt: Annotated[ReportFormat, Query(alias="format", description="json or csv.")] = (
        ReportFormat.JSON
    ),
) -> Response:
    """As ``croupier meters report --json`` (or its CSV): per level the opening and closing
    meters (integer micro-dollars, ``*_micros``, with the amount in dollars beside each:
    ``opening``), the period's contributions, awards from the meter, resets and adjustments, the
    reserve's, what an attendant paid (cents, and dollars), and whether ``closing = opening +
    contributions + resets + adjustments − awards`` holds (``balanced``); per progressive what
    the table paid (odds lines, envy: ``paid_by_table_cents``, in the CSV on each of its levels'
    rows). A level that does not balance is reported as such (``"balanced": false``): run
    ``GET /verify``."""
    lo, hi = _when(start, "the from parameter"), _when(end, "the to parameter")
    check_period(lo, hi, ("?from=", "?to="))  # the query's words, not the CLI's options
    recs = reconcile_progressives(ledger_of(request), name, lo, hi)
    if fmt is ReportFormat.CSV:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=REPORT_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(row for r in recs for row in report_rows(r))
        return Response(buf.getvalue(), media_type="text/csv; charset=utf-8")
    data = {
        "from": lo.isoformat() if lo else None,
        "to": hi.isoformat() if hi else None,
        "balanced": all(r.balanced for r in recs),
        "progressives": [progressive_json(r) for r in recs],
    }
    return Response(dumps(data), media_type="application/json")
