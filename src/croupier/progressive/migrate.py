"""Schema migrations of the ledger, with Alembic; the scripts ship inside the package.

:func:`upgrade` brings a database to the newest revision (the ledger calls it when it opens one);
:func:`current_revision` and :func:`head_revision` say where a database and the package are.
The scripts are in ``croupier/progressive/migrations/versions``. To write a new one after changing
:mod:`croupier.progressive.schema`::

    from alembic import command
    from croupier.progressive.migrate import alembic_config
    command.revision(alembic_config("sqlite:///dev.sqlite3"), "what changed", autogenerate=True)

On PostgreSQL the migration takes an advisory lock, so processes opening one database at once
migrate it once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, create_engine, pool, text

from croupier.progressive.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic is imported inside the functions: it is only needed when a database is opened, and
# importing it costs a quarter of a second that every command (and test worker) would pay.

MIGRATIONS = Path(__file__).with_name("migrations")
_ADVISORY_LOCK = 605_0007  # any constant: serialises concurrent migrations on PostgreSQL


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration pointing at the packaged scripts (and ``url``, if given)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest revision the package ships."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(conn: Connection) -> str | None:
    """The revision a database is at (``None``: no ledger schema yet)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database of ``engine`` to ``revision`` (default: the newest)."""
    upgrade_with(alembic_config(), engine, revision)


def upgrade_with(cfg: Config, engine: Engine, revision: str) -> None:
    """Run the migrations of Alembic configuration ``cfg`` up to ``revision`` on one connection
    of ``engine`` (handed to the scripts' ``env.py`` as ``cfg.attributes["connection"]``), then
    commit: the ledger's migrations (:func:`upgrade`) and the service's."""
    from alembic import command

    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.commit()


def run_env() -> None:
    """The body of the migrations' ``env.py``: run the migrations online on the connection the
    caller handed over (:func:`upgrade`), or on one made from ``sqlalchemy.url``/``-x url=``."""
    from alembic import context

    cfg = context.config
    conn = cfg.attributes.get("connection")
    if conn is not None:
        _run(conn)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or cfg.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise RuntimeError("no database: give -x url=... or set sqlalchemy.url")
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as c:
        _run(c)
        c.commit()


def _run(conn: Connection) -> None:
    from alembic import context

    context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _ADVISORY_LOCK})
        context.run_migrations()
