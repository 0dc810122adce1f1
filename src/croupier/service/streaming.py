"""Server-Sent Events over HTTP (the WHATWG HTML standard, § 9.2 *Server-sent events*): a
:class:`~croupier.operations.live.Feed` written as ``text/event-stream``, polled, and ended
cleanly when the service stops.

A stream writes ``retry:`` once (how long a browser's ``EventSource`` waits before it
reconnects), then the feed's ``meters`` message and, every :data:`POLL_SECONDS`, the messages of
the events committed since — each as ``id:`` (the ledger sequence), ``event:`` and one ``data:``
line of JSON. A comment line (``: keep-alive``) goes out after :data:`HEARTBEAT_SECONDS` of
silence, so that proxies keep the connection and a client gone is noticed by the failed write.
A staff member's token is checked again (revocation, expiry: :func:`~croupier.service.auth.
check_token`) every :data:`RECHECK_SECONDS`; a token no longer good ends the stream with an
``end`` message saying why, as the service stopping does.

**Shutdown.** uvicorn's graceful shutdown waits for every request in progress to finish, and a
stream never does by itself: :data:`stopping` is set by the connection protocol's
``shutdown`` (:class:`croupier.service.connections.HeadTimeoutProtocol`), the first thing
uvicorn does on SIGTERM or SIGINT, and each stream ends at its next poll with ``end`` — so
the service stops within a poll, its ledger closed as usual.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from croupier.errors import AuthenticationError
from croupier.operations.live import Feed, Message

MEDIA_TYPE = "text/event-stream"
POLL_SECONDS = 0.25
"""How often a stream reads the log for new events (one indexed range read)."""
HEARTBEAT_SECONDS = 15.0
"""Silence after which a comment line is written."""
RECHECK_SECONDS = 5.0
"""How often a staff member's token is checked again."""
RETRY_MILLISECONDS = 2000
"""The ``retry:`` a stream starts with: a browser's reconnection delay."""

stopping = threading.Event()
"""Set when the service begins to stop (:func:`begin_shutdown`): every stream ends."""


def begin_shutdown() -> None:
    """Every open stream of this process ends at its next poll (uvicorn is stopping)."""
    stopping.set()


def encode(message: Message) -> bytes:
    """``message`` as an event of the stream: ``id``, ``event``, one ``data`` line."""
    data = json.dumps(message.data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {message.seq}\nevent: {message.event}\ndata: {data}\n\n".encode()


def end(reason: str) -> bytes:
    """The ``end`` event (no ``id``: it is no ledger event)."""
    return f"event: end\ndata: {json.dumps({'reason': reason}, ensure_ascii=False)}\n\n".encode()


class EventStream(StreamingResponse):
    """A ``text/event-stream`` answer, never cached or buffered by a proxy."""

    media_type = MEDIA_TYPE

    def __init__(self, content: AsyncIterator[bytes]) -> None:
        super().__init__(
            content,
            media_type=MEDIA_TYPE,
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )


async def stream(
    feed: Feed,
    recheck: Callable[[], Any] | None = None,
    poll: float = POLL_SECONDS,
) -> AsyncIterator[bytes]:
    """The bytes of ``feed``'s stream until the service stops or ``recheck`` (the reader's
    token checked again; ``None`` for the display feed) raises
    :class:`~croupier.errors.AuthenticationError`. The ledger is read in the thread pool."""
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    yield encode(await run_in_threadpool(feed.start))
    quiet = checked = time.monotonic()
    while True:
        if stopping.is_set():
            yield end("the service is stopping: connect again in a moment")
            return
        now = time.monotonic()
        if recheck is not None and now - checked >= RECHECK_SECONDS:
            checked = now
            try:
                await run_in_threadpool(recheck)
            except AuthenticationError as e:
                yield end(str(e))
                return
        messages = await run_in_threadpool(feed.poll)
        for m in messages:
            yield encode(m)
        if messages:
            quiet = now
        elif now - quiet >= HEARTBEAT_SECONDS:
            quiet = now
            yield b": keep-alive\n\n"
        await anyio.sleep(poll)


__all__ = [
    "HEARTBEAT_SECONDS",
    "MEDIA_TYPE",
    "POLL_SECONDS",
    "EventStream",
    "begin_shutdown",
    "encode",
    "end",
    "stopping",
    "stream",
]
