"""Each linked table's contributions to a progressive over a period (58 Pa. Code § 605a.7(a)(1),
§ 605a.8; N.J.A.C. 13:69E-1.39A's qualifying-wager meter, kept per table): the rounds, the
progressive wagers and their handle, and what they added to each level's meter and reserve.

Replayed from the ``contribution`` events (each carries its round's table), so the tables' sums
are the reconciliation's contributions (:mod:`croupier.progressive.report`) to the micro-dollar.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from croupier.paytables import MeterLevel
from croupier.progressive.meters import StoredEvent
from croupier.progressive.model import EventKind, ProgressiveDefinition
from croupier.progressive.report import _naive, check_period


@dataclass(frozen=True)
class LevelContribution:
    """What a table's wagers added to one level, in micro-dollars: to the meter players see and
    to the reserve (the secondary rate, and any overflow above the level's limit)."""

    level: MeterLevel
    meter_micros: int
    reserve_micros: int

    @property
    def total_micros(self) -> int:
        """Meter and reserve together."""
        return self.meter_micros + self.reserve_micros


@dataclass(frozen=True)
class TableContributions:
    """One table's contributions to one progressive over the period: ``rounds`` that
    contributed, ``wagers`` (progressive wagers), ``handle_cents`` (what they staked) and each
    level's part."""

    progressive: str
    table: str
    rounds: int
    wagers: int
    handle_cents: int
    levels: tuple[LevelContribution, ...]

    @property
    def total_micros(self) -> int:
        """Every level's meter and reserve together."""
        return sum(lv.total_micros for lv in self.levels)


def contributions_by_table(
    defn: ProgressiveDefinition,
    events: Sequence[tuple[StoredEvent, datetime]],
    start: datetime | None = None,
    end: datetime | None = None,
) -> list[TableContributions]:
    """Each table's contributions to ``defn`` over ``[start, end)`` from its ``events`` (ledger
    order, each with its time), tables in the order they first contributed; a table without a
    contribution in the period is not listed. :class:`~croupier.errors.InputError` for a
    period that ends before or when it starts."""
    check_period(start, end)
    lo = _naive(start) if start is not None else None
    hi = _naive(end) if end is not None else None
    first = defn.levels[0].level
    tables: dict[str, dict[str, int]] = {}
    levels: dict[str, dict[MeterLevel, list[int]]] = {}
    rounds: dict[str, set[str]] = {}
    for e, at in events:
        t = _naive(at)
        if hi is not None and t >= hi:
            break
        if (lo is not None and t < lo) or e.kind is not EventKind.CONTRIBUTION:
            continue
        if e.level is None:
            continue
        table = e.table_id or ""
        row = tables.setdefault(table, {"wagers": 0, "handle": 0})
        by_level = levels.setdefault(table, {lv.level: [0, 0] for lv in defn.levels})
        rounds.setdefault(table, set()).add(e.round_id or "")
        if e.level is first:  # each level records the round's wagers: count them once
            row["wagers"] += int(e.detail.get("wagers", 0))
            row["handle"] += int(e.detail.get("wagered_cents", 0))
        part = by_level.setdefault(e.level, [0, 0])
        part[0] += e.delta.meter
        part[1] += e.delta.reserve
    return [
        TableContributions(
            progressive=defn.name,
            table=table,
            rounds=len(rounds[table]),
            wagers=row["wagers"],
            handle_cents=row["handle"],
            levels=tuple(LevelContribution(lv, m, r) for lv, (m, r) in levels[table].items()),
        )
        for table, row in tables.items()
    ]


__all__ = ["LevelContribution", "TableContributions", "contributions_by_table"]
