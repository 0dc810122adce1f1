"""Timings of the exact enumeration, the full par sheet and the simulator.

Run: ``python benchmarks/bench_analysis.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.exact import _cached_counts
from croupier.analysis.precomputed import recounting
from croupier.wagers import all_wagers, get_wager


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        _cached_counts.cache_clear()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    print("exact par sheet, one wager × paytable × deck count (cold cache):")
    for wager_id, paytable, decks in (
        ("perfect-pairs", "A", 8),
        ("match-the-dealer", "1", 8),
        ("ultimate-pairs", "A", 1),
    ):
        w = get_wager(wager_id)
        t = best_of(partial(exact_parsheet, w, paytable, decks=decks))
        print(f"  {wager_id:18} {paytable:>3} {decks} decks  {t * 1000:8.1f} ms")

    def everything() -> None:
        for w in all_wagers():
            for table, decks in w.offerings():
                exact_parsheet(w, table, decks=decks)

    n = sum(len(w.offerings()) for w in all_wagers())
    print(f"all {n} par sheets (croupier parsheet's work): {best_of(everything):.3f} s")

    rounds = 2_000_000
    print(f"simulation, {rounds:,} rounds:")
    for wager_id, paytable, decks in (("perfect-pairs", "A", 8), ("match-the-dealer", "1", 8)):
        w = get_wager(wager_id)
        t = best_of(partial(simulate, w, paytable, rounds, 1, decks=decks), repeat=2)
        print(f"  {wager_id:18} {rounds / t / 1e6:6.2f} M rounds/s")


def parse_args() -> argparse.Namespace:
    """The command line: ``--help`` describes the benchmark; no options."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    return parser.parse_args()


if __name__ == "__main__":
    parse_args()
    with recounting():  # time the counting, not the shipped counts (croupier.analysis.precomputed)
        main()
