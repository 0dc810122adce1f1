"""Timings of the table engine: seeded random rounds (``croupier.table.training.random_rounds``)
dealt, played and settled at each example table of ``examples/submissions/``, in rounds per second.

Run: ``python benchmarks/bench_table_engine.py [--rounds N] [--repeat R]``. Each table is warmed up
first (the Four Card Poker dealer table, the paytables and the strategy load once per process), then
dealt ``N`` rounds ``R`` times; the best run is printed, by the wall clock and per second of this
process's CPU time (steadier on a shared machine). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from croupier.table import RulesSubmission, load_submission
from croupier.table.training import random_rounds

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "submissions"


def rounds_per_second(sub: RulesSubmission, rounds: int, repeat: int) -> tuple[float, float]:
    """The best of ``repeat`` runs of ``rounds`` seeded random rounds, in rounds per second of
    wall-clock time and of CPU time."""
    random_rounds(sub, 0, 20)  # warm-up: data files, paytables, strategy tables
    wall = cpu = float("inf")
    for run in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        random_rounds(sub, random.Random(run).randrange(2**32), rounds)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return rounds / wall, rounds / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per run (2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per table, best kept (3)")
    args = parser.parse_args()
    print(f"random rounds per second, best of {args.repeat} runs of {args.rounds:,} rounds")
    print(f"  {'table (examples/submissions)':30} {'game':18} {'wall clock':>12} {'CPU time':>12}")
    for path in sorted(EXAMPLES.glob("*.toml")):
        sub = load_submission(path)
        wall, cpu = rounds_per_second(sub, args.rounds, args.repeat)
        print(f"  {path.stem:30} {sub.game.value:18} {wall:12,.0f} {cpu:12,.0f}")


if __name__ == "__main__":
    main()
