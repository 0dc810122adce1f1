"""Slow clients against a live ``croupier serve`` (issue 27): a request head that does not arrive
within ``--header-timeout`` seconds is answered 408 and its connection closed — a slowloris
client sending one header line every 0.3 seconds, one that sends nothing, one that trickles its
second request on a keep-alive connection — and a body that does not arrive within
``--body-timeout`` seconds of its head likewise (a slow POST), while a normal client is served
meanwhile; at ``--limit-concurrency`` open connections (the request's own counted) a request is
refused at once (503, a problem document with ``Retry-After``) and the server goes on serving
when they are gone. Bounded: a few loopback connections, about 30 seconds."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from croupier.errors import InputError
from croupier.service.connections import (
    BODY_PART,
    ConnectionLimits,
    busy_problem,
    request_timeout_response,
)
from progressive_support import new_db_url
from service_support import Server, make_ledger

HEAD_TIMEOUT = 1
BODY_TIMEOUT = 2
LIMIT = 8
SLACK = 2.0
"""Seconds past the timeout a closed connection may take to be seen closed (a loaded machine)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("slow-clients")
    urls = new_db_url("sqlite", tmp)
    url = next(urls)
    make_ledger(url)
    args = ["--header-timeout", str(HEAD_TIMEOUT), "--limit-concurrency", str(LIMIT)]
    args += ["--body-timeout", str(BODY_TIMEOUT)]
    srv = Server(url, tmp / "server.log", args=args).start()
    try:
        yield srv
    finally:
        srv.stop()
        urls.close()  # type: ignore[attr-defined]


def _connect(srv: Server) -> socket.socket:
    host, port = srv.base.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=5)
    s.settimeout(0.05)
    return s


def _drain(s: socket.socket, got: bytearray) -> bool:
    """Read what has arrived into ``got``; whether the server closed the connection."""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return True
            got += chunk
    except (TimeoutError, BlockingIOError):
        return False
    except OSError:  # reset
        return True


def _response(s: socket.socket) -> bytes:
    """One whole response (its head and ``content-length`` bytes of body)."""
    got = b""
    while b"\r\n\r\n" not in got:
        got += s.recv(4096)
    head, _, body = got.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += s.recv(4096)
    return head + b"\r\n\r\n" + body


def _slowloris(srv: Server, first: bytes, line_every: float | None) -> tuple[float, bytes]:
    """Send ``first``, then one header line every ``line_every`` seconds (none: nothing more)
    until the server closes the connection: the seconds it stayed open and what came back."""
    start = time.monotonic()
    got = bytearray()
    with _connect(srv) as s:
        s.sendall(first)
        sent = start
        i = 0
        while time.monotonic() - start < HEAD_TIMEOUT + SLACK + 3:
            if _drain(s, got):
                return time.monotonic() - start, bytes(got)
            if line_every is not None and time.monotonic() - sent >= line_every:
                try:
                    s.sendall(f"X-Slow-{i}: {i}\r\n".encode())
                except OSError:  # closed while sending
                    return time.monotonic() - start, bytes(got)
                sent, i = time.monotonic(), i + 1
            time.sleep(0.05)
    return time.monotonic() - start, bytes(got)


def test_slow_heads_are_answered_408_and_closed_while_others_are_served(server: Server) -> None:
    results: dict[str, tuple[float, bytes]] = {}
    clients = {
        "a-line-every-0.3-s": (b"GET /health HTTP/1.1\r\nHost: x\r\n", 0.3),
        "a-line-every-0.3-s-to-token": (b"POST /token HTTP/1.1\r\n", 0.3),
        "nothing-at-all": (b"", None),
    }

    def run(name: str) -> None:
        first, every = clients[name]
        results[name] = _slowloris(server, first, every)

    threads = [threading.Thread(target=run, args=(n,)) for n in clients]
    for th in threads:
        th.start()
    time.sleep(0.3)
    served = []
    with server.client() as c:  # a normal client meanwhile, on its own connection
        while any(th.is_alive() for th in threads):
            t0 = time.monotonic()
            r = c.get("/health")
            served.append((r.status_code, time.monotonic() - t0))
            time.sleep(0.3)
    for th in threads:
        th.join()
    assert served and all(code == 200 for code, _ in served), served
    assert max(took for _, took in served) < 2.0
    expected = request_timeout_response(HEAD_TIMEOUT)
    for name, (open_for, got) in results.items():
        assert HEAD_TIMEOUT - 0.2 <= open_for <= HEAD_TIMEOUT + SLACK, (name, open_for)
        assert got == expected, (name, got)
        assert got.startswith(b"HTTP/1.1 408 ")


def test_a_slow_second_request_on_a_keep_alive_connection_is_timed_too(server: Server) -> None:
    with _connect(server) as s:
        s.settimeout(5)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        first = _response(s)
        assert first.startswith(b"HTTP/1.1 200 ")
        s.settimeout(0.05)
        start = time.monotonic()
        s.sendall(b"GET /health HTTP/1.1\r\n")  # the next head, then one line at a time
        got = bytearray()
        i = 0
        while not _drain(s, got) and time.monotonic() - start < HEAD_TIMEOUT + SLACK + 3:
            if i < 20:
                try:
                    s.sendall(f"X-Slow-{i}: {i}\r\n".encode())
                except OSError:
                    break
                i += 1
            time.sleep(0.25)
        took = time.monotonic() - start
    assert HEAD_TIMEOUT - 0.2 <= took <= HEAD_TIMEOUT + SLACK, took
    assert bytes(got).startswith(b"HTTP/1.1 408 ")


def _slow_body(srv: Server, length: int, every: float) -> tuple[float, bytes]:
    """Send a ``POST /token`` head announcing ``length`` body bytes, then one byte every
    ``every`` seconds until the server closes: the seconds from the head's end, and the answer."""
    got = bytearray()
    with _connect(srv) as s:
        s.sendall(
            b"POST /token HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {length}\r\n\r\n".encode()
        )
        start = sent = time.monotonic()
        i = 0
        while time.monotonic() - start < BODY_TIMEOUT + SLACK + 3:
            if _drain(s, got):
                return time.monotonic() - start, bytes(got)
            if i < length - 1 and time.monotonic() - sent >= every:
                try:
                    s.sendall(b"a")
                except OSError:
                    return time.monotonic() - start, bytes(got)
                sent, i = time.monotonic(), i + 1
            time.sleep(0.05)
    return time.monotonic() - start, bytes(got)


def test_a_slowly_sent_body_is_answered_408_and_closed_while_others_are_served(
    server: Server,
) -> None:
    """A slow POST — 60 body bytes announced, one sent every 0.2 seconds (12 seconds in all) —
    is cut at ``--body-timeout`` though bytes keep coming; the head timer alone would not."""
    results: list[tuple[float, bytes]] = []
    threads = [
        threading.Thread(target=lambda: results.append(_slow_body(server, 60, 0.2)))
        for _ in range(3)
    ]
    for th in threads:
        th.start()
    served = []
    with server.client() as c:
        while any(th.is_alive() for th in threads):
            served.append(c.get("/health").status_code)
            time.sleep(0.3)
    for th in threads:
        th.join()
    assert served and set(served) == {200}, served
    expected = request_timeout_response(BODY_TIMEOUT, BODY_PART)
    assert len(results) == 3
    for open_for, got in results:
        assert BODY_TIMEOUT - 0.2 <= open_for <= BODY_TIMEOUT + SLACK, open_for
        assert got == expected
        assert b"the request body did not arrive within 2 seconds" in got
    assert "Traceback" not in server.log.read_text()


def test_a_body_sent_in_time_in_pieces_is_served(server: Server) -> None:
    with _connect(server) as s:
        s.settimeout(5)
        body = b"username=nobody&password=wrong"
        s.sendall(
            b"POST /token HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
        )
        for piece in (body[:10], body[10:20], body[20:]):
            time.sleep(0.3)
            s.sendall(piece)
        answer = _response(s)
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]


def test_past_the_connection_bound_a_request_is_refused_at_once_and_serving_goes_on(
    server: Server,
) -> None:
    """uvicorn refuses a request when the open connections, its own counted, reach the bound:
    ``LIMIT - 1`` idle connections and the request's own are enough."""
    idle = [_connect(server) for _ in range(LIMIT - 1)]
    try:
        time.sleep(0.3)  # the server has taken them
        t0 = time.monotonic()
        refused = httpx.get(f"{server.base}/health", timeout=5)
        assert time.monotonic() - t0 < 2.0  # refused, not queued until the timeout
        assert refused.status_code == 503
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.headers["retry-after"] == "1"
        assert refused.content == busy_problem(LIMIT)
        assert refused.json()["status"] == 503
        assert f"has {LIMIT} connections open" in refused.json()["detail"]
        idle.pop().close()
        time.sleep(0.3)
        # LIMIT - 2 idle and the request's own: below the bound
        assert httpx.get(f"{server.base}/health", timeout=5).status_code == 200
    finally:
        for s in idle:
            s.close()
    time.sleep(0.3)
    assert httpx.get(f"{server.base}/health", timeout=5).status_code == 200
    assert server.proc is not None and server.proc.poll() is None


def test_the_limits_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ConnectionLimits.from_env() == ConnectionLimits(10, 512, 5, 30)
    monkeypatch.setenv("CROUPIER_HEADER_TIMEOUT", "4")
    monkeypatch.setenv("CROUPIER_LIMIT_CONCURRENCY", "100")
    monkeypatch.setenv("CROUPIER_TIMEOUT_KEEP_ALIVE", "7")
    monkeypatch.setenv("CROUPIER_BODY_TIMEOUT", "60")
    assert ConnectionLimits.from_env() == ConnectionLimits(4, 100, 7, 60)
    monkeypatch.setenv("CROUPIER_HEADER_TIMEOUT", "0")
    with pytest.raises(InputError, match=r"\$CROUPIER_HEADER_TIMEOUT is a whole number of seconds"):
        ConnectionLimits.from_env()


def test_serve_refuses_a_bad_limit_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "croupier", "serve", "--header-timeout", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode != 0
    assert "--header-timeout" in done.stderr
    assert "Traceback" not in done.stderr
