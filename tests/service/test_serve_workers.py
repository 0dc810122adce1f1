"""``croupier serve --workers 2``: two worker processes on one database (SQLite in WAL, each
process its own engine and group committer; PostgreSQL), rounds posted at once — with and
without a progressive — each stored once and each progressive wager counted once; each worker a
controller session of its own, started and shut down in the ledger's log."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from progressive_support import BACKENDS, new_db_url
from service_support import DEALER, SHIFT, TABLES, Server, make_ledger, pp_round


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    urls = new_db_url(request.param, tmp_path)
    found = next(urls)
    make_ledger(found)
    try:
        yield found
    finally:
        urls.close()  # type: ignore[attr-defined]


def test_two_workers_store_every_round_once(url: str, tmp_path: Path) -> None:
    srv = Server(url, tmp_path / "server.log", args=("--workers", "2")).start()
    tag = uuid.uuid4().hex[:6]
    jobs = [(i, TABLES[i % len(TABLES)], f"w{tag}-{i}") for i in range(48)]
    try:
        token = srv.token(DEALER)
        h = {"Authorization": f"Bearer {token}"}
        with srv.client(headers=h) as c:
            before = c.get("/progressives/jp-5").json()["levels"][0]["wagered_cents"]

        def one(job: tuple[int, str, str]) -> tuple[int, int]:
            i, table, rid = job
            jp = i % 2 == 0  # half the rounds feed the progressive
            params = {"table": table, **({"progressive": "jp-5"} if jp else {})}
            with httpx.Client(base_url=srv.base, timeout=120, headers=h) as c:
                key = {"Idempotency-Key": f"{table}/{rid}"}
                first = c.post(
                    "/rounds/settle", params=params, json=pp_round(rid, jp=jp), headers=key
                )
                again = c.post(
                    "/rounds/settle", params=params, json=pp_round(rid, jp=jp), headers=key
                )
                # the first answer, once more, marked as settling nothing (no award: the
                # Jackpot Party wager loses against K♦ 9♣, nothing the ledger can change since)
                assert again.json() == {"stored_already": True, **first.json()}
                assert again.headers.get("idempotent-replayed") == "true"
            return first.status_code, again.status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(one, jobs))
        with srv.client(headers=h) as c:
            stored = {
                d["round"]
                for table in TABLES
                for d in c.get("/rounds", params={"table": table, "limit": 1000}).json()["rounds"]
            }
            after = c.get("/progressives/jp-5").json()["levels"][0]["wagered_cents"]
            assert c.get("/verify").json()["chain_checked"] is True
    finally:
        srv.stop()
    assert codes == [(201, 201)] * len(jobs)  # a replay answers the first response
    assert stored == {rid for _, _, rid in jobs}
    assert after - before == 24 * 500  # 24 rounds with a $5 Jackpot Party wager fed, each once

    # each worker was a controller session: started, then shut down (not left to recover)
    again = Server(url, tmp_path / "again.log").start()
    try:
        with again.client(headers=again.auth(SHIFT)) as c:
            events = c.get("/significant-events").json()["events"]
    finally:
        again.stop()
    codes_seen = [e["code"] for e in events]
    assert codes_seen.count("startup-self-check") == 3  # two workers, then this server
    assert codes_seen.count("shutdown") >= 2
    assert "crash-recovery" not in codes_seen
