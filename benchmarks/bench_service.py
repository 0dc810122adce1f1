"""Settle latency and throughput of ``croupier serve`` over loopback HTTP: 8 concurrent clients
posting round files (``POST /rounds/settle``) at a target rate for a bounded time, on a SQLite
file and on the PostgreSQL server, with and without a progressive (each round's $5 Jackpot Party
wager fed to one linked meter).

Run: ``python benchmarks/bench_service.py [--seconds 10] [--rate 200] [--clients 8]
[--backend sqlite|postgresql] [--progressive yes|no|both] [--workers 1]``. The issue's full run
is ``--seconds 60 --rate 200``. Each client sends on its own schedule (open loop: a slow answer
does not slow the schedule); a request's latency is from the moment it was sent to its answer.
Prints p50 / p99 / max in ms, the throughput achieved, errors, and the rounds stored and fed
(each round must be stored once: stored = sent), with the machine's load average. Goal of issue
16: p99 ≤ 20 ms. PostgreSQL: ``$CROUPIER_TEST_PG_URL`` or
``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (a fresh schema per run, dropped
afterwards). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import sqlalchemy as sa

from croupier.paytables import builtin_paytables
from croupier.progressive import Ledger, ProgressiveDefinition, Role

PG_URL = os.environ.get("CROUPIER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
TABLES = ["T1", "T2", "T3", "T4"]
SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "bench",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
        {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]},
    ],
}
HANDS = ["8s 8s", "Th 6c", "Ad Kd", "9h 9d", "5c 7s", "Qs Qc"]
DEALERS = ["Kd 9c", "Ah Kc", "7d Ts", "6s 5h Th"]


def round_body(rid: str, i: int) -> dict[str, Any]:
    """Two seats, Blackjack + Perfect Pairs + a $5 Jackpot Party wager each."""
    steps: list[dict[str, Any]] = []
    for seat in (2, 5):
        steps += [
            {"action": "bet", "seat": seat, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": seat, "wager": "perfect-pairs", "amount": "$5"},
            {"action": "bet", "seat": seat, "wager": "jackpot-party", "amount": "$5"},
        ]
    steps += [
        {"action": "no-more-bets"},
        {
            "action": "deal",
            "players": {"2": HANDS[i % len(HANDS)], "5": HANDS[(i + 3) % len(HANDS)]},
            "dealer": DEALERS[i % len(DEALERS)],
        },
        {"action": "settle"},
    ]
    return {"id": rid, "submission": SUBMISSION, "steps": steps}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def make_db(backend: str, tmp: Path) -> tuple[str, str | None]:
    """A fresh database URL (and the PostgreSQL schema to drop afterwards)."""
    if backend == "sqlite":
        return f"sqlite:///{tmp / 'bench.sqlite3'}", None
    schema = f"croupier_bench_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}", schema


def drop_schema(schema: str | None) -> None:
    if schema is None:
        return
    admin = sa.create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def run(
    backend: str, progressive: bool, seconds: float, rate: float, clients: int, workers: int
) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="croupier-bench-service-"))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data")}
    os.environ["XDG_DATA_HOME"] = env["XDG_DATA_HOME"]  # the PostgreSQL ledger key lives here
    url, schema = make_db(backend, tmp)
    password = secrets.token_urlsafe(16)
    with Ledger(url) as ledger:
        ledger.bootstrap("sam", password)
        ledger.add_user("dana", Role.DEALER, password, by="sam")
        defn = ProgressiveDefinition.from_paytable(
            builtin_paytables().get("633b.2", "P1", 6), decks=6, wager_cents=500, name="jp-5"
        )
        ledger.create_progressive(defn, tables=TABLES, by="sam")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "croupier",
            "serve",
            "--port",
            str(port),
            "--db",
            url,
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        token = httpx.post(f"{base}/token", data={"username": "dana", "password": password}).json()[
            "access_token"
        ]
        params = [("progressive", "jp-5")] if progressive else []
        latencies: list[float] = []
        errors: list[str] = []
        sent = [0]
        lock = threading.Lock()
        interval = clients / rate
        start = time.perf_counter() + 0.5

        def client(c: int) -> None:
            table = TABLES[c % len(TABLES)]
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
                i = 0
                while True:
                    due = start + (c / clients) * interval + i * interval
                    if due - start >= seconds:
                        return
                    delay = due - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)
                    rid = f"c{c}-{i}"
                    t0 = time.perf_counter()
                    try:
                        r = http.post(
                            "/rounds/settle",
                            params=[("table", table), *params],
                            json=round_body(rid, i),
                            headers={"Idempotency-Key": f"{table}/{rid}"},
                        )
                        ok = r.status_code == 201
                        why = f"{r.status_code} {r.text[:120]}"
                    except httpx.HTTPError as exc:
                        ok, why = False, repr(exc)
                    ms = (time.perf_counter() - t0) * 1000
                    with lock:
                        sent[0] += 1
                        latencies.append(ms)
                        if not ok:
                            errors.append(why)
                    i += 1

        threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.perf_counter() - start
        headers = {"Authorization": f"Bearer {token}"}
        stored = httpx.get(f"{base}/rounds", params={"limit": 1}, headers=headers).json()["count"]
        wagered = httpx.get(f"{base}/progressives/jp-5", headers=headers).json()["levels"][0][
            "wagered_cents"
        ]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        log.close()
        drop_schema(schema)
    lat = sorted(latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
    fed = wagered // (2 * 500)
    print(
        f"{backend:10s} progressive={'yes' if progressive else 'no ':3s} "
        f"sent {sent[0]:5d} in {took:5.1f} s ({sent[0] / took:6.1f}/s) "
        f"p50 {statistics.median(lat):6.1f} ms  p99 {p99:6.1f} ms  max {lat[-1]:7.1f} ms  "
        f"errors {len(errors)}  stored {stored}  fed {fed if progressive else '-'}  "
        f"load {os.getloadavg()[0]:.1f}"
    )
    for e in errors[:3]:
        print(f"    error: {e}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=200.0, help="rounds per second, all clients")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--backend", choices=["sqlite", "postgresql"], action="append")
    ap.add_argument("--progressive", choices=["yes", "no", "both"], default="both")
    args = ap.parse_args()
    seconds = min(args.seconds, 300.0)  # bounded
    modes = {"yes": [True], "no": [False], "both": [False, True]}[args.progressive]
    print(
        f"{args.clients} clients, target {args.rate:g} rounds/s for {seconds:g} s, "
        f"{args.workers} worker(s), {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    for backend in args.backend or ["sqlite", "postgresql"]:
        for progressive in modes:
            run(backend, progressive, seconds, args.rate, args.clients, args.workers)


if __name__ == "__main__":
    main()
