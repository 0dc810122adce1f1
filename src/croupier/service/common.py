"""What the routes share: the app's ledger, engines and committer (its state; the routes take
them as the dependencies of :mod:`croupier.service.dependencies`), the crash points tests inject,
what identifies a request (its route, its body's digest) and the bounds of a stored integer."""

from __future__ import annotations

import hashlib
import json
import os
import signal
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import Path, Request
from sqlalchemy import Engine

from croupier.progressive import Ledger
from croupier.service.committer import Committer

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


def committer_of(request: Request) -> Committer:
    """The app's group committer (:mod:`croupier.service.committer`)."""
    c: Committer = request.app.state.committer
    return c


__all__ = [
    "ENV_CRASH_AT",
    "MAX_STORED_INT",
    "AwardId",
    "body_digest",
    "committer_of",
    "crash_point",
    "engine_of",
    "kill_now",
    "ledger_of",
    "reader_of",
    "route_of",
]
