"""Linked tables served by two ``croupier serve`` processes on one database (two hosts of a
casino's progressive controller): a token from one is taken by the other, and rounds posted to
both at once, all feeding one meter, are each counted once — on SQLite and on PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from progressive_support import BACKENDS, new_db_url
from service_support import (
    DEALER,
    PIT,
    PLAIN_SUBMISSION,
    TABLES,
    Server,
    keyed,
    make_ledger,
    pp_round,
)

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_servers_share_one_meter(backend: str, tmp_path: Path) -> None:
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    try:
        make_ledger(url)
        a = Server(url, tmp_path / "a.log").start()
        b = Server(url, tmp_path / "b.log").start()
        try:
            token = a.token(DEALER)  # issued by one host, taken by the other
            jobs = [(i, TABLES[i % len(TABLES)], f"r{i}") for i in range(40)]

            def one(job: tuple[int, str, str]) -> int:
                i, table, rid = job
                srv = (a, b)[i % 2]
                r = httpx.post(
                    f"{srv.base}/rounds/settle",
                    params=[("table", table), ("progressive", "jp-5")],
                    json=pp_round(rid, jp=True),
                    headers={
                        "Authorization": f"Bearer {token}",
                        "Idempotency-Key": f"{table}/{rid}",
                    },
                    timeout=120,
                )
                return r.status_code

            with ThreadPoolExecutor(8) as pool:
                codes = list(pool.map(one, jobs))
            h = {"Authorization": f"Bearer {token}"}
            with b.client(headers=h) as c:
                wagered = c.get("/progressives/jp-5").json()["levels"][0]["wagered_cents"]
                count = c.get("/rounds", params={"limit": 1}).json()["count"]
                assert c.get("/verify").json()["chain_checked"] is True
        finally:
            a.stop()
            b.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]
    assert codes == [201] * len(jobs)
    assert count == len(jobs)
    assert wagered == len(jobs) * 500  # forty $5 Jackpot Party wagers on one meter, once each


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_table_stepped_on_two_servers_keeps_every_step(backend: str, tmp_path: Path) -> None:
    """Each server keeps the open round it last saw in memory; a step taken on the other server
    moves the table's version on, so the first one replays the stored steps instead of using
    its stale round."""
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    try:
        make_ledger(url)
        a = Server(url, tmp_path / "a.log").start()
        b = Server(url, tmp_path / "b.log").start()
        try:
            table = "BJ-9"
            sub = PLAIN_SUBMISSION  # no progressive wager: BJ-9 is linked to none
            opened = httpx.post(
                f"{a.base}/tables",
                json={"table": table, "submission": sub},
                headers=keyed(a.auth(PIT)),
                timeout=60,
            )
            assert opened.status_code == 201, opened.text

            def step(srv: Server, body: dict[str, Any]) -> Any:
                r = httpx.post(
                    f"{srv.base}/tables/{table}/steps", json=body, headers=keyed(srv.auth(DEALER)),
                    timeout=60,
                )  # fmt: skip
                assert r.status_code == 200, r.text
                return r.json()

            bet = {"action": "bet", "wager": "blackjack", "amount": "$25"}
            step(a, {**bet, "seat": 1})  # a holds the round with seat 1's bet
            step(b, {**bet, "seat": 2})  # b replays it and adds seat 2's
            state = step(a, {**bet, "seat": 3})  # a's copy is stale: replayed, seat 2 kept
            seats = sorted(e["seat"] for e in state["events"] if e["action"] == "bet")
            with b.client(headers=b.auth(DEALER)) as c:
                seen = c.get(f"/tables/{table}").json()
        finally:
            a.stop()
            b.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]
    assert seats == [1, 2, 3]
    assert seen["events"] == state["events"]
