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

:class:`Idempotent` answers a keyed request: a route takes it as a dependency
(:data:`croupier.service.dependencies.Once`), asks it for the stored answer
(:meth:`Idempotent.replay`), and otherwise makes its effect and hands the service-side
:class:`Write` to :meth:`Idempotent.commit` (or a plain answer to :meth:`Idempotent.answer`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from fastapi import Request
from fastapi.responses import Response
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from croupier.errors import IdempotencyConflictError, InputError, LedgerError
from croupier.progressive.store import read_rows
from croupier.service import store
from croupier.service.committer import Rows
from croupier.service.common import (
    body_digest,
    committer_of,
    crash_point,
    engine_of,
    reader_of,
    route_of,
)
from croupier.service.jsontext import dumps

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


REPLAYED = "Idempotent-Replayed"
"""The header of an answer given again under its key (``true``)."""

Shown = Callable[[Request, int, str, bool], "tuple[str, dict[str, str]]"]
"""How a route shows an answer that was not just made: ``(request, status, recorded text,
replayed)`` → ``(text, headers)``. :class:`Idempotent` calls it on every answer given again
under a key (``replayed``) and on the answers its :attr:`Write.run` decides (a round stored
already), never on the common case's fresh answer: a route whose answer shows what can change
since — a stored round's awards, validated or voided on the ledger — shows it as it is now
(docs/interpretations.md, "What a replay shows")."""

KeyRows = Callable[[int, str], Rows]
"""The rows recording a request's ``Idempotency-Key`` with the status and response text it
answers."""

Together = Callable[[KeyRows], "tuple[int, str] | None"]
"""See :attr:`Write.together`."""


@dataclass(frozen=True)
class Write:
    """The service-side effect of a request, run inside one transaction with its idempotency
    record: returns the (status, body) to answer.

    ``fast``, if given, is the common case decided without a look at the database: the
    (status, body) and the rows to insert. They are written with the idempotency record by the
    app's :class:`~croupier.service.committer.Committer` (with the rows of requests arriving
    together: one commit); a unique key taken meanwhile (the round stored already, the key
    recorded by a concurrent request) writes nothing of them, and ``run`` decides in a
    transaction of its own."""

    run: Callable[[Connection], tuple[int, Any]]
    fast: Callable[[], tuple[int, Any, Rows]] | None = None
    together: Together | None = None
    """The common case of a request that also writes the progressive ledger, tried first: the
    ledger's rows, the service's and the ``Idempotency-Key``'s record (the rows its argument
    makes of the status and the response text) committed in **one** transaction; it answers
    the (status, response text), or ``None`` when it wrote nothing — ``fast`` and ``run`` then
    decide (and must be called outside any transaction of the ledger's database)."""

    @classmethod
    def answer(cls, status: int, body: Any) -> Write:
        """The write of a request whose effect is made already (on the ledger): only its key's
        record is written, answering ``status`` and ``body``."""
        return cls(_Answer(status, body).run)


@dataclass(frozen=True)
class _Answer:
    status: int
    body: Any

    def run(self, _conn: Connection) -> tuple[int, Any]:
        return self.status, self.body


@dataclass(frozen=True)
class _Asked:
    """The request :meth:`Idempotent.replay` identified: its route, key, body digest, member."""

    route: str
    key: str
    digest: str
    actor: str
    shown: Shown | None


_INSERT_KEY = sa.insert(store.idempotency)


class Idempotent:
    """A request that changes money or configuration, answered once per member and
    ``Idempotency-Key`` (a route's dependency: :data:`croupier.service.dependencies.Once`).

    A route calls :meth:`replay` first — the key is required
    (:class:`IdempotencyKeyError`, 400, without one); ``authorize`` — the role check of an
    operation the ledger authorizes from its own log (validating an award, configuration) — runs
    next, so a member who may not make the request is refused before anything stored is looked
    at; a key the member already used for this request answers that response again (header
    ``Idempotent-Replayed: true``), for another request it is a 409 problem. Otherwise the route
    makes its effect (its ledger writes, if any, in the ledger's own idempotent transactions) and
    hands its :class:`Write` to :meth:`commit`, which runs it in one service transaction with the
    key's record. A concurrent request of the member's that recorded the same key first wins: its
    answer is given."""

    def __init__(self, request: Request, key: str | None) -> None:
        self.request = request
        self.key = key
        self._asked: _Asked | None = None

    def replay(
        self,
        body: Any,
        actor: str,
        *,
        authorize: Callable[[], object] | None = None,
        shown: Shown | None = None,
    ) -> Response | None:
        """The answer member ``actor`` was given for this request (``body``: what identifies it
        besides its route) under its key, or ``None`` when the key is new to them (see the
        class). ``shown`` (:data:`Shown`) shows an answer given again, and one
        :attr:`Write.run` decides, as it is now (the recorded text stays the record of what was
        answered first)."""
        route = route_of(self.request)
        key = check_key(self.key, route)
        if authorize is not None:
            authorize()
        asked = self._asked = _Asked(route, key, body_digest(body), actor, shown)
        stored = lookup(reader_of(self.request), actor, key, route, asked.digest)
        return None if stored is None else self._respond(stored, True)

    def answer(self, status: int, body: Any) -> Response:
        """:meth:`commit` of :meth:`Write.answer`: the effect is made, only the key recorded."""
        return self.commit(Write.answer(status, body))

    def commit(self, write: Write) -> Response:
        """Run ``write`` with the key's record (after :meth:`replay` found none): ``together``,
        then ``fast``, then ``run`` in a transaction of its own, retried on a conflict."""
        request, asked = self.request, self._asked
        if asked is None:  # pragma: no cover - a route's mistake
            raise RuntimeError("Idempotent.commit before Idempotent.replay")
        crash_point(request, "after-effect")
        if write.together is not None:
            done = write.together(self._key_rows)
            if done is not None:
                crash_point(request, "after-commit")
                return Response(done[1].encode(), done[0], media_type="application/json")
            stored = self._lookup()
            if stored is not None:  # a concurrent request of the member's under the key won
                return self._respond(stored, True)
        if write.fast is not None:
            status, answer, rows = write.fast()
            text = dumps(answer)
            if committer_of(request).write([*rows, *self._key_rows(status, text)]):
                crash_point(request, "after-commit")
                return Response(text.encode(), status, media_type="application/json")
        return self._run(write)

    def _run(self, write: Write) -> Response:
        request, asked = self.request, self._asked
        assert asked is not None
        for attempt in range(3):
            try:
                with engine_of(request).begin() as conn:
                    status, answer = write.run(conn)
                    text = dumps(answer)
                    record(conn, asked.key, asked.route, asked.digest, status, text, asked.actor)
                    crash_point(request, "service-before-commit")
                crash_point(request, "after-commit")
                return self._respond(Stored(status, text), False)
            except IntegrityError:
                stored = self._lookup()
                if stored is not None:
                    return self._respond(stored, True)
                if attempt == 2:
                    raise LedgerError(
                        "the request conflicted with concurrent ones three times; nothing "
                        "changed: retry it"
                    ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _key_rows(self, status: int, text: str) -> Rows:
        a = self._asked
        assert a is not None
        return [(_INSERT_KEY, row(a.key, a.route, a.digest, status, text, a.actor))]

    def _lookup(self) -> Stored | None:
        a = self._asked
        assert a is not None
        return lookup(engine_of(self.request), a.actor, a.key, a.route, a.digest)

    def _respond(self, stored: Stored, replayed: bool) -> Response:
        text, headers = stored.body, {REPLAYED: "true"} if replayed else {}
        shown = self._asked.shown if self._asked is not None else None
        if shown is not None:
            text, more = shown(self.request, stored.status, text, replayed)
            headers.update(more)
        return Response(
            text.encode(), stored.status, headers=headers, media_type="application/json"
        )


__all__ = [
    "HEADER",
    "REPLAYED",
    "Idempotent",
    "KeyRows",
    "Shown",
    "Stored",
    "Together",
    "Write",
    "check_key",
    "lookup",
    "record",
    "row",
]
