"""How much the Switch Hands approximation moves the house edge: each face-down pair played from
the shoe less the discarded face-up pair too (``analyze(..., exact_removal=True)``), against the
default approximation. Six decks; takes about a minute on one core.

Run: ``python benchmarks/bench_switch_hands_exact.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from croupier.analysis.blackjack_strategy import PlayRules
from croupier.analysis.switch_hands import Variant, analyze


def main() -> None:
    rules = PlayRules.of(6)
    for variant, tie in (
        (Variant.SWITCH_HANDS, False),
        (Variant.SWITCH_HANDS, True),
        (Variant.PREMIUM, True),
    ):
        start = time.perf_counter()
        approx = analyze(variant, rules, True, tie)
        exact = analyze(variant, rules, True, tie, exact_removal=True)
        print(
            f"{variant.value} tie 1:2 {'yes' if tie else 'no '}: house edge per BJ wager "
            f"{exact.house_edge * 100:.4f}% with the face-up pair removed, "
            f"{approx.house_edge * 100:.4f}% approximated "
            f"({(exact.house_edge - approx.house_edge) * 100:+.4f}%); switches "
            f"{exact.switch_rate * 100:.2f}% / {approx.switch_rate * 100:.2f}% "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


def parse_args() -> argparse.Namespace:
    """The command line: ``--help`` describes the benchmark; no options."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    return parser.parse_args()


if __name__ == "__main__":
    parse_args()
    main()
