"""Timings and figures of the Blackjack strategy engine and § 633b.4 Switch Hands / Blackjack
Premium (house edges for 6 and 8 decks, with and without the tie pay, and simulations).

Run: ``python benchmarks/bench_switch_hands.py [ROUNDS]`` (default 200,000 simulated rounds per
game). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from croupier.analysis.blackjack_strategy import PlayRules, game_value
from croupier.analysis.switch_hands import Variant, analyze, simulate


def main(rounds: int) -> None:
    start = time.perf_counter()
    ls = PlayRules.of(6, late_surrender=True)
    print(
        f"plain Blackjack, {ls.describe()}: house edge {game_value(ls).house_edge * 100:.4f}% "
        f"(Wizard of Odds calculator 0.334%) in {time.perf_counter() - start:.1f} s"
    )
    for decks in (6, 8):
        rules = PlayRules.of(decks)
        start = time.perf_counter()
        plain = game_value(rules)
        print(f"\n{rules.describe()}")
        print(f"  plain Blackjack: house edge {plain.house_edge * 100:.4f}%")
        for variant, ante, tie in (
            (Variant.SWITCH_HANDS, True, False),
            (Variant.SWITCH_HANDS, True, True),
            (Variant.PREMIUM, True, True),
            (Variant.PREMIUM, False, True),
        ):
            a = analyze(variant, rules, ante, tie)
            line = (
                f"  {variant.value:17} {'ante ' if ante else 'plain'} tie 1:2 {'yes' if tie else 'no '}"
                f" · house edge {a.house_edge * 100:.4f}% per BJ wager,"
                f" {a.house_edge_total * 100:.4f}% per total wagered"
                f" · switches {a.switch_rate * 100:.2f}%"
            )
            if rounds and decks == 6:
                s = simulate(a, rounds, seed=2026)
                line += (
                    f" · simulated {-s.mean * 100:.4f}% ± {s.standard_error * 100:.4f}% "
                    f"({s.standard_errors_from(a.expected):+.2f} SE, {rounds:,} rounds)"
                )
            print(line)
        print(f"  ({time.perf_counter() - start:.1f} s)")


def parse_args() -> argparse.Namespace:
    """The command line (``--help``)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "rounds",
        nargs="?",
        type=int,
        default=200_000,
        help="simulated rounds per game (default 200,000; 0: none)",
    )
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args().rounds)
