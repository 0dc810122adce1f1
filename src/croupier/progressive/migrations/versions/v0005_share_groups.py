"""Near-simultaneous 100% hits under the ``share`` hit policy form a share group
(``HitPolicy``, docs/interpretations.md): ``awards.share_group`` names each 100% award's founding
award, so a settlement finds its level's open group with one indexed read. Progressives without
the policy leave it empty.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"


def upgrade() -> None:
    op.add_column("awards", sa.Column("share_group", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("awards") as b:
        b.drop_column("share_group")
