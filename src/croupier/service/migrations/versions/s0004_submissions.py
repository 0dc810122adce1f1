"""The Rules Submissions of the rounds posted as round files, by digest: the hold report sets a
round's actual hold against its paytable's theoretical one from the submission it was settled
under — an open table's is in ``service_tables``; a round file's was only named by its digest.

Revision ID: s0004
Revises: s0003
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0004"
down_revision: str | None = "s0003"


def upgrade() -> None:
    op.create_table(
        "service_submissions",
        sa.Column("submission_digest", sa.String(64), primary_key=True),
        sa.Column("submission", sa.Text, nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("service_submissions")
