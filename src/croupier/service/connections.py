"""Slow clients: a request head must arrive in time, and the open connections are bounded
(issue 27).

uvicorn closes a keep-alive connection that sends nothing for ``timeout_keep_alive`` seconds,
but it has no timeout for a request head: a client that sends one header line a second (the
*slowloris* attack) keeps its connection — and, with enough of them, the server — forever.
:class:`HeadTimeoutProtocol` is uvicorn's own HTTP/1.1 protocol (httptools, a dependency) with a
timer: the whole request head — request line and headers — must arrive within
``header_timeout`` seconds of the connection being made, or of the first byte of the next
request on a keep-alive connection; otherwise the server answers ``408 Request Timeout``
(RFC 9110 § 15.5.9; a problem document, ``Connection: close``) when it is not in the middle of
another response, and closes the connection. A body is read, and a request handled, without
that timer: the body's size is bounded (``$CROUPIER_MAX_BODY``), the head is what a slow client
can stretch for free.

:class:`ConnectionLimits` (``croupier serve`` options, or the environment):

* ``header_timeout`` — ``--header-timeout`` / ``$CROUPIER_HEADER_TIMEOUT``, seconds (1–300,
  default 10);
* ``limit_concurrency`` — ``--limit-concurrency`` / ``$CROUPIER_LIMIT_CONCURRENCY``: open
  connections (and requests in progress) per worker process past which a new request is
  answered ``503 Service Unavailable`` at once, uvicorn's ``limit_concurrency`` (1–100,000,
  default 512);
* ``timeout_keep_alive`` — ``--timeout-keep-alive`` / ``$CROUPIER_TIMEOUT_KEEP_ALIVE``: seconds
  an idle keep-alive connection is kept (1–300, default 5, uvicorn's).
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from croupier.errors import InputError
from croupier.service.problems import MEDIA_TYPE, PROBLEM_BASE
from croupier.units import ascii_digits

ENV_HEADER_TIMEOUT = "CROUPIER_HEADER_TIMEOUT"
ENV_LIMIT_CONCURRENCY = "CROUPIER_LIMIT_CONCURRENCY"
ENV_TIMEOUT_KEEP_ALIVE = "CROUPIER_TIMEOUT_KEEP_ALIVE"
PROTOCOL = "croupier.service.connections:HeadTimeoutProtocol"
""":class:`HeadTimeoutProtocol` as uvicorn's ``http`` option names it (each worker imports it)."""


def _env_int(name: str, default: int, low: int, high: int, unit: str) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not ascii_digits(text) or not low <= int(text) <= high:
        raise InputError(
            f"${name} is a whole number of {unit} from {low:,} to {high:,}, not {text[:40]!r}"
        )
    return int(text)


@dataclass(frozen=True)
class ConnectionLimits:
    """How long a request head may take, how many connections a worker keeps open, and how
    long an idle one is kept (see the module docstring)."""

    header_timeout: int = 10
    limit_concurrency: int = 512
    timeout_keep_alive: int = 5

    @classmethod
    def from_env(cls) -> ConnectionLimits:
        """From ``$CROUPIER_HEADER_TIMEOUT``, ``$CROUPIER_LIMIT_CONCURRENCY`` and
        ``$CROUPIER_TIMEOUT_KEEP_ALIVE`` (the defaults when unset);
        :class:`~croupier.errors.InputError` for a value out of its range."""
        return cls(
            header_timeout=_env_int(ENV_HEADER_TIMEOUT, cls.header_timeout, 1, 300, "seconds"),
            limit_concurrency=_env_int(
                ENV_LIMIT_CONCURRENCY, cls.limit_concurrency, 1, 100_000, "connections"
            ),
            timeout_keep_alive=_env_int(
                ENV_TIMEOUT_KEEP_ALIVE, cls.timeout_keep_alive, 1, 300, "seconds"
            ),
        )


def request_timeout_response(seconds: float) -> bytes:
    """The whole ``408 Request Timeout`` response, a problem document (RFC 9457)."""
    body = json.dumps(
        {
            "type": f"{PROBLEM_BASE}RequestTimeout",
            "title": "Request Timeout",
            "status": 408,
            "detail": f"the request line and headers did not arrive within {seconds:g} seconds; "
            "the connection is closed",
        }
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        f"content-type: {MEDIA_TYPE}\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


_TIMEOUT: list[float] = []


def header_timeout() -> float:
    """This process's head timeout, seconds (``$CROUPIER_HEADER_TIMEOUT``, read once)."""
    if not _TIMEOUT:
        _TIMEOUT.append(float(ConnectionLimits.from_env().header_timeout))
    return _TIMEOUT[0]


class HeadTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the request head's timer (the module docstring)."""

    _head_timer: asyncio.TimerHandle | None = None
    _awaiting_head = True

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._awaiting_head = True
        self._arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head()
        super().connection_lost(exc)

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

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._awaiting_head = True  # what comes next is another request's head

    def _arm_head(self) -> None:
        if self._head_timer is None and not self.transport.is_closing():
            self._head_timer = self.loop.call_later(header_timeout(), self._head_late)

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

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


__all__ = [
    "PROTOCOL",
    "ConnectionLimits",
    "HeadTimeoutProtocol",
    "header_timeout",
    "request_timeout_response",
]
