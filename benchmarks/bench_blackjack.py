"""Timings of the Blackjack dealer engine, AxMan and Jackpot Party analyses and simulations.

Run: ``python benchmarks/bench_blackjack.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.exact import _cached_counts
from croupier.analysis.meters import meter_return
from croupier.analysis.precomputed import recounting
from croupier.cards import parse_card
from croupier.games.blackjack import (
    BY_CARD,
    BY_RANK,
    BlackjackRules,
    dealer_final_hands,
    dealer_results_by_upcard,
    final_hand_weights,
)
from croupier.wagers import get_wager
from croupier.wagers._axman_exact import round_counts


def clear() -> None:
    """Empty every cache the analyses keep."""
    final_hand_weights.cache_clear()
    round_counts.cache_clear()
    _cached_counts.cache_clear()


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` cold-cache runs, in seconds."""
    times = []
    for _ in range(repeat):
        clear()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    print("dealer engine (exact, cold cache):")
    for decks in (1, 6, 8):
        t = best_of(partial(dealer_results_by_upcard, BlackjackRules(decks)))
        print(f"  dealer-outcome table, {decks} deck(s), by value      {t * 1000:8.1f} ms")
    for up in ("2c", "Ts"):
        dist = dealer_final_hands(BlackjackRules(6), upcard=parse_card(up), types=BY_RANK)
        t = best_of(
            partial(dealer_final_hands, BlackjackRules(6), upcard=parse_card(up), types=BY_RANK)
        )
        print(
            f"  final hands by rank, 6 decks, upcard {up}: {len(dist):6,} hands {t * 1000:7.1f} ms"
        )
    for up in ("Ts", "9h"):
        dist = dealer_final_hands(BlackjackRules(1), upcard=parse_card(up), types=BY_CARD)
        t = best_of(
            partial(dealer_final_hands, BlackjackRules(1), upcard=parse_card(up), types=BY_CARD),
            repeat=1,
        )
        print(f"  final hands by card, 1 deck, upcard {up}: {len(dist):7,} hands {t:7.2f} s")

    print("AxMan exact par sheet (player's two cards × dealer's final hand, cold cache):")
    for wager_id in ("axman", "axman-h17"):
        for decks in (6, 8):
            w = get_wager(wager_id)
            t = best_of(partial(exact_parsheet, w, "standard", decks=decks))
            print(f"  {wager_id:10} {decks} decks  {t:6.2f} s")

    jp = get_wager("jackpot-party")
    print("Jackpot Party exact counts, one shoe (cold cache):")
    for key, decks in (("P7", 1), ("P1", 6), ("P4", 8)):
        t = best_of(partial(exact_parsheet, jp, key, decks=decks))
        print(f"  {key:4} {decks} deck(s)  {t * 1000:8.1f} ms")

    def every_meter_return() -> None:
        for table, decks in jp.offerings():
            meter_return(jp, table, decks=decks)

    n = len(jp.offerings())
    print(
        f"meter return, breakeven and long run of all {n} P-paytables: "
        f"{best_of(every_meter_return, repeat=1):.2f} s"
    )

    rounds = 200_000
    print(f"simulation, {rounds:,} rounds:")
    for wager_id, key, decks in (("axman", "standard", 6), ("jackpot-party", "P1", 6)):
        w = get_wager(wager_id)
        exact_parsheet(w, key, decks=decks)
        start = time.perf_counter()
        simulate(w, key, rounds, 1, decks=decks)
        t = time.perf_counter() - start
        kind = "whole rounds, 3 seats" if wager_id == "axman" else "four cards per round"
        print(f"  {wager_id:14} {rounds / t / 1e3:8.1f} k rounds/s ({kind})")


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
