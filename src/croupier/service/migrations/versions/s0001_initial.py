"""The service's tables: settled rounds, idempotency records, open tables.

Revision ID: s0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0001"
down_revision: str | None = None


def upgrade() -> None:
    op.create_table(
        "service_rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("round_id", sa.String(200), nullable=False),
        sa.Column("submission_digest", sa.String(64), nullable=False),
        sa.Column("content_digest", sa.String(64), nullable=False),
        sa.Column("wagers", sa.String(1000), nullable=False),
        sa.Column("net_cents", sa.BigInteger, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("recorded_by", sa.String(100), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "round_id", name="uq_service_rounds_table_round"),
    )
    op.create_index("ix_service_rounds_settled_at", "service_rounds", ["settled_at"])
    op.create_table(
        "service_idempotency",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("route", sa.String(300), nullable=False),
        sa.Column("request_digest", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("response", sa.Text, nullable=False),
        sa.Column("actor", sa.String(100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "service_tables",
        sa.Column("table_id", sa.String(100), primary_key=True),
        sa.Column("submission", sa.Text, nullable=False),
        sa.Column("submission_digest", sa.String(64), nullable=False),
        sa.Column("progressives", sa.Text, nullable=False),
        sa.Column("round_number", sa.Integer, nullable=False),
        sa.Column("steps", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("opened_by", sa.String(100), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("service_tables")
    op.drop_table("service_idempotency")
    op.drop_index("ix_service_rounds_settled_at", "service_rounds")
    op.drop_table("service_rounds")
