"""The newest event outside any progressive (a staff or significant event) found with one
indexed read, however long the log: a partial index on ``ledger_events.seq`` where
``progressive_id`` is null.

Every round's locked read asks for ``max(seq)`` of those events (the staff cache's check,
:mod:`croupier.progressive.play`). With only the composite indexes, PostgreSQL planned it — on
the statistics of a young log, mostly staff events — as a backward scan of the primary key that
filters out every progressive event since the last staff one: a read under the ledger's lock
that grew with every round (issue 16: p50 94 → 254 ms over a 30 s run). The partial index holds
only the few staff events, so the read is one index entry on either database.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"

_NULL = sa.text("progressive_id IS NULL")


def upgrade() -> None:
    op.create_index(
        "ix_ledger_events_staff_seq",
        "ledger_events",
        ["seq"],
        postgresql_where=_NULL,
        sqlite_where=_NULL,
    )


def downgrade() -> None:
    op.drop_index("ix_ledger_events_staff_seq", table_name="ledger_events")
