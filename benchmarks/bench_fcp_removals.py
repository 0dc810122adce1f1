"""Timings of the Four Card Poker showdown counts over a deck and over it less each card (issue
18: the Bad Beat Bonus's effect of removal), :func:`croupier.games.four_card_poker_exact.
showdown_removals`: CPU seconds and peak memory for decks of growing size, with the load average
beside (the machine is shared: prefer the CPU figure).

Run: ``python benchmarks/bench_fcp_removals.py [--full]`` (``--full`` adds the 52-card deck,
about four minutes of CPU and 2.5 GB). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from math import comb

from croupier.games.four_card_poker_exact import showdown_removals


def main(full: bool) -> None:
    sizes = [20, 26, 32]
    if full:
        sizes.append(52)
    print("cards  deals (5 + 6)       CPU s   wall s   peak RSS MB   load average")
    for n in sizes:
        cpu, wall = time.process_time(), time.perf_counter()
        showdown_removals(range(52 - n, 52))  # the top n cards: every category occurs
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        deals = comb(n, 5) * comb(n - 5, 6)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{n:5d}  {deals:>18,}  {cpu:7.1f}  {wall:7.1f}  {rss:12.0f}   {load}")


def parse_args() -> argparse.Namespace:
    """The command line (``--help``)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--full", action="store_true", help="add the 52-card deck (minutes of CPU, 2.5 GB)"
    )
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args().full)
