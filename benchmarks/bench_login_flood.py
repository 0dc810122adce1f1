"""A flood of guessed logins from one address, and a member logging in from it meanwhile.

Run: ``python benchmarks/bench_login_flood.py [--seconds 10] [--flooders 4] [--pace-max 2]``.
A live ``croupier serve --trusted-proxy 127.0.0.1/32`` on a fresh SQLite ledger; every request
says it is from 203.0.113.9 (``X-Forwarded-For``), the pit behind one NAT address. 20 guesses
pace the address (1 s, doubling to ``--pace-max``); then ``--flooders`` threads send guesses as
fast as they are answered for ``--seconds``, while a floor supervisor logs in — once with no
terminal mark (retrying after each ``Retry-After``), once with the mark of an earlier login
(``Croupier-Terminal``). Prints the answers the flood got, the guesses checked (failures
recorded past the 20), and how long each member login took and how many tries. Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from croupier.progressive import Ledger, Role

NAT = {"X-Forwarded-For": "203.0.113.9"}
MEMBER, MEMBER_SECRET = "flo", "floor-secret-0"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _login(c: httpx.Client, user: str, password: str, mark: str | None = None) -> httpx.Response:
    headers = {**NAT, **({"Croupier-Terminal": mark} if mark else {})}
    return c.post("/token", data={"username": user, "password": password}, headers=headers)


def _member(base: str, stop: float, mark: str | None) -> tuple[float | None, int]:
    """Seconds until the member is in (``None``: not by ``stop``) and the tries it took."""
    start, tries = time.monotonic(), 0
    with httpx.Client(base_url=base, timeout=60) as c:
        while time.monotonic() < stop:
            tries += 1
            r = _login(c, MEMBER, MEMBER_SECRET, mark)
            if r.status_code == 200:
                return time.monotonic() - start, tries
            time.sleep(int(r.headers.get("Retry-After", "1")))
    return None, tries


def _round(base: str, seconds: float, flooders: int, mark: str | None) -> str:
    stop = time.monotonic() + seconds
    counts: dict[int, int] = {}
    lock = threading.Lock()

    def flood(k: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as c:
            while time.monotonic() < stop:
                code = _login(c, f"guess{k}", "guess").status_code
                with lock:
                    counts[code] = counts.get(code, 0) + 1

    threads = [threading.Thread(target=flood, args=(k,)) for k in range(flooders)]
    for th in threads:
        th.start()
    took, tries = _member(base, stop, mark)
    for th in threads:
        th.join()
    shown = "not in" if took is None else f"in after {took:.2f} s"
    return f"flood answers {counts}; member {'with' if mark else 'without'} mark: {shown}, {tries} tries"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--flooders", type=int, default=4)
    ap.add_argument("--pace-max", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="login-flood-"))
    url = f"sqlite:///{tmp / 'ledger.sqlite3'}"
    with Ledger(url) as ledger:
        ledger.bootstrap("sam", "shift-secret-0")
        ledger.add_user(MEMBER, Role.FLOORPERSON, MEMBER_SECRET, by="sam")
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "CROUPIER_LOGIN_CLIENT_FAILURES": "20",
        "CROUPIER_LOGIN_CLIENT_PACE": "1",
        "CROUPIER_LOGIN_CLIENT_PACE_MAX": str(args.pace_max),
    }
    cmd = [sys.executable, "-m", "croupier", "serve", "--port", str(port), "--db", url]
    cmd += ["--trusted-proxy", "127.0.0.1/32", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=60) as c:
            mark = c.post("/token", data={"username": MEMBER, "password": MEMBER_SECRET}).json()
            for i in range(20):
                _login(c, f"nobody{i}", "guess")
        for use in (None, mark["terminal"]):
            print(_round(base, args.seconds, args.flooders, use))
        with Ledger(url) as ledger:
            failures = sum(
                1 for e in ledger.history() if e.event.detail.get("code") == "login-failure"
            )
        print(f"guesses checked past the 20: {failures - 20} in {2 * args.seconds:g} s of flood")
    finally:
        proc.terminate()
        proc.wait(15)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
