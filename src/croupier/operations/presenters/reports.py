"""The meters report's rows and JSON (58 Pa. Code § 605a.7(a); :mod:`croupier.progressive.report`):
what ``croupier meters report`` writes as JSON, CSV or HTML and ``GET /reconciliation``
answers."""

from __future__ import annotations

from typing import Any

from croupier.progressive import format_micros
from croupier.progressive.report import Reconciliation
from croupier.units import format_money

LEVEL_COLUMNS = (
    "opening_micros",
    "contributions_micros",
    "awards_micros",
    "resets_micros",
    "adjustments_micros",
    "closing_micros",
    "opening_reserve_micros",
    "reserve_contributions_micros",
    "reserve_resets_micros",
    "reserve_adjustments_micros",
    "closing_reserve_micros",
    "paid_by_attendant_cents",
    "wagers",
    "house_micros",
)
"""A level's figures in the reconciliation (:class:`~croupier.progressive.report.LevelReconciliation`
attributes): money in integer micro-dollars (``*_micros``) or cents (``*_cents``)."""


REPORT_COLUMNS = (
    "progressive",
    "level",
    *LEVEL_COLUMNS,
    "paid_by_table_cents",
    "balanced",
)
"""The CSV's and the HTML table's columns, one row per level: ``paid_by_table_cents`` is the
progressive's (odds lines and envy paid by the table, not by level), the same on each of its
levels' rows — count it once per progressive."""


def _dollars(column: str, value: int) -> tuple[str, str] | None:
    """The formatted amount beside a money column: ``opening_micros`` → ``("opening",
    "$50,000.1875")``, ``paid_by_attendant_cents`` → ``("paid_by_attendant", "$5,000")``."""
    if column.endswith("_micros"):
        return column.removesuffix("_micros"), format_micros(value)
    if column.endswith("_cents"):
        return column.removesuffix("_cents"), format_money(value)
    return None


def report_rows(r: Reconciliation) -> list[dict[str, Any]]:
    """``r``'s levels as the CSV's and the HTML table's rows (:data:`REPORT_COLUMNS`)."""
    return [
        {
            "progressive": r.progressive,
            "level": lv.level.value,
            **{c: getattr(lv, c) for c in LEVEL_COLUMNS},
            "paid_by_table_cents": r.paid_by_table_cents,
            "balanced": lv.balanced,
        }
        for lv in r.levels
    ]


def level_json(r: Reconciliation) -> list[dict[str, Any]]:
    """``r``'s levels as JSON: each money figure in integer micro-dollars or cents with its
    amount in dollars beside it (``opening_micros`` and ``opening``), as the other reports."""
    out = []
    for lv in r.levels:
        row: dict[str, Any] = {"progressive": r.progressive, "level": lv.level.value}
        for c in LEVEL_COLUMNS:
            row[c] = getattr(lv, c)
            shown = _dollars(c, row[c])
            if shown is not None:
                row[shown[0]] = shown[1]
        row["balanced"] = lv.balanced
        out.append(row)
    return out


def progressive_json(r: Reconciliation) -> dict[str, Any]:
    """One progressive's reconciliation as JSON (docs/schemas/meters-report.schema.json)."""
    return {
        "progressive": r.progressive,
        "events": r.events,
        "paid_by_table_cents": r.paid_by_table_cents,
        "paid_by_table": format_money(r.paid_by_table_cents),
        "balanced": r.balanced,
        "levels": level_json(r),
    }


__all__ = ["LEVEL_COLUMNS", "REPORT_COLUMNS", "level_json", "progressive_json", "report_rows"]
