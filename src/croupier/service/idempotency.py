"""``Idempotency-Key``: the same key with the same request answers the first response; with
another request it is a 409 problem.

A request's identity is its route (method and path, query string included) and the SHA-256 of
its body. The record — key, route, digest, status and response body — is written in the **same
transaction** as the request's effect on the service's tables (:func:`record`), so after a crash
either both are there or neither is. A round fed to one progressive in the common case puts the
ledger's rows in that transaction too (:func:`croupier.service.settling.feed_and_store`);
otherwise effects on the progressive ledger are made first, in the ledger's own transaction under
the ledger's own idempotency key (``PROGRESSIVE/TABLE/ROUND``): a retry after a crash between the
two finds the ledger's settlement (``replayed``) and records the service's side once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

from croupier.errors import IdempotencyConflictError, InputError
from croupier.service import store

HEADER = "Idempotency-Key"
MAX_KEY = 200


@dataclass(frozen=True)
class Stored:
    """A response recorded under a key."""

    status: int
    body: str
    """The response body as it was sent (JSON text)."""


def check_key(key: str | None) -> str | None:
    """The key, stripped; :class:`InputError` for an empty or overlong one."""
    if key is None:
        return None
    k = key.strip()
    if not k or len(k) > MAX_KEY or not k.isprintable():
        raise InputError(f"{HEADER} is 1–{MAX_KEY} printable characters")
    return k


def lookup(engine: Engine, key: str | None, route: str, request_digest: str) -> Stored | None:
    """The response first given under ``key`` for this same request, or ``None`` when the key is
    new; :class:`IdempotencyConflictError` (409) when it was used for another request."""
    if key is None:
        return None
    with engine.connect() as conn:
        return _found(conn, key, route, request_digest)


_LOOKUP = sa.select(store.idempotency).where(store.idempotency.c.key == sa.bindparam("key"))
"""Built once: a statement made per request costs more than the read it makes."""


def _found(conn: Connection, key: str, route: str, request_digest: str) -> Stored | None:
    row = conn.execute(_LOOKUP, {"key": key}).first()
    if row is None:
        return None
    if row.route != route or row.request_digest != request_digest:
        raise IdempotencyConflictError(
            f"{HEADER} {key!r} was used for another request ({row.route}); nothing changed: "
            "a new request needs a new key"
        )
    return Stored(int(row.status), str(row.response))


def record(
    conn: Connection,
    key: str | None,
    route: str,
    request_digest: str,
    status: int,
    body: str,
    actor: str | None,
) -> None:
    """Record the response under ``key`` inside the caller's transaction (nothing without a
    key). A key recorded meanwhile by a concurrent request raises the database's integrity
    error: the caller's transaction rolls back and :func:`lookup` gives the winner's answer."""
    if key is None:
        return
    conn.execute(
        sa.insert(store.idempotency).values(**row(key, route, request_digest, status, body, actor))
    )


def row(
    key: str, route: str, request_digest: str, status: int, body: str, actor: str | None
) -> dict[str, Any]:
    """The record of ``key`` as the values of its row."""
    return {
        "key": key,
        "route": route,
        "request_digest": request_digest,
        "status": status,
        "response": body,
        "actor": actor,
        "created_at": datetime.now(UTC),
    }


__all__ = ["HEADER", "Stored", "check_key", "lookup", "record", "row"]
