"""Timings of the count analysis of the side wagers (issue 18): the 52 exact counts of a shoe less
one card, made now (one-deck enumeration by card held, or the wager's own exact count of each
shoe) against reading them from analysis/data/eor-counts.json, and the whole-shoe Blackjack
counter's rounds a second (vectorised settlement, and AxMan's scalar one on the rounds bet).

Run: ``python benchmarks/bench_eor.py [--all]`` (``--all`` adds AxMan's and the Six Card
Bonus's fresh counts, about a minute more). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from croupier.analysis.eor import balanced_count, effect_of_removal
from croupier.analysis.eor_shoes import play_shoes
from croupier.analysis.eor_store import counted
from croupier.analysis.exact import _cached_counts
from croupier.wagers import get_wager


def main(everything: bool) -> None:
    cases = [
        ("perfect-pairs", 8),
        ("match-the-dealer", 6),
        ("jackpot-party", 6),
        ("ultimate-pairs", 1),
        ("aces-up", 1),
        ("five-card-hand-bonus-dealer", 1),
    ]
    if everything:
        cases += [("axman", 6), ("six-card-bonus", 1)]
    print("52 exact counts of the shoe less one card")
    for wager_id, decks in cases:
        w = get_wager(wager_id)
        _cached_counts.cache_clear()
        start = time.perf_counter()
        counted(w, decks, None)
        fresh = time.perf_counter() - start
        table = next(t.key for t in w.paytables() if decks in t.decks)
        start = time.perf_counter()
        effect_of_removal(w, table, decks)
        stored = time.perf_counter() - start
        print(
            f"  {wager_id:30} {decks} decks: counted {fresh:7.2f} s, EoR from the store "
            f"{stored:6.3f} s"
        )
    print("whole-shoe counter (20,000 shoes, 3 seats, 75% penetration)")
    for wager_id, table, decks in (("jackpot-party", "P1", 6), ("axman", "standard", 6)):
        w = get_wager(wager_id)
        eor = effect_of_removal(w, table, decks)
        count = balanced_count(eor)
        start = time.perf_counter()
        got = play_shoes(w, table, decks, count, eor.expected_return, shoes=20_000)
        took = time.perf_counter() - start
        print(
            f"  {wager_id:14} {took:6.2f} s, {got.rounds / took:>11,.0f} rounds/s "
            f"({got.bets:,} bets settled; {got.win_per_hour:+.3f} ± {got.win_per_hour_se:.3f} "
            "units an hour)"
        )


def parse_args() -> argparse.Namespace:
    """The command line (``--help``)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--all", action="store_true", help="add AxMan's and the Six Card Bonus's fresh counts"
    )
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args().all)
