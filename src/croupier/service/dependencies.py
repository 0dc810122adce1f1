"""The routes' dependencies, in one place (FastAPI's *Bigger Applications* layout): who asks,
what they act on, and the ``Idempotency-Key`` of a request that changes money or configuration.

* **Who asks** — :func:`require` (a role or above, or for a read one that reads what that role
  reads), :func:`report_reader` (a financial report's readers) and :func:`signed_in` (any
  member): each a dependency answering the authenticated :class:`~croupier.progressive.StaffMember`
  from the bearer token (:mod:`croupier.service.auth`), decided before the route looks anything
  up. :data:`REQUIREMENTS` and :data:`EVERY_ROLE` tell the OpenAPI document each route's 401
  and 403 problems.
* **What they act on** — :data:`LedgerDep` (the progressive ledger the app serves),
  :data:`ReaderDep` (the engine of reads that take no lock) and :data:`EngineDep`.
* **Idempotency** — :data:`Once`: the request's :class:`~croupier.service.idempotency.Idempotent`,
  made of the ``Idempotency-Key`` header (:data:`IdempotencyKey`). A route asks it for the
  stored answer, makes its effect, and has it record the answer with the key::

      if (replayed := once.replay(body, member.name)) is not None:
          return replayed
      ...  # the effect
      return once.answer(201, document)

Every dependency here is ``async`` and does no I/O of its own but the token check (a signature
remembered, one indexed read): it runs on the event loop, not a trip to the thread pool.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from fastapi.security import OAuth2PasswordBearer
from sqlalchemy import Engine

from croupier.errors import AuthenticationError, AuthorizationError
from croupier.operations.progressives import REPORT_READER
from croupier.progressive import Ledger, Role, StaffMember
from croupier.service import idempotency
from croupier.service.auth import check_token
from croupier.service.common import engine_of, ledger_of, reader_of
from croupier.service.idempotency import Idempotent

_READS = frozenset({"GET", "HEAD"})

oauth2 = OAuth2PasswordBearer(tokenUrl="token", auto_error=False)
"""The bearer token of ``Authorization`` (none: the route's own 401 problem)."""


REQUIREMENTS: dict[Callable[..., Awaitable[StaffMember]], tuple[Role, str, str, str | None]] = {}
"""Each :func:`require` dependency's (role, section, what, also): what the OpenAPI document says
a route's 401 and 403 problems are (:mod:`croupier.service.openapi`)."""


def _token_of(request: Request, token: str | None, what: str) -> StaffMember:
    if not token:
        raise AuthenticationError(f"{what} needs a staff member's token: log in with POST /token")
    return check_token(request.app.state.ledger, token)


def require(
    role: Role, section: str, what: str, *, also: str | None = None
) -> Callable[..., Awaitable[StaffMember]]:
    """A dependency: the authenticated member, if their role is ``role`` or above — or, for a
    read (``GET``), one that reads what a ``role`` reads (:meth:`Role.may_read`)
    (:class:`AuthorizationError` citing ``section``, and ``also`` — another rule the choice
    follows — after it, otherwise; :class:`AuthenticationError` without a valid token, or with
    a revoked one). Decided before the route looks anything up: a member refused is refused
    alike whatever the path names."""

    # async: a signature check remembered and one indexed read — on the event loop, not a trip
    # to the thread pool
    async def dependency(
        request: Request, token: Annotated[str | None, Depends(oauth2)]
    ) -> StaffMember:
        member = _token_of(request, token, what)
        r = member.role
        if request.method in _READS and r.may_read(role):
            return member
        if not r.at_least(role):
            only = " (a role that reads and changes nothing)" if r.read_only else ""
            who = role.who_may(reading=request.method in _READS)  # who reads it, if a read
            raise AuthorizationError(
                f"{member.name} is {r.said}{only}; {what} needs {who}", section=section, also=also
            )
        return member

    REQUIREMENTS[dependency] = (role, section, what, also)
    return dependency


REPORTS = REPORT_READER
"""Who reads a financial report or export (the reconciliation, the hold report, the handle and
hold summary): a pit manager or above in the pit, accounting and an auditor
(docs/interpretations.md, *Who reads the money*)."""


def report_reader(what: str) -> Callable[..., Awaitable[StaffMember]]:
    """The dependency of a financial report's route (:data:`REPORTS`; § 605a.7's internal
    controls)."""
    return require(REPORTS, "605a.7", what)


EVERY_ROLE: set[Callable[..., Any]] = set()
"""The dependencies that take a member of any role, the ones that only read included
(:func:`signed_in`): their routes answer no 403."""


def signed_in(what: str) -> Callable[..., Awaitable[StaffMember]]:
    """A dependency: the authenticated member, whatever their role (:class:`AuthenticationError`
    naming ``what`` without a valid token) — for what a member does for themselves: their own
    logout, their own credential."""

    async def dependency(
        request: Request, token: Annotated[str | None, Depends(oauth2)]
    ) -> StaffMember:
        return _token_of(request, token, what)

    REQUIREMENTS[dependency] = (Role.DEALER, "605a.7", what, None)
    EVERY_ROLE.add(dependency)  # no 403 to document
    return dependency


async def _ledger(request: Request) -> Ledger:
    return ledger_of(request)


async def _reader(request: Request) -> Engine:
    return reader_of(request)


async def _engine(request: Request) -> Engine:
    return engine_of(request)


LedgerDep = Annotated[Ledger, Depends(_ledger)]
"""The progressive ledger the app serves (opened at start-up)."""
ReaderDep = Annotated[Engine, Depends(_reader)]
"""The engine for reads that take no lock (:func:`croupier.service.store.reader`)."""
EngineDep = Annotated[Engine, Depends(_engine)]
"""The database engine (the ledger's: the service's tables live beside the ledger's)."""


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
its absence is the service's own 400 problem (:meth:`~croupier.service.idempotency.Idempotent.
replay`), marked required in the OpenAPI document (:mod:`croupier.service.openapi`)."""


async def _idempotent(request: Request, key: IdempotencyKey = None) -> Idempotent:
    return Idempotent(request, key)


Once = Annotated[Idempotent, Depends(_idempotent)]
"""A request that changes money or configuration, answered once per member and key
(:class:`~croupier.service.idempotency.Idempotent`). The key is checked when the route asks for
the stored answer, not here: a body FastAPI refuses is its 422 whether a key came or not."""


__all__ = [
    "EVERY_ROLE",
    "REPORTS",
    "REQUIREMENTS",
    "EngineDep",
    "IdempotencyKey",
    "LedgerDep",
    "Once",
    "ReaderDep",
    "oauth2",
    "report_reader",
    "require",
    "signed_in",
]
