"""Statements sent to the database together, to keep the time a writer holds the ledger's lock
short (issue 12: four linked tables settling at once).

On PostgreSQL through psycopg 3 a :class:`Batch` goes in one *pipeline*: every statement is
sent before the first result is read, so a batch costs one network round trip however many
statements it holds (the server still runs them one after another, in order, each seeing what
the ones before it did). Elsewhere (SQLite, another driver) the statements run one after another,
which costs no round trip on SQLite. Either way they run inside the caller's
transaction, and a statement that fails fails the batch
(:class:`~croupier.errors.LedgerDatabaseError`) and the transaction is rolled back by the caller.

Statements are SQLAlchemy Core, compiled once per dialect and set of parameters and cached. On
SQLite (the stdlib driver) the writes — INSERT, UPDATE and DELETE without RETURNING — go straight
to the driver's cursor with that cached text, their parameters put through the bind processors
SQLAlchemy would apply (a datetime as SQLAlchemy's text for it): SQLAlchemy's execution of a
cached statement was about 0.1 ms of CPU a statement, and a settled round with its progressive
write makes about ten of them. Reads still go through SQLAlchemy (its result types).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Delete, Insert, Update
from sqlalchemy.sql import ClauseElement

from croupier.errors import LedgerError, LedgerIntegrityError
from croupier.progressive.store import LedgerDatabaseError, database_failure

Params = Mapping[str, Any] | Sequence[Mapping[str, Any]]
"""One statement's parameters: a mapping (run once) or a sequence of them (run per mapping)."""

_COMPILED: dict[tuple[int, str, tuple[str, ...] | None], tuple[str, dict[str, Any]]] = {}
_KEEP: list[ClauseElement] = []  # the statements compiled: their ids stay theirs


def _sql(conn: Connection, stmt: ClauseElement, keys: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The SQL text of ``stmt`` for ``conn``'s dialect and the defaults of its literal binds
    (an INSERT without values is compiled for the columns ``keys`` names)."""
    columns = tuple(keys) if isinstance(stmt, Insert) else None
    k = (id(stmt), conn.dialect.name, columns)
    found = _COMPILED.get(k)
    if found is None:
        compiled = stmt.compile(
            dialect=conn.dialect, column_keys=list(columns) if columns is not None else None
        )
        found = _COMPILED[k] = (str(compiled), dict(compiled.params))
        _KEEP.append(stmt)
    return found


class Batch:
    """Statements to run together on ``conn``: :meth:`add` each, then :meth:`run`.

    ``add(stmt, params)`` runs ``stmt`` once with a mapping of parameters, or once per mapping
    with a list of them (an INSERT of several rows). :meth:`run` returns, per statement in
    order, its rows as mappings (a SELECT) or its row count (anything else; summed over the
    mappings of a list).
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.items: list[tuple[ClauseElement, Params, int | None]] = []

    def add(self, stmt: ClauseElement, params: Params, *, rows: int | None = None) -> int:
        """Queue ``stmt``; its index in :meth:`run`'s answer. ``rows``: the number of rows the
        statement (an UPDATE) must change, or the batch fails with a
        :class:`~croupier.errors.LedgerIntegrityError` and nothing of it is committed."""
        self.items.append((stmt, params, rows))
        return len(self.items) - 1

    def run(
        self, *, commit: bool = False, flush_later: bool = False
    ) -> list[list[Mapping[str, Any]] | int]:
        """Run every queued statement, in order (see the class docstring). ``commit``: commit
        the transaction with the batch — on PostgreSQL in its round trip, so the locks it holds
        are released one round trip sooner; elsewhere the caller's transaction commits when it
        ends, as it would anyway (so nothing that can fail may follow a committing batch).
        ``flush_later`` (with ``commit``, on PostgreSQL): the commit does not wait for the disk
        (``SET LOCAL synchronous_commit TO OFF``), so the locks are released before the sync;
        the caller must not answer before :func:`~croupier.progressive.store.flush_barrier`
        has returned (the ledger's transaction does it, :data:`FLUSH_LATER`)."""
        items, self.items = self.items, []
        if commit and flush_later and self.conn.dialect.name == "postgresql":
            items.append((_ASYNC_COMMIT, {}, None))
        if self.conn.dialect.driver == "psycopg":
            raw_pg: Any = self.conn.connection.dbapi_connection
            if raw_pg.info.transaction_status == _INTRANS:
                return self._simple(raw_pg, items, commit)
            return self._pipeline(items, commit)
        raw = self.conn.dialect.driver == "pysqlite"
        out: list[list[Mapping[str, Any]] | int] = []
        for stmt, params, rows in items:
            if not isinstance(params, Mapping) and not params:
                out.append(0)
                continue
            if raw and _plain_write(stmt):
                out.append(self._sqlite_write(stmt, params))
                if rows is not None and out[-1] != rows:
                    raise _unserialised()
                continue
            res = self.conn.execute(
                stmt,  # type: ignore[call-overload]
                params if isinstance(params, Mapping) else list(params),
            )
            out.append(list(res.mappings()) if res.returns_rows else int(res.rowcount))
            if rows is not None and out[-1] != rows:
                raise _unserialised()
        return out

    def _sqlite_write(self, stmt: ClauseElement, params: Params) -> int:
        """Run the write ``stmt`` on the stdlib SQLite driver's cursor: its row count."""
        many: Sequence[Mapping[str, Any]] = () if isinstance(params, Mapping) else params
        first: Mapping[str, Any] = many[0] if many else params  # type: ignore[assignment]
        sql, order, defaults, procs = _positional(self.conn, stmt, list(first))

        def values(p: Mapping[str, Any]) -> tuple[Any, ...]:
            out = []
            for name in order:
                v = p[name] if name in p else defaults[name]
                f = procs.get(name)
                out.append(v if f is None or v is None else f(v))
            return tuple(out)

        cur = self.conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if many:
                cur.executemany(sql, [values(p) for p in many])
            else:
                cur.execute(sql, values(first))
            return int(cur.rowcount)
        except sqlite3.Error as exc:
            raise database_failure(exc, "the ledger database refused the operation") from exc
        finally:
            cur.close()

    def _simple(
        self,
        raw: Any,
        items: list[tuple[ClauseElement, Params, int | None]],
        commit: bool,
    ) -> list[list[Mapping[str, Any]] | int]:
        """The batch as **one** query message of statements bound on the client (psycopg's
        ``ClientCursor``), for a connection inside a transaction already: one send and one
        wait for the answers, where a pipeline waits on the socket once per statement — and
        each wait gives up the GIL, which a thread holding the ledger's lock then waits for
        behind every request the process is working on."""
        import psycopg

        cur = psycopg.ClientCursor(raw)
        parts: list[str] = []
        counts: list[int] = []  # statements per item
        try:
            for stmt, params, rows in items:
                if not isinstance(params, Mapping):
                    if params:
                        sql, defaults = _sql(self.conn, stmt, list(params[0]))
                        head, values = _values_split(stmt, sql)
                        if values is not None:  # an INSERT of many rows: one statement
                            rendered = (cur.mogrify(values, {**defaults, **p}) for p in params)
                            parts.append(head + ", ".join(rendered))
                            counts.append(1)
                            continue
                        parts.extend(cur.mogrify(sql, {**defaults, **p}) for p in params)
                    counts.append(len(params))
                else:
                    guarded = _guarded(stmt, rows) if rows is not None else stmt
                    sql, defaults = _sql(self.conn, guarded, list(params))
                    parts.append(cur.mogrify(sql, {**defaults, **params}))
                    counts.append(1)
            if commit:
                parts.append("COMMIT")
            out: list[list[Mapping[str, Any]] | int] = []
            if not parts:
                return [0 for _ in items]
            cur.execute(";\n".join(parts))
            first = True
            for (_stmt, _params, rows), n in zip(items, counts, strict=True):
                found: list[Mapping[str, Any]] | int = 0
                for _ in range(n):
                    if not first and not cur.nextset():  # pragma: no cover - one per statement
                        raise LedgerDatabaseError("the ledger database answered too few results")
                    first = False
                    if cur.description is not None and rows is None:
                        names = [c.name for c in cur.description]
                        found = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
                    elif isinstance(found, int):
                        found += max(int(cur.rowcount), 0)
                out.append(rows if rows is not None else found)
            return out
        except psycopg.Error as exc:
            raise _refusal(exc) from exc
        finally:
            cur.close()

    def _pipeline(
        self, items: list[tuple[ClauseElement, Params, int | None]], commit: bool
    ) -> list[list[Mapping[str, Any]] | int]:
        import psycopg

        raw: Any = self.conn.connection.dbapi_connection
        cursors: list[Any] = []
        try:
            with raw.pipeline():
                for stmt, params, rows in items:
                    cur = raw.cursor()
                    cursors.append(cur)
                    if not isinstance(params, Mapping):
                        if params:
                            sql, defaults = _sql(self.conn, stmt, list(params[0]))
                            cur.executemany(sql, [{**defaults, **p} for p in params])
                    else:
                        guarded = _guarded(stmt, rows) if rows is not None else stmt
                        sql, defaults = _sql(self.conn, guarded, list(params))
                        cur.execute(sql, {**defaults, **params})
                if commit:
                    raw.commit()
            out: list[list[Mapping[str, Any]] | int] = []
            for cur, (_stmt, _params, rows) in zip(cursors, items, strict=True):
                if rows is not None:
                    out.append(rows)  # the guard held, or the batch failed
                elif cur.description is not None:
                    names = [c.name for c in cur.description]
                    out.append([dict(zip(names, row, strict=True)) for row in cur.fetchall()])
                else:
                    out.append(max(int(cur.rowcount), 0))
            return out
        except psycopg.Error as exc:
            raise _refusal(exc) from exc
        finally:
            for cur in cursors:
                cur.close()


_ASYNC_COMMIT = sa.text("SET LOCAL synchronous_commit TO OFF")
"""This transaction's commit does not wait for its log to reach the disk (see :meth:`Batch.run`)."""


def _values_split(stmt: ClauseElement, sql: str) -> tuple[str, str | None]:
    """A plain INSERT's text as its head (``INSERT INTO t (a, b) VALUES``) and its row of
    values (``(%(a)s, %(b)s)``), to be repeated for many rows; ``(sql, None)`` otherwise."""
    if not isinstance(stmt, Insert) or stmt._returning:
        return sql, None
    head, sep, values = sql.partition(" VALUES ")
    if not sep or not values.startswith("(") or not values.endswith(")"):
        return sql, None  # pragma: no cover - every plain INSERT compiles so
    return head + sep, values


_INTRANS = 2
"""libpq's ``PQTRANS_INTRANS``: idle inside a transaction block."""

_POSITIONAL: dict[
    tuple[int, str, tuple[str, ...] | None],
    tuple[str, tuple[str, ...], dict[str, Any], dict[str, Any]],
] = {}


def _plain_write(stmt: ClauseElement) -> bool:
    """Whether ``stmt`` is an INSERT, UPDATE or DELETE returning no rows."""
    return isinstance(stmt, (Insert, Update, Delete)) and not stmt._returning


def _positional(
    conn: Connection, stmt: ClauseElement, keys: Sequence[str]
) -> tuple[str, tuple[str, ...], dict[str, Any], dict[str, Any]]:
    """``stmt`` compiled for ``conn``'s (positional) dialect, cached: its text, the names of
    its parameters in order, the defaults of its literal binds and the bind processors of its
    parameters' types (SQLAlchemy's own, as its execution applies them)."""
    columns = tuple(keys) if isinstance(stmt, Insert) else None
    k = (id(stmt), conn.dialect.name, columns)
    found = _POSITIONAL.get(k)
    if found is None:
        compiled: Any = stmt.compile(
            dialect=conn.dialect, column_keys=list(columns) if columns is not None else None
        )
        order = tuple(compiled.positiontup or ())
        if "POSTCOMPILE" in str(compiled) or (not order and compiled.params):  # pragma: no cover
            raise AssertionError(f"not a plain positional statement: {compiled}")
        procs = {n: f for n, f in compiled._bind_processors.items() if callable(f)}
        found = _POSITIONAL[k] = (str(compiled), order, dict(compiled.params), procs)
        _KEEP.append(stmt)
    return found


_GUARDED: dict[tuple[int, int], ClauseElement] = {}


def _guarded(stmt: ClauseElement, rows: int) -> ClauseElement:
    """``stmt`` (an UPDATE) as a statement that fails — division by zero — unless it changes
    exactly ``rows`` rows, so a pipeline ending in COMMIT commits nothing when it does not."""
    found = _GUARDED.get((id(stmt), rows))
    if found is None:
        assert isinstance(stmt, Update)
        moved = stmt.returning(sa.literal_column("1").label("one")).cte("moved")
        found = sa.select(
            sa.literal(1) / sa.case((sa.func.count() == rows, sa.literal(1)), else_=sa.literal(0))
        ).select_from(moved)
        _GUARDED[(id(stmt), rows)] = found
        _KEEP.append(stmt)
    return found


def _refusal(exc: Exception) -> LedgerError:
    """The ledger's error for a batch PostgreSQL refused: a guard's division by zero is a level
    changed under a locked write (:func:`_guarded`), anything else a database failure."""
    import psycopg

    if isinstance(exc, psycopg.errors.DivisionByZero):
        return _unserialised()
    return database_failure(exc, "the ledger database refused the operation")


def _unserialised() -> LedgerIntegrityError:
    return LedgerIntegrityError(
        "a level changed under a locked write: the database does not serialise writers"
    )
