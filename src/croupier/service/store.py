"""The service's own tables, beside the ledger's in the same database, with their own migrations.

* ``service_rounds`` — every round the service settled: its table, round id, the digest of its
  Rules Submission and of its content, the wagers it holds, the settlement JSON, who recorded it
  and when. ``(table_id, round_id)`` is unique: a round is stored once.
* ``service_idempotency`` — every request that changed money or configuration, under the
  ``Idempotency-Key`` it came with: the member who sent it (``actor``: a key is the member's own,
  ``(actor, key)`` is unique), the key, the route, the digest of the body, and the response it
  got — written in the same transaction as the request's effect on these tables.
* ``service_jobs`` — simulations run as jobs: request, status, progress, result
  (:mod:`croupier.service.routes.simulations`).
* ``service_tables`` — the open tables: each one's Rules Submission and the steps of its current
  round (the round is replayed from them, :mod:`croupier.service.routes.tables`).
* ``service_submissions`` — the Rules Submission of every round file posted, by digest
  (:func:`remember_submission`): the hold report's paytables for a round not played at an
  open table.

Reads that need no lock (an ``Idempotency-Key`` looked up, the stored rounds listed) go through
:func:`reader`: on SQLite an engine of its own on the same file, whose reads take no writer lock
(WAL gives each a consistent snapshot; the ledger's engine begins every transaction with the
writer's lock, ``BEGIN IMMEDIATE``), on PostgreSQL the ledger's pool in autocommit (a read is one
round trip: no ``BEGIN``, no ``ROLLBACK``).

The migrations (Alembic) are in ``croupier/service/migrations``; their version table is
``croupier_service_version``, not the ledger's ``alembic_version``: the ledger's revision chain
(:mod:`croupier.progressive.migrate`) and this one move independently.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, event, text

if TYPE_CHECKING:
    from alembic.config import Config

VERSION_TABLE = "croupier_service_version"
MIGRATIONS = Path(__file__).with_name("migrations")
_ADVISORY_LOCK = 605_0016  # serialises concurrent service migrations on PostgreSQL

metadata = sa.MetaData()

rounds = sa.Table(
    "service_rounds",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(100), nullable=False),
    sa.Column("round_id", sa.String(200), nullable=False),
    sa.Column("submission_digest", sa.String(64), nullable=False),
    sa.Column("content_digest", sa.String(64), nullable=False),
    sa.Column("wagers", sa.String(1000), nullable=False),
    sa.Column("net_cents", sa.BigInteger, nullable=False),
    sa.Column("document", sa.Text, nullable=False),
    sa.Column("recorded_by", sa.String(100), nullable=False),
    sa.Column("settled_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("table_id", "round_id", name="uq_service_rounds_table_round"),
    sa.Index("ix_service_rounds_settled_at", "settled_at"),
)

idempotency = sa.Table(
    "service_idempotency",
    metadata,
    sa.Column("actor", sa.String(100), nullable=False),
    sa.Column("key", sa.String(200), nullable=False),
    sa.Column("route", sa.String(300), nullable=False),
    sa.Column("request_digest", sa.String(64), nullable=False),
    sa.Column("status", sa.Integer, nullable=False),
    sa.Column("response", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint("actor", "key", name="pk_service_idempotency_actor_key"),
)

tables = sa.Table(
    "service_tables",
    metadata,
    sa.Column("table_id", sa.String(100), primary_key=True),
    sa.Column("submission", sa.Text, nullable=False),
    sa.Column("submission_digest", sa.String(64), nullable=False),
    sa.Column("progressives", sa.Text, nullable=False),
    sa.Column("round_number", sa.Integer, nullable=False),
    sa.Column("steps", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("opened_by", sa.String(100), nullable=False),
    sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("base_game", sa.String(20), nullable=True),
)


submissions = sa.Table(
    "service_submissions",
    metadata,
    sa.Column("submission_digest", sa.String(64), primary_key=True),
    sa.Column("submission", sa.Text, nullable=False),
    sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
)
"""The Rules Submission of every round file posted (``POST /rounds/settle``), by its digest —
the text as first posted: the hold report reads the paytables a round was settled under."""

_REMEMBERED: set[tuple[str, str]] = set()
"""(database, digest) of the submissions this process has written or found written."""


def remember_submission(engine: Engine, digest: str, submission: str) -> None:
    """Keep ``submission`` (its JSON text) under ``digest`` unless a submission is kept under it
    already: one small transaction the first time this process sees the digest, nothing after
    (a table posts the same submission with every round). Content-addressed: written before the
    round it came with, it stays if that round is refused, and is the same for every round that
    names it."""
    key = (engine.url.render_as_string(hide_password=True), digest)
    if key in _REMEMBERED:
        return
    row = {
        "submission_digest": digest,
        "submission": submission,
        "first_seen": datetime.now(UTC),
    }
    if engine.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        stmt: Any = pg_insert(submissions).values(row).on_conflict_do_nothing()
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        stmt = sqlite_insert(submissions).values(row).on_conflict_do_nothing()
    with engine.begin() as conn:
        conn.execute(stmt)
    _REMEMBERED.add(key)


jobs = sa.Table(
    "service_jobs",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("request", sa.Text, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("done", sa.BigInteger, nullable=False),
    sa.Column("total", sa.BigInteger, nullable=False),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("requested_by", sa.String(100), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)


def reader(engine: Engine) -> Engine:
    """An engine for lock-free reads of ``engine``'s database (see the module docstring); the
    caller disposes of it (:func:`close_reader`)."""
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    ro = sa.create_engine(engine.url, connect_args={"timeout": 60})

    @event.listens_for(ro, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # each SELECT its own snapshot (WAL)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout=60000")
        cur.execute("PRAGMA query_only=ON")
        cur.close()

    return ro


def close_reader(ro: Engine, engine: Engine) -> None:
    """Dispose of a :func:`reader` that has a pool of its own."""
    if ro.pool is not engine.pool:
        ro.dispose()


def alembic_config() -> Config:
    """An Alembic configuration for the service's migrations."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the service's tables of ``engine``'s database to ``revision`` (default: newest)."""
    from croupier.progressive.migrate import upgrade_with

    upgrade_with(alembic_config(), engine, revision)


def current_revision(conn: Connection) -> str | None:
    """The service revision a database is at (``None``: no service tables yet)."""
    from alembic.runtime.migration import MigrationContext

    ctx = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    return ctx.get_current_revision()


def run_env() -> None:
    """The body of the service migrations' ``env.py``: run on the connection :func:`upgrade`
    hands over, with the service's own version table."""
    from alembic import context

    conn = context.config.attributes.get("connection")
    if conn is None:
        raise RuntimeError("run the service migrations with croupier.service.store.upgrade")
    context.configure(
        connection=conn,
        target_metadata=metadata,
        version_table=VERSION_TABLE,
        render_as_batch=True,
    )
    with context.begin_transaction():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _ADVISORY_LOCK})
        context.run_migrations()


def stored_cards(engine: Engine, table: str, ledger_round: str) -> str | None:
    """The cards of the round the service stored for the ledger's round ``ledger_round``
    (``TABLE/ROUND``, :func:`~croupier.table.progressive.ledger_round_id_of`) at ``table``, as
    its settlement's ``cards`` text; ``None`` when the service stored no such round — a round
    fed by ``croupier settle --progressive``, or a database the service never served (no
    ``service_rounds`` table): what a hand-pay slip prints as the award's cards."""
    prefix = f"{table}/"
    if not ledger_round.startswith(prefix) or not sa.inspect(engine).has_table(rounds.name):
        return None
    with engine.connect() as conn:
        document = conn.execute(
            sa.select(rounds.c.document).where(
                rounds.c.table_id == table, rounds.c.round_id == ledger_round[len(prefix) :]
            )
        ).scalar()
    if document is None:
        return None
    cards = json.loads(document).get("cards")
    return cards if isinstance(cards, str) else None
