"""Simulation jobs run in processes the server owns, not in the serving process, report progress
for every wager, are bounded in number and are cancelled when the server stops (issue 16, item 6).

The trial: a 5M-round AxMan job started by a dealer ran in the serving process (``--workers 1``)
and raised the median ``GET /tables/T-1`` from 62 ms to 171 ms (max 1.06 s); a 2M-round Perfect
Pairs job on PostgreSQL read ``running 0 0.0`` for about 12 seconds — its kernel compiling — then
``done``. Here the serving process's own CPU time is measured while a job deals millions of rounds
(it must not pay for them), the job's process is found among the server's children at a lower
priority, and each wager's progress is reported block by block once its kernel is ready.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from croupier.analysis.kernels import BLOCK
from croupier.analysis.kernels.numpy_sim import BLOCK as NUMPY_BLOCK
from croupier.cards import Shoe
from croupier.service import job_work, store
from croupier.wagers import all_wagers
from progressive_support import new_db_url
from service_support import DEALER, Server, make_ledger, serving

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time of process ``pid`` (itself, not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def job_processes(pid: int) -> list[int]:
    """The server's children that are job processes."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                cmd = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if Path(cmd[0].decode(errors="replace")).name == "nice":
                continue  # forked, not yet the job: nice sets the priority, then runs python
            if b"croupier.service.job_work" in cmd:  # python -m croupier.service.job_work
                found.append(int(child))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended: only its exit status is left


def start_job(srv: Server, **spec: Any) -> dict[str, Any]:
    r = httpx.post(f"{srv.base}/simulations", json=spec, headers=srv.auth(DEALER), timeout=60)
    assert r.status_code == 202, r.text
    job: dict[str, Any] = r.json()
    return job


def poll(srv: Server, job: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{srv.base}/simulations/{job}", timeout=60).json()
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("jobs")) as srv:
        yield srv


def test_a_job_runs_in_a_process_of_its_own_and_reports_its_progress(server: Server) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    before = cpu_seconds(pid)
    job = start_job(server, wager="perfect-pairs", paytable="A", decks=6, rounds=20_000_000)
    seen: list[tuple[str, int]] = []
    worker_cpu, workers = 0.0, set()
    nices: dict[int, int] = {}  # each job process's priority, as last seen
    deadline = time.monotonic() + 600
    state = job
    while state["status"] in ("queued", "preparing", "running") and time.monotonic() < deadline:
        for child in job_processes(pid):
            workers.add(child)
            with contextlib.suppress(OSError):  # it ended meanwhile
                nices[child] = niceness(child)
                worker_cpu = max(worker_cpu, cpu_seconds(child))
        time.sleep(0.25)
        state = poll(server, job["job"])
        seen.append((state["status"], state["done"]))
    used = cpu_seconds(pid) - before
    assert state["status"] == "done", state
    assert state["done"] == state["total"] == 20_000_000
    assert workers, "no job process was seen"
    assert all(n >= niceness(pid) + job_work.NICENESS for n in nices.values()), nices
    # the rounds were dealt by the job process: the server paid for its requests only
    assert worker_cpu > 1.0, worker_cpu
    assert used < worker_cpu / 2, (used, worker_cpu)
    running = [done for status, done in seen if status == "running"]
    assert running == sorted(running)
    assert len(set(running)) >= 3, seen  # it moved while it ran, not 0 then done
    assert all(done == 0 for status, done in seen if status in ("queued", "preparing"))


def test_progress_is_reported_for_every_wager_once_its_kernel_is_ready() -> None:
    """Every wager: ``prepared`` before the first round (its kernel compiled on copies), then a
    report after every block of rounds, the tallies those of ``croupier simulate``."""
    from croupier.analysis.kernels.chunks import run_chunks

    rounds = 150_000
    for w in all_wagers():
        shoe = Shoe.standard(max(w.allowed_decks) if w.allowed_decks else 6)
        events: list[Any] = []
        got = job_work.run_reporting(
            w, shoe, rounds, 5, progress=events.append, prepared=partial(events.append, "prepared")
        )
        assert events[0] == "prepared", w.id
        done = events[1:]
        assert done == sorted(done) and done[-1] == rounds, w.id
        assert len(set(done)) >= -(-rounds // max(BLOCK, NUMPY_BLOCK)), (w.id, done)
        assert got == run_chunks(w, shoe, rounds, 5), w.id


def test_a_job_that_breaks_a_rule_fails_with_its_section() -> None:
    events: list[list[Any]] = []
    bad = job_work.Simulation(wager="jackpot-party", paytable="P1", decks=2, rounds=1000)
    job_work.run_job("k", bad, events.append)
    assert events[0] == ["status", "k", "preparing"]
    assert events[-1][0] == "failed" and events[-1][2]["section"] == "633b.2(b)"


def test_jobs_are_bounded_and_cancelled_when_the_server_stops(tmp_path: Path) -> None:
    """One job process, one job waiting: a third is a 503 (nothing of it kept); stopping the
    server stops the job process and cancels both jobs."""
    urls = new_db_url("sqlite", tmp_path)
    url = next(urls)
    make_ledger(url)
    env = {"CROUPIER_JOB_PROCESSES": "1", "CROUPIER_JOB_QUEUE": "1"}
    srv = Server(url, tmp_path / "server.log", env=env).start()
    try:
        long = {"wager": "axman", "paytable": "standard", "decks": 6, "rounds": 50_000_000}
        first = start_job(srv, **long)
        second = start_job(srv, **long, seed=2)
        third = httpx.post(
            f"{srv.base}/simulations", json={**long, "seed": 3}, headers=srv.auth(DEALER)
        )
        assert third.status_code == 503, third.text
        assert third.json()["error_type"] == "TooManyJobs"
        assert srv.proc is not None
        deadline = time.monotonic() + 120
        children: list[int] = []
        while not children and time.monotonic() < deadline:
            children = job_processes(srv.proc.pid)
            time.sleep(0.2)
        assert children, "the job process did not start"
        assert poll(srv, second["job"])["status"] == "queued"
    finally:
        srv.stop()
    for child in children:
        assert not alive(child), child
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = dict(conn.execute(sa.select(store.jobs.c.id, store.jobs.c.status)).all())
    finally:
        engine.dispose()
        urls.close()  # type: ignore[attr-defined]
    assert rows == {first["job"]: "cancelled", second["job"]: "cancelled"}


def test_a_job_process_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    urls = new_db_url("sqlite", tmp_path)
    url = next(urls)
    make_ledger(url)
    srv = Server(url, tmp_path / "server.log").start()
    try:
        start_job(srv, wager="axman", paytable="standard", decks=6, rounds=50_000_000)
        assert srv.proc is not None
        deadline = time.monotonic() + 120
        children: list[int] = []
        while not children and time.monotonic() < deadline:
            children = job_processes(srv.proc.pid)
            time.sleep(0.2)
        assert children
        os.kill(srv.proc.pid, signal.SIGKILL)  # as a power cut would
        srv.proc.wait(15)
        deadline = time.monotonic() + 30
        while any(alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(c) for c in children)
    finally:
        srv.kill()
        urls.close()  # type: ignore[attr-defined]
