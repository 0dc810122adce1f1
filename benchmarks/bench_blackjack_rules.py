"""Time per rule set of the rule-set engine (croupier.analysis.blackjack_exact), cold: each rule set
from an empty cache of the dealer's results, both strategies (the second reuses the first's tables).

Run: ``python benchmarks/bench_blackjack_rules.py [--decks 1 6 8]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from croupier.analysis import blackjack_tables
from croupier.analysis.blackjack_exact import Strategy, rule_set_value
from croupier.games.blackjack_rules import PlayRules


def main() -> None:
    """Print each rule set's house edges and the seconds each strategy took."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--decks", type=int, nargs="*", default=[1, 6, 8])
    args = parser.parse_args()
    for decks in args.decks:
        for h17 in (False, True):
            blackjack_tables._SHOES.clear()
            rules = PlayRules.of(decks, hits_soft_17=h17, late_surrender=True)
            cells = []
            for strategy in (Strategy.BASIC, Strategy.COMPOSITION):
                start = time.perf_counter()
                edge = rule_set_value(rules, strategy).house_edge
                cells.append(
                    f"{strategy.value} {edge * 100:.4f}% {time.perf_counter() - start:.1f}s"
                )
            print(f"{decks} decks {'H17' if h17 else 'S17'} LS: " + " · ".join(cells), flush=True)


if __name__ == "__main__":
    main()
