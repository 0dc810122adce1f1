"""Four Card Poker rounds per second per core: the compiled kernels
(:mod:`croupier.analysis.kernels.four_card_poker`) against the numpy simulator they replace.

Run: ``python benchmarks/bench_fcp_kernels.py [--rounds N]``. Prints figures; asserts nothing.
Every figure is one process on one core (numba kernels single-threaded), in rounds per CPU-second
of the process (``time.process_time``): on a machine shared with other work wall-clock rates
understate a core's. The numpy simulator is timed on a tenth of the rounds (it is the slower).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from croupier.analysis.kernels import KernelPlan, count_with, plan_for, shoe_cards
from croupier.analysis.kernels.four_card_poker import FourCardPokerRounds
from croupier.analysis.kernels.numpy_sim import simulate_counts
from croupier.analysis.kernels.rng import seed_state
from croupier.cards import Shoe
from croupier.wagers import Game, all_wagers

SHOE = Shoe.standard(1)


def rate(fn: Callable[[int], object], rounds: int, repeat: int = 3) -> float:
    """Best rounds per CPU-second of ``fn(rounds)`` over ``repeat`` runs (after a warm-up that
    compiles the kernels and loads the dealer table)."""
    fn(min(rounds, 10_000))
    best = 0.0
    for _ in range(repeat):
        start = time.process_time()
        fn(rounds)
        best = max(best, rounds / max(time.process_time() - start, 1e-9))
    return best


def _deal(n: int) -> None:
    engine = FourCardPokerRounds()
    cards = shoe_cards(SHOE)
    state = seed_state(np.random.SeedSequence(1))
    buffers = engine.buffers(1 << 16)
    done = 0
    while done < n:
        m = min(1 << 16, n - done)
        engine.deal(cards, state, m, buffers)
        done += m


def _count(plans: list[KernelPlan], n: int) -> None:
    count_with(plans, SHOE, n, seed_state(np.random.SeedSequence(2)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5_000_000)
    args = parser.parse_args()
    rounds = args.rounds
    wagers = [w for w in all_wagers() if w.game is Game.FOUR_CARD_POKER]
    print("Four Card Poker, one deck, a fresh shuffle every round; rounds per CPU-second")
    print(f"{'':34}{'kernel':>14}{'numpy simulator':>18}{'ratio':>9}")
    r = rate(_deal, rounds)
    print(f"  {'deal only (12 cards a round)':32}{r:14,.0f}")
    plans = []
    for w in wagers:
        plan = plan_for(w, SHOE)
        assert plan is not None
        plans.append(plan)
        k = rate(partial(_count, [plan]), rounds)
        n = rate(partial(simulate_counts, w, SHOE, seed=1), max(rounds // 10, 10_000), repeat=1)
        print(f"  {w.id:32}{k:14,.0f}{n:18,.0f}{k / n:8.1f}×")
    k = rate(partial(_count, plans), rounds)
    print(f"  {'all eight wagers, one set of rounds':32}{k:14,.0f}")


if __name__ == "__main__":
    main()
