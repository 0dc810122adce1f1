"""Simulation jobs: their request, status, progress and result.

Revision ID: s0002
Revises: s0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0002"
down_revision: str | None = "s0001"


def upgrade() -> None:
    op.create_table(
        "service_jobs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("request", sa.Text, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("done", sa.BigInteger, nullable=False),
        sa.Column("total", sa.BigInteger, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("requested_by", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("service_jobs")
