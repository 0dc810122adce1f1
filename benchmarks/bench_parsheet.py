"""Timings of ``croupier parsheet`` (the project's main job): the whole command, wall clock, with the
shipped exact counts (croupier.analysis.precomputed) and with everything counted afresh
(``CROUPIER_RECOUNT=1``), then its parts in one process.

Run: ``python benchmarks/bench_parsheet.py [REPEAT]`` (default: the best of 3 runs of the command).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial


def command(repeat: int, recount: bool) -> float:
    """The fastest of ``repeat`` runs of ``croupier parsheet --summary``, in seconds."""
    env = dict(os.environ)
    env.pop("CROUPIER_RECOUNT", None)
    if recount:
        env["CROUPIER_RECOUNT"] = "1"
    args = [sys.executable, "-m", "croupier.cli", "parsheet", "--summary"]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def timed(label: str, fn: Callable[[], object]) -> None:
    start = time.perf_counter()
    fn()
    print(f"  {label:58} {time.perf_counter() - start:7.2f} s")


def parts() -> None:
    start = time.perf_counter()
    import croupier.cli  # noqa: F401 - timed: what every croupier command imports
    from croupier.analysis import blackjack_dealer
    from croupier.analysis import blackjack_strategy as bs
    from croupier.analysis.exact import _cached_counts
    from croupier.analysis.parsheet import exact_parsheet
    from croupier.analysis.precomputed import recounting
    from croupier.analysis.switch_hands import game_sheet
    from croupier.wagers import all_wagers

    print(f"  {'import croupier.cli':58} {time.perf_counter() - start:7.2f} s")
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


def main(repeat: int) -> None:
    print("croupier parsheet --summary, wall clock (best of runs):")
    print(f"  {'shipped exact counts':58} {command(repeat, False):7.2f} s")
    print(f"  {'CROUPIER_RECOUNT=1 (every count made afresh)':58} {command(1, True):7.2f} s")
    print("its parts, in this process:")
    parts()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
