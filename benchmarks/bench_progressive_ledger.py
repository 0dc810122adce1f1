"""Latency of the progressive ledger under concurrent writers: milliseconds per settled round
(a whole round — wagers accepted, lock-out, chip count, settlement — as ``croupier settle
--progressive`` feeds it, :meth:`ProgressiveSystem.play_round`), with 1 and 4 writer processes,
one per linked table, all on one meter, on a SQLite file and on the PostgreSQL server.

Run: ``python benchmarks/bench_progressive_ledger.py [--rounds N] [--backend sqlite|postgresql]``.
Prints p50 / p99 / max over every round, the writer processes' CPU per round (``cpu ms``: the
client's share of the work, what a quiet machine's latency is made of besides the database's own
CPU and fsync), and each writer's rounds and p99 (no writer starved: each writer's p99 is of the
same order), with the machine's load average before and after (the figures are only comparable at
a like load). Goal of issue 12: p99 ≤ 50 ms with 4 writers on both. A last row per backend
(``8t``, ``--threads``) runs the writers as threads of one process feeding through the ledger's
group commit (:mod:`croupier.progressive.feeder`, as ``croupier serve`` does) and prints the
rounds settled per commit.
PostgreSQL: ``$CROUPIER_TEST_PG_URL`` or ``postgresql+psycopg://postgres@127.0.0.1:5432/test``
(a fresh schema per run, dropped afterwards). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa
from argon2 import PasswordHasher

from croupier.paytables import builtin_paytables
from croupier.progressive import Ledger, ProgressiveDefinition, QualifyingHand, Role
from croupier.progressive.feeder import feeder_of
from croupier.progressive.staff import use_hasher

PG_URL = os.environ.get("CROUPIER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
TABLES = ["T1", "T2", "T3", "T4"]
SEATS = 3


def hands(table: str, i: int) -> list[QualifyingHand]:
    """Match the Dealer outcomes of round ``i`` at ``table`` (odds lines mostly, a few 10%)."""
    rng = random.Random(f"{table}:{i}")
    out = []
    for p in range(1, SEATS + 1):
        roll = rng.random()
        if roll < 0.02:
            out.append(QualifyingHand(p, "two-suited-match"))
        elif roll < 0.20:
            out.append(QualifyingHand(p, rng.choice(["suited-match", "non-suited-match"])))
    return out


def writer(
    url: str,
    table: str,
    rounds: int,
    start: float,
    queue: multiprocessing.Queue[tuple[str, list[float], float]],
) -> None:
    """Settle ``rounds`` rounds at ``table``; put (table, [milliseconds per round], CPU ms)."""
    ledger = Ledger(url, migrate=False)
    system = ledger.system("linked")
    positions = list(range(1, SEATS + 1))
    while time.time() < start:
        time.sleep(0.001)
    times = []
    cpu = time.process_time()
    for i in range(rounds):
        rid = f"{table}/{i}"
        t0 = time.perf_counter()
        system.play_round(rid, table, positions, hands(table, i), idempotency_key=rid, by="dana")
        times.append((time.perf_counter() - t0) * 1000)
    cpu = (time.process_time() - cpu) * 1000
    ledger.close()
    queue.put((table, times, cpu))


def setup(url: str) -> None:
    use_hasher(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    with Ledger(url) as ledger:
        ledger.bootstrap("sam", "sam-secret")
        ledger.add_user("dana", Role.DEALER, "dana-secret", by="sam")
        t = builtin_paytables().get("633b.3", "1", 6)
        defn = ProgressiveDefinition.from_paytable(t, decks=6, wager_cents=100, name="linked")
        ledger.create_progressive(defn, tables=TABLES, by="sam")


def run(url: str, writers: int, rounds: int) -> tuple[dict[str, list[float]], float]:
    """Every writer's milliseconds per round, and the writers' CPU milliseconds per round."""
    setup(url)
    ctx = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[tuple[str, list[float], float]] = ctx.Queue()
    start = time.time() + 2.0  # every writer imported and connected before the first round
    procs = [
        ctx.Process(target=writer, args=(url, table, rounds, start, queue))
        for table in TABLES[:writers]
    ]
    for p in procs:
        p.start()
    got = [queue.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    with Ledger(url) as ledger:
        ledger.audit()  # every round applied once, the chain intact
    per = {table: times for table, times, _ in got}
    return per, sum(cpu for _, _, cpu in got) / (writers * rounds)


def run_threads(url: str, threads: int, rounds: int) -> tuple[list[float], float, float]:
    """``threads`` writer threads in one process, one per table (cycling over four), feeding
    through the ledger's group commit (:meth:`ProgressiveSystem.play_new_round`, what ``croupier
    serve`` does): every round's milliseconds, the process's CPU milliseconds per round and the
    rounds settled per commit."""
    setup(url)
    ledger = Ledger(url, migrate=False)
    ledger.definition("linked")  # the object holds the definition, as a warm server does
    positions = list(range(1, SEATS + 1))
    times: list[float] = []
    gate = threading.Barrier(threads)

    def one(n: int) -> None:
        table = TABLES[n % len(TABLES)]
        system = ledger.system("linked")
        gate.wait()
        for i in range(rounds):
            rid = f"{table}/{n}-{i}"
            qh = hands(table, n * rounds + i)
            t0 = time.perf_counter()
            done = system.play_new_round(rid, table, positions, qh, idempotency_key=rid, by="dana")
            if done is None:  # not the common case: the step-by-step procedure
                system.play_round(rid, table, positions, qh, idempotency_key=rid, by="dana")
            times.append((time.perf_counter() - t0) * 1000)

    cpu = time.process_time()
    pool = [threading.Thread(target=one, args=(n,)) for n in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    cpu = (time.process_time() - cpu) * 1000
    lane = feeder_of(ledger).lane
    per_commit = lane.rounds / lane.batches if lane.batches else float("nan")
    ledger.audit()  # every round applied once, the chain intact
    ledger.close()
    return times, cpu / (threads * rounds), per_commit


def load() -> str:
    """The 1, 5 and 15 minute load averages (2 cores shared: compare figures at a like load)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def pg_url() -> tuple[str, str]:
    schema = f"croupier_bench_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}", schema


def drop(schema: str) -> None:
    admin = sa.create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds per writer (200)")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], action="append")
    parser.add_argument(
        "--threads", type=int, default=8, help="writer threads of the group-commit row (8; 0: none)"
    )
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="croupier-bench-")
    os.environ["XDG_DATA_HOME"] = home  # the ledger keys of the PostgreSQL schemas
    print(f"load average {load()} (before)")
    print(f"{'backend':<11} {'writers':>7} {'rounds':>6} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'cpu ms':>6}  per writer: rounds, p99 ms")  # fmt: skip
    for backend in args.backend or ["sqlite", "postgresql"]:
        for writers in (1, 4):
            schema = None
            if backend == "sqlite":
                url = f"sqlite:///{Path(home) / f'bench-{writers}.sqlite3'}"
            else:
                url, schema = pg_url()
            try:
                per, cpu = run(url, writers, args.rounds)
            finally:
                if schema is not None:
                    drop(schema)
            times = [ms for v in per.values() for ms in v]
            each = ", ".join(f"{t} {len(v)}, {pct(v, 0.99):.1f}" for t, v in sorted(per.items()))
            print(
                f"{backend:<11} {writers:>7} {len(times):>6} {statistics.median(times):>7.1f} "
                f"{pct(times, 0.99):>7.1f} {max(times):>7.1f} {cpu:>6.2f}  {each}"
            )
        if args.threads > 0:
            schema = None
            if backend == "sqlite":
                url = f"sqlite:///{Path(home) / 'bench-threads.sqlite3'}"
            else:
                url, schema = pg_url()
            try:
                times, cpu, per_commit = run_threads(url, args.threads, args.rounds)
            finally:
                if schema is not None:
                    drop(schema)
            print(
                f"{backend:<11} {str(args.threads) + 't':>7} {len(times):>6} "
                f"{statistics.median(times):>7.1f} {pct(times, 0.99):>7.1f} {max(times):>7.1f} "
                f"{cpu:>6.2f}  threads of one process, group commit: {per_commit:.1f} rounds a "
                "commit"
            )
    print(f"load average {load()} (after)")


if __name__ == "__main__":
    main()
