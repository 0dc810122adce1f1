"""Timings of ``croupier parsheet`` (the project's main job, issue 33): CPU seconds (user + system)
and peak memory of the whole command in a child process (``os.wait4``'s resource usage of that
child alone), the median of several runs beside the goal, with the load average (the machine may
be shared: CPU time, not wall time, is the figure to compare), then its parts in one process.

The commands: ``croupier parsheet --summary`` and ``croupier parsheet`` from the shipped counts
(croupier.analysis.precomputed), ``croupier parsheet --summary --out DIR`` (the files and the HTML
report with its charts, into a temporary folder) and ``CROUPIER_RECOUNT=1 croupier parsheet
--summary`` (every count made afresh). Output goes to a pipe (no TTY) with ``COLUMNS=120``.

With ``--test-command`` it then times the README's test command, ``python -m pytest`` (pytest-xdist
on every core, the slow checks left out as the README runs it), once, from the project's root:
wall seconds beside the goal of 5 minutes on two cores, and the CPU seconds of every process it
ran (the tests' servers and commands included).

Run: ``python benchmarks/bench_parsheet.py [--runs N] [--report-runs N] [--recount-runs N]
[--no-parts] [--test-command]``. Prints figures; asserts nothing. With ``PYTHONDONTWRITEBYTECODE``
set every run compiles croupier's sources afresh (about 0.15 s of CPU more than an installed
croupier): the line above the figures says which.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial

REPORT = "{report}"
"""Where a command line takes the report's folder (a fresh temporary one each run)."""

GOALS: dict[str, tuple[list[str], bool, float | None, float | None]] = {
    # label: (command line after `croupier`, recount, CPU goal s, peak memory goal MB)
    "parsheet --summary": (["parsheet", "--summary"], False, 0.8, None),
    "parsheet (every sheet)": (["parsheet"], False, 1.5, None),
    "parsheet --summary --out DIR (report)": (
        ["parsheet", "--summary", "--out", REPORT],
        False,
        None,  # no goal: the report draws 250-odd charts and simulates its counters' shoes
        None,
    ),
    "CROUPIER_RECOUNT=1 parsheet --summary": (["parsheet", "--summary"], True, 4.0, 300.0),
}
"""The goals of issue 33 (None: a figure shown without a goal)."""

TEST_COMMAND_GOAL = 300.0
"""Issue 33: the README's test command in at most 5 minutes (wall) on two cores."""

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The project's root (the README's commands run there)."""


def run_once(args: list[str], recount: bool) -> tuple[float, float, float]:
    """One run of ``croupier ARGS`` in a child process: (CPU seconds, peak RSS in MB, wall
    seconds)."""
    env = dict(os.environ, COLUMNS="120")
    env.pop("CROUPIER_RECOUNT", None)
    if recount:
        env["CROUPIER_RECOUNT"] = "1"
    with tempfile.TemporaryDirectory(prefix="bench-report-") as folder:
        command = [sys.executable, "-m", "croupier", *(folder if a == REPORT else a for a in args)]
        start = time.perf_counter()
        child = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert child.stderr is not None
        said = child.stderr.read().decode(errors="replace")  # "wrote …", or why it failed
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed with status {child.returncode}: {said}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall


def commands(runs: int, recount_runs: int, report_runs: int = 3) -> None:
    """The median CPU time and peak memory of each command, beside its goal."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    caching = "off" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"
    print(f"croupier (python {sys.version.split()[0]}; bytecode cache {caching}; load {load})")
    print(
        f"  {'command':40} {'runs':>4} {'CPU s':>7} {'goal':>5} {'peak MB':>8} {'goal':>5} {'wall s':>7}"
    )
    for label, (args, recount, cpu_goal, mem_goal) in GOALS.items():
        report = REPORT in args
        n = recount_runs if recount else report_runs if report else runs
        if not recount and not report:  # (the report's runs come after these warm-ups)
            run_once(args, recount)  # warm-up: file caches, bytecode
        results = [run_once(args, recount) for _ in range(n)]
        cpu = statistics.median(r[0] for r in results)
        mem = statistics.median(r[1] for r in results)
        wall = statistics.median(r[2] for r in results)
        mem_goal_text = f"{mem_goal:5.0f}" if mem_goal is not None else "    —"
        cpu_goal_text = f"{cpu_goal:5.1f}" if cpu_goal is not None else "    —"
        over = (cpu_goal is not None and cpu > cpu_goal) or (
            mem_goal is not None and mem > mem_goal
        )
        mark = "  (over)" if over else ""
        print(
            f"  {label:40} {n:4d} {cpu:7.2f} {cpu_goal_text} {mem:8.0f} {mem_goal_text} "
            f"{wall:7.2f}{mark}"
        )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  (medians; load average after: {load})")


def timed(label: str, fn: Callable[[], object]) -> None:
    start = time.process_time()
    fn()
    print(f"  {label:58} {time.process_time() - start:7.2f} s")


def parts() -> None:
    """The command's parts in this process, CPU seconds."""
    start = time.process_time()
    import croupier.cli  # noqa: F401 - timed: what every croupier command imports
    from croupier.analysis import blackjack_dealer
    from croupier.analysis import blackjack_strategy as bs
    from croupier.analysis.exact import _cached_counts
    from croupier.analysis.parsheet import exact_parsheet
    from croupier.analysis.precomputed import recounting
    from croupier.analysis.switch_hands import game_sheet
    from croupier.wagers import all_wagers

    print("its parts, in this process (CPU seconds):")
    print(f"  {'import croupier.cli and the analyses':58} {time.process_time() - start:7.2f} s")
    jobs = [(w, t, d) for w in all_wagers() for t, d in w.offerings()]

    def sheets() -> None:
        for w, table, decks in jobs:
            exact_parsheet(w, table, decks=decks)

    _cached_counts.cache_clear()
    timed(f"{len(jobs)} exact par sheets, shipped counts", sheets)
    _cached_counts.cache_clear()
    with recounting():
        timed(f"{len(jobs)} exact par sheets, counted afresh", sheets)
    _cached_counts.cache_clear()
    for decks in (6, 8):
        game_sheet.cache_clear()
        bs._hand_values.cache_clear()
        bs._ENGINES.clear()
        bs._TABLED.clear()
        blackjack_dealer._DEALER_CACHE.clear()
        timed(
            f"§ 633b.4 whole-game figures, {decks} decks (4 analyses)", partial(game_sheet, decks)
        )


def test_command() -> None:
    """The README's test command, once: wall seconds beside the goal, CPU seconds of it and every
    process it waited for, the cores and the load around it."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"the README's test command ({' '.join(command[1:])}; {os.cpu_count()} cores; load {before})"
    )
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    assert child.stdout is not None
    lines = child.stdout.read().decode(errors="replace").strip().splitlines()
    tail = [*(x for x in lines if x.startswith(("FAILED", "ERROR"))), *lines[-1:]]
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    mark = "" if wall <= TEST_COMMAND_GOAL else "  (over)"
    after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  {'wall s':>8} {'goal':>6} {'CPU s':>8}")
    print(
        f"  {wall:8.1f} {TEST_COMMAND_GOAL:6.0f} {usage.ru_utime + usage.ru_stime:8.1f}{mark}"
        f"   exit {os.waitstatus_to_exitcode(status)}: {' '.join(tail)} (load after: {after})"
    )


def parse_args() -> argparse.Namespace:
    """The command line (``--help``)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="runs from the shipped counts (5)")
    parser.add_argument(
        "--report-runs", type=int, default=3, help="runs of parsheet --summary --out DIR (3)"
    )
    parser.add_argument("--recount-runs", type=int, default=3, help="runs of the recount (3)")
    parser.add_argument("--no-parts", action="store_true", help="skip the in-process parts")
    parser.add_argument(
        "--test-command",
        action="store_true",
        help="also time the README's test command (python -m pytest; about 5 minutes)",
    )
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    commands(args.runs, args.recount_runs, args.report_runs)
    if not args.no_parts:
        parts()
    if args.test_command:
        test_command()
