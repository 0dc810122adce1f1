"""``Idempotency-Key``: the same key with the same request answers the first response; with
another request it is a 409 problem.

Every request that changes money or configuration needs a key (a 400 problem without one,
draft-ietf-httpapi-idempotency-key-header), and a key is the **member's own**: its record is
found by the member who sent the request and the key, so a key another member used — keys are
easy to guess, ``BJ-1/r1`` — is a new key for this one, and never answers them another member's
response. A request's identity is its route (method and path, query string included) and the
SHA-256 of its body. The record — key, route, digest, status and response body — is written in the **same
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
from croupier.progressive.store import read_rows
from croupier.service import store

HEADER = "Idempotency-Key"
MAX_KEY = 200


class IdempotencyKeyError(InputError):
    """A request that changes money or configuration came without an ``Idempotency-Key``
    header, or with one that is not a key (empty, too long, not printable ASCII): the service answers
    400, as draft-ietf-httpapi-idempotency-key-header asks, and does nothing. (Declared here, not
    in :mod:`croupier.errors`, whose source is part of every stored count's fingerprint.)"""


@dataclass(frozen=True)
class Stored:
    """A response recorded under a key."""

    status: int
    body: str
    """The response body as it was sent (JSON text)."""


def check_key(key: str | None, what: str) -> str:
    """The key, stripped; :class:`IdempotencyKeyError` (400) for none, an empty or overlong
    one, or one that is not printable ASCII — a header's text (RFC 9110 § 5.5; the draft's key
    is a Structured Field String, RFC 8941 § 3.3.3, printable ASCII). ``what`` names the request
    (``POST /awards/3/validate``)."""
    if key is None:
        raise IdempotencyKeyError(
            f"{what} changes money or configuration: send an {HEADER} header, a key of your "
            "choosing (e.g. a UUID) for this request, the same on every retry of it; nothing "
            "changed"
        )
    k = key.strip()
    if not k:
        why = "this one is empty"
    elif len(k) > MAX_KEY:
        why = f"this one has {len(k):,}"
    elif not (k.isascii() and k.isprintable()):
        # a header's value is bytes read as ISO-8859-1: a key typed as UTF-8 ('ключ-ü')
        # arrives as other characters, some not printable — never as the key the client has
        why = (
            "this one holds other characters (a header carries ASCII text: a key in another "
            "script arrives as other characters)"
        )
    else:
        return k
    raise IdempotencyKeyError(
        f"{HEADER} is 1–{MAX_KEY} printable ASCII characters (letters, digits, punctuation: "
        f"a UUID, or e.g. BJ-1/r1); {why}; nothing changed"
    )


def lookup(engine: Engine, actor: str, key: str, route: str, request_digest: str) -> Stored | None:
    """The response first given to member ``actor`` under ``key`` for this same request, or
    ``None`` when the key is new to them; :class:`IdempotencyConflictError` (409) when they used
    it for another request. One indexed read outside any transaction
    (:func:`~croupier.progressive.store.read_rows`): every request that changes money makes it."""
    rows = read_rows(engine, _LOOKUP, {"actor": actor, "key": key})
    if not rows:
        return None
    stored_route, stored_digest, status, response = rows[0]
    if stored_route != route or stored_digest != request_digest:
        raise IdempotencyConflictError(
            f"{HEADER} {key!r} was used for another request ({stored_route}); nothing changed: "
            "a new request needs a new key"
        )
    return Stored(int(status), str(response))


_LOOKUP = sa.select(
    store.idempotency.c.route,
    store.idempotency.c.request_digest,
    store.idempotency.c.status,
    store.idempotency.c.response,
).where(
    store.idempotency.c.actor == sa.bindparam("actor"),
    store.idempotency.c.key == sa.bindparam("key"),
)
"""Built once: a statement made per request costs more than the read it makes."""


def record(
    conn: Connection,
    key: str,
    route: str,
    request_digest: str,
    status: int,
    body: str,
    actor: str,
) -> None:
    """Record the response to member ``actor`` under ``key`` inside the caller's transaction.
    A key recorded meanwhile by a concurrent request of theirs raises the database's integrity
    error: the caller's transaction rolls back and :func:`lookup` gives the winner's answer."""
    conn.execute(
        sa.insert(store.idempotency).values(**row(key, route, request_digest, status, body, actor))
    )


def row(
    key: str, route: str, request_digest: str, status: int, body: str, actor: str
) -> dict[str, Any]:
    """The record of member ``actor``'s ``key`` as the values of its row."""
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
