"""Slow clients: a request — its head, then its body — must arrive in time, and the open
connections are bounded (issue 27).

uvicorn closes a keep-alive connection that sends nothing for ``timeout_keep_alive`` seconds,
but it has no timeout for a request that is being sent: a client that sends one header line a
second (the *slowloris* attack), or a ``Content-Length`` and then one body byte a second (the
*slow POST*), keeps its connection — and, with enough of them, the server — forever.
:class:`HeadTimeoutProtocol` is uvicorn's own HTTP/1.1 protocol (httptools, a dependency) with
two timers:

* the whole request head — request line and headers — must arrive within ``header_timeout``
  seconds of the connection being made, or of the first byte of the next request on a
  keep-alive connection;
* the whole body must arrive within ``body_timeout`` seconds of the head's end. Time the server
  itself holds the body back does not count against the client: while uvicorn has paused
  reading (a pipelined request waiting its turn, a body past its 64 KiB buffer the application
  has not read yet) or has not yet sent ``100 Continue``, the timer starts again.

A request that misses either bound is answered ``408 Request Timeout`` (RFC 9110 § 15.5.9; a
problem document, ``Connection: close``) when no response to it or to an earlier request is
being written, and its connection is closed; the application, if it is waiting for the body,
sees the client gone (``http.disconnect``) and nothing it answers is sent.

Past ``limit_concurrency`` uvicorn answers a request ``503`` at once with a plain-text body;
here that answer is a problem document (RFC 9457) with ``Retry-After`` (:func:`busy_app`).
uvicorn's count, made when a request's head is complete (``httptools_impl``,
``on_headers_complete``): the request is refused when the worker's **open connections —
counting the request's own, and idle keep-alive ones —** number ``limit_concurrency`` or more,
or its **requests in progress — not counting this one —** do. So with ``--limit-concurrency 4``
three other open connections are enough: the fourth connection's request is refused, and at
most ``limit_concurrency - 1`` connections are served at once.

:class:`ConnectionLimits` (``croupier serve`` options, or the environment):

* ``header_timeout`` — ``--header-timeout`` / ``$CROUPIER_HEADER_TIMEOUT``, seconds (1–300,
  default 10);
* ``limit_concurrency`` — ``--limit-concurrency`` / ``$CROUPIER_LIMIT_CONCURRENCY``: the count
  above (1–100,000, default 512), uvicorn's ``limit_concurrency``;
* ``timeout_keep_alive`` — ``--timeout-keep-alive`` / ``$CROUPIER_TIMEOUT_KEEP_ALIVE``: seconds
  an idle keep-alive connection is kept (1–300, default 5, uvicorn's);
* ``body_timeout`` — ``--body-timeout`` / ``$CROUPIER_BODY_TIMEOUT``: seconds a request body
  may take after its head (1–600, default 30: the largest body, ``$CROUPIER_MAX_BODY``'s 1 MiB,
  at 35 KiB/s).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from uvicorn._types import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.protocols.http import flow_control
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from croupier.environment import env_int
from croupier.service.problems import MEDIA_TYPE, PROBLEM_BASE
from croupier.service.streaming import begin_shutdown

ENV_HEADER_TIMEOUT = "CROUPIER_HEADER_TIMEOUT"
ENV_LIMIT_CONCURRENCY = "CROUPIER_LIMIT_CONCURRENCY"
ENV_TIMEOUT_KEEP_ALIVE = "CROUPIER_TIMEOUT_KEEP_ALIVE"
ENV_BODY_TIMEOUT = "CROUPIER_BODY_TIMEOUT"
BUSY_RETRY_AFTER = 1
"""``Retry-After`` seconds of the ``503`` past ``limit_concurrency``."""
PROTOCOL = "croupier.service.connections:HeadTimeoutProtocol"
""":class:`HeadTimeoutProtocol` as uvicorn's ``http`` option names it (each worker imports it)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """How long a request head may take, how many connections a worker keeps open, how long
    an idle one is kept and how long a request body may take (see the module docstring)."""

    header_timeout: int = 10
    limit_concurrency: int = 512
    timeout_keep_alive: int = 5
    body_timeout: int = 30

    @classmethod
    def from_env(cls) -> ConnectionLimits:
        """From ``$CROUPIER_HEADER_TIMEOUT``, ``$CROUPIER_LIMIT_CONCURRENCY``,
        ``$CROUPIER_TIMEOUT_KEEP_ALIVE`` and ``$CROUPIER_BODY_TIMEOUT`` (the defaults when unset);
        :class:`~croupier.errors.InputError` for a value out of its range."""
        return cls(
            header_timeout=env_int(ENV_HEADER_TIMEOUT, cls.header_timeout, 1, 300, "seconds"),
            limit_concurrency=env_int(
                ENV_LIMIT_CONCURRENCY, cls.limit_concurrency, 1, 100_000, "connections"
            ),
            timeout_keep_alive=env_int(
                ENV_TIMEOUT_KEEP_ALIVE, cls.timeout_keep_alive, 1, 300, "seconds"
            ),
            body_timeout=env_int(ENV_BODY_TIMEOUT, cls.body_timeout, 1, 600, "seconds"),
        )


def request_timeout_response(seconds: float, part: str = "the request line and headers") -> bytes:
    """The whole ``408 Request Timeout`` response, a problem document (RFC 9457): ``part`` (the
    head, or the body) did not arrive within ``seconds``."""
    body = json.dumps(
        {
            "type": f"{PROBLEM_BASE}RequestTimeout",
            "title": "Request Timeout",
            "status": 408,
            "detail": f"{part} did not arrive within {seconds:g} seconds; the connection is closed",
        }
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        f"content-type: {MEDIA_TYPE}\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


BODY_PART = "the request body"


def busy_problem(limit: int | None) -> bytes:
    """The body of the ``503`` past ``limit_concurrency`` (a problem document, RFC 9457)."""
    return json.dumps(
        {
            "type": f"{PROBLEM_BASE}ServiceUnavailable",
            "title": "Service Unavailable",
            "status": 503,
            "detail": f"the server has {limit} connections open or requests in progress, its "
            f"limit (--limit-concurrency); try again in {BUSY_RETRY_AFTER} seconds",
        }
    ).encode()


def busy_app(limit: int | None) -> ASGI3Application:
    """The ASGI application that answers a request past ``limit_concurrency`` (in place of
    uvicorn's plain-text ``service_unavailable``): ``503``, ``Retry-After``, a problem
    document, ``Connection: close``."""
    body = busy_problem(limit)

    async def app(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", MEDIA_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(BUSY_RETRY_AFTER).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": False})

    return app


_TIMEOUTS: list[ConnectionLimits] = []


def _limits() -> ConnectionLimits:
    if not _TIMEOUTS:
        _TIMEOUTS.append(ConnectionLimits.from_env())
    return _TIMEOUTS[0]


def header_timeout() -> float:
    """This process's head timeout, seconds (``$CROUPIER_HEADER_TIMEOUT``, read once)."""
    return float(_limits().header_timeout)


def body_timeout() -> float:
    """This process's body timeout, seconds (``$CROUPIER_BODY_TIMEOUT``, read once)."""
    return float(_limits().body_timeout)


class HeadTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the request head's and body's timers and a problem
    document for the ``503`` past ``limit_concurrency`` (the module docstring)."""

    _head_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None
    _awaiting_head = True

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._awaiting_head = True
        self._arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head()
        self._disarm_body()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        """uvicorn stopping (SIGTERM, SIGINT): every event stream of the process ends at its
        next poll (:func:`croupier.service.streaming.begin_shutdown`) — uvicorn waits for the
        requests in progress, and a stream would never end by itself."""
        begin_shutdown()
        super().shutdown()

    def data_received(self, data: bytes) -> None:
        if self._awaiting_head:  # the first bytes of the next request: its head is timed
            self._arm_head()
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._awaiting_head = True
        self._arm_head()
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._awaiting_head = False
        self._disarm_head()
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._arm_body()  # until the message is complete (at once, for a request without one)

    def on_message_complete(self) -> None:
        self._disarm_body()
        super().on_message_complete()
        self._awaiting_head = True  # what comes next is another request's head

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: ASGI3Application) -> None:
        if app is flow_control.service_unavailable:  # past limit_concurrency: a problem document
            app = busy_app(self.limit_concurrency)
        super()._start_asgi_task(cycle, app)

    def _arm_head(self) -> None:
        if self._head_timer is None and not self.transport.is_closing():
            self._head_timer = self.loop.call_later(header_timeout(), self._head_late)

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _arm_body(self) -> None:
        self._disarm_body()
        if not self.transport.is_closing():
            self._body_timer = self.loop.call_later(body_timeout(), self._body_late)

    def _disarm_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _head_late(self) -> None:
        """The head did not arrive in time: a 408 unless another response is being written
        on the connection, and the connection closed."""
        self._head_timer = None
        if self.transport.is_closing():
            return
        idle = (self.cycle is None or self.cycle.response_complete) and not self.pipeline
        if idle:
            self.transport.write(request_timeout_response(header_timeout()))
        self.logger.info("closed a connection whose request head was not complete in time")
        self.transport.close()

    def _body_late(self) -> None:
        """The body did not arrive in time: the timer starts again while the server holds it
        back; otherwise a 408 unless a response is being written or was sent, the application
        told the client is gone, and the connection closed."""
        self._body_timer = None
        cycle = self.cycle
        if self.transport.is_closing() or cycle is None:
            return
        if self.flow.read_paused or cycle.waiting_for_100_continue:
            self._arm_body()
            return
        if not cycle.response_started and not self.pipeline:
            self.transport.write(request_timeout_response(body_timeout(), BODY_PART))
        cycle.disconnected = True  # the application's receive() ends; what it sends is dropped
        cycle.message_event.set()
        self.logger.info("closed a connection whose request body was not complete in time")
        self.transport.close()


__all__ = [
    "BUSY_RETRY_AFTER",
    "PROTOCOL",
    "ConnectionLimits",
    "HeadTimeoutProtocol",
    "body_timeout",
    "busy_app",
    "busy_problem",
    "header_timeout",
    "request_timeout_response",
]
