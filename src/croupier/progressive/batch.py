"""Statements sent to the database together, to keep the time a writer holds the ledger's lock
short (issue 12: four linked tables settling at once).

On PostgreSQL through psycopg 3 a :class:`Batch` goes in one *pipeline*: every statement is
sent before the first result is read, so a batch costs one network round trip however many
statements it holds (the server still runs them one after another, in order, each seeing what
the ones before it did). Elsewhere (SQLite, another driver) the statements run one after another
through SQLAlchemy, which costs no round trip on SQLite. Either way they run inside the caller's
transaction, and a statement that fails fails the batch
(:class:`~croupier.errors.LedgerDatabaseError`) and the transaction is rolled back by the caller.

Statements are SQLAlchemy Core, compiled once per dialect and set of parameters and cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Insert, Update
from sqlalchemy.sql import ClauseElement

from croupier.errors import LedgerIntegrityError
from croupier.progressive.store import LedgerDatabaseError

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

    def run(self, *, commit: bool = False) -> list[list[Mapping[str, Any]] | int]:
        """Run every queued statement, in order (see the class docstring). ``commit``: commit
        the transaction with the batch — on PostgreSQL in its round trip, so the locks it holds
        are released one round trip sooner; elsewhere the caller's transaction commits when it
        ends, as it would anyway (so nothing that can fail may follow a committing batch)."""
        items, self.items = self.items, []
        if self.conn.dialect.driver == "psycopg":
            return self._pipeline(items, commit)
        out: list[list[Mapping[str, Any]] | int] = []
        for stmt, params, rows in items:
            if not isinstance(params, Mapping) and not params:
                out.append(0)
                continue
            res = self.conn.execute(
                stmt,  # type: ignore[call-overload]
                params if isinstance(params, Mapping) else list(params),
            )
            out.append(list(res.mappings()) if res.returns_rows else int(res.rowcount))
            if rows is not None and out[-1] != rows:
                raise _unserialised()
        return out

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
        except psycopg.errors.DivisionByZero as exc:
            raise _unserialised() from exc
        except psycopg.Error as exc:
            raise LedgerDatabaseError(f"the ledger database refused the operation: {exc}") from exc
        finally:
            for cur in cursors:
                cur.close()


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


def _unserialised() -> LedgerIntegrityError:
    return LedgerIntegrityError(
        "a level changed under a locked write: the database does not serialise writers"
    )
