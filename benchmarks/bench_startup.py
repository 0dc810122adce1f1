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
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command, median kept (7)")
    args = parser.parse_args()
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
