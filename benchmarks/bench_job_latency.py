"""What a simulation job takes from the tables: the latency of ``GET /tables/T-1`` (a dealer's
screen reading its table) before and while a job runs, with ``--workers 1``.

The trial measured a 5M-round AxMan job started by a dealer raising the median from 62 ms to
171 ms (max 1.06 s) when jobs ran in the serving process. Jobs now run in processes of their own
at a lower priority (:mod:`croupier.service.job_runner`): the serving process's own CPU time
while the job runs is printed beside the latencies (it should pay for the requests only).

Run: ``python benchmarks/bench_job_latency.py [--seconds 10] [--rounds 5000000]
[--backend sqlite|postgresql]``. One client reads the table every 50 ms: ``--seconds`` before the
job, then while it runs (at most ``--seconds × 6``). The machine may be shared: the load average
is printed too. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from bench_service import SUBMISSION, drop_schema, free_port, make_db

from croupier.progressive import Ledger, Role


def sample(c: httpx.Client, token: str, until: float) -> list[float]:
    """Milliseconds of each ``GET /tables/T-1`` until the monotonic time ``until``."""
    out = []
    while time.monotonic() < until:
        t = time.perf_counter()
        r = c.get("/tables/T-1", headers={"Authorization": f"Bearer {token}"})
        out.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, r.text
        time.sleep(0.05)
    return out


def show(label: str, ms: list[float]) -> None:
    q = statistics.quantiles(ms, n=20)
    print(
        f"{label:<14} n={len(ms):4d}  median {statistics.median(ms):7.1f} ms  "
        f"p95 {q[18]:7.1f} ms  max {max(ms):7.1f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=5_000_000)
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="croupier-bench-jobs-"))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data")}
    os.environ["XDG_DATA_HOME"] = env["XDG_DATA_HOME"]
    url, schema = make_db(args.backend, tmp)
    password = secrets.token_urlsafe(16)
    with Ledger(url) as ledger:
        ledger.bootstrap("sam", password)
        ledger.add_user("dana", Role.DEALER, password, by="sam")
        ledger.add_user("pat", Role.PIT_MANAGER, password, by="sam")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (tmp / "server.log").open("wb") as log:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "croupier", "serve", "--port", str(port), "--db", url),
                *("--workers", "1", "--log-level", "warning"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        with httpx.Client(base_url=base, timeout=60) as c:
            for _ in range(600):
                try:
                    if c.get("/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            tokens = {
                u: c.post("/token", data={"username": u, "password": password}).json()[
                    "access_token"
                ]
                for u in ("dana", "pat")
            }
            opened = c.post(
                "/tables",
                json={"table": "T-1", "submission": SUBMISSION},
                headers={"Authorization": f"Bearer {tokens['pat']}", "Idempotency-Key": "open"},
            )
            assert opened.status_code == 201, opened.text
            load = os.getloadavg()[0]
            idle = sample(c, tokens["dana"], time.monotonic() + args.seconds)
            spec = {"wager": "axman", "paytable": "standard", "decks": 6, "rounds": args.rounds}
            own, started = _own_cpu(proc.pid), time.monotonic()
            job = c.post(
                "/simulations", json=spec, headers={"Authorization": f"Bearer {tokens['dana']}"}
            ).json()
            busy: list[float] = []
            end = time.monotonic() + 6 * args.seconds
            status = job["status"]
            while status in ("queued", "preparing", "running") and time.monotonic() < end:
                busy += sample(c, tokens["dana"], time.monotonic() + 1.0)
                status = c.get(f"/simulations/{job['job']}").json()["status"]
            print(f"load average {load:.2f} → {os.getloadavg()[0]:.2f} (the machine's cores: "
                  f"{os.cpu_count()})")  # fmt: skip
            show("no job", idle)
            show(f"job {status}", busy)
            print(
                f"while the job ran ({time.monotonic() - started:.1f} s): the server's own CPU "
                f"{_own_cpu(proc.pid) - own:.2f} s"
            )
    finally:
        proc.terminate()
        proc.wait(30)
        drop_schema(schema)


def _own_cpu(pid: int) -> float:
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
