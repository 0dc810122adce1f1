"""The § 605a.7(a) meters read without replaying the log (issue 16: ``GET /progressives/{name}``
replayed every event, 5.7 s at 3,000 rounds): the figures that are sums over events are kept as
running totals beside the level states, moved in the transaction that writes the events
(:mod:`croupier.progressive.totals`) — per level ``meter_levels.qualifying_wagers``,
``overflow_micros``, ``paid_by_attendant_cents`` and ``wins``; per progressive
``progressives.paid_by_table_cents`` and ``table_pays``.

A ledger made before this revision gets them summed from its log here, once: a contribution adds
its ``wagers`` and ``overflow_micros`` to its level; a payment its amount and one win; an odds
award (an ``award`` event not of ``kind`` ``meter``) or an envy bonus its amount and one table pay
(``croupier.progressive.meterset.Totals`` as of this revision, copied so this script stays what
it was). ``verify`` compares them with the log from then on.

The status beside the meters lists the awards pending validation: ``ix_awards_pending``, a
partial index of the pending awards alone (as 0006's of the staff events), finds them in one
indexed read instead of a scan of every award the progressive ever made; an odds pay, made paid,
never enters it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"

_LEVEL_COLUMNS = ("qualifying_wagers", "overflow_micros", "paid_by_attendant_cents", "wins")
_TABLE_COLUMNS = ("paid_by_table_cents", "table_pays")
_PENDING = sa.text("status = 'pending'")


def upgrade() -> None:
    # ADD COLUMN in place on both backends (no table rebuild: the foreign keys stay)
    for name in _LEVEL_COLUMNS:
        op.add_column(
            "meter_levels", sa.Column(name, sa.BigInteger, nullable=False, server_default="0")
        )
    for name in _TABLE_COLUMNS:
        op.add_column(
            "progressives", sa.Column(name, sa.BigInteger, nullable=False, server_default="0")
        )
    _sum_the_log(op.get_bind())
    op.create_index(
        "ix_awards_pending",
        "awards",
        ["progressive_id", "id"],
        postgresql_where=_PENDING,
        sqlite_where=_PENDING,
    )


def _sum_the_log(conn: sa.Connection) -> None:
    """Each progressive's running totals from its events (the module docstring)."""
    levels: dict[tuple[int, str], list[int]] = {}
    table: dict[int, list[int]] = {}
    rows = conn.execute(
        sa.text(
            "SELECT progressive_id, kind, level, amount_cents, detail FROM ledger_events "
            "WHERE progressive_id IS NOT NULL "
            "AND kind IN ('contribution', 'payment', 'award', 'envy') ORDER BY seq"
        )
    )
    for pid, kind, level, amount, detail in rows:
        if kind == "payment" and level is not None:
            lv = levels.setdefault((pid, level), [0, 0, 0, 0])
            lv[2] += amount or 0
            lv[3] += 1
        elif kind == "contribution" and level is not None:
            d = json.loads(detail)
            lv = levels.setdefault((pid, level), [0, 0, 0, 0])
            lv[0] += int(d.get("wagers", 0))
            lv[1] += int(d.get("overflow_micros", 0))
        elif kind == "envy" or (kind == "award" and json.loads(detail).get("kind") != "meter"):
            tb = table.setdefault(pid, [0, 0])
            tb[0] += amount or 0
            tb[1] += 1
    level_update = sa.text(
        "UPDATE meter_levels SET qualifying_wagers = :w, overflow_micros = :o, "
        "paid_by_attendant_cents = :a, wins = :n WHERE progressive_id = :p AND level = :l"
    )
    for (pid, level), (w, o, a, n) in levels.items():
        conn.execute(level_update, {"w": w, "o": o, "a": a, "n": n, "p": pid, "l": level})
    table_update = sa.text(
        "UPDATE progressives SET paid_by_table_cents = :c, table_pays = :n WHERE id = :p"
    )
    for pid, (c, n) in table.items():
        conn.execute(table_update, {"c": c, "n": n, "p": pid})


def downgrade() -> None:
    op.drop_index("ix_awards_pending", table_name="awards")
    # DROP COLUMN in place (SQLite 3.35+ and PostgreSQL): no table rebuild
    for name in _TABLE_COLUMNS:
        op.drop_column("progressives", name)
    for name in _LEVEL_COLUMNS:
        op.drop_column("meter_levels", name)
