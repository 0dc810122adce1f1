"""Start-up of the ``croupier`` command: wall time of whole processes, almost all of it imports.

Run: ``python benchmarks/bench_startup.py [--runs N]``. Each command is run ``N`` times (after one
warm-up run that fills the OS file cache and Python's bytecode cache — ``PYTHONDONTWRITEBYTECODE``
is left out of the runs' environment, as an installed package has its bytecode) as a fresh
subprocess; the median and the fastest wall time are printed, and the medians of the process's
user+system and user CPU time (steadier on a shared machine). Also prints the imports of
``croupier settle`` that cost the most (``python -X importtime``). Prints figures; asserts nothing.

The issue-14 targets: ``--version`` and ``--help`` ≤ 0.3 s, one small ``settle`` ≤ 0.5 s (the
Baccarat coup of ``examples/rounds/baccarat.json``: no numpy, two paytable files, two wager
modules; a Blackjack round's wagers import numpy with their vectorised kernels).

``croupier serve`` (issue 33; ``--serve-runs N``, 0 to skip): the time from the process's start
to its first ``/health`` 200 (asked every 10 ms over loopback), on a SQLite ledger made once
before the runs with a shift manager, a dealer and a linked progressive (so the start-up
self-check audits a ledger with events, as the tests' servers do), the median and fastest over
the runs; and the CPU seconds (user + system) of the server process at that moment (read from
``/proc``) and over its whole life to a SIGTERM (``os.wait4``: that child alone). The test suite
starts ``croupier serve`` about 85 times.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUND = ROOT / "examples" / "rounds" / "baccarat.json"
BLACKJACK = ROOT / "examples" / "rounds" / "blackjack.json"

COMMANDS: dict[str, list[str]] = {
    "--version": ["--version"],
    "--help": ["--help"],
    "settle (one small round)": ["settle", str(ROUND)],
    "settle (one Blackjack round)": ["settle", str(BLACKJACK)],
    "hand (one Perfect Pairs hand)": ["hand", "perfect-pairs", "Ah As", "-p", "A", "-d", "6"],
}


def croupier() -> list[str]:
    """The console script of this environment, else ``python -m croupier``."""
    script = shutil.which("croupier", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "croupier"]


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The runs' environment: bytecode is cached, as in an installed package (with
``PYTHONDONTWRITEBYTECODE`` set every run would compile every module from source again)."""


def timed(argv: list[str]) -> tuple[float, float, float]:
    """Wall, CPU (user + system) and user CPU seconds of one run of ``argv`` (its children)."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    wall = time.perf_counter() - start
    after = os.times()
    user = after.children_user - before.children_user
    cpu = user + (after.children_system - before.children_system)
    return wall, cpu, user


def heaviest_imports(argv: list[str], top: int = 12) -> list[tuple[float, str]]:
    """The packages (a croupier subpackage, or a third-party top-level package) whose import took
    longest for ``argv``: (cumulative seconds at the package's first import, name)."""
    code = (
        "import sys; from croupier.__main__ import main; "
        f"sys.argv = {['croupier', *argv]!r}; main()"
    )
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    best: dict[str, float] = {}
    for line in run.stderr.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        _, cumulative, name = line.split("|")
        if not cumulative.strip().isdigit():
            continue
        parts = name.strip().split(".")
        key = ".".join(parts[:2]) if parts[0] == "croupier" else parts[0]
        best[key] = max(best.get(key, 0.0), int(cumulative) / 1e6)
    return sorted(((t, k) for k, t in best.items()), reverse=True)[:top]


def serve_ledger(tmp: Path) -> str:
    """A SQLite ledger under ``tmp`` with staff and one progressive linked to a table (its URL);
    made in a child process, so this one imports none of croupier."""
    url = f"sqlite:///{tmp / 'ledger.sqlite3'}"
    code = (
        "import sys\n"
        "from croupier.paytables import builtin_paytables\n"
        "from croupier.progressive import Ledger, ProgressiveDefinition, Role\n"
        "with Ledger(sys.argv[1]) as ledger:\n"
        "    ledger.bootstrap('sam', 'bench-secret-1')\n"
        "    ledger.add_user('dana', Role.DEALER, 'bench-secret-2', by='sam')\n"
        "    table = builtin_paytables().get('633b.2', 'P1', 6)\n"
        "    defn = ProgressiveDefinition.from_paytable(table, decks=6, wager_cents=500, "
        "name='jp-5')\n"
        "    ledger.create_progressive(defn, tables=['T1'], by='sam')\n"
    )
    subprocess.run([sys.executable, "-c", code, url], check=True, env=ENV)
    return url


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (``/proc``; NaN elsewhere)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def healthy(port: int) -> bool:
    """Whether ``GET /health`` on ``port`` answers 200 now."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/health")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def serve_once(url: str, tmp: Path) -> tuple[float, float, float]:
    """One ``croupier serve`` on ``url``: (wall seconds from start to the first ``/health`` 200,
    its CPU seconds then, its CPU seconds over its life to a SIGTERM)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    argv = [*croupier(), "serve", "--port", str(port), "--db", url, "--log-level", "warning"]
    env = {**ENV, "XDG_DATA_HOME": str(tmp / "data")}
    start = time.perf_counter()
    with (tmp / "serve.log").open("ab") as log:
        child = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        while not healthy(port):
            if child.poll() is not None or time.perf_counter() - start > 60:
                raise SystemExit(f"croupier serve did not answer: see {tmp / 'serve.log'}")
            time.sleep(0.01)
        wall = time.perf_counter() - start
        at_health = proc_cpu(child.pid)
    finally:
        child.send_signal(signal.SIGTERM)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, at_health, usage.ru_utime + usage.ru_stime


def serve_startup(runs: int) -> None:
    """Print the median (fastest) start-to-``/health`` wall time and CPU of ``croupier serve``."""
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as name:
        tmp = Path(name)
        (tmp / "data").mkdir()
        url = serve_ledger(tmp)
        serve_once(url, tmp)  # warm-up: file caches, bytecode, the service's own tables
        results = [serve_once(url, tmp) for _ in range(runs)]
    walls = [w for w, _, _ in results]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"croupier serve (SQLite ledger, staff and a progressive), {runs} runs (load {load}):")
    print(
        f"  start to /health 200: {statistics.median(walls):6.3f} s ({min(walls):.3f})   "
        f"cpu then {statistics.median(c for _, c, _ in results):.3f} s   "
        f"cpu to exit {statistics.median(c for _, _, c in results):.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command, median kept (7)")
    parser.add_argument(
        "--serve-runs",
        type=int,
        default=5,
        help="runs of `croupier serve` to its first /health 200, median kept (5; 0: skip)",
    )
    parser.add_argument(
        "--serve-only", action="store_true", help="only the `croupier serve` figures"
    )
    args = parser.parse_args()
    if args.serve_runs > 0:
        serve_startup(args.serve_runs)
    if args.serve_only:
        return
    base = croupier()
    print(
        f"{' '.join(base)}: median (fastest) wall seconds over {args.runs} runs; median CPU "
        "(user + system) and user CPU seconds"
    )
    for label, extra in COMMANDS.items():
        timed([*base, *extra])  # warm-up
        runs = [timed([*base, *extra]) for _ in range(args.runs)]
        walls = [w for w, _, _ in runs]
        cpu = statistics.median(c for _, c, _ in runs)
        user = statistics.median(u for _, _, u in runs)
        print(
            f"  {label:32} {statistics.median(walls):6.3f} s ({min(walls):.3f})   cpu {cpu:.3f} s"
            f"   user {user:.3f} s"
        )
    print("packages imported by `croupier settle`, by cumulative import time (one run, nested")
    print("packages counted inside the ones that import them; -X importtime):")
    for seconds, name in heaviest_imports(COMMANDS["settle (one small round)"]):
        print(f"  {seconds:6.3f} s  {name}")


if __name__ == "__main__":
    main()
