"""The ledger's tables (SQLAlchemy Core), the same on SQLite and PostgreSQL.

``ledger_events`` is the append-only log every meter is replayed from (database triggers refuse
UPDATE and DELETE on it); the other tables are the current state the events lead to, kept in the
same transactions so they can be read and locked cheaply: ``meter_levels`` (one row per level),
``rounds`` (the procedure of § 633b.2(d)–(h)), ``awards``, ``settlements`` (idempotency keys) and
``staff`` (users, roles and credential hashes), and ``ledger_chain`` (the head of the events'
HMAC chain). The running totals of § 605a.7(a) that are sums over events — qualifying wagers,
overflow, attendant and table payouts, wins — are columns of ``meter_levels`` and
``progressives`` (:mod:`croupier.progressive.totals`). The schema is created and upgraded only
by the Alembic migrations in ``croupier/progressive/migrations``; a test checks that they produce
exactly this metadata.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# SQLite makes only an INTEGER PRIMARY KEY an auto-incrementing rowid.
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Money = sa.BigInteger
MAX_INT = 2**31 - 1
"""The largest value of an ``sa.Integer`` column on PostgreSQL (a signed 32-bit ``integer``; an
award's id, a position): a larger one looked up is not there (asking the driver is an error)."""

progressives = sa.Table(
    "progressives",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(100), nullable=False, unique=True),
    sa.Column("section", sa.String(20), nullable=False),
    sa.Column("paytable", sa.String(40), nullable=False),
    sa.Column("decks", sa.Integer, nullable=False),
    sa.Column("wager_cents", Money, nullable=False),
    sa.Column("definition", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # suspended for a reconfiguration: no round is played on it (the suspend/resume events)
    sa.Column("suspended", sa.Boolean, nullable=False, server_default=sa.false()),
    # who funds a reseed (the definition's ReseedFunding); "house" for progressives made before it
    sa.Column("reseed_funding", sa.String(10), nullable=False, server_default="house"),
    # running totals of the log (meterset.Totals), moved with the events that make them (0008):
    # odds lines and envy bonuses the table paid, in cents, and their count
    sa.Column("paid_by_table_cents", Money, nullable=False, server_default="0"),
    sa.Column("table_pays", sa.BigInteger, nullable=False, server_default="0"),
)

meter_levels = sa.Table(
    "meter_levels",
    metadata,
    sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), primary_key=True),
    sa.Column("level", sa.String(20), primary_key=True),
    sa.Column("ordinal", sa.Integer, nullable=False),
    sa.Column("meter_micros", Money, nullable=False),
    sa.Column("reserve_micros", Money, nullable=False),
    sa.Column("held_micros", Money, nullable=False),
    sa.Column("wagered_cents", Money, nullable=False),
    sa.Column("paid_cents", Money, nullable=False),
    sa.Column("hits", sa.Integer, nullable=False),
    # running totals of the level's events (meterset.LevelTotals), moved with them (0008)
    sa.Column("qualifying_wagers", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("overflow_micros", Money, nullable=False, server_default="0"),
    sa.Column("paid_by_attendant_cents", Money, nullable=False, server_default="0"),
    sa.Column("wins", sa.BigInteger, nullable=False, server_default="0"),
)

linked_tables = sa.Table(
    "linked_tables",
    metadata,
    sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), primary_key=True),
    sa.Column("table_id", sa.String(100), primary_key=True),
    sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
)

staff = sa.Table(
    "staff",
    metadata,
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    # an argon2id hash (argon2-cffi) of the member's password or PIN; never the secret itself
    sa.Column("credential", sa.String(200), nullable=True),
)

login_throttle = sa.Table(
    "login_throttle",
    metadata,
    # "member:NAME" or "client:ADDRESS" (croupier.progressive.login); working state, not a record
    sa.Column("key", sa.String(300), primary_key=True),
    # failed logins: a member's consecutive ones, a client's within its window
    sa.Column("failures", sa.Integer, nullable=False),
    # lockouts since the last correct login (a member's doubles each time)
    sa.Column("lockouts", sa.Integer, nullable=False),
    sa.Column("window_start", sa.Float, nullable=False),  # seconds since the epoch
    sa.Column("locked_until", sa.Float, nullable=True),
)

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), primary_key=True),
    sa.Column("round_id", sa.String(100), primary_key=True),
    sa.Column("table_id", sa.String(100), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("positions", sa.Text, nullable=False),
    sa.Column("chips_counted", sa.Integer, nullable=True),
    # SHA-256 of the round's whole content (seats, wagers, amounts, cards) as the table fed it
    sa.Column("content", sa.String(64), nullable=True),
)

settlements = sa.Table(
    "settlements",
    metadata,
    sa.Column("idempotency_key", sa.String(200), primary_key=True),
    sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), nullable=False),
    sa.Column("round_id", sa.String(100), nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("result", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("progressive_id", "round_id", name="uq_settlements_round"),
)

awards = sa.Table(
    "awards",
    metadata,
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
    sa.Column("amount_cents", Money, nullable=False),
    sa.Column("meter_cents", Money, nullable=False),
    # the position whose hand the award is for: the award's own position, or for an envy bonus
    # the other player's qualifying hand; so no hand is paid twice to one position
    sa.Column("source_position", sa.Integer, nullable=False),
    sa.Column("validated_by", sa.String(100), nullable=True),
    # HitPolicy.SHARE: the founding award of a 100% award's share group (its own id if it is one)
    sa.Column("share_group", sa.Integer, nullable=True),
    # the award's number as people are told it (0009): meter awards alone — those awaiting a
    # floorperson's validation — numbered 1, 2, … across the ledger in id order; null for an
    # odds or envy pay, which the table pays at once. ``id`` stays the key the API paths use.
    sa.Column("number", sa.Integer, nullable=True),
    sa.UniqueConstraint(
        "progressive_id", "round_id", "position", "source_position", name="uq_awards_once"
    ),
    # the awards pending validation, in one indexed read however many were made (0008): only
    # they are in it (an odds pay, paid at settlement, never is)
    sa.Index(
        "ix_awards_pending",
        "progressive_id",
        "id",
        postgresql_where=sa.text("status = 'pending'"),
        sqlite_where=sa.text("status = 'pending'"),
    ),
    # one award per number (nulls, the table's pays, are not equal to each other), and the
    # newest number in one indexed read when the next is allocated (0009)
    sa.Index("uq_awards_number", "number", unique=True),
)

PENDING_AWARD = awards.c.status == sa.literal_column("'pending'")
"""The awards pending validation, as the partial index ``ix_awards_pending`` is defined (a
literal, not a bound parameter: the planner uses the index only for the predicate it holds)."""

ledger_events = sa.Table(
    "ledger_events",
    metadata,
    sa.Column("seq", BigId, primary_key=True, autoincrement=True),
    sa.Column("progressive_id", sa.Integer, sa.ForeignKey("progressives.id"), nullable=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("level", sa.String(20), nullable=True),
    sa.Column("round_id", sa.String(100), nullable=True),
    sa.Column("table_id", sa.String(100), nullable=True),
    sa.Column("position", sa.Integer, nullable=True),
    sa.Column("award_id", sa.Integer, nullable=True),
    sa.Column("meter_delta", Money, nullable=False),
    sa.Column("reserve_delta", Money, nullable=False),
    sa.Column("held_delta", Money, nullable=False),
    sa.Column("wagered_delta", Money, nullable=False),
    sa.Column("paid_delta", Money, nullable=False),
    sa.Column("hits_delta", sa.Integer, nullable=False),
    sa.Column("amount_cents", Money, nullable=True),
    sa.Column("actor", sa.String(100), nullable=True),
    sa.Column("actor_role", sa.String(40), nullable=True),
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # HMAC-SHA256, under the ledger key, of the previous event's mac and this event's fields
    sa.Column("mac", sa.String(64), nullable=True),
    sa.Index("ix_ledger_events_progressive_seq", "progressive_id", "seq"),
    sa.Index("ix_ledger_events_award", "award_id"),
    sa.Index("ix_ledger_events_round", "progressive_id", "round_id"),
    # the newest staff (or significant) event in one read, whatever the log's length (0006)
    sa.Index(
        "ix_ledger_events_staff_seq",
        "seq",
        postgresql_where=sa.text("progressive_id IS NULL"),
        sqlite_where=sa.text("progressive_id IS NULL"),
    ),
)

ledger_chain = sa.Table(
    "ledger_chain",
    metadata,
    # one row (id 1): the last event's seq and mac; writers lock it, so events are chained in order
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("head_seq", sa.BigInteger, nullable=False),
    sa.Column("head_mac", sa.String(64), nullable=False),
)
