"""``croupier meters liability``, ``croupier meters contributions`` and ``croupier meters slip``:
what the house owes on each progressive (58 Pa. Code § 605a.7(a);
:mod:`croupier.progressive.liability`), each table's contributions over a period
(:mod:`croupier.progressive.by_table`) and an award's hand-pay slip
(:mod:`croupier.progressive.slips`). Each names its reader with ``--as`` and their credential,
as every read of money does (docs/interpretations.md, *Who reads the money*): the reports a pit
manager or above, accounting or an auditor; a slip a floorperson or above too. Registered on
:data:`croupier.commands.meters.meters_app` when imported: the ``meters`` entry of
:data:`croupier.commands.COMMANDS` lists this module."""

from __future__ import annotations

import csv
import json
import sys
from datetime import datetime
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from croupier.commands.common import out, shown
from croupier.commands.meters import (
    AsUser,
    DbOpt,
    JsonOut,
    PasswordFile,
    _ledger,
    login,
    meters_app,
)
from croupier.errors import InputError, LedgerError
from croupier.operations.presenters.liability import (
    CONTRIBUTION_COLUMNS,
    LIABILITY_COLUMNS,
    contribution_rows,
    contributions_document,
    level_cells,
    liability_document,
    liability_html,
    liability_rows,
    period_words,
)
from croupier.operations.presenters.slips import SIGNATURES, slip_dict, slip_html, slip_lines
from croupier.operations.progressives import (
    REPORT_READER,
    SLIP_READER,
    check_reader,
    liability_reports,
    table_contributions,
)
from croupier.progressive import format_micros
from croupier.progressive.liability import agrees
from croupier.progressive.report import check_period
from croupier.progressive.slips import award_trail
from croupier.service.store import stored_cards
from croupier.units import format_money, parse_time


class Format(StrEnum):
    """How a report is written."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    HTML = "html"


FromOpt = Annotated[
    str | None, typer.Option("--from", help="Start of the period (ISO date/time, UTC).")
]
ToOpt = Annotated[str | None, typer.Option("--to", help="End of the period, excluded (ISO, UTC).")]
NameOpt = Annotated[str | None, typer.Option("--name", help="Only this progressive.")]


def _period(
    start: str | None, end: str | None, at: str | None
) -> tuple[datetime | None, datetime | None]:
    """The period ``[--from, --to)``, or the instant ``--at`` (the period up to it)."""
    if at is not None and (start is not None or end is not None):
        raise InputError("give --at (an instant) or --from/--to (a period), not both")
    lo = parse_time(start, "--from")
    hi = parse_time(at, "--at") if at is not None else parse_time(end, "--to")
    check_period(lo, hi)
    return lo, hi


@meters_app.command()
def liability(
    ctx: typer.Context,
    as_name: AsUser,
    name: NameOpt = None,
    start: FromOpt = None,
    end: ToOpt = None,
    at: Annotated[
        str | None, typer.Option("--at", help="The liability at this instant (ISO, UTC).")
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="text, json, csv or html.")] = (
        Format.TEXT
    ),
    db: DbOpt = None,
    json_out: JsonOut = False,
    password_file: PasswordFile = None,
) -> None:
    """What the house owes on each progressive and level (§ 605a.7(a)): available meter +
    pending awards + reserve, at an instant (--at) or over a period — opening, contributions,
    reseeds, adjustments, awards paid, closing — checked to balance and to agree with the
    reconciliation (`croupier meters report`). A pit manager or above, accounting or an
    auditor (--as). Exit 2 (error) if a level does not balance or agree."""
    lo, hi = _period(start, end, at)
    with _ledger(ctx, db) as ledger:
        who = login(ledger, as_name, password_file)
        check_reader(who, REPORT_READER, "reading the liability report")
        reports = liability_reports(ledger, name, lo, hi)
    fmt = Format.JSON if json_out else fmt
    if fmt is Format.JSON:
        print(json.dumps(liability_document(reports, lo, hi), indent=2, ensure_ascii=False))
    elif fmt is Format.CSV:
        w = csv.DictWriter(sys.stdout, fieldnames=LIABILITY_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(row for li, rec in reports for row in liability_rows(li, rec))
    elif fmt is Format.HTML:
        print(liability_html(reports, lo, hi))
    else:
        for li, rec in reports:
            t = Table(
                title=f"{shown(li.progressive)} · liability, {period_words(lo, hi)}",
                title_justify="left",
                caption=f"owes {format_micros(li.closing_micros)} (opened at "
                f"{format_micros(li.opening_micros)}); {li.events} events; closing = opening + "
                "contributions + reseeds + adjustments − awards paid; owed = available meter + "
                "pending awards + reserve",
                caption_justify="left",
            )
            for col in ("Level", "Opening", "Contrib.", "Reseeds", "Adjust.", "Paid", "Closing",
                        "Meter", "Pending", "Reserve", "Balanced"):  # fmt: skip
                t.add_column(col, justify="left" if col == "Level" else "right")
            for lv in li.levels:
                t.add_row(*level_cells(lv), "yes" if lv.balanced else "NO")
            out.print(t)
            for a in li.pending:
                out.print(
                    f"  pending: {a.label}, {format_money(a.amount_cents)} "
                    f"({a.level.value if a.level else ''}) at {shown(a.table_id)} seat "
                    f"{a.position}, round {shown(a.round_id)}"
                )
            out.print("  reconciled: " + ("yes" if agrees(li, rec) else "NO"))
    bad = [li.progressive for li, rec in reports if not (li.balanced and agrees(li, rec))]
    if bad:
        raise LedgerError(
            f"the liability of {', '.join(shown(n) for n in bad)} does not balance or agree with "
            "the reconciliation: run `croupier meters verify`"
        )


@meters_app.command()
def contributions(
    ctx: typer.Context,
    as_name: AsUser,
    name: NameOpt = None,
    start: FromOpt = None,
    end: ToOpt = None,
    fmt: Annotated[Format, typer.Option("--format", help="text, json or csv.")] = Format.TEXT,
    db: DbOpt = None,
    json_out: JsonOut = False,
    password_file: PasswordFile = None,
) -> None:
    """Each table's contributions to each progressive over a period (§ 605a.7(a)(1),
    § 605a.8): rounds, progressive wagers, handle, and what they added to each level's meter
    and reserve. A pit manager or above, accounting or an auditor (--as)."""
    if fmt is Format.HTML:
        raise InputError("--format is text, json or csv for the contributions")
    lo, hi = _period(start, end, None)
    with _ledger(ctx, db) as ledger:
        who = login(ledger, as_name, password_file)
        check_reader(who, REPORT_READER, "reading the contributions by table")
        found = table_contributions(ledger, name, lo, hi)
    fmt = Format.JSON if json_out else fmt
    if fmt is Format.JSON:
        print(json.dumps(contributions_document(found, lo, hi), indent=2, ensure_ascii=False))
        return
    if fmt is Format.CSV:
        w = csv.DictWriter(sys.stdout, fieldnames=CONTRIBUTION_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(contribution_rows(found))
        return
    t = Table(title=f"Contributions by table, {period_words(lo, hi)}", title_justify="left")
    for col in ("Progressive", "Table", "Rounds", "Wagers", "Handle", "Level", "Meter", "Reserve"):
        t.add_column(col, justify="left" if col in ("Progressive", "Table", "Level") else "right")
    for c in found:
        for i, lv in enumerate(c.levels):
            first = i == 0
            t.add_row(
                shown(c.progressive) if first else "",
                shown(c.table) if first else "",
                str(c.rounds) if first else "",
                str(c.wagers) if first else "",
                format_money(c.handle_cents) if first else "",
                lv.level.value,
                format_micros(lv.meter_micros),
                format_micros(lv.reserve_micros),
            )
    out.print(t if found else "No contribution in the period.")


class SlipFormat(StrEnum):
    """How ``croupier meters slip`` writes the slip."""

    TEXT = "text"
    JSON = "json"
    HTML = "html"


@meters_app.command()
def slip(
    ctx: typer.Context,
    award: Annotated[int, typer.Argument(help="The award id (see `croupier meters`).")],
    as_name: AsUser,
    fmt: Annotated[SlipFormat, typer.Option("--format", help="text, json or html.")] = (
        SlipFormat.TEXT
    ),
    db: DbOpt = None,
    json_out: JsonOut = False,
    password_file: PasswordFile = None,
) -> None:
    """An award's hand-pay slip: progressive, level, share, the amount in figures and in words,
    table, seat, round, cards, who validated it and when it was paid, its ledger events with
    their sequence numbers and chain MACs, and signature lines. A floorperson or above,
    accounting or an auditor (--as)."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, as_name, password_file)
        check_reader(who, SLIP_READER, "printing a hand-pay slip")
        trail = award_trail(ledger, award)
        a = trail.award
        cards = stored_cards(ledger.reader, a.table_id, a.round_id)
        data = slip_dict(trail, ledger.definition(a.progressive), cards)
    fmt = SlipFormat.JSON if json_out else fmt
    if fmt is SlipFormat.JSON:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    elif fmt is SlipFormat.HTML:
        print(slip_html(data))
    else:
        t = Table(
            title=f"Hand-pay slip · {a.label} · {format_money(a.amount_cents)}",
            title_justify="left",
            show_header=False,
        )
        t.add_column("", justify="left", style="bold")
        t.add_column("", justify="left")
        for k, v in slip_lines(data):
            t.add_row(k, shown(v))
        out.print(t)
        for s in SIGNATURES:
            out.print(f"{s}: ______________________________  Date/time: ____________")
