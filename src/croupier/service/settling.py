"""Settling a round for the service: what is the service's own — storing the settled round once
(its row, the replay of a stored round, a key taken) and the one-transaction common case
(:func:`feed_and_store`: the ledger's rows, the stored round and the ``Idempotency-Key``'s record
committed together).

The use cases themselves — which progressives a round feeds, feeding them, the round's document,
voiding an open table's round — are the application layer's (:mod:`croupier.operations.rounds`,
:mod:`croupier.operations.documents`), shared with ``croupier settle``; the service's round writes
(:mod:`croupier.service.round_writes`) call them there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from croupier.errors import RoundConflictError
from croupier.operations.documents import Settled, document
from croupier.operations.feeding import feed_new_round
from croupier.progressive import Ledger, ProgressiveSystem, RoundSettlement
from croupier.progressive.feeder import RowsItem, RowsWriter
from croupier.service import store
from croupier.service.committer import Rows
from croupier.service.jsontext import dumps
from croupier.table.progressive import round_content
from croupier.table.round import TableRound


def feed_and_store(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    round_id: str,
    submission_digest: str,
    progressive: str,
    by: str,
    writer: RowsWriter,
    extra: Callable[[int, str], Rows],
) -> str | None:
    """The common case of a round fed to one progressive, in **one** transaction: the ledger's
    rows, the stored round and ``extra(201, text)`` (the ``Idempotency-Key``'s record) commit
    together (:meth:`~croupier.progressive.feeder.Feeder.play`'s ``after``), so a crash leaves
    all of them or none. The stored document's text (the answer, 201), or ``None`` when nothing
    was written — a round the ledger knows already, the round stored already, a refusal to
    explain: :func:`~croupier.operations.rounds.feed_and_document` then decides, step by step."""
    content = round_content(rnd)
    made: list[str] = []

    def after(result: RoundSettlement) -> RowsItem:
        s = document(
            ledger,
            rnd,
            [(progressive, result)],
            fed_any=True,
            table=table,
            round_id=round_id,
            submission_digest=submission_digest,
            content=content,
            by=by,
        )
        row = round_row(s, submission_digest=submission_digest, by=by)
        made[:] = [row["document"]]
        return RowsItem([(INSERT_ROUND, row), *extra(201, row["document"])], writer)

    result = feed_new_round(
        rnd,
        ProgressiveSystem(ledger, progressive),
        table=table,
        round_id=round_id,
        by=by,
        content=content,
        after=after,
    )
    if result is None or not made:
        return None
    return made[0]


INSERT_ROUND = sa.insert(store.rounds)


def round_row(s: Settled, *, submission_digest: str, by: str) -> dict[str, Any]:
    """The row storing the settled round (``settled_at`` is set in the document too)."""
    at = datetime.now(UTC)
    s.document["settled_at"] = at.isoformat()
    return {
        "table_id": s.table,
        "round_id": s.round_id,
        "submission_digest": submission_digest,
        "content_digest": s.content,
        "wagers": "," + ",".join(s.wagers) + ",",
        "net_cents": s.net_cents,
        "document": dumps(s.document),
        "recorded_by": by,
        "settled_at": at,
    }


def insert_round(conn: Connection, s: Settled, *, submission_digest: str, by: str) -> None:
    """Store the settled round inside the caller's transaction (``settled_at`` is set in the
    document). A round already stored under the same table and id raises the database's
    :class:`~sqlalchemy.exc.IntegrityError` (see :func:`existing`)."""
    conn.execute(INSERT_ROUND, round_row(s, submission_digest=submission_digest, by=by))


def existing(conn: Connection, s: Settled) -> dict[str, Any] | None:
    """The stored document of the round ``s`` names, if one is stored: the same content is a
    replay (the first document); other content under the same table and round id is a
    :class:`~croupier.errors.RoundConflictError` (409), nothing changed."""
    r = store.rounds
    row = conn.execute(
        sa.select(r.c.content_digest, r.c.document).where(
            r.c.table_id == s.table, r.c.round_id == s.round_id
        )
    ).first()
    if row is None:
        return None
    if row.content_digest != s.content:
        raise RoundConflictError(
            f"round {s.round_id!r} of table {s.table} is stored already with other content "
            "(seats, wagers, amounts or cards): nothing changed; give the round its own id"
        )
    doc: dict[str, Any] = json.loads(row.document)
    return doc


def is_integrity_error(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) is a database integrity error (a unique key taken)."""
    while exc is not None:
        if isinstance(exc, IntegrityError):
            return True
        exc = exc.__cause__  # type: ignore[assignment]
    return False


__all__ = [
    "INSERT_ROUND",
    "existing",
    "feed_and_store",
    "insert_round",
    "is_integrity_error",
    "round_row",
]
