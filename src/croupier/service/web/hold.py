"""The hold report: for each table and wager, the actual hold of the stored rounds against the
theoretical hold from the par sheet, with a band that widens with the volume played.

For a table's lines of one wager with stakes ``s_i`` (cents), the handle is ``H = Σ s_i``, the
actual hold ``−Σ win_i``, the theoretical hold ``edge × H`` (the exact house edge of the
paytable and deck count the table's Rules Submission offers) and its standard deviation
``σ × √(Σ s_i²)`` (``σ`` the par sheet's standard deviation per unit wagered: each line is an
independent wager). The band is the theoretical ± ``BAND_SD`` standard deviations; a hold
outside it is flagged (a table settling too much or too little, or rounds altered).

The paytable comes from the table's Rules Submission as the service holds it (an open table,
``POST /tables``) and only for rounds settled under that submission (same digest); rounds of a
table whose submission the service does not hold get their actual hold only. A progressive's
theoretical hold depends on its meters and is not set against a band here. Lines settled by the
base game (e.g. the Blackjack wager) have no par sheet of their own and are left out.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from sqlalchemy.engine import Engine

from croupier.analysis.parsheet import exact_parsheet
from croupier.errors import CroupierError
from croupier.progressive import StaffMember
from croupier.service import store
from croupier.service.auth import report_reader
from croupier.service.common import engine_of, ledger_of
from croupier.service.paid import Book, book_of, line_results
from croupier.service.rounds import Filters, round_filters, round_query
from croupier.service.settling import checked_submission
from croupier.units import format_money
from croupier.wagers import get_wager

BAND_SD = 3
"""The band's half-width in standard deviations of the theoretical hold."""

router = APIRouter()
Reports = Annotated[StaffMember, Depends(report_reader("reading the hold report"))]


@dataclass
class _Tally:
    rounds: set[str] = field(default_factory=set)
    lines: int = 0
    handle: int = 0
    squares: int = 0
    win: int = 0
    pending: int = 0
    voided: int = 0


@cache
def _figures(wager: str, paytable_key: str, section: str, decks: int) -> tuple[Fraction, float]:
    w = get_wager(wager)
    sheet = exact_parsheet(w, w.paytable(paytable_key, decks), decks=decks)
    return sheet.house_edge, sheet.standard_deviation


def _par(submissions: dict[tuple[str, str], Any], table: str, digest: str, bet: str) -> Any:
    sub = submissions.get((table, digest))
    if sub is None:
        return "the table's Rules Submission is not held by the service"
    offered = sub.offered(bet)
    if offered is None or offered.paytable is None:
        return "no par sheet: a base-game wager"
    pt = offered.paytable
    if pt.progressive is not None:
        return "a progressive: its theoretical hold depends on the meters"
    try:
        return (pt, sub.decks, *_figures(bet, pt.key, pt.section, sub.decks))
    except CroupierError as exc:
        return f"no par sheet: {exc}"


def hold_report(
    engine: Engine,
    book: Book | None = None,
    *,
    table: str | None = None,
    since: str | None = None,
    until: str | None = None,
    wager: str | None = None,
) -> dict[str, Any]:
    """``{"band_sd", "filters", "rows": [...]}`` over the stored rounds of ``table`` settled in
    ``[since, until)`` (ISO 8601), with ``wager`` only that wager's rows — each filter only when
    given, as ``GET /rounds/summary`` takes them; a round voided at an open table (every wager
    returned) is left out. Per table and wager, ``rounds``, ``lines``,
    ``handle_cents``, ``hold_cents`` (actual: what the table kept, a progressive's award counted
    as the ledger ``book`` has it — paid, or nothing for a voided one), ``pending_cents`` (awards
    awaiting validation: owed, not yet paid, not in the hold), ``voided_cents``, ``hold_ratio``
    (hold ÷ handle) and ``hold_percent`` (the same in percent), and where the par sheet is known
    ``paytable``, ``decks``, ``house_edge``, ``theoretical_cents``, ``sd_cents``, ``low_cents``,
    ``high_cents`` and ``flagged`` (outside the band); else ``note`` says why not."""
    book = book or Book({}, {})
    tallies: dict[tuple[str, str, str], _Tally] = {}
    submissions: dict[tuple[str, str], Any] = {}
    with engine.connect() as conn:
        for opened in conn.execute(sa.select(store.tables)).all():
            try:
                _, sub = checked_submission(
                    json.loads(opened.submission), f"table {opened.table_id}"
                )
            except (CroupierError, ValueError):
                continue
            submissions[(opened.table_id, opened.submission_digest)] = sub
        r = store.rounds
        columns = (r.c.table_id, r.c.round_id, r.c.submission_digest, r.c.document)
        q = round_query(table, since, until, wager, columns).order_by(r.c.id)
        only = wager.strip().lower() if wager else None
        for table_id, round_id, digest, text in conn.execute(q):
            doc = json.loads(text)
            if doc.get("voided"):  # every wager returned: none was in action
                continue
            for result in line_results(doc, book):
                line = result.line
                if line.get("settled_by_base_game") or line.get("win_cents") is None:
                    continue
                if only is not None and line["bet"] != only:
                    continue
                tally = tallies.setdefault((table_id, line["bet"], digest), _Tally())
                tally.rounds.add(round_id)
                tally.lines += 1
                tally.handle += int(line["stake_cents"])
                tally.squares += int(line["stake_cents"]) ** 2
                tally.win += result.win_cents
                tally.pending += result.pending_cents
                tally.voided += result.voided_cents
    rows = []
    for (table_id, bet, digest), t in sorted(tallies.items()):
        row: dict[str, Any] = {
            "table": table_id,
            "wager": bet,
            "rounds": len(t.rounds),
            "lines": t.lines,
            "handle_cents": t.handle,
            "handle": format_money(t.handle),
            "hold_cents": -t.win,
            "hold": format_money(-t.win),
            "pending_cents": t.pending,
            "pending": format_money(t.pending),
            "voided_cents": t.voided,
            "hold_ratio": -t.win / t.handle if t.handle else None,
            "hold_percent": round(-100 * t.win / t.handle, 4) if t.handle else None,
        }
        par = _par(submissions, table_id, digest, bet)
        if isinstance(par, str):
            row["note"] = par
        else:
            pt, decks, edge, sd = par
            theoretical = edge * t.handle
            spread = sd * math.sqrt(t.squares)
            low, high = float(theoretical) - BAND_SD * spread, float(theoretical) + BAND_SD * spread
            row.update(
                paytable=pt.key,
                section=pt.section,
                decks=decks,
                house_edge=float(edge),
                theoretical_cents=round(theoretical),
                theoretical=format_money(round(theoretical)),
                sd_cents=round(spread),
                low_cents=math.floor(low),
                high_cents=math.ceil(high),
                band=f"{format_money(math.floor(low))} to {format_money(math.ceil(high))}",
                flagged=not low <= -t.win <= high,
            )
        rows.append(row)
    filters = {"table": table, "since": since, "until": until, "wager": wager}
    return {"band_sd": BAND_SD, "filters": filters, "rows": rows}


@router.get(
    "/hold-report",
    summary="Actual against theoretical hold per table and wager",
    tags=["rounds"],
)
def hold(
    request: Request, _member: Reports, filters: Annotated[Filters, Depends(round_filters)]
) -> dict[str, Any]:
    """The hold report as JSON (a pit manager or above, accounting or an auditor) over the rounds
    the filters match — ``?table=``, ``?since=``, ``?until=`` (ISO 8601, settled in
    ``[since, until)``), ``?wager=`` — as ``GET /rounds/summary`` takes them: per table and
    wager the handle (amount wagered), the actual hold (what the table kept) against the
    theoretical; progressive awards counted as the ledger has them (a voided award paid
    nothing; a pending one is owed, shown apart as ``pending_cents``)."""
    return hold_report(engine_of(request), book_of(ledger_of(request)), **filters)


__all__ = ["BAND_SD", "hold_report", "router"]
