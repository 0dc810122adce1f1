"""Four Card Poker rounds per second per core: the compiled kernels
(:mod:`croupier.analysis.kernels.four_card_poker`) against the numpy simulator they replace.

Run: ``python benchmarks/bench_fcp_kernels.py [--rounds N] [--zscores M]``. Prints figures;
asserts nothing. ``--zscores M`` also deals M rounds (chunks of 2^20, each its own stream of
``SeedSequence(--seed)``) read by all eight wagers at once and prints each par sheet's z-score
against the exact one, and the largest |z| of its lines.
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
from croupier.analysis.kernels.chunks import chunk_seed, chunks
from croupier.analysis.kernels.four_card_poker import FourCardPokerRounds
from croupier.analysis.kernels.numpy_sim import simulate_counts
from croupier.analysis.kernels.rng import seed_state
from croupier.analysis.parsheet import exact_parsheet, resolve
from croupier.analysis.simulate import observed_sheet
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


def zscores(rounds: int, entropy: int) -> None:
    """``rounds`` rounds read by every Four Card Poker wager; each sheet's z-score."""
    wagers = [w for w in all_wagers() if w.game is Game.FOUR_CARD_POKER]
    plans = [p for w in wagers if (p := plan_for(w, SHOE)) is not None]
    totals = [[0] * p.positions for p in plans]
    start, wall = time.process_time(), time.perf_counter()
    for index, n in chunks(rounds, 0, 1 << 20):
        got = count_with(plans, SHOE, n, seed_state(chunk_seed(entropy, index)))
        for total, tally in zip(totals, got, strict=True):
            total[:] = [a + b for a, b in zip(total, tally, strict=True)]
    cpu = time.process_time() - start
    print(
        f"{rounds:,} rounds (seed entropy {entropy}) read by all eight wagers: {cpu:.1f} s CPU, "
        f"{time.perf_counter() - wall:.1f} s wall, {rounds / cpu:,.0f} rounds per CPU-second"
    )
    for w, total in zip(wagers, totals, strict=True):
        for table, decks in w.offerings():
            setup = resolve(w, table.key, decks=decks)
            sim = observed_sheet(setup, tuple(total), "simulation", "bench_fcp_kernels")
            exact = exact_parsheet(w, table.key, decks=decks)
            assert sim.standard_error is not None
            z = float(sim.expected_return - exact.expected_return) / sim.standard_error
            lines = [
                ((s.hits or 0) - rounds * q) / (rounds * q * (1 - q)) ** 0.5
                for e, s in zip(exact.rows, sim.rows, strict=True)
                if 0 < (q := float(e.probability)) < 1
            ]
            print(
                f"  {w.id:28} {table.key:31} exact edge {float(exact.house_edge):+.5%}  "
                f"simulated {float(sim.house_edge):+.5%}  z {z:+.2f}  "
                f"max |line z| {max(map(abs, lines)):.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5_000_000)
    parser.add_argument("--zscores", type=int, default=0, metavar="M")
    parser.add_argument("--seed", type=int, default=1820)
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
    if args.zscores:
        zscores(args.zscores, args.seed)


if __name__ == "__main__":
    main()
