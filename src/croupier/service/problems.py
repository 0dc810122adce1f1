"""Errors as RFC 9457 problem details (``application/problem+json``).

Every rejection the service gives is one problem object::

    {"type": "/problems/AuthorizationError",
     "title": "AuthorizationError", "status": 403,
     "detail": "dana is a dealer; validating a progressive payout needs a floorperson or above
                (58 Pa. Code § 633b.2(h)(3))",
     "instance": "/progressives/awards/3/validate",
     "error_type": "AuthorizationError", "section": "633b.2(h)(3)"}

``type`` is a relative reference: ``GET /problems/AuthorizationError`` on the service says what
the type means. ``error_type`` is the croupier error's class (:mod:`croupier.errors`), ``section`` the rule it
cites (or ``null``), ``detail`` its one-line message; a Rules Submission's ``violations`` are
listed too. The HTTP status follows the kind of error (:func:`status_of`). Nothing else reaches a
client: an unexpected exception is a 500 problem without its traceback.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from typing import Any

from fastapi import FastAPI, Request, params
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from croupier.errors import (
    AuthenticationError,
    AuthorizationError,
    CroupierError,
    IdempotencyConflictError,
    LedgerError,
    LedgerHaltedError,
    LedgerIntegrityError,
    LedgerKeyError,
    LedgerLookupError,
    LoginLockedError,
    RoundStateError,
    UnknownPaytableError,
    UnknownWagerError,
    error_section,
    limit_of,
    one_line,
)
from croupier.operations.schemas.problems import ProblemType
from croupier.progressive.store import (
    DatabaseRefusedError,
    LedgerDatabaseError,
    LedgerFileError,
    retry_cures,
)
from croupier.service.idempotency import IdempotencyKeyError
from croupier.service.routes import api_routes
from croupier.table.steps import step_errors

PROBLEM_BASE = "/problems/"
"""Where a problem's ``type`` is described: a relative reference (RFC 9457 § 3.1.1), resolved
against the request's own address — ``GET /problems/{type}`` on the same service answers what
the type means (:func:`describe`)."""

SERVICE_KINDS: dict[str, tuple[int, str]] = {
    "InputError": (422, "The request is not one the route takes (its fields, types or shape)."),
    "NotJSON": (400, "The request body is not JSON (RFC 8259, UTF-8): it does not parse."),
    "UnsupportedMediaType": (415, "The body was sent as another media type than the route reads."),
    "RequestTooLarge": (413, "The request body is larger than the service takes."),
    "NotFound": (404, "Nothing is served at that address."),
    "MethodNotAllowed": (405, "The address does not take that method."),
    "ServiceUnavailable": (503, "The service is stopping, or cannot take the request now."),
    "InternalError": (500, "The service failed; its log says why. A fault of the service, "
                      "not of the request, and not one a retry cures: report it."),
    "HTTPError": (400, "An HTTP error the service names no other way."),
}  # fmt: skip
"""The problem types the service makes itself (not a croupier error class): status, meaning."""


def describe(kind: str) -> dict[str, Any] | None:
    """What problem type ``kind`` means — ``{"type", "title", "status", "description"}`` — for a
    croupier error class (:mod:`croupier.errors`, its docstring) or a kind the service makes
    itself (:data:`SERVICE_KINDS`); ``None`` for no such type."""
    import croupier.errors as errors
    import croupier.progressive.store as pstore
    import croupier.service.idempotency as idem

    found = next(
        (
            c
            for m in (errors, pstore, idem)
            if isinstance(c := getattr(m, kind, None), type) and issubclass(c, CroupierError)
        ),
        None,
    )
    if found is not None:
        doc = " ".join((found.__doc__ or "").split(">>>", 1)[0].split())  # no doctest
        doc = re.sub(r":\w+:`~?(?:[\w.]+\.)?([^`.]+)`", r"\1", doc).replace("``", "")
        return {
            "type": f"{PROBLEM_BASE}{kind}",
            "title": kind,
            "status": status_of_type(found),
            "description": doc,
        }
    if kind in SERVICE_KINDS:
        status, meaning = SERVICE_KINDS[kind]
        return {
            "type": f"{PROBLEM_BASE}{kind}",
            "title": kind,
            "status": status,
            "description": meaning,
        }
    return None


MEDIA_TYPE = "application/problem+json"

log = logging.getLogger("croupier.service")


class ServiceProblem(Exception):
    """A rejection made by the service itself (not a croupier rule): a status, a type name, a
    one-line detail and, where a rule binds, its section."""

    def __init__(
        self, status: int, kind: str, detail: str, section: str | None = None, **extra: Any
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.kind = kind
        self.detail = one_line(detail)
        self.section = section
        self.extra = extra


def status_of(exc: CroupierError) -> int:
    """The HTTP status of a croupier error (:func:`status_of_type` of its class)."""
    return status_of_type(type(exc))


def status_of_type(kind: type[CroupierError]) -> int:
    """The HTTP status of a croupier error class: 400 a request without the ``Idempotency-Key`` it
    needs (draft-ietf-httpapi-idempotency-key-header), 429 logins refused for a while after too
    many failed ones (with ``Retry-After``), 401 unauthenticated, 403 a role below the
    rule's, 404 nothing by that name, 409 a conflict with what is recorded (idempotency, a round
    or award already settled, a name taken), 500 the ledger's integrity, key or files
    (:class:`~croupier.progressive.store.LedgerFileError`), or a database
    that refused what it would refuse again (:class:`DatabaseRefusedError`: a value beyond a
    column, a constraint), 503 a controller halted for an integrity fault
    (:class:`LedgerHaltedError`, without ``Retry-After``: an operator must act) and a database
    that cannot be used now — only a fault a retry can cure
    (:func:`~croupier.progressive.store.retry_cures`: the connection lost, a lock or a
    serialization failure) —, 422 every other rejection (bad input, a rule of the regulation)."""
    if issubclass(kind, IdempotencyKeyError):
        return 400
    if issubclass(kind, LoginLockedError):
        return 429
    if issubclass(kind, AuthenticationError):
        return 401
    if issubclass(kind, AuthorizationError):
        return 403
    if issubclass(kind, LedgerLookupError | UnknownWagerError | UnknownPaytableError):
        return 404
    if issubclass(kind, IdempotencyConflictError | RoundStateError):
        return 409
    if issubclass(kind, LedgerHaltedError):
        return 503
    if issubclass(
        kind, LedgerIntegrityError | LedgerKeyError | DatabaseRefusedError | LedgerFileError
    ):
        return 500
    if issubclass(kind, LedgerDatabaseError):
        return 503
    if issubclass(kind, LedgerError):
        return 409
    return 422


def allowed_methods(request: Request, given: str | None) -> str:
    """The ``Allow`` header of a 405 on ``request``'s path: the methods of every API route whose
    path template matches it (Starlette's names the first such route's only: ``GET`` for
    ``/tables/BJ-1``, whose ``DELETE`` is another route), else ``given``."""
    path = request.url.path
    methods = {
        m
        for template, ms, _ in api_routes(request.app)
        if _template_pattern(template).fullmatch(path)
        for m in ms
    }
    return ", ".join(sorted(methods)) if methods else (given or "")


@cache
def _template_pattern(template: str) -> re.Pattern[str]:
    """A route's path template as a pattern: ``/tables/{table}`` matches ``/tables/BJ-1``."""
    parts = re.split(r"\{[^}]+\}", template)
    return re.compile("[^/]+".join(re.escape(part) for part in parts))


def problem(
    status: int,
    kind: str,
    detail: str,
    instance: str,
    section: str | None = None,
    **extra: Any,
) -> JSONResponse:
    """A problem+json response."""
    body: dict[str, Any] = {
        "type": f"{PROBLEM_BASE}{kind}",
        "title": kind,
        "status": status,
        "detail": one_line(detail),
        "instance": instance,
        "error_type": kind,
        "section": section,
        **extra,
    }
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def croupier_problem(exc: CroupierError, instance: str) -> JSONResponse:
    """The problem for a croupier error (its notes — e.g. the round step — prefixed): its
    one-line text cites its rules as the error was built (:func:`croupier.errors.cite`, a rule
    of 58 Pa. Code first), word for word as the CLI's ``error:`` line."""
    notes = "".join(f"{one_line(str(n))}: " for n in getattr(exc, "__notes__", ()))
    extra: dict[str, Any] = {}
    violations = getattr(exc, "violations", None)
    if violations:
        extra["violations"] = [{"message": m, "section": s} for m, s in violations]
    where = getattr(exc, "pointer", None)  # a string that is not text (UnicodeTextError)
    if isinstance(where, str):
        extra["pointer"] = where
    limit = limit_of(exc)  # an amount over the largest (AmountLimitError), however wrapped
    if limit is not None:
        extra["maximum"] = limit
    section = error_section(exc)
    said = exc.public if isinstance(exc, LedgerHaltedError) else str(exc)  # no server path
    return problem(
        status_of(exc),
        type(exc).__name__,
        f"{notes}{said}",
        instance,
        section,
        **extra,
    )


FORM = "application/x-www-form-urlencoded"

UNSUPPORTED = "UnsupportedMediaType"
"""The problem type of a body sent as another media type than the route reads (415)."""


def form_media_refusal(where: str, fields: list[str], kind: str) -> str:
    """The 415 problem's detail for a body of media type ``kind`` sent to ``where`` (``"POST
    /token"``), which reads the form ``fields``."""
    names = " and ".join(fields) or "its fields"
    return (
        f"{where} reads form fields ({names}), as OAuth2's password grant: send them with "
        f"Content-Type: {FORM} (username=…&password=…), not {one_line(kind)[:80]}"
    )


NOT_JSON = "NotJSON"
"""The problem type of a body sent as JSON that is not JSON at all (400)."""


def not_json_refusal(reason: str) -> str:
    """The 400 problem's detail for a body sent as JSON that does not parse (``reason``)."""
    return f"the request body is not JSON (RFC 8259): {one_line(reason)[:200]}"


def json_media_refusal(kind: str) -> str:
    """The 415 problem's detail for a body of media type ``kind`` sent where JSON is read."""
    return (
        "the request body is read as JSON: send it with Content-Type: application/json, "
        f"not {one_line(kind)[:80]}"
    )


def _form_body(request: Request) -> Any:
    """The form model of ``request``'s route (``POST /token``'s), or ``None``."""
    route = request.scope.get("route")
    field = getattr(route, "body_field", None) if isinstance(route, APIRoute) else None
    if field is None or not isinstance(field.field_info, params.Form):
        return None
    return field


def _reads_form(request: Request) -> bool:
    """Whether ``request``'s route reads its body as form fields."""
    return _form_body(request) is not None


def _form_fields(request: Request) -> list[str]:
    """The form fields ``request``'s route requires (``username``, ``password``)."""
    field = _form_body(request)
    model = field.field_info.annotation if field is not None else None
    fields = getattr(model, "model_fields", {})
    return [name for name, f in fields.items() if f.is_required()]


_NOT_AN_OBJECT = {"dict_type", "model_attributes_type", "missing"}


def _not_parsed(error: Any, request: Request) -> bool:
    """Whether ``error`` (pydantic's, of a body sent as JSON) says the body is not JSON at all:
    it does not parse, or it is empty where the route reads a body."""
    if error.get("type") == "json_invalid":
        return True
    route = request.scope.get("route")
    reads = isinstance(route, APIRoute) and route.body_field is not None
    return reads and tuple(error.get("loc", ())) == ("body",) and error.get("type") == "missing"


"""Pydantic's error types for a body that did not arrive as a JSON object."""


def install(app: FastAPI) -> None:
    """Register the handlers that turn every exception into a problem, and serve what each
    problem type means (``GET /problems/{kind}``)."""

    @app.get("/problems/{kind}", response_model=ProblemType, summary="What a problem type means")
    def problem_type(kind: str) -> dict[str, Any]:
        """A problem's ``type`` resolved: its name, the HTTP status it comes with and what it
        means (a croupier error's docstring, :mod:`croupier.errors`). Open to anyone."""
        found = describe(kind)
        if found is None:
            raise ServiceProblem(
                404, "NotFound", f"no problem type {one_line(kind)[:100]!r}: the type of a "
                "problem the service answers is its error_type"
            )  # fmt: skip
        return found

    @app.exception_handler(CroupierError)
    async def _croupier(request: Request, exc: CroupierError) -> JSONResponse:
        return croupier_problem(exc, request.url.path)

    @app.exception_handler(ServiceProblem)
    async def _service(request: Request, exc: ServiceProblem) -> JSONResponse:
        return problem(exc.status, exc.kind, exc.detail, request.url.path, exc.section, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        kind = request.headers.get("content-type") or "none"
        if _reads_form(request) and FORM not in kind and "multipart/form-data" not in kind:
            where = f"{request.method} {request.url.path}"
            return problem(
                415,
                UNSUPPORTED,
                form_media_refusal(where, _form_fields(request), kind),
                request.url.path,
            )
        if "json" in kind and any(_not_parsed(e, request) for e in exc.errors()):
            reason = "it is empty" if not await request.body() else "it does not parse"
            return problem(400, NOT_JSON, not_json_refusal(reason), request.url.path)
        if "json" not in kind and any(
            tuple(e.get("loc", ())) == ("body",)
            and e.get("type") in _NOT_AN_OBJECT
            and (e.get("type") != "missing" or "content-type" in request.headers)
            for e in exc.errors()
        ):
            return problem(415, UNSUPPORTED, json_media_refusal(kind), request.url.path)
        errors = [  # a step's action model left out, its fields refused in one line
            {"where": ".".join(map(str, loc)), "message": msg}
            for loc, msg in step_errors(exc.errors())[:10]
        ]
        first = "; ".join(f"{e['where']}: {e['message']}" for e in errors[:3])
        return problem(
            422, "InputError", f"not a valid request: {first}", request.url.path, errors=errors
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kinds = {
            401: "AuthenticationError",
            404: "NotFound",
            405: "MethodNotAllowed",
            413: "RequestTooLarge",
        }
        response = problem(
            exc.status_code,
            kinds.get(exc.status_code, "HTTPError"),
            str(exc.detail),
            request.url.path,
        )
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # RFC 9110 § 15.5.6: Allow, every method the path takes
            response.headers["Allow"] = allowed_methods(request, response.headers.get("Allow"))
        return response

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        return failure_problem(exc, request.url.path)


def failure_problem(exc: BaseException, instance: str) -> JSONResponse:
    """The problem for an exception no handler expected, logged with its traceback: a 503
    ``ServiceUnavailable`` when it is a database failure a retry can cure
    (:func:`~croupier.progressive.store.retry_cures`: the connection lost, a lock not had in
    time, a serialization failure — nothing was committed), else a 500 ``InternalError``, which
    never invites a retry: the same request would fail the same way."""
    log.error("unexpected error on %s", instance, exc_info=exc)
    if retry_cures(exc):
        return problem(
            503,
            "ServiceUnavailable",
            "the database could not take the request now (see the service's log): send it "
            "again under the same Idempotency-Key, which never applies a request twice",
            instance,
        )
    detail = (
        "the service failed (see its log): a fault of the service, not of the request; report it"
    )
    return problem(500, "InternalError", detail, instance)
