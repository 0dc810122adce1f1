"""Time per rule set of the rule-set engine (croupier.analysis.blackjack_exact), for each strategy,
beside the older strategy engine (croupier.analysis.blackjack_strategy.game_value, approximate
splits) as the peer.

* **cold**: from no kept shoe — the dealer's results and the tables made afresh (the numba
  kernel's one-time load in a new process is timed once, apart, before the first rule set);
* **warm**: the same rule set again, the shoe's dealer's results and tables kept from the cold
  run — what a calculator pays when a player's rule (doubling, surrender, splits, the Blackjack
  payout) changes and the shoe does not.

Each time is wall-clock seconds and, in brackets, the process's CPU seconds (the machine may be
shared: the CPU time is the steadier figure). The issue's goal is under 2 s per rule set, cold.

Run: ``python benchmarks/bench_blackjack_rules.py [--decks 1 6 8] [--no-peer]``. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from croupier.analysis import blackjack_dealer, blackjack_strategy
from croupier.analysis.blackjack_exact import Strategy, rule_set_value
from croupier.analysis.blackjack_tables import clear_shoes
from croupier.analysis.kernels.dealer_results import dealer_results
from croupier.games.blackjack_rules import PlayRules


def timed(fn: Callable[[], float]) -> tuple[float, tuple[float, float]]:
    """``fn()``'s result, and its wall-clock and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, (time.perf_counter() - wall, time.process_time() - cpu)


def edge_of(rules: PlayRules, strategy: Strategy | None) -> float:
    """The house edge of ``rules`` by the rule-set engine's ``strategy`` (``None``: the older
    engine)."""
    if strategy is None:
        return blackjack_strategy.game_value(rules).house_edge
    return rule_set_value(rules, strategy).house_edge


def cell(label: str, edge: float, cold: tuple[float, float], warm: tuple[float, float]) -> str:
    """One engine's house edge and its cold and warm times."""
    return (
        f"{label} {edge * 100:.4f}% cold {cold[0]:.2f}s ({cold[1]:.2f}) "
        f"warm {warm[0]:.2f}s ({warm[1]:.2f})"
    )


def clear_peer() -> None:
    """Empty the older engine's memos (its tables and dealer's results)."""
    blackjack_strategy._ENGINES.clear()
    blackjack_strategy._TABLED.clear()
    blackjack_dealer._DEALER_CACHE.clear()


def main() -> None:
    """Print each rule set's house edges and the seconds each engine and strategy took."""
    parser = argparse.ArgumentParser(
        description="Cold and warm seconds per Blackjack rule set (late surrender, S17 and H17) "
        "of the rule-set engine's two strategies, beside the older engine."
    )
    parser.add_argument(
        "--decks", type=int, nargs="*", default=[1, 6, 8], help="deck counts (default 1 6 8)"
    )
    parser.add_argument("--no-peer", action="store_true", help="skip the older engine")
    args = parser.parse_args()
    _, (wall, cpu) = timed(
        lambda: float(dealer_results(np.zeros((1, 10), np.int64), 0, True)[1][0])
    )
    print(f"numba kernel load (once a process): {wall:.2f}s ({cpu:.2f})", flush=True)
    engines: list[Strategy | None] = [Strategy.BASIC, Strategy.COMPOSITION]
    if not args.no_peer:
        engines.append(None)
    for decks in args.decks:
        for h17 in (False, True):
            rules = PlayRules.of(decks, hits_soft_17=h17, late_surrender=True)
            cells = []
            for strategy in engines:
                if strategy is None:
                    clear_peer()
                else:
                    clear_shoes()
                edge, cold = timed(partial(edge_of, rules, strategy))
                _, warm = timed(partial(edge_of, rules, strategy))
                label = "peer" if strategy is None else strategy.value
                cells.append(cell(label, edge, cold, warm))
            print(f"{decks} decks {'H17' if h17 else 'S17'} LS: " + " · ".join(cells), flush=True)


if __name__ == "__main__":
    main()
