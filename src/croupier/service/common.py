"""What the routes share: the app's ledger and engine, the idempotent write of a money-changing
request, JSON bodies with their digest."""

from __future__ import annotations

import hashlib
import json
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlencode

import sqlalchemy as sa
from fastapi import Header, Path, Request
from fastapi.responses import Response
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from croupier.errors import LedgerError
from croupier.progressive import Ledger
from croupier.service import idempotency, store
from croupier.service.committer import Committer, Rows
from croupier.service.jsontext import dumps

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias=idempotency.HEADER,
        description="Required: a key of the client's choosing (e.g. a UUID) for this request, "
        f"1–{idempotency.MAX_KEY} printable ASCII characters: a retry with the same key and body "
        "answers the first response and changes nothing; the same key with another body is a "
        "409 problem; none is a 400 problem. A key is the member's own: another member's use "
        "of the same key is another request.",
    ),
]
"""The header of every request that changes money or configuration: optional to FastAPI so that
its absence is the service's own 400 problem (:func:`idempotent`), marked required in the
OpenAPI document (:mod:`croupier.service.openapi`)."""

REPLAYED = "Idempotent-Replayed"

Shown = Callable[[int, str, bool], "tuple[str, dict[str, str]]"]
"""How a route shows an answer that was not just made: ``(status, recorded text, replayed)`` →
``(text, headers)``. :func:`idempotent` calls it on every answer given again under a key
(``replayed``) and on the answers its :attr:`Write.run` decides (a round stored already), never
on the common case's fresh answer: a route whose answer shows what can change since — a stored
round's awards, validated or voided on the ledger — shows it as it is now (docs/interpretations.md,
"What a replay shows")."""

MAX_STORED_INT = 2**63 - 1
"""The largest integer the databases store (SQLite's INTEGER, PostgreSQL's BIGINT: signed 64
bits). Every integer a route takes — in its path, its query or its body — is bounded by it or
less, so a larger one is a 422 problem naming the parameter, not a 500 from the driver."""

AwardId = Annotated[
    int, Path(ge=1, le=MAX_STORED_INT, description="The award's id (as GET /awards lists it).")
]


def ledger_of(request: Request) -> Ledger:
    """The ledger the app serves."""
    ledger: Ledger = request.app.state.ledger
    return ledger


def engine_of(request: Request) -> Engine:
    """The database engine (the ledger's: the service's tables live beside the ledger's)."""
    return ledger_of(request).engine


def reader_of(request: Request) -> Engine:
    """The engine for reads that take no lock (:func:`croupier.service.store.reader`)."""
    ro: Engine = request.app.state.reader
    return ro


ENV_CRASH_AT = "CROUPIER_SERVICE_CRASH_AT"
"""Crash-injection for tests: the server SIGKILLs itself at the named stage — one of the ledger's
fault stages (``contributions``, ``awards``, ``before-commit``, …) or the service's
``after-effect`` (the request checked and replayed, nothing written yet), ``after-ledger`` (a
round fed step by step — to several progressives, or one the common case does not cover: the
ledger committed, the service's transaction not begun) and ``service-before-commit`` (the
service's rows written, not committed: with the ledger's rows in the common case of one
progressive) and ``after-commit`` (the request's rows and its key's record committed, the answer
not sent). A decision on an award (``POST /awards/{id}/validate``, ``/void``) writes nothing
before its ledger transaction (``after-effect``), then dies in it at the ledger's ``validation``
or ``void`` (its first event staged) and ``validation-commit`` or ``void-commit`` (every row,
the key's record included, staged)."""


def crash_point(request: Request, stage: str) -> None:
    """SIGKILL this process if ``$CROUPIER_SERVICE_CRASH_AT`` names ``stage`` (tests only)."""
    if request.app.state.crash_at == stage:
        kill_now()


def kill_now() -> None:
    """Die at once, as a power cut would (no cleanup, no commit)."""
    os.kill(os.getpid(), signal.SIGKILL)


def body_digest(data: Any) -> str:
    """SHA-256 (hex) of a request body as canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def route_of(request: Request) -> str:
    """``METHOD /path?query``: what, besides its body, identifies a request."""
    items = sorted(request.query_params.multi_items())  # the order of the parameters is no matter
    q = urlencode(items)
    return f"{request.method} {request.url.path}" + (f"?{q}" if q else "")


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


_INSERT_KEY = sa.insert(store.idempotency)


def committer_of(request: Request) -> Committer:
    """The app's group committer (:mod:`croupier.service.committer`)."""
    c: Committer = request.app.state.committer
    return c


def _json(text: str, status: int, headers: dict[str, str]) -> Response:
    return Response(text.encode(), status, headers=headers, media_type="application/json")


def idempotent(
    request: Request,
    key: str | None,
    body: Any,
    actor: str,
    effect: Callable[[], Write],
    authorize: Callable[[], object] | None = None,
    shown: Shown | None = None,
) -> Response:
    """Answer a request that changes money or configuration once per member ``actor`` and
    ``Idempotency-Key``.

    The key is required (:class:`~croupier.errors.IdempotencyKeyError`, 400, without one);
    ``authorize()`` — the role check of an operation the ledger authorizes from its own log
    (validating an award, configuration) — runs next, so a member who may not make the request
    is refused before anything stored is looked at. A key the member already used for this
    request answers that response again (header ``Idempotent-Replayed: true``); for another
    request it is a 409 problem. Otherwise ``effect()`` is computed (its ledger writes, if any,
    in the ledger's own idempotent transactions) and its :class:`Write` runs in one service
    transaction with the key's record. A concurrent request of the member's that recorded the
    same key first wins: its answer is given.

    ``shown`` (:data:`Shown`) shows an answer given again, and one ``run`` decided, as it is now
    (the recorded text stays the record of what was answered first).
    """

    def respond(status: int, text: str, replayed: bool) -> Response:
        headers = {REPLAYED: "true"} if replayed else {}
        if shown is not None:
            text, more = shown(status, text, replayed)
            headers.update(more)
        return _json(text, status, headers)

    route = route_of(request)
    k = idempotency.check_key(key, route)
    if authorize is not None:
        authorize()
    digest = body_digest(body)
    engine = engine_of(request)
    stored = idempotency.lookup(reader_of(request), actor, k, route, digest)
    if stored is not None:
        return respond(stored.status, stored.body, True)
    write = effect()
    crash_point(request, "after-effect")
    if write.together is not None:

        def key_rows(status: int, text: str) -> Rows:
            return [(_INSERT_KEY, idempotency.row(k, route, digest, status, text, actor))]

        done = write.together(key_rows)
        if done is not None:
            crash_point(request, "after-commit")
            return Response(done[1].encode(), done[0], media_type="application/json")
        stored = idempotency.lookup(engine, actor, k, route, digest)
        if stored is not None:  # a concurrent request of the member's under the key won
            return respond(stored.status, stored.body, True)
    if write.fast is not None:
        status, answer, rows = write.fast()
        text = dumps(answer)
        rows = [*rows, (_INSERT_KEY, idempotency.row(k, route, digest, status, text, actor))]
        if committer_of(request).write(rows):
            crash_point(request, "after-commit")
            return Response(text.encode(), status, media_type="application/json")
    for attempt in range(3):
        try:
            with engine.begin() as conn:
                status, answer = write.run(conn)
                text = dumps(answer)
                idempotency.record(conn, k, route, digest, status, text, actor)
                crash_point(request, "service-before-commit")
            crash_point(request, "after-commit")
            return respond(status, text, False)
        except IntegrityError:
            stored = idempotency.lookup(engine, actor, k, route, digest)
            if stored is not None:
                return respond(stored.status, stored.body, True)
            if attempt == 2:
                raise LedgerError(
                    "the request conflicted with concurrent ones three times; nothing changed: "
                    "retry it"
                ) from None
    raise AssertionError("unreachable")  # pragma: no cover


__all__ = [
    "MAX_STORED_INT",
    "AwardId",
    "IdempotencyKey",
    "KeyRows",
    "Rows",
    "Shown",
    "Together",
    "Write",
    "body_digest",
    "committer_of",
    "dumps",
    "engine_of",
    "idempotent",
    "ledger_of",
    "reader_of",
]
