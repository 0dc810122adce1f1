"""What the house owes, each table's contributions and an award's hand-pay slip over HTTP: what
``croupier meters liability | contributions | slip`` print
(:mod:`croupier.commands.meters_liability`), from the same use cases and presenters.

* ``GET /liability`` — per progressive and level, at an instant (``?to=`` alone) or over a
  period (``?from=``, ``?to=``, ``?name=``): opening, contributions, reseeds, adjustments, awards
  paid, closing — available meter + pending awards + reserve — checked to balance and to agree
  with ``GET /reconciliation`` (58 Pa. Code § 605a.7(a)); JSON, ``?format=csv`` or
  ``?format=html``.
* ``GET /contributions`` — each table's rounds, wagers, handle and contributions to each level's
  meter and reserve over a period (§ 605a.7(a)(1), § 605a.8); JSON or ``?format=csv``.
* ``GET /awards/{award_id}/slip`` — the award's printable hand-pay slip (HTML; ``?format=json``
  its JSON): the amount in figures and words, table, seat, round, cards, who validated and paid
  it, each ledger event with its sequence number and chain MAC, and signature lines.

The reports are a pit manager's or above, accounting's or an auditor's, as the reconciliation
(:data:`~croupier.operations.progressives.REPORT_READER`); a slip a floorperson's or above too
(:data:`~croupier.operations.progressives.SLIP_READER`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from croupier.operations.presenters.liability import (
    CONTRIBUTION_COLUMNS,
    LIABILITY_COLUMNS,
    contribution_rows,
    contributions_document,
    liability_document,
    liability_html,
    liability_rows,
)
from croupier.operations.presenters.slips import slip_dict, slip_html
from croupier.operations.progressives import (
    REPORT_READER,
    SLIP_READER,
    liability_reports,
    table_contributions,
)
from croupier.operations.schemas.liability import ContributionsReport, LiabilityReport, Slip
from croupier.progressive import StaffMember
from croupier.progressive.report import check_period
from croupier.progressive.slips import award_trail
from croupier.service.common import AwardId, ledger_of
from croupier.service.dependencies import require
from croupier.service.jsontext import dumps
from croupier.service.store import stored_cards
from croupier.units import parse_time as _when

router = APIRouter()

LiabilityReader = Annotated[
    StaffMember, Depends(require(REPORT_READER, "605a.7", "reading the liability report"))
]
ContributionsReader = Annotated[
    StaffMember, Depends(require(REPORT_READER, "605a.7", "reading the contributions by table"))
]
SlipReader = Annotated[
    StaffMember, Depends(require(SLIP_READER, "605a.7", "printing a hand-pay slip"))
]

Name = Annotated[str | None, Query(description="Only this progressive.")]
From = Annotated[str | None, Query(alias="from", description="Start of the period (ISO, UTC).")]
To = Annotated[
    str | None,
    Query(alias="to", description="End of the period, excluded (ISO, UTC); alone, the instant."),
]


class LiabilityFormat(StrEnum):
    """How ``GET /liability`` answers."""

    JSON = "json"
    CSV = "csv"
    HTML = "html"


class ContributionsFormat(StrEnum):
    """How ``GET /contributions`` answers."""

    JSON = "json"
    CSV = "csv"


class SlipFormat(StrEnum):
    """How ``GET /awards/{award_id}/slip`` answers."""

    HTML = "html"
    JSON = "json"


def _csv(columns: tuple[str, ...], rows: Iterable[dict[str, Any]]) -> Response:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return Response(buf.getvalue(), media_type="text/csv; charset=utf-8")


def _csv_schema(columns: tuple[str, ...], what: str) -> dict[str, Any]:
    return {
        "content": {
            "text/csv": {
                "schema": {
                    "type": "string",
                    "description": f"CSV with a header, {what}: " + ", ".join(columns),
                }
            }
        }
    }


_HTML = {"text/html": {"schema": {"type": "string"}}}


@router.get(
    "/liability",
    summary="What the house owes on each progressive and level (§ 605a.7(a))",
    response_model=LiabilityReport,
    responses={
        200: {
            "content": {
                **_csv_schema(
                    LIABILITY_COLUMNS, "one row per level, money in integer micro-dollars"
                )["content"],
                **_HTML,
            }
        }
    },
)
def liability(
    request: Request,
    _member: LiabilityReader,
    name: Name = None,
    start: From = None,
    end: To = None,
    fmt: Annotated[
        LiabilityFormat, Query(alias="format", description="json, csv or html.")
    ] = LiabilityFormat.JSON,
) -> Response:
    """As ``croupier meters liability --json`` (or its CSV, or its printable page): per level
    what it owed at the opening and closing instants (meter, held, pending awards, reserve and
    the liability: available meter + pending + reserve), the period's contributions, reseeds,
    adjustments and awards paid, whether closing = opening + contributions + reseeds +
    adjustments − awards paid (``balanced``) and whether it agrees with ``GET
    /reconciliation`` (``reconciled``); the awards pending at the closing instant."""
    lo, hi = _when(start, "the from parameter"), _when(end, "the to parameter")
    check_period(lo, hi, ("?from=", "?to="))
    reports = liability_reports(ledger_of(request), name, lo, hi)
    if fmt is LiabilityFormat.CSV:
        return _csv(LIABILITY_COLUMNS, (r for li, rec in reports for r in liability_rows(li, rec)))
    if fmt is LiabilityFormat.HTML:
        return HTMLResponse(liability_html(reports, lo, hi))
    return Response(dumps(liability_document(reports, lo, hi)), media_type="application/json")


@router.get(
    "/contributions",
    summary="Each table's contributions to each progressive over a period (§ 605a.7(a)(1))",
    response_model=ContributionsReport,
    responses={200: _csv_schema(CONTRIBUTION_COLUMNS, "one row per table and level")},
)
def contributions(
    request: Request,
    _member: ContributionsReader,
    name: Name = None,
    start: From = None,
    end: To = None,
    fmt: Annotated[
        ContributionsFormat, Query(alias="format", description="json or csv.")
    ] = ContributionsFormat.JSON,
) -> Response:
    """As ``croupier meters contributions --json`` (or its CSV): per progressive and table the
    rounds, progressive wagers and handle, and what they added to each level's meter and
    reserve; the tables' sums are the reconciliation's contributions."""
    lo, hi = _when(start, "the from parameter"), _when(end, "the to parameter")
    check_period(lo, hi, ("?from=", "?to="))
    found = table_contributions(ledger_of(request), name, lo, hi)
    if fmt is ContributionsFormat.CSV:
        return _csv(CONTRIBUTION_COLUMNS, contribution_rows(found))
    return Response(dumps(contributions_document(found, lo, hi)), media_type="application/json")


@router.get(
    "/awards/{award_id}/slip",
    summary="An award's printable hand-pay slip",
    response_model=Slip,
    responses={200: {"content": _HTML}},
)
def slip(
    request: Request,
    _member: SlipReader,
    award_id: AwardId,
    fmt: Annotated[
        SlipFormat, Query(alias="format", description="html (the printable slip) or json.")
    ] = SlipFormat.HTML,
) -> Response:
    """As ``croupier meters slip AWARD``: progressive, level, share, the amount in figures and
    in words, table, seat, round, the cards of the stored round, who validated it and when it
    was paid, each of its ledger events with its sequence number and chain MAC (``GET /verify``
    recomputes them), and lines for the attendant's, a witness's, a supervisor's and the
    player's signatures. An award the ledger does not hold: 404."""
    ledger = ledger_of(request)
    trail = award_trail(ledger, award_id)
    a = trail.award
    cards = stored_cards(ledger.reader, a.table_id, a.round_id)
    data = slip_dict(trail, ledger.definition(a.progressive), cards)
    if fmt is SlipFormat.JSON:
        return Response(dumps(data), media_type="application/json")
    return HTMLResponse(slip_html(data))
