"""Settle latency and throughput of ``croupier serve`` over loopback HTTP: 8 concurrent clients
posting round files (``POST /rounds/settle``) at a target rate for a bounded time, on a SQLite
file and on the PostgreSQL server, with and without a progressive (each round's $5 Jackpot Party
wager fed to one linked meter).

Run: ``python benchmarks/bench_service.py [--seconds 10] [--rate 200] [--clients 8]
[--backend sqlite|postgresql] [--progressive yes|no|both] [--workers 1] [--switch-interval S]``.
The issue's full run is ``--seconds 60 --rate 200 --workers 2``.

Each client sends on its own fixed schedule (``rate / clients`` rounds a second; one keep-alive
connection, stdlib ``http.client`` so the load generator takes little of the cores it shares with
the server). A client has one request in flight: when the server falls behind, the schedule is not
kept — so the figures say both what was **offered** (the schedule's rate) and what was
**achieved** (rounds answered per second), and give two latencies: the *service time* (sent →
answered) and the *response time* (due on the schedule → answered: it counts the time a round
waited behind a slow one, which the service time hides). The goal of issue 16 — p99 ≤ 20 ms at
200 rounds/s — is met only if the achieved rate is the offered one and the response time's p99 is
within 20 ms. Also printed: errors, the rounds stored (each must be stored once: stored = distinct
= sent) and fed to the progressive, and the load average before and after (the machine may be
shared: a load above its core count inflates every figure). Warm-up rounds (a few per worker) are
not counted, nor are the rounds of the warm-up: ``--warmup`` seconds (5) of the same load on the
same connections before the measured time — the server's pools fill, its threads start, every
table's first round is past (the first second of load was a p99 of 60 ms where the rest were
15–25). Also printed: how the keep-alive connections are spread over the workers (each
connection stays with the worker that accepted it: a 5/3 split gives one worker five clients'
rounds). PostgreSQL: ``$CROUPIER_TEST_PG_URL`` or
``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (a fresh schema per run, dropped
afterwards). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import importlib
import json
import os
import secrets
import shutil
import signal
import socket
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


PLAIN_SUBMISSION: dict[str, Any] = {
    **SUBMISSION,
    "wagers": [w for w in SUBMISSION["wagers"] if w["wager"] != "jackpot-party"],
}
"""The same table without its Jackpot Party wager: a round the service feeds to no progressive
(a progressive wager always feeds one, the table's linked one by default)."""


def round_body(rid: str, i: int, jp: bool = True) -> dict[str, Any]:
    """Two seats, Blackjack + Perfect Pairs + (with ``jp``) a $5 Jackpot Party wager each;
    without ``jp`` under :data:`PLAIN_SUBMISSION`, so nothing is fed to a progressive."""
    steps: list[dict[str, Any]] = []
    for seat in (2, 5):
        steps += [
            {"action": "bet", "seat": seat, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": seat, "wager": "perfect-pairs", "amount": "$5"},
        ]
        if jp:
            steps.append({"action": "bet", "seat": seat, "wager": "jackpot-party", "amount": "$5"})
    steps += [
        {"action": "no-more-bets"},
        {
            "action": "deal",
            "players": {"2": HANDS[i % len(HANDS)], "5": HANDS[(i + 3) % len(HANDS)]},
            "dealer": DEALERS[i % len(DEALERS)],
        },
        {"action": "settle"},
    ]
    return {"id": rid, "submission": SUBMISSION if jp else PLAIN_SUBMISSION, "steps": steps}


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


def percentile(sorted_ms: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of sorted latencies: the value below which that share falls."""
    if not sorted_ms:
        return float("nan")
    return sorted_ms[min(len(sorted_ms) - 1, int(len(sorted_ms) * q))]


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` and its descendants (the uvicorn workers),
    from ``/proc`` (0 where it is not readable). Less disturbed by a busy machine than a
    latency: what a round costs the server, whatever waited meanwhile."""
    total = 0.0
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += tree_cpu(int(child))
    except (OSError, ValueError, IndexError):
        pass
    return total


def connections_by_worker(port: int) -> str:
    """How the clients' keep-alive connections are spread over the server's worker processes
    (``5/3``: one worker serves five of the eight, the other three). Every connection a worker
    accepted stays its own, and uvicorn's workers accept from one listening socket, each taking
    what is waiting when it wakes — so the split is the luck of the start, and a worker that
    serves more of the clients carries more of the rounds."""
    try:
        psutil: Any = importlib.import_module("psutil")  # untyped; comes with dask's distributed
    except ImportError:  # pragma: no cover
        return "?"
    counts: dict[int, int] = {}
    try:
        for c in psutil.net_connections(kind="tcp"):
            if c.status == "ESTABLISHED" and c.laddr and c.laddr.port == port and c.pid:
                counts[c.pid] = counts.get(c.pid, 0) + 1
    except (psutil.Error, OSError):
        return "?"
    return "/".join(str(n) for n in sorted(counts.values(), reverse=True)) or "?"


def client_loop(
    c: int,
    port: int,
    token: str,
    params: str,
    *,
    clients: int,
    rate: float,
    seconds: float,
    start: float,
    warmup: float,
    out: dict[str, list[Any]],
    lock: threading.Lock,
) -> None:
    """Client ``c``: its rounds on a fixed schedule (``rate / clients`` a second, offset so the
    clients interleave), one keep-alive connection (stdlib ``http.client``: the load generator
    shares the machine's cores with the server, so it is kept light)."""
    table = TABLES[c % len(TABLES)]
    interval = clients / rate
    origin = start - warmup  # the schedule starts with the warm-up, on the same connections
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    i = 0
    try:
        while True:
            due = origin + (c / clients) * interval + i * interval
            if due - start >= seconds:
                return
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            rid = f"c{c}-{i}"
            body = json.dumps(round_body(rid, i, jp=bool(params))).encode()
            headers = {
                "Authorization": f"Bearer {token}",
                "Content-Type": "application/json",
                "Idempotency-Key": f"{table}/{rid}",
            }
            sent = time.perf_counter()
            try:
                conn.request("POST", f"/rounds/settle?table={table}{params}", body, headers)
                resp = conn.getresponse()
                text = resp.read()
                ok = resp.status == 201
                why = f"{resp.status} {text[:120]!r}"
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                ok, why = False, repr(exc)
            done = time.perf_counter()
            with lock:
                if due < start:  # a warm-up round: stored, not counted
                    out["warm"].append(done)
                    if not ok:
                        out["errors"].append(why)
                    i += 1
                    continue
                out["service"].append((done - sent) * 1000)
                out["response"].append((done - max(due, start)) * 1000)
                out["finished"].append(done)
                if not ok:
                    out["errors"].append(why)
            i += 1
    finally:
        conn.close()


def run(
    backend: str,
    progressive: bool,
    seconds: float,
    rate: float,
    clients: int,
    workers: int,
    timeline: float = 0.0,
    warmup: float = 5.0,
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
    out: dict[str, list[Any]] = {
        "service": [],
        "response": [],
        "finished": [],
        "errors": [],
        "warm": [],
    }
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
        params = "&progressive=jp-5" if progressive else ""
        # warm every worker (imports, caches, pooled connections) outside the measured time
        warm = [f"w{j}" for j in range(4 * workers)]
        for rid in warm:
            httpx.post(
                f"{base}/rounds/settle?table={TABLES[0]}{params}",
                json=round_body(rid, 0, jp=progressive),
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": f"warm/{rid}"},
                timeout=60,
            )
        lock = threading.Lock()
        start = time.perf_counter() + 0.5 + warmup
        threads = [
            threading.Thread(
                target=client_loop,
                args=(c, port, token, params),
                kwargs={
                    "clients": clients,
                    "rate": rate,
                    "seconds": seconds,
                    "start": start,
                    "warmup": warmup,
                    "out": out,
                    "lock": lock,
                },
            )
            for c in range(clients)
        ]
        for t in threads:
            t.start()
        time.sleep(max(0.0, start - time.perf_counter()))
        load_before = os.getloadavg()[0]
        cpu_before = tree_cpu(proc.pid)
        time.sleep(min(seconds / 2, 5.0))
        split = connections_by_worker(port)
        for t in threads:
            t.join()
        took = max(out["finished"], default=start) - start
        cpu = tree_cpu(proc.pid) - cpu_before
        headers = {"Authorization": f"Bearer {token}"}
        stored = 0
        ids: set[str] = set()
        for table in TABLES:
            page = httpx.get(
                f"{base}/rounds", params={"table": table, "limit": 1}, headers=headers
            ).json()
            stored += page["count"]
            offset = 0
            while offset < page["count"]:
                chunk = httpx.get(
                    f"{base}/rounds",
                    params={"table": table, "limit": 1000, "offset": offset},
                    headers=headers,
                ).json()["rounds"]
                ids.update(f"{table}/{d['round']}" for d in chunk)
                offset += len(chunk)
        wagered = httpx.get(f"{base}/progressives/jp-5", headers=headers).json()["levels"][0][
            "wagered_cents"
        ]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        log.close()
        drop_schema(schema)
        shutil.rmtree(tmp, ignore_errors=True)
    sent = len(out["service"])
    svc = sorted(out["service"])
    resp = sorted(out["response"])
    offered = sent / seconds
    achieved = sent / took if took > 0 else float("nan")
    n_warm = len(warm) + len(out["warm"])  # the rounds posted one by one, then the warm-up's
    fed = wagered // (2 * 500) - (n_warm if progressive else 0)
    # the service time of the first and the last tenth of the rounds answered: a ledger that
    # slows as it grows shows here
    by_end = [ms for _, ms in sorted(zip(out["finished"], out["service"], strict=True))]
    tenth = max(1, len(by_end) // 10)
    first, last = sorted(by_end[:tenth]), sorted(by_end[-tenth:])
    once = stored - n_warm == len(ids) - n_warm == sent
    print(
        f"{backend:10s} progressive={'yes' if progressive else 'no ':3s} workers={workers} "
        f"offered {offered:6.1f}/s achieved {achieved:6.1f}/s ({sent} rounds in {took:5.1f} s)\n"
        f"    service time (sent → answer):    p50 {percentile(svc, 0.5):7.1f}  "
        f"p99 {percentile(svc, 0.99):7.1f}  max {svc[-1] if svc else float('nan'):7.1f} ms\n"
        f"    response time (due → answer):    p50 {percentile(resp, 0.5):7.1f}  "
        f"p99 {percentile(resp, 0.99):7.1f}  max {resp[-1] if resp else float('nan'):7.1f} ms\n"
        f"    server CPU {cpu / sent * 1000 if sent else float('nan'):.2f} ms a round; "
        f"service time p50 of the first tenth {percentile(first, 0.5):.1f} ms, of the last "
        f"{percentile(last, 0.5):.1f} ms\n"
        f"    errors {len(out['errors'])}  stored {stored - n_warm} "
        f"(distinct {len(ids) - n_warm}, sent {sent}: {'each once' if once else 'MISMATCH'})  "
        f"fed {fed if progressive else '-'}  load {load_before:.1f} → {os.getloadavg()[0]:.1f}"
        f"  connections by worker {split}"
    )
    for e in out["errors"][:3]:
        print(f"    error: {e}")
    if timeline > 0:  # the service time window by window: a transient shows here
        windows: dict[int, list[float]] = {}
        for done, ms in zip(out["finished"], out["service"], strict=True):
            windows.setdefault(int((done - start) // timeline), []).append(ms)
        wall0 = time.time() - (time.perf_counter() - start)  # the clock time of ``start``
        for w in sorted(windows):
            ms_w = sorted(windows[w])
            clock = time.strftime("%H:%M:%S", time.localtime(wall0 + w * timeline))
            print(
                f"      {w * timeline:6.1f} s ({clock})  {len(ms_w):5d} rounds"
                f"  p50 {percentile(ms_w, 0.5):6.1f}  p99 {percentile(ms_w, 0.99):6.1f}"
                f"  max {ms_w[-1]:6.1f} ms"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=200.0, help="rounds per second, all clients")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--backend", choices=["sqlite", "postgresql"], action="append")
    ap.add_argument("--progressive", choices=["yes", "no", "both"], default="both")
    ap.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds of the same load, on the same connections, before the measured time "
        "(not counted; default 5)",
    )
    ap.add_argument(
        "--timeline",
        type=float,
        default=0.0,
        metavar="S",
        help="also print the service time in windows of S seconds",
    )
    ap.add_argument(
        "--switch-interval",
        help="the server's GIL switch interval in seconds ($CROUPIER_SWITCH_INTERVAL; "
        "0: Python's 0.005; default croupier serve's own)",
    )
    args = ap.parse_args()
    if args.switch_interval is not None:
        os.environ["CROUPIER_SWITCH_INTERVAL"] = args.switch_interval
    seconds = min(args.seconds, 300.0)  # bounded
    modes = {"yes": [True], "no": [False], "both": [False, True]}[args.progressive]
    print(
        f"{args.clients} clients, target {args.rate:g} rounds/s for {seconds:g} s, "
        f"after {args.warmup:g} s of warm-up, {args.workers} worker(s), {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.1f}, "
        f"server switch interval {args.switch_interval or 'croupier serve default'}"
    )
    for backend in args.backend or ["sqlite", "postgresql"]:
        for progressive in modes:
            run(
                backend,
                progressive,
                seconds,
                args.rate,
                args.clients,
                args.workers,
                args.timeline,
                min(args.warmup, 60.0),
            )


if __name__ == "__main__":
    main()
