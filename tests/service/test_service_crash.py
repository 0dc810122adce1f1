"""A ``croupier serve`` process SIGKILLed during a settlement, then the client's retry with the
same ``Idempotency-Key``: nothing is lost, nothing is doubled — on SQLite and on PostgreSQL.

Two ways to die: at a named stage (``$CROUPIER_SERVICE_CRASH_AT``: inside the one transaction
holding a round's ledger rows and its stored row; on the step-by-step path of a round fed to two
progressives, after the ledger committed but before the service's rows) and at a random moment
while eight clients post rounds to four tables."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from croupier.progressive import Ledger
from croupier.service import store
from progressive_support import BACKENDS, new_db_url
from service_support import DEALER, TABLES, Server, make_ledger, pp_round, round_file

pytestmark = pytest.mark.slow

STAGES = ["contributions", "before-commit", "after-effect", "service-before-commit"]
"""Inside the ledger's statements of the round's transaction (twice), before anything is written,
and with the service's rows staged in it (the commit not made)."""


def post(srv: Server, token: str, table: str, rid: str) -> httpx.Response:
    return httpx.post(
        f"{srv.base}/rounds/settle",
        params=[("table", table), ("progressive", "jp-5")],
        json=pp_round(rid, jp=True),
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": f"{table}/{rid}"},
        timeout=60,
    )


def replayed(first: httpx.Response, srv: Server | None = None, token: str = "") -> dict[str, Any]:
    """A round answered again under its key (docs/interpretations.md, "What a replay shows"),
    marked ``stored_already``: with no award, the first answer; with awards, the round as a read
    shows it (``srv``), each award the first answer's, as the ledger has it now."""
    doc = first.json()
    if not any(p["awards"] for p in doc["progressives"]):
        return {"stored_already": True, **doc}
    assert srv is not None, "a round with awards: its read is the replay"
    read = httpx.get(
        f"{srv.base}/rounds/{doc['table']}/{doc['round']}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    ).json()
    ids = [[a["award"] for a in p["awards"]] for p in doc["progressives"]]
    assert [[a["award"] for a in p["awards"]] for p in read["progressives"]] == ids
    return {"stored_already": True, **read}


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
                assert (again.status_code, again.json()) == (201, replayed(first))
            wagered, stored = totals(srv, token)
        finally:
            srv.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]
    assert wagered == len(STAGES) * 500  # one $5 Jackpot Party wager a round, counted once
    assert sorted(stored["BJ-1"]) == sorted(STAGES)


def on_record(url: str, table: str, rid: str) -> tuple[list[str], int]:
    """Read behind the server's back: the progressives whose ledger holds round ``rid`` of
    ``table``, and how many rows of the service store it."""
    with Ledger(url) as ledger:
        fed = [n for n in ledger.names() if ledger.system(n).find_round(f"{table}/{rid}")]
        with ledger.engine.connect() as conn:
            r = store.rounds
            rows = conn.execute(
                sa.select(sa.func.count())
                .select_from(r)
                .where(r.c.table_id == table, r.c.round_id == rid)
            ).scalar_one()
    return fed, int(rows)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_ledger_and_the_stored_round_commit_together(backend: str, tmp_path: Path) -> None:
    """A round fed to one progressive: its ledger rows and its stored row are one transaction.
    Killed inside it — in the ledger's statements or with the service's rows staged — neither
    is on record (the old path committed the ledger first: it would show the round fed and not
    stored); the retry then records both, once."""
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    try:
        make_ledger(url)
        token = ""
        for stage in ("awards", "service-before-commit"):
            doomed = Server(url, tmp_path / f"{stage}.log", {"CROUPIER_SERVICE_CRASH_AT": stage})
            doomed.start()
            token = token or doomed.token(DEALER)
            with pytest.raises(httpx.TransportError):
                post(doomed, token, "BJ-2", stage)
            assert doomed.proc is not None and doomed.proc.wait(15) == -9, stage
            doomed.proc = None
            assert on_record(url, "BJ-2", stage) == ([], 0), stage
        srv = Server(url, tmp_path / "server.log").start()
        try:
            for stage in ("awards", "service-before-commit"):
                assert post(srv, token, "BJ-2", stage).status_code == 201
                assert on_record(url, "BJ-2", stage) == (["jp-5"], 1), stage
        finally:
            srv.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]


def two_progressives_round(rid: str) -> dict[str, Any]:
    """Seat 3: $25 Blackjack, a $5 Jackpot Party and a $5 Match the Dealer wager; the table's own
    system settles the Blackjack wager (no decision is recorded: ``"base_game": "external"``)."""
    return round_file(
        rid,
        [
            {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": 3, "wager": "jackpot-party", "amount": "$5"},
            {"action": "bet", "seat": 3, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"3": "9s 7h"}, "dealer": "9c 8d"},
            {"action": "settle"},
        ],
        base_game="external",
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_progressives_killed_between_the_ledger_and_the_store(
    backend: str, tmp_path: Path
) -> None:
    """A round fed to two progressives goes step by step: each ledger transaction, then the
    service's. Killed between them, the ledgers hold the round and the store does not; the
    retry with the same key stores it once and feeds neither meter again."""
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    body = two_progressives_round("r1")
    params: list[tuple[str, str | int | float | bool | None]] = [
        ("table", "BJ-3"),
        ("progressive", "jp-5"),
        ("progressive", "mtd-5"),
    ]

    def send(srv: Server, token: str) -> httpx.Response:
        return httpx.post(
            f"{srv.base}/rounds/settle",
            params=params,
            json=body,
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "BJ-3/r1"},
            timeout=60,
        )

    try:
        make_ledger(url)
        doomed = Server(url, tmp_path / "doomed.log", {"CROUPIER_SERVICE_CRASH_AT": "after-ledger"})
        doomed.start()
        token = doomed.token(DEALER)
        with pytest.raises(httpx.TransportError):
            send(doomed, token)
        assert doomed.proc is not None and doomed.proc.wait(15) == -9
        doomed.proc = None
        assert on_record(url, "BJ-3", "r1") == (["jp-5", "mtd-5"], 0)
        srv = Server(url, tmp_path / "server.log").start()
        try:
            first = send(srv, token)
            assert first.status_code == 201, first.text
            again = send(srv, token)
            assert (again.status_code, again.json()) == (201, replayed(first, srv, token))
            h = {"Authorization": f"Bearer {token}"}
            with srv.client(headers=h) as c:
                wagered = [
                    c.get(f"/progressives/{n}").json()["levels"][0]["wagered_cents"]
                    for n in ("jp-5", "mtd-5")
                ]
        finally:
            srv.stop()
        assert on_record(url, "BJ-3", "r1") == (["jp-5", "mtd-5"], 1)
    finally:
        urls.close()  # type: ignore[attr-defined]
    assert [p["progressive"] for p in first.json()["progressives"]] == ["jp-5", "mtd-5"]
    assert wagered == [500, 500]  # each $5 wager fed once


@pytest.mark.parametrize(
    ("backend", "workers"), [(b, w) for w in (1, 2) for b in BACKENDS], ids=lambda v: str(v)
)
def test_a_sigkill_under_load_then_every_retry(backend: str, workers: int, tmp_path: Path) -> None:
    """Eight clients post 40 rounds to four tables; ``croupier serve`` — one process, or
    ``--workers 2`` (each worker its own engine, group committer and controller session) — is
    SIGKILLed, every process of it at once, once it has answered :data:`KILL_AT` of them,
    started again and every round posted again under its key, three times; then a last server
    answers every retry: each round stored once, each $5 wager counted once, an answer given
    before a kill given again after it (a replay is the first answer, marked
    ``stored_already``)."""
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    jobs = [(t, f"r{i}") for i in range(10) for t in TABLES]
    answered: dict[tuple[str, str], Any] = {}
    args = ("--workers", str(workers)) if workers > 1 else ()
    cut: list[int] = []  # per kill: the requests it cut (no answer)
    try:
        make_ledger(url)
        token = ""
        for n, at in enumerate(KILL_AT):
            srv = Server(url, tmp_path / f"killed-{n}.log", args=args).start()
            token = token or srv.token(DEALER)
            cut.append(killed_under_load(srv, token, jobs, at, answered))
        srv = Server(url, tmp_path / "last.log", args=args).start()
        try:
            with ThreadPoolExecutor(8) as pool:
                retried = list(pool.map(lambda j: post(srv, token, *j), jobs))
            wagered, stored = totals(srv, token)
        finally:
            srv.stop()
    finally:
        urls.close()  # type: ignore[attr-defined]
    print(f"{backend}, {workers} worker(s): {len(cut)} kills cut {cut} requests")  # -rP shows it
    assert all(c > 0 for c in cut), "a server finished before it was killed"
    assert [r.status_code for r in retried] == [201] * len(jobs)
    for job, r in zip(jobs, retried, strict=True):
        if job in answered:  # answered before a kill: the retry answers the same
            assert r.json() == {"stored_already": True, **answered[job]}
    assert wagered == len(jobs) * 500  # every $5 wager counted once: none lost, none doubled
    for t in TABLES:
        assert sorted(stored[t]) == sorted(rid for tt, rid in jobs if tt == t)


KILL_AT = (8, 20, 32)
"""After how many answers each server of :func:`test_a_sigkill_under_load_then_every_retry` is
killed (of the 40 rounds posted to it; a replay counts): three kills a run, each with requests
answered before it and requests in flight — whatever the machine's speed."""


def killed_under_load(
    srv: Server,
    token: str,
    jobs: list[tuple[str, str]],
    at: int,
    answered: dict[tuple[str, str], Any],
) -> int:
    """Post every job from eight clients and SIGKILL ``srv`` once it has answered ``at`` of
    them (or after 60 s); each answer is checked against the job's first (kept in
    ``answered``, ``stored_already`` left out). How many requests the kill cut."""
    enough = threading.Event()
    lock = threading.Lock()
    lost: list[tuple[str, str]] = []
    count = [0]

    def one(job: tuple[str, str]) -> None:
        try:
            r = post(srv, token, *job)
        except httpx.TransportError:
            lost.append(job)
            return
        assert r.status_code == 201, r.text
        doc = {k: v for k, v in r.json().items() if k != "stored_already"}
        assert answered.setdefault(job, doc) == doc, job  # the same answer, before and after
        with lock:
            count[0] += 1
            if count[0] >= at:
                enough.set()

    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(one, j) for j in jobs]
        enough.wait(60)
        srv.kill()
        for f in futures:
            f.result()
    return len(lost)
