"""The progressive ledger: progressives, levels, linked tables, staff, rounds, settlements, awards
and the append-only event log (with triggers refusing UPDATE and DELETE on it).

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_APPEND_ONLY = "the progressive ledger is append-only: ledger_events rows are never changed"


def upgrade() -> None:
    op.create_table(
        "progressives",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("section", sa.String(20), nullable=False),
        sa.Column("paytable", sa.String(40), nullable=False),
        sa.Column("decks", sa.Integer, nullable=False),
        sa.Column("wager_cents", sa.BigInteger, nullable=False),
        sa.Column("definition", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "meter_levels",
        sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), primary_key=True),
        sa.Column("level", sa.String(20), primary_key=True),
        sa.Column("ordinal", sa.Integer, nullable=False),
        sa.Column("meter_micros", sa.BigInteger, nullable=False),
        sa.Column("reserve_micros", sa.BigInteger, nullable=False),
        sa.Column("held_micros", sa.BigInteger, nullable=False),
        sa.Column("wagered_cents", sa.BigInteger, nullable=False),
        sa.Column("paid_cents", sa.BigInteger, nullable=False),
        sa.Column("hits", sa.Integer, nullable=False),
    )
    op.create_table(
        "linked_tables",
        sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), primary_key=True),
        sa.Column("table_id", sa.String(100), primary_key=True),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "staff",
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rounds",
        sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), primary_key=True),
        sa.Column("round_id", sa.String(100), primary_key=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("positions", sa.Text, nullable=False),
        sa.Column("chips_counted", sa.Integer, nullable=True),
    )
    op.create_table(
        "settlements",
        sa.Column("idempotency_key", sa.String(200), primary_key=True),
        sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), nullable=False),
        sa.Column("round_id", sa.String(100), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("progressive_id", "round_id", name="uq_settlements_round"),
    )
    op.create_table(
        "awards",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), nullable=False),
        sa.Column("round_id", sa.String(100), nullable=False),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("outcome", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("share", sa.String(40), nullable=True),
        sa.Column("amount_cents", sa.BigInteger, nullable=False),
        sa.Column("meter_cents", sa.BigInteger, nullable=False),
        sa.Column("source_position", sa.Integer, nullable=False),
        sa.Column("validated_by", sa.String(100), nullable=True),
        sa.UniqueConstraint(
            "progressive_id", "round_id", "position", "source_position", name="uq_awards_once"
        ),
    )
    op.create_table(
        "ledger_events",
        sa.Column("seq", BigId, primary_key=True, autoincrement=True),
        sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), nullable=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("round_id", sa.String(100), nullable=True),
        sa.Column("table_id", sa.String(100), nullable=True),
        sa.Column("position", sa.Integer, nullable=True),
        sa.Column("award_id", sa.Integer, nullable=True),
        sa.Column("meter_delta", sa.BigInteger, nullable=False),
        sa.Column("reserve_delta", sa.BigInteger, nullable=False),
        sa.Column("held_delta", sa.BigInteger, nullable=False),
        sa.Column("wagered_delta", sa.BigInteger, nullable=False),
        sa.Column("paid_delta", sa.BigInteger, nullable=False),
        sa.Column("hits_delta", sa.Integer, nullable=False),
        sa.Column("amount_cents", sa.BigInteger, nullable=True),
        sa.Column("actor", sa.String(100), nullable=True),
        sa.Column("actor_role", sa.String(40), nullable=True),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ledger_events_progressive_seq", "ledger_events", ["progressive_id", "seq"])

    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER ledger_events_no_{action.lower()} BEFORE {action} "
                f"ON ledger_events BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION ledger_events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN RAISE EXCEPTION '{_APPEND_ONLY}'; END $$"
        )
        op.execute(
            "CREATE TRIGGER ledger_events_append_only BEFORE UPDATE OR DELETE ON ledger_events "
            "FOR EACH ROW EXECUTE FUNCTION ledger_events_append_only()"
        )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS ledger_events_no_update")
        op.execute("DROP TRIGGER IF EXISTS ledger_events_no_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS ledger_events_append_only ON ledger_events")
        op.execute("DROP FUNCTION IF EXISTS ledger_events_append_only()")
    op.drop_index("ix_ledger_events_progressive_seq", table_name="ledger_events")
    for table in (
        "ledger_events",
        "awards",
        "settlements",
        "rounds",
        "staff",
        "linked_tables",
        "meter_levels",
        "progressives",
    ):
        op.drop_table(table)
