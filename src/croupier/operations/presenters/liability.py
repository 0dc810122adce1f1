"""The liability report's and the contributions-by-table report's rows, JSON and HTML
(:mod:`croupier.progressive.liability`, :mod:`croupier.progressive.by_table`): what ``croupier
meters liability`` and ``croupier meters contributions`` write as JSON, CSV or HTML and ``GET
/liability`` and ``GET /contributions`` answer."""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

from croupier.progressive import format_micros
from croupier.progressive.by_table import TableContributions
from croupier.progressive.liability import LevelLiability, Liability, Owed, agrees, level_agrees
from croupier.progressive.report import Reconciliation
from croupier.progressive.views import award_dict
from croupier.units import format_money

_OWED = ("meter", "held", "pending", "reserve", "liability")
"""An instant's figures, each ``opening_*_micros`` and ``closing_*_micros``."""

LIABILITY_COLUMNS = (
    "progressive",
    "level",
    *(f"opening_{k}_micros" for k in _OWED),
    "contributions_micros",
    "reseeds_micros",
    "adjustments_micros",
    "awards_paid_micros",
    *(f"closing_{k}_micros" for k in _OWED),
    "awards_won_count",
    "awards_paid_count",
    "awards_voided_count",
    "balanced",
    "reconciled",
)
"""The CSV's and the HTML table's columns, one row per level: money in integer micro-dollars."""

CONTRIBUTION_COLUMNS = (
    "progressive",
    "table",
    "level",
    "rounds",
    "wagers",
    "handle_cents",
    "meter_micros",
    "reserve_micros",
)
"""The contributions CSV's columns, one row per table and level: ``rounds``, ``wagers`` and
``handle_cents`` are the table's (the same on each of its levels' rows: count them once)."""


def _owed(prefix: str, o: Owed) -> dict[str, int]:
    return {
        f"{prefix}_meter_micros": o.meter,
        f"{prefix}_held_micros": o.held,
        f"{prefix}_pending_micros": o.pending,
        f"{prefix}_reserve_micros": o.reserve,
        f"{prefix}_liability_micros": o.total,
    }


def _level_figures(lv: LevelLiability) -> dict[str, int]:
    return {
        **_owed("opening", lv.opening),
        "contributions_micros": lv.contributions_micros,
        "reseeds_micros": lv.reseeds_micros,
        "adjustments_micros": lv.adjustments_micros,
        "awards_paid_micros": lv.awards_paid_micros,
        **_owed("closing", lv.closing),
    }


def _matching(li: Liability, rec: Reconciliation) -> list[tuple[LevelLiability, bool]]:
    by_level = {r.level: r for r in rec.levels}
    return [(lv, lv.level in by_level and level_agrees(lv, by_level[lv.level])) for lv in li.levels]


def liability_rows(li: Liability, rec: Reconciliation) -> list[dict[str, Any]]:
    """``li``'s levels as the CSV's and the HTML table's rows (:data:`LIABILITY_COLUMNS`),
    ``reconciled`` whether each agrees with ``rec`` (the reconciliation of the same period)."""
    return [
        {
            "progressive": li.progressive,
            "level": lv.level.value,
            **_level_figures(lv),
            "awards_won_count": lv.awards_made,
            "awards_paid_count": lv.awards_paid,
            "awards_voided_count": lv.awards_voided,
            "balanced": lv.balanced,
            "reconciled": ok,
        }
        for lv, ok in _matching(li, rec)
    ]


def liability_json(li: Liability, rec: Reconciliation) -> dict[str, Any]:
    """One progressive's liability as JSON (docs/schemas/meters-liability.schema.json): each
    money figure in integer micro-dollars with its amount in dollars beside it
    (``closing_liability_micros`` and ``closing_liability``), the pending awards at the closing
    instant as ``croupier meters`` shows awards."""
    levels = []
    for lv, ok in _matching(li, rec):
        row: dict[str, Any] = {"level": lv.level.value}
        for k, v in _level_figures(lv).items():
            row[k] = v
            row[k.removesuffix("_micros")] = format_micros(v)
        row |= {
            "awards_won_count": lv.awards_made,
            "awards_paid_count": lv.awards_paid,
            "awards_voided_count": lv.awards_voided,
            "balanced": lv.balanced,
            "reconciled": ok,
        }
        levels.append(row)
    return {
        "progressive": li.progressive,
        "events": li.events,
        "opening_micros": li.opening_micros,
        "opening": format_micros(li.opening_micros),
        "closing_micros": li.closing_micros,
        "closing": format_micros(li.closing_micros),
        "balanced": li.balanced,
        "reconciled": agrees(li, rec),
        "levels": levels,
        "pending": [award_dict(a) for a in li.pending],
    }


def level_cells(lv: LevelLiability) -> tuple[str, ...]:
    """A level's row as every view shows it: the level, then opening, contributions, reseeds,
    adjustments, awards paid (negative), closing, and the closing meter, pending awards and
    reserve, in money."""
    return (
        lv.level.value,
        format_micros(lv.opening.total),
        format_micros(lv.contributions_micros),
        format_micros(lv.reseeds_micros),
        format_micros(lv.adjustments_micros),
        format_micros(-lv.awards_paid_micros),
        format_micros(lv.closing.total),
        format_micros(lv.closing.meter),
        format_micros(lv.closing.pending),
        format_micros(lv.closing.reserve),
    )


def period_words(lo: datetime | None, hi: datetime | None) -> str:
    """A report's period for people: "2026-05-01T00:00:00+00:00 to now"; an instant when only
    its end is given ("at …")."""
    if lo is None and hi is not None:
        return f"at {hi.isoformat()}"
    return f"{lo.isoformat() if lo else 'the first event'} to {hi.isoformat() if hi else 'now'}"


def liability_document(
    reports: list[tuple[Liability, Reconciliation]], lo: datetime | None, hi: datetime | None
) -> dict[str, Any]:
    """The report as JSON: the period, whether every level balances and agrees with the
    reconciliation, each progressive's :func:`liability_json`."""
    return {
        "from": lo.isoformat() if lo else None,
        "to": hi.isoformat() if hi else None,
        "balanced": all(li.balanced for li, _ in reports),
        "reconciled": all(agrees(li, rec) for li, rec in reports),
        "progressives": [liability_json(li, rec) for li, rec in reports],
    }


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:system-ui,sans-serif;margin:1.5rem}}table{{border-collapse:collapse;
margin:.5rem 0 1.5rem}}th,td{{border:1px solid #999;padding:.2rem .5rem;text-align:right}}
th:first-child,td:first-child{{text-align:left}}caption{{text-align:left;font-weight:600}}
.no{{color:#b00;font-weight:600}}@media print{{body{{margin:0}}}}</style></head>
<body><h1>{title}</h1>{body}</body></html>"""


def page(title: str, body: str) -> str:
    """A self-contained printable HTML page (``body`` already escaped)."""
    return _PAGE.format(title=html.escape(title), body=body)


def _cell(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else '<span class="no">NO</span>'
    return html.escape(str(v))


def liability_html(
    reports: list[tuple[Liability, Reconciliation]], lo: datetime | None, hi: datetime | None
) -> str:
    """The report as a printable HTML page: per progressive a table of its levels (opening,
    the flows, closing; dollars) and its pending awards."""
    parts = [
        "<p>What the house owes on each progressive (58 Pa. Code § 605a.7(a)): available meter + "
        "pending awards + reserve. closing = opening + contributions + reseeds + adjustments − "
        "awards paid; <em>reconciled</em>: the same figures as the reconciliation "
        "(<code>croupier meters report</code>).</p>"
    ]
    heads = ("Level", "Opening", "Contributions", "Reseeds", "Adjustments", "Awards paid",
             "Closing", "Meter", "Pending", "Reserve", "Balanced", "Reconciled")  # fmt: skip
    for li, rec in reports:
        rows = "".join(
            "<tr>"
            + "".join(
                f"<td>{_cell(v)}</td>"
                for v in (
                    *level_cells(lv),
                    lv.balanced,
                    ok,
                )
            )
            + "</tr>"
            for lv, ok in _matching(li, rec)
        )
        head = "".join(f"<th>{h}</th>" for h in heads)
        parts.append(
            f"<table><caption>{html.escape(li.progressive)}: owes "
            f"{format_micros(li.closing_micros)} ({li.events} events)</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        )
        if li.pending:
            items = "".join(
                f"<li>{a.label}: {html.escape(format_money(a.amount_cents))}, "
                f"{html.escape(a.level.value if a.level else '')} at {html.escape(a.table_id)} "
                f"seat {a.position}, round {html.escape(a.round_id)}</li>"
                for a in li.pending
            )
            parts.append(f"<p>Pending awards of {html.escape(li.progressive)}:</p><ul>{items}</ul>")
    title = f"Progressive liability, {period_words(lo, hi)}"
    return page(title, "".join(parts))


def contribution_rows(found: list[TableContributions]) -> list[dict[str, Any]]:
    """The contributions CSV's rows (:data:`CONTRIBUTION_COLUMNS`), one per table and level."""
    return [
        {
            "progressive": c.progressive,
            "table": c.table,
            "level": lv.level.value,
            "rounds": c.rounds,
            "wagers": c.wagers,
            "handle_cents": c.handle_cents,
            "meter_micros": lv.meter_micros,
            "reserve_micros": lv.reserve_micros,
        }
        for c in found
        for lv in c.levels
    ]


def contributions_document(
    found: list[TableContributions], lo: datetime | None, hi: datetime | None
) -> dict[str, Any]:
    """The contributions report as JSON (docs/schemas/meters-contributions.schema.json)."""
    return {
        "from": lo.isoformat() if lo else None,
        "to": hi.isoformat() if hi else None,
        "tables": [
            {
                "progressive": c.progressive,
                "table": c.table,
                "rounds": c.rounds,
                "wagers": c.wagers,
                "handle_cents": c.handle_cents,
                "handle": format_money(c.handle_cents),
                "contributions_micros": c.total_micros,
                "contributions": format_micros(c.total_micros),
                "levels": [
                    {
                        "level": lv.level.value,
                        "meter_micros": lv.meter_micros,
                        "meter": format_micros(lv.meter_micros),
                        "reserve_micros": lv.reserve_micros,
                        "reserve": format_micros(lv.reserve_micros),
                    }
                    for lv in c.levels
                ],
            }
            for c in found
        ],
    }


__all__ = [
    "CONTRIBUTION_COLUMNS",
    "LIABILITY_COLUMNS",
    "contribution_rows",
    "contributions_document",
    "level_cells",
    "liability_document",
    "liability_html",
    "liability_json",
    "liability_rows",
    "page",
    "period_words",
]
