"""Login throttling (issue 16; NIST SP 800-63B § 5.2.2): ``login_throttle`` counts the failed
logins of each staff member (consecutive, until a correct one) and of each client address (within
a window), and holds when a lockout ends. It is working state shared by every process serving the
ledger, not a record: each failure and each lockout is also a significant event on the chained
log (:mod:`croupier.progressive.login`).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"


def upgrade() -> None:
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("lockouts", sa.Integer, nullable=False),
        sa.Column("window_start", sa.Float, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("login_throttle")
