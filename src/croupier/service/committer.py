"""Group commit: the service's rows of requests arriving together written in one transaction.

A durable commit costs a sync of the database's log to disk (SQLite in WAL with
``synchronous=FULL``, PostgreSQL's ``fsync``) and, on SQLite, the one writer lock; on a busy disk
that sync is milliseconds. Requests whose rows are ready while another batch is being written
wait for it and are then written together — one transaction, one sync, one round trip on
PostgreSQL (:class:`croupier.progressive.batch.Batch`) — and each is answered only once the
commit holding its rows has returned: nothing is answered before it is durable.

A batch that takes a unique key already taken (a round stored already, an ``Idempotency-Key``
recorded by a concurrent request) is rolled back whole and each of its requests is then written
in a transaction of its own; the one whose key was taken is told so (:meth:`Committer.write`
answers ``False``) and decides in its own transaction, as it would have alone. Any other failure
is raised to every request of the batch; nothing of it was committed.

The queue is the engine's :class:`~croupier.progressive.feeder.Lane`, shared with the rounds
the ledger on the same database is fed (:class:`~croupier.progressive.feeder.Feeder`): rows
queued while rounds are queued are committed in the rounds' transaction — one sync for both —
and, if that transaction fails, written as above without them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Insert
from sqlalchemy.exc import IntegrityError

from croupier.errors import LedgerError
from croupier.progressive.batch import Batch
from croupier.progressive.feeder import RowsItem, RowsWriter, lane_of

Rows = list[tuple[Insert, dict[str, Any]]]
"""Rows to insert: each an INSERT statement (a module-level one: compiled once) and its values."""


def unique_violation(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) is a unique key taken: SQLAlchemy's integrity error,
    or the driver's from a :class:`~croupier.progressive.batch.Batch` that went past SQLAlchemy
    (psycopg's pipeline, the SQLite driver's cursor)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, IntegrityError):
            return True
        kind = type(seen)
        if kind.__module__.startswith("psycopg") and kind.__name__ in (
            "UniqueViolation",
            "IntegrityError",
        ):
            return True
        if isinstance(seen, sqlite3.IntegrityError):
            return True
        seen = seen.__cause__
    return False


class Committer(RowsWriter):
    """Writes :data:`Rows` of concurrent requests in shared transactions (module docstring).

    ``before_commit`` is called (by the thread writing a batch) just before each commit — the
    tests' crash point."""

    def __init__(self, engine: Engine, before_commit: Callable[[], None] | None = None) -> None:
        self.engine = engine
        self.before_commit = before_commit or (lambda: None)
        self._lane = lane_of(engine)  # shared with the ledger's rounds on this engine

    @property
    def waiting(self) -> int:
        """How many requests (and rounds) wait for the batch in flight."""
        return self._lane.waiting

    def write(self, rows: Rows) -> bool:
        """Write ``rows`` durably (``True``), or ``False`` when a unique key they take is taken
        (nothing of them written); other failures are raised."""
        item = RowsItem(rows, self)
        self._lane.submit(item)
        if item.error is not None:
            raise item.error
        return item.ok

    def add_rows(self, batch: Batch, items: Sequence[RowsItem]) -> None:
        """Queue the inserts of ``items``' rows on ``batch`` (a batch of rounds holds it)."""
        _add_inserts(batch, [r for it in items for r in it.rows])

    def write_items(self, items: Sequence[RowsItem]) -> None:
        """Write ``items`` without rounds: all in one transaction, or — when a unique key is
        taken — each in its own."""
        try:
            if len(items) > 1:
                try:
                    self._commit([r for it in items for r in it.rows])
                except (IntegrityError, LedgerError) as exc:
                    if not unique_violation(exc):
                        raise
                else:
                    for it in items:
                        it.ok = True
                    return
            for it in items:  # alone, or one by one after a key taken
                try:
                    self._commit(it.rows)
                    it.ok = True
                except (IntegrityError, LedgerError) as exc:
                    if not unique_violation(exc):
                        it.error = exc
        except BaseException as exc:  # the database failed: every request of the batch hears it
            for it in items:
                if not it.ok:
                    it.error = exc

    def pre_commit(self) -> None:
        """Called by the lane just before a commit holding rows of this committer."""
        self.before_commit()

    def _insert(self, conn: Connection, rows: Rows, *, commit: bool = False) -> None:
        batch = Batch(conn)
        _add_inserts(batch, rows)
        if commit:
            self.before_commit()
        batch.run(commit=commit)

    def _commit(self, rows: Rows) -> None:
        with self.engine.begin() as conn:
            self._insert(conn, rows, commit=True)


def _add_inserts(batch: Batch, rows: Rows) -> None:
    """Queue ``rows`` on ``batch``: one statement per INSERT, with all its rows."""
    grouped: dict[int, tuple[Insert, list[dict[str, Any]]]] = {}
    for stmt, values in rows:
        grouped.setdefault(id(stmt), (stmt, []))[1].append(values)
    for stmt, many in grouped.values():
        batch.add(stmt, many[0] if len(many) == 1 else many)


__all__ = ["Committer", "Rows", "unique_violation"]
