"""Four Card Poker (58 Pa. Code § 641a.7): timings of the rankings, the exact par sheets, the
strategy read from the shipped dealer table, and the simulator.

Run: ``python benchmarks/bench_four_card_poker.py``. Prints figures; asserts nothing. The
regeneration of the dealer table itself is timed by ``croupier strategy four-card-poker
--regenerate --out /tmp/table.npz`` (it prints its own timings).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from math import comb

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.exact import _cached_counts
from croupier.analysis.precomputed import recounting
from croupier.games.four_card_poker import AntePlayStrategy
from croupier.games.four_card_poker_exact import read_dealer_table, shipped_path
from croupier.poker.class_counts import category_counts, labelled_counts
from croupier.poker.five_card import best_five_categories
from croupier.poker.four_card import best_four_ordinals, combinations_array
from croupier.wagers import get_wager
from croupier.wagers.four_card_poker import AntePlay


def timed(what: str, fn: Callable[[], object]) -> object:
    start = time.perf_counter()
    result = fn()
    print(f"  {what:58} {time.perf_counter() - start:8.2f} s")
    return result


def every_six_card_set() -> tuple[int, ...]:
    """The peer of the count by rank class: every six-card set of one deck classified by the
    vectorised best-five evaluator, a block of the sets sharing their highest card at a time
    (how the Six Card Bonus was counted before issue 33)."""
    import numpy as np

    below = combinations_array(51, 5).astype(np.int8)
    counts = np.zeros(10, dtype=np.int64)
    for top in range(5, 52):
        block = below[: comb(top, 5)]
        rows = np.empty((block.shape[0], 6), dtype=np.int64)
        rows[:, :5] = block
        rows[:, 5] = top
        counts += np.bincount(best_five_categories(rows), minlength=10)
    return tuple(int(x) for x in counts)


def main() -> None:
    print("six cards of one deck by their best five (the Six Card Bonus), 20,358,520 sets:")
    by_class = timed(
        "by rank multiset and suit (poker.class_counts)",
        partial(category_counts, (1,) * 52, 6, "five"),
    )
    every = timed("every set, vectorised (the peer)", every_six_card_set)
    print(f"    the same counts: {by_class == every}")
    print("rankings:")
    fives = combinations_array(52, 5)
    timed("best four of five, all 2,598,960 player hands", lambda: best_four_ordinals(fives))
    print("dealer table and strategy:")
    table = timed("read the shipped dealer table", lambda: read_dealer_table(shipped_path()))
    assert table is not None
    ante_play = get_wager("four-card-poker")
    assert isinstance(ante_play, AntePlay)
    strat = AntePlayStrategy.for_bonus(ante_play.bonus_pays(ante_play.paytable("25-20-2")))
    timed("optimal decisions for the 134,459 classes", lambda: strat.decisions)
    for what, a in (
        ("not reading the face-up card", strat.analysis),
        ("reading the face-up card", strat.upcard_analysis),
    ):
        print(
            f"  {what}: house edge {float(a.house_edge):.4%} of the Ante, "
            f"{float(a.element_of_risk):.4%} of the total wagered; fold "
            f"{float(a.frequency(0)):.2%}, 1x {float(a.frequency(1)):.2%}, "
            f"3x {float(a.frequency(3)):.2%}"
        )
    print("exact par sheets (cold cache):")
    for wager, paytable in (
        ("four-card-poker", "25-20-2"),
        ("aces-up", "pa-casino"),
        ("bad-beat-bonus", "example-bad-beat"),
        ("five-card-progressive", "example-five-card-progressive"),
        ("six-card-bonus", "example-six-card-bonus"),
    ):
        _cached_counts.cache_clear()
        labelled_counts.cache_clear()
        w = get_wager(wager)
        sheet = timed(f"{wager} {paytable}", partial(exact_parsheet, w, paytable, decks=1))
        print(f"    house edge {float(getattr(sheet, 'house_edge', 0)):.4%}")
    print("simulation, 1,000,000 rounds playing the strategy:")
    w = get_wager("four-card-poker")
    timed("four-card-poker", lambda: simulate(w, "25-20-2", rounds=1_000_000, seed=1, decks=1))


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
