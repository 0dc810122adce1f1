"""Authenticated staff and a tamper-evident log: a credential hash per staff member, an HMAC
chain over the events (``ledger_events.mac`` and the ``ledger_chain`` head), a content hash per
round, and indexes for reading an award's or a round's events.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    with op.batch_alter_table("staff") as b:
        b.add_column(sa.Column("credential", sa.String(200), nullable=True))
    with op.batch_alter_table("rounds") as b:
        b.add_column(sa.Column("content", sa.String(64), nullable=True))
    # ledger_events is altered in place (ADD COLUMN), never rebuilt: its triggers stay
    op.add_column("ledger_events", sa.Column("mac", sa.String(64), nullable=True))
    op.create_index("ix_ledger_events_award", "ledger_events", ["award_id"])
    op.create_index("ix_ledger_events_round", "ledger_events", ["progressive_id", "round_id"])
    chain = op.create_table(
        "ledger_chain",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("head_seq", sa.BigInteger, nullable=False),
        sa.Column("head_mac", sa.String(64), nullable=False),
    )
    head = op.get_bind().execute(sa.text("SELECT MAX(seq) FROM ledger_events")).scalar()
    op.bulk_insert(chain, [{"id": 1, "head_seq": head or 0, "head_mac": ""}])


def downgrade() -> None:
    op.drop_table("ledger_chain")
    op.drop_index("ix_ledger_events_round", table_name="ledger_events")
    op.drop_index("ix_ledger_events_award", table_name="ledger_events")
    op.drop_column("ledger_events", "mac")
    with op.batch_alter_table("rounds") as b:
        b.drop_column("content")
    with op.batch_alter_table("staff") as b:
        b.drop_column("credential")
