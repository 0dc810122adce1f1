"""Read time of a progressive's meters as the ledger grows: ``GET /progressives/{name}`` (what a
floorperson's screen or accounting polls) at 1k, 3k and 10k settled rounds, on a SQLite file and
on the PostgreSQL server (issue 16: 5.7 s at 3,000 rounds under load, the whole log replayed).

Run: ``python benchmarks/bench_progressive_read.py [--rounds 1000,3000,10000] [--reads 20]
[--read-seconds 30] [--max-seconds 300] [--replay] [--backend sqlite|postgresql]``.

One ledger per backend with the $1 Match the Dealer progressive (§ 633b.3 paytable 1, six decks)
linked to four tables; rounds of three seats are played through the whole procedure
(:meth:`ProgressiveSystem.play_round`: accept, lock-out, chip count, settlement — odds lines on
~18% of seats, a 10% share on ~2%, each validated by a floorperson as it comes). At each count the
read is timed ``--reads`` times, two ways:

* ``handler ms`` — the route's body (``croupier.service.routes.progressives._status``: the progressive's
  status and § 605a.7(a) meter set as JSON), on the ledger object the server holds;
* ``http ms`` — the whole ``GET /progressives/{name}`` through the FastAPI application
  in-process (Starlette's test client: routing, bearer token, JSON), the ledger opened as
  ``croupier serve`` opens it;
* ``replay ms`` (with ``--replay``) — what the route did before the running totals (issue 16):
  the status and the meters replayed from the whole log (:meth:`Ledger.replay_meters`), timed
  in the same run, at the same load, for comparison.

Prints the median and the fastest of each, the ledger's events, and the load average (2 cores
shared: compare figures at a like load). Filling stops at ``--max-seconds`` (the counts not
reached are said); the reads per count are bounded by ``--reads`` and, past three, by
``--read-seconds`` (a slow read is timed fewer times). PostgreSQL:
``$CROUPIER_TEST_PG_URL`` or ``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (a fresh
schema per run, dropped afterwards). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa
from argon2 import PasswordHasher

from croupier.paytables import builtin_paytables
from croupier.progressive import AwardStatus, Ledger, ProgressiveDefinition, QualifyingHand, Role
from croupier.progressive.staff import use_hasher
from croupier.progressive.views import status_dict
from croupier.service.app import ServiceConfig, create_app
from croupier.service.routes.progressives import _status

with warnings.catch_warnings():  # Starlette's note on its test client's HTTP library
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PG_URL = os.environ.get("CROUPIER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
TABLES = ["T1", "T2", "T3", "T4"]
SEATS = 3
NAME = "linked"


def hands(i: int) -> list[QualifyingHand]:
    """Match the Dealer outcomes of round ``i`` (odds lines mostly, a few 10% shares)."""
    rng = random.Random(i)
    out = []
    for p in range(1, SEATS + 1):
        roll = rng.random()
        if roll < 0.02:
            out.append(QualifyingHand(p, "two-suited-match"))
        elif roll < 0.20:
            out.append(QualifyingHand(p, rng.choice(["suited-match", "non-suited-match"])))
    return out


def setup(url: str) -> None:
    """The staff and the progressive."""
    use_hasher(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    with Ledger(url) as ledger:
        ledger.bootstrap("sam", "sam-secret")
        ledger.add_user("dana", Role.DEALER, "dana-secret", by="sam")
        ledger.add_user("flo", Role.FLOORPERSON, "flo-secret", by="sam")
        t = builtin_paytables().get("633b.3", "1", 6)
        defn = ProgressiveDefinition.from_paytable(t, decks=6, wager_cents=100, name=NAME)
        ledger.create_progressive(defn, tables=TABLES, by="sam")


def fill(ledger: Ledger, start: int, stop: int, deadline: float) -> int:
    """Play rounds ``start`` … ``stop - 1`` (validating each share award); the next round's
    number (less than ``stop`` when ``deadline`` passed first)."""
    system = ledger.system(NAME)
    positions = list(range(1, SEATS + 1))
    i = start
    while i < stop and time.monotonic() < deadline:
        rid = f"r{i}"
        s = system.play_round(
            rid, TABLES[i % len(TABLES)], positions, hands(i), idempotency_key=rid, by="dana"
        )
        for a in s.awards:
            if a.status is AwardStatus.PENDING:
                ledger.validate(a.id, by="flo")
        i += 1
    return i


def timed(read: Callable[[], object], reads: int, budget: float) -> tuple[float, float, int]:
    """Median and fastest milliseconds of ``reads`` calls of ``read`` (after one untimed), and
    how many were made: fewer (at least three) when they took more than ``budget`` seconds."""
    read()
    times: list[float] = []
    end = time.monotonic() + budget
    while len(times) < reads and (len(times) < 3 or time.monotonic() < end):
        t0 = time.perf_counter()
        read()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times), len(times)


def run(
    url: str,
    counts: list[int],
    reads: int,
    max_seconds: float,
    read_seconds: float,
    backend: str,
    replay: bool,
) -> None:
    """Fill the ledger at ``url`` to each of ``counts`` and print the read times there."""
    setup(url)
    deadline = time.monotonic() + max_seconds
    filler = Ledger(url, migrate=False)
    with TestClient(create_app(ServiceConfig(db=url))) as client:
        got = client.post("/token", data={"username": "flo", "password": "flo-secret"})
        headers = {"Authorization": f"Bearer {got.json()['access_token']}"}
        served: Ledger = client.app.state.ledger  # type: ignore[attr-defined]

        def http() -> None:
            r = client.get(f"/progressives/{NAME}", headers=headers)
            assert r.status_code == 200, r.text

        played = 0
        for n in counts:
            t0 = time.monotonic()
            played = fill(filler, played, n, deadline)
            filled = time.monotonic() - t0
            if played < n:
                print(f"{backend:<11} {n:>7}  not reached: {played} rounds in --max-seconds")
                break
            h_med, h_min, h_n = timed(lambda: _status(served, NAME), reads, read_seconds)
            w_med, w_min, w_n = timed(http, reads, read_seconds)
            replayed = ""
            if replay:
                r_med, r_min, r_n = timed(
                    lambda: status_dict(served.status(NAME), served.replay_meters(NAME)),
                    reads,
                    read_seconds,
                )
                replayed = f" {r_med:>9.1f} {r_min:>8.1f}"
            print(
                f"{backend:<11} {n:>7} {served.event_count():>7} {h_med:>10.1f} {h_min:>8.1f} "
                f"{w_med:>8.1f} {w_min:>8.1f}{replayed}   ({h_n}+{w_n}"
                f"{f'+{r_n}' if replay else ''} reads; filled in {filled:.0f} s)"
            )
    filler.close()


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


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", default="1000,3000,10000", help="the counts read at (1000,3000,10000)"
    )
    parser.add_argument("--reads", type=int, default=20, help="timed reads per count (20)")
    parser.add_argument(
        "--max-seconds", type=float, default=300.0, help="filling time per backend (300)"
    )
    parser.add_argument(
        "--read-seconds",
        type=float,
        default=30.0,
        help="time for each count's reads of one kind; at least 3 reads (30)",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="also time the read as it was: the meters replayed from the whole log",
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], action="append")
    args = parser.parse_args()
    counts = sorted(int(c) for c in args.rounds.split(","))
    home = tempfile.mkdtemp(prefix="croupier-bench-")
    os.environ["XDG_DATA_HOME"] = home  # the ledger keys of the PostgreSQL schemas
    print(f"load average {load()} (before)")
    print(f"{'backend':<11} {'rounds':>7} {'events':>7} {'handler ms':>10} {'fastest':>8} "
          f"{'http ms':>8} {'fastest':>8}"
          + (f" {'replay ms':>9} {'fastest':>8}" if args.replay else ""))  # fmt: skip
    for backend in args.backend or ["sqlite", "postgresql"]:
        schema = None
        if backend == "sqlite":
            url = f"sqlite:///{Path(home) / 'read.sqlite3'}"
        else:
            url, schema = pg_url()
        try:
            run(url, counts, args.reads, args.max_seconds, args.read_seconds, backend, args.replay)
        finally:
            if schema is not None:
                drop(schema)
    print(f"load average {load()} (after)")


if __name__ == "__main__":
    main()
