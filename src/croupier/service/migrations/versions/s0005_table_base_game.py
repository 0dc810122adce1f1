"""Who settles an open table's base game (``POST /tables``' ``base_game``): ``croupier`` or
``external``. A table opened before has none (NULL): its rounds are replayed as they were played —
croupier settling the base game, except at Criss-Cross Poker, whose base wagers were recorded as
the base game's (:func:`croupier.service.open_tables.table_base_game`).

Revision ID: s0005
Revises: s0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0005"
down_revision: str | None = "s0004"


def upgrade() -> None:
    op.add_column("service_tables", sa.Column("base_game", sa.String(20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("service_tables") as batch:
        batch.drop_column("base_game")
