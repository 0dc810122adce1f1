"""``croupier meters report``: the reconciliation of each progressive and level over a period
(58 Pa. Code § 605a.7(a); :mod:`croupier.progressive.report`), as text, JSON, CSV or HTML."""

from __future__ import annotations

import csv
import html
import json
import sys
from datetime import datetime
from enum import StrEnum

from rich.table import Table

from croupier.commands.common import out, shown
from croupier.errors import LedgerError
from croupier.operations.presenters.reports import REPORT_COLUMNS, progressive_json, report_rows
from croupier.progressive import format_micros
from croupier.progressive.report import Reconciliation
from croupier.units import format_money


class ReportFormat(StrEnum):
    """How ``croupier meters report`` writes the reconciliation."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    HTML = "html"


def write_report(
    recs: list[Reconciliation], lo: datetime | None, hi: datetime | None, fmt: ReportFormat
) -> None:
    """Print the reconciliations ``recs`` over ``[lo, hi)`` in ``fmt``;
    :class:`~croupier.errors.LedgerError` (after printing) if one does not balance."""
    rows = [row for r in recs for row in report_rows(r)]
    if fmt is ReportFormat.JSON:
        data = {
            "from": lo.isoformat() if lo else None,
            "to": hi.isoformat() if hi else None,
            "progressives": [progressive_json(r) for r in recs],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
    elif fmt is ReportFormat.CSV:
        w = csv.DictWriter(sys.stdout, fieldnames=REPORT_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    elif fmt is ReportFormat.HTML:
        period = (
            f"{lo.isoformat() if lo else 'the first event'} to {hi.isoformat() if hi else 'now'}"
        )
        head = "".join(f"<th>{html.escape(c)}</th>" for c in REPORT_COLUMNS)
        body = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in REPORT_COLUMNS)
            + "</tr>"
            for row in rows
        )
        print(
            '<!doctype html><html><head><meta charset="utf-8"><title>Progressive '
            f"reconciliation</title></head><body><h1>Progressive reconciliation, "
            f"{html.escape(period)}</h1><p>58 Pa. Code § 605a.7(a): closing = opening + "
            "contributions + resets + adjustments − awards (money in micro-dollars, payouts in "
            f"cents)</p><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            "</body></html>"
        )
    else:
        for r in recs:
            t = Table(
                title=f"{shown(r.progressive)} · reconciliation, "
                f"{lo.isoformat() if lo else 'first event'} to {hi.isoformat() if hi else 'now'}",
                title_justify="left",
                caption=f"paid by the table (odds, envy): {format_money(r.paid_by_table_cents)}; "
                f"{r.events} events; closing = opening + contributions + resets + adjustments − "
                "awards",
                caption_justify="left",
            )
            for col in ("Level", "Opening", "Contrib.", "Awards", "Resets", "Adjust.", "Closing",
                        "Reserve", "Attendant", "House", "Balanced"):  # fmt: skip
                t.add_column(col, justify="left" if col == "Level" else "right")
            for lv in r.levels:
                t.add_row(
                    lv.level.value,
                    format_micros(lv.opening_micros),
                    format_micros(lv.contributions_micros),
                    format_micros(lv.awards_micros),
                    format_micros(lv.resets_micros),
                    format_micros(lv.adjustments_micros),
                    format_micros(lv.closing_micros),
                    f"{format_micros(lv.opening_reserve_micros)} → "
                    f"{format_micros(lv.closing_reserve_micros)}",
                    format_money(lv.paid_by_attendant_cents),
                    format_micros(lv.house_micros),
                    "yes" if lv.balanced else "NO",
                )
            out.print(t)
    if not all(r.balanced for r in recs):
        bad = ", ".join(shown(r.progressive) for r in recs if not r.balanced)
        raise LedgerError(
            f"the reconciliation of {bad} does not balance: run `croupier meters verify`"
        )
