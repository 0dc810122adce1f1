"""Timings of Baccarat: the exact 8-deck par sheet of every Baccarat wager, effect of removal, the
whole-shoe simulator and the exact evaluation of many shoe compositions.

Run: ``python benchmarks/bench_baccarat.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from croupier.analysis import exact_parsheet
from croupier.analysis.baccarat_shoe import simulate_shoes, summary_nets
from croupier.analysis.eor import effect_of_removal
from croupier.analysis.exact import _cached_counts
from croupier.analysis.precomputed import recounting
from croupier.cards import Shoe
from croupier.games.baccarat import _multiset_table, coup_counts, expected_values, value_counts
from croupier.wagers.baccarat import BaccaratWager, baccarat_wagers


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def clear() -> None:
    _cached_counts.cache_clear()
    coup_counts.cache_clear()


def every_eight_deck_sheet() -> None:
    for w in baccarat_wagers():
        for table in w.paytables():
            exact_parsheet(w, table, decks=8)


def main() -> None:
    wagers = baccarat_wagers()
    sheets = sum(len(w.paytables()) for w in wagers)
    first = timed(_multiset_table)
    print(f"six-card multiset table (once per process): {first * 1000:.0f} ms")
    clear()
    cold = timed(every_eight_deck_sheet)
    print(
        f"exact 8-deck par sheets of the {len(wagers)} Baccarat wagers × paytables "
        f"({sheets} sheets), cold caches: {cold * 1000:.1f} ms"
    )
    runs = []
    for _ in range(5):
        clear()
        runs.append(timed(lambda: coup_counts(value_counts(Shoe.standard(8)))))
    print(f"  of which the exact coup counts of one composition: {min(runs) * 1000:.2f} ms")
    clear()
    everything = timed(
        lambda: [exact_parsheet(w, t, decks=d) for w in wagers for t, d in w.offerings()]
    )
    offerings = sum(len(w.offerings()) for w in wagers)
    print(f"all {offerings} Baccarat par sheets (1–8 decks), cold: {everything:.3f} s")
    clear()
    fortune = next(w for w in wagers if w.id == "fortune-7")
    print(
        f"effect of removal, Fortune 7, 8 decks (53 exact shoes): "
        f"{timed(lambda: effect_of_removal(fortune, 'A', 8)) * 1000:.0f} ms"
    )
    shoes = 20_000
    sim_time = timed(lambda: simulate_shoes(shoes, 1))
    print(f"whole-shoe simulation: {shoes:,} 8-deck shoes in {sim_time:.2f} s")
    sim = simulate_shoes(2_000, 2, record=True)
    assert sim.records is not None
    compositions = sim.records.remaining[:10_000]
    assert isinstance(fortune, BaccaratWager)
    nets = summary_nets(fortune, fortune.paytable("A", 8))
    ev = timed(lambda: expected_values(compositions, nets))
    print(
        f"exact-convention expected return of {len(compositions):,} shoe compositions: "
        f"{ev:.2f} s ({len(compositions) / ev:,.0f} a second)"
    )
    print(f"(numpy {np.__version__})")


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
