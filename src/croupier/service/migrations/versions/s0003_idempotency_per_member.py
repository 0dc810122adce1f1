"""An ``Idempotency-Key`` is the member's own: the key's record is found by the member who made
the request and the key, not by the key alone (another member reusing a key must not be answered
the first member's response).

``service_idempotency`` is made again with ``(actor, key)`` as its primary key and ``actor`` not
null; the records are copied (a record made without a member — none is, every keyed route needs
a token — is kept under the empty name, which no member has). Downgrading keeps one record per
key, the oldest.

Revision ID: s0003
Revises: s0002
Create Date: 2027-01-18
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0003"
down_revision: str | None = "s0002"

TABLE = "service_idempotency"
NEW = "service_idempotency_s0003"
COLUMNS = ("key", "route", "request_digest", "status", "response", "actor", "created_at")


def _columns(actor_nullable: bool) -> list[sa.Column[object]]:
    return [
        sa.Column("actor", sa.String(100), nullable=actor_nullable),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("route", sa.String(300), nullable=False),
        sa.Column("request_digest", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("response", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _copy(source: str, target: str, select: sa.Select[object] | None = None) -> None:
    old = sa.table(source, *(sa.column(c) for c in COLUMNS))
    new = sa.table(target, *(sa.column(c) for c in COLUMNS))
    if select is None:
        select = sa.select(
            old.c.key,
            old.c.route,
            old.c.request_digest,
            old.c.status,
            old.c.response,
            sa.func.coalesce(old.c.actor, ""),
            old.c.created_at,
        )
    op.execute(sa.insert(new).from_select(list(COLUMNS), select))


def upgrade() -> None:
    op.create_table(
        NEW,
        *_columns(actor_nullable=False),
        sa.PrimaryKeyConstraint("actor", "key", name="pk_service_idempotency_actor_key"),
    )
    _copy(TABLE, NEW)
    op.drop_table(TABLE)
    op.rename_table(NEW, TABLE)


def downgrade() -> None:
    op.create_table(
        NEW,
        *_columns(actor_nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_service_idempotency_key"),
    )
    old = sa.table(TABLE, *(sa.column(c) for c in COLUMNS)).alias("o")
    earlier = sa.table(TABLE, *(sa.column(c) for c in COLUMNS)).alias("p")
    before = sa.or_(
        earlier.c.created_at < old.c.created_at,
        sa.and_(earlier.c.created_at == old.c.created_at, earlier.c.actor < old.c.actor),
    )
    oldest = sa.select(*(old.c[c] for c in COLUMNS)).where(
        ~sa.exists().where(earlier.c.key == old.c.key, before)
    )
    _copy(TABLE, NEW, oldest)
    op.drop_table(TABLE)
    op.rename_table(NEW, TABLE)
