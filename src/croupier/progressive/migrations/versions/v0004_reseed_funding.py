"""Who funds a level's reseed after a 100% award is part of a progressive's definition
(``ReseedFunding``, docs/interpretations.md): ``progressives.reseed_funding``, kept beside the
definition as ``section`` and ``paytable`` are. Every progressive created before this revision
reset with new house money, so the column defaults to ``house`` — as a stored definition without
the field reads — and old ledgers verify unchanged.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"


def upgrade() -> None:
    # ADD COLUMN in place on both backends (no table rebuild: the foreign keys stay)
    op.add_column(
        "progressives",
        sa.Column("reseed_funding", sa.String(10), nullable=False, server_default="house"),
    )


def downgrade() -> None:
    with op.batch_alter_table("progressives") as b:
        b.drop_column("reseed_funding")
