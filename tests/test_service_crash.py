"""A ``croupier serve`` process SIGKILLed during a settlement, then the client's retry with the
same ``Idempotency-Key``: nothing is lost, nothing is doubled — on SQLite and on PostgreSQL.

Two ways to die: at a named stage (``$CROUPIER_SERVICE_CRASH_AT``: inside the ledger's
transaction, after the ledger committed but before the service's rows, inside the service's
transaction) and at a random moment while eight clients post rounds to four tables."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from progressive_support import BACKENDS, new_db_url
from service_support import DEALER, TABLES, Server, make_ledger, pp_round

pytestmark = pytest.mark.slow

STAGES = ["contributions", "before-commit", "after-effect", "service-before-commit"]
"""Inside the ledger's transaction (twice), between the ledger's commit and the service's
transaction, inside the service's transaction."""


def post(srv: Server, token: str, table: str, rid: str) -> httpx.Response:
    return httpx.post(
        f"{srv.base}/rounds/settle",
        params=[("table", table), ("progressive", "jp-5")],
        json=pp_round(rid, jp=True),
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": f"{table}/{rid}"},
        timeout=60,
    )


def totals(srv: Server, token: str) -> tuple[int, dict[str, list[str]]]:
    """The jp-5 meter's wagered cents and every stored round id by table; the ledger verified."""
    h = {"Authorization": f"Bearer {token}"}
    with srv.client(headers=h) as c:
        assert c.get("/verify").json()["chain_checked"] is True
        wagered = c.get("/progressives/jp-5").json()["levels"][0]["wagered_cents"]
        stored = {
            t: [
                d["round"]
                for d in c.get("/rounds", params={"table": t, "limit": 1000}).json()["rounds"]
            ]
            for t in TABLES
        }
    return int(wagered), stored


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sigkill_at_each_stage_then_the_retries(backend: str, tmp_path: Path) -> None:
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    try:
        make_ledger(url)
        token = ""
        for stage in STAGES:  # one round killed at each stage, each by its own doomed server
            doomed = Server(url, tmp_path / f"{stage}.log", {"CROUPIER_SERVICE_CRASH_AT": stage})
            doomed.start()
            token = token or doomed.token(DEALER)
            with pytest.raises(httpx.TransportError):
                post(doomed, token, "BJ-1", stage)
            assert doomed.proc is not None and doomed.proc.wait(15) == -9, stage
            doomed.proc = None
        srv = Server(url, tmp_path / "server.log").start()
        try:
            for stage in STAGES:
                first = post(srv, token, "BJ-1", stage)  # the token outlives the processes
                assert first.status_code == 201, (stage, first.text)
                again = post(srv, token, "BJ-1", stage)
                assert (again.status_code, again.json()) == (201, first.json())
            wagered, stored = totals(srv, token)
        finally:
            srv.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]
    assert wagered == len(STAGES) * 500  # one $5 Jackpot Party wager a round, counted once
    assert sorted(stored["BJ-1"]) == sorted(STAGES)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sigkill_under_load_then_every_retry(backend: str, tmp_path: Path) -> None:
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    jobs = [(t, f"r{i}") for i in range(10) for t in TABLES]
    answered: dict[tuple[str, str], Any] = {}
    try:
        make_ledger(url)
        srv = Server(url, tmp_path / "first.log").start()
        token = srv.token(DEALER)
        started = threading.Event()

        def one(job: tuple[str, str]) -> None:
            started.set()
            try:
                r = post(srv, token, *job)
            except httpx.TransportError:
                return
            if r.status_code == 201:
                answered[job] = r.json()

        with ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(one, j) for j in jobs]
            started.wait(30)
            time.sleep(0.4)
            srv.kill()
            for f in futures:
                f.result()
        assert len(answered) < len(jobs), "the server finished before it was killed"
        srv = Server(url, tmp_path / "second.log").start()
        try:
            with ThreadPoolExecutor(8) as pool:
                retried = list(pool.map(lambda j: post(srv, token, *j), jobs))
            wagered, stored = totals(srv, token)
        finally:
            srv.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]
    assert [r.status_code for r in retried] == [201] * len(jobs)
    for job, r in zip(jobs, retried, strict=True):
        if job in answered:  # answered before the kill: the retry answers the same
            assert r.json() == answered[job]
    assert wagered == len(jobs) * 500  # every $5 wager counted once: none lost, none doubled
    for t in TABLES:
        assert sorted(stored[t]) == sorted(rid for tt, rid in jobs if tt == t)
