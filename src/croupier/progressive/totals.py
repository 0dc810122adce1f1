"""The running totals of § 605a.7(a) kept beside the level states, so the meters are read in a
few rows however long the log (issue 16: ``GET /progressives/{name}`` replayed every event,
5.7 s at 3,000 rounds).

What a level's row (``meter_levels``) already holds — meter, reserve, held, wagered, paid, hits —
every writer moves with a compare-and-set UPDATE. The figures that are sums over events
(:class:`~croupier.progressive.meterset.Totals`: qualifying wagers, overflow, paid by an attendant,
wins; paid by the table and its count) are columns of ``meter_levels`` and ``progressives``
(migration 0008) moved by increments made from the very event rows being inserted
(:func:`rows_totals`), in the same transaction — both writers of events do it where they insert
them: :meth:`LedgerBase._flush <croupier.progressive.core.LedgerBase._flush>` with
:func:`write_totals`, and the fast path (:func:`croupier.progressive.play.play`) in the
compare-and-set UPDATE of each level it moves anyway (:data:`LEVEL_INCREMENTS`), the rest
(the table's payouts) by :func:`totals_writes` — so no event is written without its totals, a
common round costs no statement more than the table's payouts, and a rollback takes both back.

The log stays the record: ``verify`` (:func:`~croupier.progressive.audit.audit`) sums the events
again and compares every stored total (:func:`totals_difference`); a total edited behind
croupier's back is a :class:`~croupier.errors.LedgerIntegrityError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Update

import croupier.progressive.schema as t
from croupier.errors import LedgerIntegrityError
from croupier.paytables import MeterLevel
from croupier.progressive.meters import LevelState
from croupier.progressive.meterset import (
    NO_LEVEL_TOTALS,
    LevelTotals,
    ProgressiveMeters,
    Totals,
    stored_meter_set,
)
from croupier.progressive.model import (
    MICROS_PER_CENT,
    EventKind,
    ProgressiveDefinition,
    format_micros,
)
from croupier.progressive.records import level_from_row

_LV = t.meter_levels.c
LEVEL_INCREMENTS: dict[str, Any] = {
    "qualifying_wagers": _LV.qualifying_wagers + sa.bindparam("d_wagers", type_=sa.BigInteger),
    "overflow_micros": _LV.overflow_micros + sa.bindparam("d_overflow", type_=sa.BigInteger),
    "paid_by_attendant_cents": _LV.paid_by_attendant_cents
    + sa.bindparam("d_attendant", type_=sa.BigInteger),
    "wins": _LV.wins + sa.bindparam("d_wins", type_=sa.BigInteger),
}
"""The SET clauses moving a level's running totals by increments (``d_*`` parameters,
:func:`take_level_totals`): of :data:`ADD_LEVEL_TOTALS`, and of the fast path's level UPDATE,
which moves the level's state and its totals in one statement (:mod:`croupier.progressive.play`)."""

ADD_LEVEL_TOTALS = (
    sa.update(t.meter_levels)
    .where(_LV.progressive_id == sa.bindparam("b_pid"), _LV.level == sa.bindparam("b_level"))
    .values(LEVEL_INCREMENTS)
)
"""One level's running totals moved by increments (``d_*``)."""

_P = t.progressives.c
ADD_TABLE_TOTALS = (
    sa.update(t.progressives)
    .where(_P.id == sa.bindparam("b_pid"))
    .values(
        paid_by_table_cents=_P.paid_by_table_cents + sa.bindparam("d_cents", type_=sa.BigInteger),
        table_pays=_P.table_pays + sa.bindparam("d_pays", type_=sa.BigInteger),
    )
)
"""A progressive's table payouts moved by increments (``d_*``)."""


_COUNTED = frozenset(
    k.value for k in (EventKind.CONTRIBUTION, EventKind.PAYMENT, EventKind.AWARD, EventKind.ENVY)
)


def rows_totals(rows: Iterable[Mapping[str, Any]]) -> dict[int, Totals]:
    """The :class:`~croupier.progressive.meterset.Totals` of ``ledger_events`` rows (as
    :func:`~croupier.progressive.chain.chain_rows` makes them), by progressive id; staff events
    (no progressive) count nothing."""
    out: dict[int, Totals] = {}
    for r in rows:
        kind, pid = r["kind"], r["progressive_id"]
        if kind not in _COUNTED or pid is None:
            continue  # most of a round's events: acceptance, lock-out, chip count, settled
        totals = out.get(pid)
        if totals is None:
            totals = out[pid] = Totals()
        totals.add(kind, r["level"], r["amount_cents"], r["detail"])
    return out


def _increments(d: LevelTotals) -> dict[str, int]:
    wagers, overflow, attendant, wins = d
    return {"d_wagers": wagers, "d_overflow": overflow, "d_attendant": attendant, "d_wins": wins}


def take_level_totals(moved: Mapping[int, Totals], pid: int, level: MeterLevel) -> dict[str, int]:
    """The ``d_*`` parameters of :data:`LEVEL_INCREMENTS` for ``level`` of progressive ``pid``
    (zeros if ``moved`` holds none), taken out of ``moved``: a writer moving the level's row
    anyway moves its totals in that UPDATE, and :func:`totals_writes` leaves them out."""
    totals = moved.get(pid)
    d = totals.levels.pop(level.value, None) if totals is not None else None
    return _increments(d if d is not None else NO_LEVEL_TOTALS)


def totals_writes(moved: Mapping[int, Totals]) -> list[tuple[Update, dict[str, Any]]]:
    """The UPDATEs moving the running totals by ``moved`` (:func:`rows_totals`), with their
    parameters: one per level and progressive with anything to move. Each must change exactly
    one row."""
    writes: list[tuple[Update, dict[str, Any]]] = []
    for pid, totals in moved.items():
        for level, d in totals.levels.items():
            if d != NO_LEVEL_TOTALS:
                writes.append(
                    (ADD_LEVEL_TOTALS, {"b_pid": pid, "b_level": level, **_increments(d)})
                )
        if totals.table_pays or totals.paid_by_table_cents:
            writes.append(
                (
                    ADD_TABLE_TOTALS,
                    {
                        "b_pid": pid,
                        "d_cents": totals.paid_by_table_cents,
                        "d_pays": totals.table_pays,
                    },
                )
            )
    return writes


def total_writes(rows: Sequence[Mapping[str, Any]]) -> list[tuple[Update, dict[str, Any]]]:
    """The UPDATEs moving the running totals by what the events ``rows`` add
    (:func:`totals_writes` of :func:`rows_totals`): none for a round's acceptance alone."""
    return totals_writes(rows_totals(rows))


def write_totals(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run :func:`total_writes` of ``rows`` on ``conn`` (inside the transaction inserting them);
    :class:`~croupier.errors.LedgerIntegrityError` if a row to move is missing."""
    for stmt, params in total_writes(rows):
        if conn.execute(stmt, params).rowcount != 1:
            raise LedgerIntegrityError(
                f"progressive {params['b_pid']}: no row holds the running totals of "
                f"{params.get('b_level', 'its table payouts')}: run `croupier meters verify`"
            )


def level_totals(row: Any) -> LevelTotals:
    """The running totals of a ``meter_levels`` row."""
    return LevelTotals(
        int(row.qualifying_wagers),
        int(row.overflow_micros),
        int(row.paid_by_attendant_cents),
        int(row.wins),
    )


def stored_totals(level_rows: Iterable[Any], progressive_row: Any) -> Totals:
    """The running totals as stored: of the ``meter_levels`` rows and the ``progressives`` row
    of one progressive."""
    return Totals(
        {str(r.level): level_totals(r) for r in level_rows},
        int(progressive_row.paid_by_table_cents),
        int(progressive_row.table_pays),
    )


_LEVEL_ROWS = (
    sa.select(t.meter_levels)
    .where(_LV.progressive_id == sa.bindparam("b_pid"))
    .order_by(_LV.ordinal)
)
_TABLE_ROW = sa.select(_P.paid_by_table_cents, _P.table_pays).where(_P.id == sa.bindparam("b_pid"))


def read_levels(conn: Connection, pid: int) -> tuple[dict[MeterLevel, LevelState], Totals]:
    """Progressive ``pid``'s level states and running totals as stored (two indexed reads,
    whatever the log's length; one snapshot when ``conn`` is in a read transaction)."""
    rows = conn.execute(_LEVEL_ROWS, {"b_pid": pid}).all()
    prog = conn.execute(_TABLE_ROW, {"b_pid": pid}).one()
    return {MeterLevel(r.level): level_from_row(r) for r in rows}, stored_totals(rows, prog)


def read_meter_set(conn: Connection, pid: int, defn: ProgressiveDefinition) -> ProgressiveMeters:
    """The § 605a.7(a) meters of progressive ``pid`` (definition ``defn``) as stored."""
    states, totals = read_levels(conn, pid)
    return stored_meter_set(defn, states, totals)


_LEVEL_FIELDS = (
    ("qualifying_wagers", "qualifying wagers"),
    ("overflow_micros", "overflow"),
    ("paid_by_attendant_cents", "paid by an attendant"),
    ("wins", "wins"),
)


def _shown(name: str, value: int) -> str:
    if name.endswith("_micros"):
        return format_micros(value)
    if name.endswith("_cents"):
        return format_micros(value * MICROS_PER_CENT)
    return str(value)


def totals_difference(defn: ProgressiveDefinition, stored: Totals, replayed: Totals) -> str | None:
    """What differs between the stored running totals of ``defn`` and the ones its log makes,
    in words and dollars ("Progressive level: qualifying wagers 99 stored, the log replays to
    5"); ``None`` when they agree on every level of the definition and the table's payouts."""
    parts = []
    for lv in defn.levels:
        a, b = stored.level(lv.level), replayed.level(lv.level)
        for name, label in _LEVEL_FIELDS:
            x, y = getattr(a, name), getattr(b, name)
            if x != y:
                parts.append(
                    f"{lv.level.value} level: {label} {_shown(name, x)} stored, the log "
                    f"replays to {_shown(name, y)}"
                )
    for name, label in (("paid_by_table_cents", "paid by the table"), ("table_pays", "table pays")):
        x, y = getattr(stored, name), getattr(replayed, name)
        if x != y:
            parts.append(f"{label} {_shown(name, x)} stored, the log replays to {_shown(name, y)}")
    return "; ".join(parts) or None


__all__ = [
    "ADD_LEVEL_TOTALS",
    "ADD_TABLE_TOTALS",
    "LEVEL_INCREMENTS",
    "read_levels",
    "read_meter_set",
    "rows_totals",
    "stored_totals",
    "take_level_totals",
    "total_writes",
    "totals_difference",
    "totals_writes",
    "write_totals",
]
