"""The FastAPI application of ``croupier serve``: :func:`create_app`.

Configuration (:class:`ServiceConfig`, or the environment for :func:`app_from_env`, which each
uvicorn worker calls): the database (``$CROUPIER_DB``; default the SQLite file the CLI's ledger
uses, :func:`croupier.progressive.default_url`), the origins CORS allows
(``$CROUPIER_CORS_ORIGINS``, comma-separated; none by default: CORS closed), the largest request
body (``$CROUPIER_MAX_BODY``, bytes; 1 MiB) and how long a token lives
(``$CROUPIER_TOKEN_TTL``, seconds; 8 hours); simulation jobs run in at most
``$CROUPIER_JOB_PROCESSES`` processes per server process (1), with ``$CROUPIER_JOB_QUEUE`` more
waiting (8) (:mod:`croupier.service.job_runner`).

On start the ledger is opened — created and migrated if need be, as ``croupier meters
bootstrap`` would (no staff is made: there is no default password) — and the service's own tables
are migrated (:mod:`croupier.service.store`). ``/`` serves the web page (:mod:`croupier.service.web`).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import orjson
from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import RedirectResponse
from starlette.routing import Match

import croupier
from croupier.environment import env_int
from croupier.errors import CroupierError, InputError
from croupier.inputs import MAX_NESTING, parse_json
from croupier.progressive import Ledger, default_url
from croupier.service import openapi, store, streaming, text, web
from croupier.service.committer import Committer
from croupier.service.common import ENV_CRASH_AT, kill_now
from croupier.service.forwarded import TrustedProxies
from croupier.service.job_runner import JobRunner
from croupier.service.operation_ids import operation_id
from croupier.service.problems import (
    NOT_JSON,
    croupier_problem,
    failure_problem,
    install,
    not_json_refusal,
    problem,
)
from croupier.service.query import known_query
from croupier.service.routes import (
    blackjack,
    checkpoints,
    docs,
    eor,
    events,
    liability,
    progressive_config,
    progressives,
    reading,
    rounds,
    simulations,
    staff,
    tables,
    token,
)
from croupier.service.versioning import HEADER as VERSION_HEADER
from croupier.service.versioning import VersionHeader

ENV_CORS = "CROUPIER_CORS_ORIGINS"
ENV_MAX_BODY = "CROUPIER_MAX_BODY"
ENV_TOKEN_TTL = "CROUPIER_TOKEN_TTL"
ENV_SWITCH_INTERVAL = "CROUPIER_SWITCH_INTERVAL"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class ServiceConfig:
    """What a server needs to know."""

    db: str | None = None
    """The database URL (``None``: the ledger's SQLite file under the data directory)."""
    cors_origins: tuple[str, ...] = ()
    """The origins CORS allows (none: CORS closed)."""
    max_body: int = 1 << 20
    """The largest request body, bytes."""
    token_ttl: int = 8 * 3600
    """How long a token lives, seconds."""
    freeze_startup: bool = False
    """Whether the objects made while starting (the application, its schemas, the paytables,
    the ledger's tables and caches) are moved out of the garbage collector's reach once started
    (``gc.freeze``): they live as long as the process, and a full collection walking them —
    hundreds of thousands of objects — was a pause of its own in a request's time. A server
    process sets it (:func:`app_from_env`); an application made in a test's process does not."""
    trusted_proxies: TrustedProxies = field(default_factory=TrustedProxies)
    """The reverse proxies whose forwarded header gives the client address (none: the peer is
    the client; :mod:`croupier.service.forwarded`)."""
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> ServiceConfig:
        """From ``$CROUPIER_DB``, ``$CROUPIER_CORS_ORIGINS``, ``$CROUPIER_MAX_BODY`` (bytes),
        ``$CROUPIER_TOKEN_TTL`` (seconds), ``$CROUPIER_TRUSTED_PROXIES`` and
        ``$CROUPIER_FORWARDED_HEADER``; :class:`~croupier.errors.InputError` for a size or a
        time that is not a whole number in its range, or a proxy that is no address."""
        origins = tuple(o.strip() for o in os.environ.get(ENV_CORS, "").split(",") if o.strip())
        return cls(
            db=os.environ.get("CROUPIER_DB") or None,
            cors_origins=origins,
            max_body=env_int(ENV_MAX_BODY, cls.max_body, 1, 1 << 30, "bytes"),
            token_ttl=env_int(ENV_TOKEN_TTL, cls.token_ttl, 60, 7 * 24 * 3600, "seconds"),
            trusted_proxies=TrustedProxies.from_env(),
        )


def root_relative_redirects(app: FastAPI) -> None:
    """Redirect a path with or without its trailing slash (``/pit/`` → ``/pit``, ``/static`` →
    ``/static/``) as Starlette does, with a root-relative ``Location``: Starlette's own builds
    an absolute URL from the request's ``Host`` header and scheme (``http://evil.example/pit``
    for a client that sent that ``Host``; ``http://`` behind a TLS proxy). Only a request no
    route takes comes here (the router's default), so nothing is added to any other."""
    router = app.router
    router.redirect_slashes = False
    fallback = router.default

    async def slash_redirect(scope: Scope, receive: Receive, send: Send) -> None:
        path, root = str(scope.get("path", "")), str(scope.get("root_path", ""))
        route_path = path[len(root) :] if root and path.startswith(root + "/") else path
        if scope["type"] == "http" and route_path != "/":
            other = path.rstrip("/") if route_path.endswith("/") else path + "/"
            probe = {**scope, "path": other}
            if any(route.matches(probe)[0] is not Match.NONE for route in router.routes):
                # the path escaped as Starlette's URL escapes it, and never "//…", which a
                # browser reads as another host
                location = other.replace("?", "%3F").replace("#", "%23").replace("\\", "%5C")
                if location.startswith("//"):
                    location = "/%2F" + location[2:]
                query = bytes(scope.get("query_string", b"")).decode("latin-1")
                location += f"?{query}" if query else ""
                await RedirectResponse(location)(scope, receive, send)
                return
        await fallback(scope, receive, send)

    router.default = slash_redirect


class BodyLimit:
    """ASGI middleware: a request body larger than ``limit`` bytes is a 413 problem, whether it
    says so in ``Content-Length`` or not (the body is counted as it arrives); a JSON body is
    JSON (RFC 8259, UTF-8), else a 400 problem (``NotJSON``), and held to the limits croupier
    reads any JSON file within (:func:`croupier.inputs.parse_json`: nesting, integer digits, no
    key named twice in one object) — beyond them a 422 problem, before any route sees it; every
    string in it — a value or a key — is Unicode text (no lone surrogate:
    :func:`croupier.inputs.check_text`), else a 422 problem naming its JSON pointer
    (``pointer``). A body is JSON when its ``Content-Type`` says so in any case
    (``application/JSON``: the routes read it as JSON too), and when it has no ``Content-Type``
    but parses as JSON: the routes read such a body as JSON too (FastAPI), so it is held to the
    same limits. The text of the path, the query and a form body is UTF-8 once unescaped
    (:mod:`croupier.service.text`), else a 422 problem naming the parameter."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        path = str(scope.get("path", ""))
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(scope, send)
            return
        bad = text.undecodable(scope.get("raw_path"), bytes(scope.get("query_string") or b""))
        if bad is not None:
            await self._not_text(scope, send, bad)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        kind = headers.get(b"content-type", b"").lower()
        if body and kind.startswith(b"application/x-www-form-urlencoded"):
            bad = text.undecodable_fields(body, "body")
            if bad is not None:
                await self._not_text(scope, send, bad)
                return
        if body and _read_as_json(headers.get(b"content-type"), body) and not _plainly_within(body):
            try:
                reason = _not_json(body.decode("utf-8"))
                if reason is None:
                    parse_json(body.decode("utf-8"), "the request body")
            except UnicodeDecodeError as exc:
                reason = f"it is not UTF-8 ({exc})"
            except CroupierError as exc:
                await croupier_problem(exc, path)(scope, _no_body, send)
                return
            if reason is not None:
                await problem(400, NOT_JSON, not_json_refusal(reason), path)(scope, _no_body, send)
                return
        await self.app(scope, _replay([{"type": "http.request", "body": body}], receive), send)

    @staticmethod
    async def _not_text(scope: Scope, send: Send, where: str) -> None:
        detail = text.refusal(where)
        errors = [{"where": where, "message": detail}]
        response = problem(422, "InputError", detail, str(scope.get("path", "")), errors=errors)
        await response(scope, _no_body, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        response = problem(
            413,
            "RequestTooLarge",
            f"the request body is larger than the service takes ({self.limit:,} bytes)",
            str(scope.get("path", "")),
        )
        await response(scope, _no_body, send)


class Contained:
    """ASGI middleware, the outermost of the app's own: an exception no handler took becomes its
    problem (:func:`~croupier.service.problems.failure_problem`: a 500, or a 503 a retry can
    cure) and goes no further. Starlette's outermost layer answers such an exception too, but
    then raises it again to the server, and uvicorn closes a connection whose request raised:
    the client's next request on that keep-alive connection was reset. Here the connection
    stays usable. An exception raised once the response has begun still goes on (the response
    is cut short: the connection cannot be used again)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            if started:
                raise
            await failure_problem(exc, str(scope.get("path", "")))(scope, _no_body, send)


def _read_as_json(kind: bytes | None, body: bytes) -> bool:
    """Whether a route reads ``body``, sent with ``Content-Type`` ``kind``, as JSON: its type says
    JSON, or it has none and the body parses as JSON (FastAPI then reads it as JSON; a body that
    does not parse it reads as bytes, and refuses with its own 415 or 422 problem)."""
    if kind is not None:
        return b"json" in kind.lower()
    try:
        json.loads(body)
    except ValueError:  # not JSON (nor UTF-8)
        return False
    except RecursionError:  # JSON nested past the interpreter's stack: parse_json refuses it
        return True
    return True


def _not_json(text: str) -> str | None:
    """Why ``text`` is not JSON at all (RFC 8259: its syntax; ``NaN`` and ``Infinity`` are no
    JSON numbers), or ``None`` when it is — however deep, long or repetitive: the limits of
    :func:`croupier.inputs.parse_json` are a 422 of their own."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        json.loads(text, parse_constant=constant)
    except RecursionError:  # JSON nested past the interpreter's stack: parse_json refuses it
        return None
    except ValueError as exc:
        return str(exc)
    return None


def _plainly_within(body: bytes) -> bool:
    """Whether ``body`` is JSON plainly within :func:`croupier.inputs.parse_json`'s limits: it
    parses (orjson: strict JSON, no ``NaN``, every integer within 64 bits — far fewer digits than
    the limit), holds no number with a fraction or exponent, nests no deeper than the limit and
    plainly names no key twice in one object: its objects hold as many members as the body has
    colons. Each member of an object is written with one colon, and a colon anywhere else is
    inside a string, so as many members as colons leaves no member that a repeated key could have
    dropped (orjson keeps the last of two). ``False`` says only "look closer" — a key named
    twice, or a colon in a string (a time, ``633b.3:1``): :func:`~croupier.inputs.parse_json`
    then gives the verdict, and its error. A request's body is checked at a tenth of the cost."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return False
    kind = type(data)
    if kind is dict or kind is list:
        return _members(data, 0) == body.count(b":")
    return kind is not float and b":" not in body


def _members(container: dict[str, Any] | list[Any], depth: int) -> int:
    """How many members the objects of ``container`` (at ``depth``, the outermost at 0) hold, it
    and every container inside it; ``-1`` unless they are plain: no float, no container at the
    nesting limit (the recursion stops there)."""
    if depth >= MAX_NESTING:
        return -1
    values: Iterable[Any] = container
    count = 0
    if type(container) is dict:
        count, values = len(container), container.values()
    for value in values:
        kind = type(value)
        if kind is dict or kind is list:
            inner = _members(value, depth + 1)
            if inner < 0:
                return -1
            count += inner
        elif kind is float:
            return -1  # a big integer orjson read as a float, or a number to look at
    return count


def _replay(messages: list[Message], then: Receive) -> Receive:
    """A ``receive`` giving ``messages`` once, then the client's own (its disconnect)."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        return await then()

    return receive


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


def create_app(config: ServiceConfig | None = None) -> FastAPI:
    """The application serving ``config``'s database (see the module docstring)."""
    cfg = config or ServiceConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        crash_at = os.environ.get(ENV_CRASH_AT) or None
        hook = None
        if crash_at is not None:

            def hook(stage: str) -> None:
                if stage == crash_at:
                    kill_now()

        app.state.crash_at = crash_at
        # as a controller starts: the start-up self-check (the whole ledger verified, every
        # progressive's configuration against its approved digests, a crashed earlier session
        # recovered), each a significant event; the shutdown recorded at close
        ledger = Ledger.open(
            cfg.db or default_url(), create=True, fault_hook=hook, actor=None, table=None
        )
        store.upgrade(ledger.engine)
        ledger.tell_halts = True  # a halt refuses every write: stderr is its only record
        app.state.ledger = ledger
        app.state.reader = store.reader(ledger.engine)

        def before_commit() -> None:
            if crash_at == "service-before-commit":
                kill_now()

        app.state.committer = Committer(ledger.engine, before_commit)
        app.state.jobs = JobRunner.from_env(ledger.engine)  # simulations: processes of their own
        streaming.stopping.clear()  # this app's event streams run until it stops
        if cfg.freeze_startup:
            gc.collect()
            gc.freeze()  # what starting made lives as long as the process (ServiceConfig)
        try:
            yield
        finally:
            app.state.jobs.close()  # its job processes stopped, its jobs cancelled
            store.close_reader(app.state.reader, ledger.engine)
            ledger.close()

    app = FastAPI(
        title="croupier",
        version=croupier.__version__,
        summary="Pennsylvania's regulated table-game wagers (58 Pa. Code) over HTTP: exact par "
        "sheets, round settlement, open tables and the progressive controller.",
        description=(
            "Reading (wagers, paytables, par sheets) is open. Everything that changes money or "
            "configuration needs a staff member's bearer token (`POST /token` with the "
            "credentials of the ledger's staff store) and a role; the member is recorded as the "
            "ledger's actor. Money-changing POSTs take an `Idempotency-Key`. Errors are RFC 9457 "
            "problem details carrying the croupier error's type and the section it cites: 400 "
            "for a body that is not JSON, 415 for one sent as another media type, 422 for JSON "
            "the route does not take. This is version 1 of the API (`info.version`; every "
            f"response carries `{VERSION_HEADER}: 1`): within it changes only add; a breaking "
            "change makes version 2, under the path prefix `/v2`."
        ),
        lifespan=lifespan,
        dependencies=[Depends(known_query)],  # a query parameter no route declares: a 422
        docs_url=None,  # served offline by croupier.service.routes.docs
        redoc_url=None,
        generate_unique_id_function=operation_id,  # operationIds: service.operation_ids
    )
    app.state.config = cfg
    install(app)

    token.install(app)  # POST /token, POST /token/revoke; a lockout is a 429 with Retry-After
    for module in (
        reading,
        rounds,
        tables,
        progressives,
        progressive_config,
        liability,
        checkpoints,
        staff,
        simulations,
        eor,
        blackjack,
        events,
    ):
        app.include_router(module.router)
    web.mount(app)  # the page at / (croupier.service.web)
    docs.install(app)  # /docs without a CDN
    openapi.install(app)  # every problem a route answers, with examples
    if cfg.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cfg.cors_origins),
            allow_methods=cors_methods(app),
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key"],
        )
    app.add_middleware(BodyLimit, limit=cfg.max_body)
    app.add_middleware(Contained)  # a failure answered, the connection kept
    app.add_middleware(VersionHeader)  # outermost: every response says the API's version
    root_relative_redirects(app)  # no Location built from the Host header
    return app


def cors_methods(app: FastAPI) -> list[str]:
    """Every method the API's routes take (``DELETE /tables/{table}`` too): what a browser on
    an allowed origin may send."""
    return sorted({m for _, methods, _ in openapi.api_routes(app) for m in methods})


SWITCH_INTERVAL = 0.0005
"""Seconds a thread of a server process runs before it hands the GIL to one that waits for it
(``sys.setswitchinterval``; Python's default is 0.005). A request's thread that comes back from
the database — the commit's sync, a lock — waits for the GIL behind threads busy settling other
rounds; at the default 5 ms that wait, taken several times, was the bulk of the 99th percentile
(``benchmarks/bench_service.py``), and on SQLite it is taken holding the file's writer lock.
``$CROUPIER_SWITCH_INTERVAL`` overrides it (``0`` keeps Python's default)."""


def switch_interval() -> float:
    """The GIL switch interval a server process takes: ``$CROUPIER_SWITCH_INTERVAL`` (seconds;
    ``0``: Python's own) or :data:`SWITCH_INTERVAL`; :class:`InputError` for one that is not a
    number of seconds from 0 to 1."""
    text = os.environ.get(ENV_SWITCH_INTERVAL, "").strip()
    if not text:
        return SWITCH_INTERVAL
    try:
        interval = float(text) if text.isascii() else -1.0  # float reads "０.５" as 0.5
    except ValueError:
        interval = -1.0
    if not 0 <= interval <= 1:  # NaN fails both
        raise InputError(
            f"${ENV_SWITCH_INTERVAL} is seconds from 0 to 1, e.g. 0.0005 (0: Python's default), "
            f"not {text!r}"
        )
    return interval


def app_from_env() -> FastAPI:
    """The application as the environment configures it (uvicorn's factory, one per worker);
    the process's GIL switch interval set to :func:`switch_interval`."""
    interval = switch_interval()
    if interval > 0:
        sys.setswitchinterval(interval)
    return create_app(replace(ServiceConfig.from_env(), freeze_startup=True))


__all__ = [
    "SWITCH_INTERVAL",
    "ServiceConfig",
    "app_from_env",
    "cors_methods",
    "create_app",
    "switch_interval",
]
