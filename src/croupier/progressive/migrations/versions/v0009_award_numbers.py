"""Award numbers that count awards (issue 31): ``awards.number``, the number people are told.

The ids of the ``awards`` table count every payout, odds and envy pays included, so the first
meter award a floorperson was called to validate could be "award 3". Each meter award (an
``award`` row of ``kind`` ``meter``: the ones awaiting a floorperson's validation) now has a
``number`` as well — 1, 2, … across the ledger, allocated with its id under the chain head's
lock — and an odds or envy pay, paid by the table at once, none. ``id`` stays the key the HTTP
paths and the CLI's arguments name.

A ledger made before this revision gets its meter awards numbered here, in id order; the unique
index ``uq_awards_number`` keeps one award per number and finds the newest for the next.
``verify`` holds the numbers to the log's ids and kinds from then on.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"


def upgrade() -> None:
    # ADD COLUMN in place on both backends (no table rebuild: the foreign keys stay)
    op.add_column("awards", sa.Column("number", sa.Integer, nullable=True))
    conn = op.get_bind()
    ids = conn.execute(sa.text("SELECT id FROM awards WHERE kind = 'meter' ORDER BY id")).scalars()
    numbered = [{"n": n, "i": i} for n, i in enumerate(ids, 1)]
    if numbered:
        conn.execute(sa.text("UPDATE awards SET number = :n WHERE id = :i"), numbered)
    op.create_index("uq_awards_number", "awards", ["number"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_awards_number", table_name="awards")
    # DROP COLUMN in place (SQLite 3.35+ and PostgreSQL): no table rebuild
    op.drop_column("awards", "number")
