"""A progressive can be suspended (its link taken out of play) for a recorded reconfiguration
(NY 9 NYCRR 5321.18(b)(4), N.J.A.C. 13:69E-1.39C): ``progressives.suspended``, kept beside the
``suspend``/``resume`` events so a writer reads it with the row it locks.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"


def upgrade() -> None:
    # ADD COLUMN in place on both backends (no table rebuild: the foreign keys stay)
    op.add_column(
        "progressives",
        sa.Column("suspended", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("progressives") as b:
        b.drop_column("suspended")
