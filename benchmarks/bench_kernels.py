"""Rounds per second per core: the compiled kernels, the numpy simulator, and the published peer
hhoppe/blackjack (https://github.com/hhoppe/blackjack), in one run.

Run: ``python benchmarks/bench_kernels.py [--peer PATH] [--rounds N]``. Prints figures; asserts
nothing. The peer is not part of croupier and is not copied here: give a checkout of it with
``--peer PATH`` or ``CROUPIER_PEER_BLACKJACK=PATH`` (its ``blackjack.py`` needs numba,
hhoppe-tools, more-itertools, tqdm and matplotlib); without one the benchmark prints "peer not
found". The peer's notebook script runs its experiments at import, so the benchmark executes only
its definitions (up to ``monte_carlo_house_edge_cpu``) in a subprocess and times that function —
one player, full Blackjack (doubles, splits), several hands per shuffled 6-deck shoe.

The Blackjack lines put the two ways of reading the side wagers side by side: dealt into records
then classified, and read while dealt (``deal_count``); ``--no-compile`` skips the two fresh
processes that time the numba compile (empty cache) and the cache load.

Every figure is one process on one core (numba kernels single-threaded), in rounds per CPU-second
of the process (``time.process_time``): on a machine shared with other work wall-clock rates
understate a core's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from croupier.analysis.kernels import KernelPlan, count_with, plan_for
from croupier.analysis.kernels.numpy_sim import simulate_counts
from croupier.analysis.kernels.plans import BlackjackRounds
from croupier.analysis.kernels.rng import seed_state
from croupier.cards import Shoe
from croupier.games.blackjack import BlackjackRules
from croupier.wagers import get_wager
from croupier.wagers.axman import AxMan, simulate_axman

BLACKJACK_SIDE_WAGERS = ("perfect-pairs", "match-the-dealer", "jackpot-party", "axman")

PEER_RUNNER = r"""
import ast, os, sys, time
os.environ.setdefault("EFFORT", "1")
path, rounds = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, os.path.dirname(path))
import hhoppe_tools
hhoppe_tools.in_notebook = lambda: False  # it asks IPython; this is a script
tree = ast.parse(open(path, encoding="utf-8").read())
end = next(n.end_lineno for n in tree.body
           if isinstance(n, ast.FunctionDef) and n.name == "monte_carlo_house_edge_cpu")
def defs(body):
    keep = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef,
                             ast.Assign, ast.AnnAssign)):
            keep.append(node)
        elif isinstance(node, ast.If):
            node.body = defs(node.body) or [ast.Pass()]
            node.orelse = defs(node.orelse)
            keep.append(node)
    return keep
module = ast.fix_missing_locations(
    ast.Module(body=defs([n for n in tree.body if n.lineno <= end]), type_ignores=[]))
g = {"__name__": "peer"}
exec(compile(module, path, "exec"), g)
rules = g["Rules"](num_decks=6, cut_card=0)
mc = g["monte_carlo_house_edge_cpu"]
mc(rules, g["Strategy"](), 100_000, parallel=False, quiet=True)  # compile, build its tables
start = time.process_time()
edge, hands, sdv = mc(rules, g["Strategy"](), rounds, parallel=False, quiet=True)
print(hands / (time.process_time() - start), edge, hands)
"""


def rate(fn: Callable[[int], object], rounds: int, repeat: int = 3) -> float:
    """Best rounds per CPU-second of ``fn(rounds)`` over ``repeat`` runs (after one warm-up): the
    process's CPU time, so a machine shared with other work still measures one core's rate."""
    fn(min(rounds, 10_000))
    best = 0.0
    for _ in range(repeat):
        start = time.process_time()
        fn(rounds)
        best = max(best, rounds / max(time.process_time() - start, 1e-9))
    return best


def _deal(
    engine: BlackjackRounds, cards: np.ndarray, state: np.ndarray, buffers: Any, n: int
) -> None:
    done = 0
    while done < n:
        m = min(1 << 16, n - done)
        engine.deal(cards, state, m, buffers)
        done += m


def _count(plans: list[KernelPlan], shoe: Shoe, state: np.ndarray, n: int) -> None:
    count_with(plans, shoe, n, state)


def _with_engine(plans: list[KernelPlan], seats: int, fused: bool) -> list[KernelPlan]:
    engine = BlackjackRounds(BlackjackRules(decks=6), seats=seats)
    return [replace(p, engine=engine, reader=p.reader if fused else None) for p in plans]


def kernels(rounds: int) -> None:
    shoe = Shoe.standard(6)
    print(f"compiled kernels, 6-deck shoe, fresh shuffle every round ({rounds:,} rounds):")
    for seats in (1, 3):
        engine = BlackjackRounds(BlackjackRules(decks=6), seats=seats)
        cards = np.repeat(np.arange(52, dtype=np.int64), shoe.counts)
        state = seed_state(np.random.SeedSequence(1))
        buffers = engine.buffers(1 << 16)
        r = rate(partial(_deal, engine, cards, state, buffers), rounds)
        print(f"  whole rounds into records (dealer play), {seats} seat(s)  {r:14,.0f} rounds/s")
    state = seed_state(np.random.SeedSequence(2))
    plans = []
    for wager_id in BLACKJACK_SIDE_WAGERS:
        plan = plan_for(get_wager(wager_id), shoe)
        assert plan is not None
        plans.append(plan)
    for seats in (1, 3):
        for plan, wager_id in zip(plans, BLACKJACK_SIDE_WAGERS, strict=True):
            one = _with_engine([plan], seats, True)
            r = rate(partial(_count, one, shoe, state), rounds)
            print(
                f"  whole rounds + {wager_id:17} read while dealt, {seats} seat(s) {r:11,.0f} rounds/s"
            )
        for fused in (False, True):
            how = "read while dealt " if fused else "records, classify"
            r = rate(partial(_count, _with_engine(plans, seats, fused), shoe, state), rounds)
            print(
                f"  whole rounds + all four side wagers, {how}, {seats} seat(s) {r:11,.0f} rounds/s"
            )


COMPILE = r"""
import time
start = time.perf_counter()
import numpy as np
from croupier.analysis.kernels import count_with, plan_for
from croupier.analysis.kernels.rng import seed_state
from croupier.cards import Shoe
from croupier.wagers import get_wager
shoe = Shoe.standard(6)
plans = [plan_for(get_wager(w), shoe) for w in
         ("perfect-pairs", "match-the-dealer", "jackpot-party", "axman")]
count_with(plans, shoe, 1000, seed_state(np.random.SeedSequence(1)))
print(time.perf_counter() - start)
"""


def compile_time() -> None:
    """Wall seconds of a fresh process's first 1,000 rounds with the four side wagers: with an
    empty numba cache (compiling) and then with the cache that run wrote (loading it)."""
    import tempfile

    print("compile time (fresh process: imports + first 1,000 rounds, four side wagers):")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for what in ("compiling (empty cache)", "from the numba cache"):
            run = subprocess.run(
                [sys.executable, "-c", COMPILE], capture_output=True, text=True, env=env
            )
            secs = (run.stdout.strip().splitlines() or ["nan"])[-1]
            print(f"  {what:40} {float(secs):8.1f} s wall")


def old_simulator(rounds: int) -> None:
    shoe = Shoe.standard(6)
    print(f"numpy simulator (before the kernels), 6-deck shoe ({rounds:,} rounds):")
    axman = get_wager("axman")
    assert isinstance(axman, AxMan)
    r = rate(partial(simulate_axman, axman, shoe, seed=1), rounds // 10, repeat=1)
    print(f"  AxMan whole rounds (numpy rounds, scalar reading), 3 seats {r:10,.0f} rounds/s")
    for wager_id in ("perfect-pairs", "match-the-dealer", "jackpot-party"):
        w = get_wager(wager_id)
        r = rate(partial(simulate_counts, w, shoe, seed=1), rounds, repeat=1)
        print(f"  {wager_id:17} top cards only (no whole round)      {r:14,.0f} rounds/s")


def peer(path: str | None, rounds: int) -> None:
    print(f"peer hhoppe/blackjack (numba, one player, full play, 6 decks; {rounds:,} hands):")
    script = Path(path) / "blackjack.py" if path else None
    if script is None or not script.is_file():
        print("  peer not found (give --peer PATH or CROUPIER_PEER_BLACKJACK=PATH)")
        return
    run = subprocess.run(
        [sys.executable, "-c", PEER_RUNNER, str(script), str(rounds)],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=script.parent,
    )
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        print(f"  peer failed to run: {(run.stderr.strip().splitlines() or ['?'])[-1]}")
        return
    hands_per_s, edge, hands = lines[-1].split()
    print(
        f"  monte_carlo_house_edge_cpu, parallel=False              {float(hands_per_s):14,.0f} "
        f"hands/s (house edge {float(edge):.4%} over {int(hands):,} hands)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", default=os.environ.get("CROUPIER_PEER_BLACKJACK"))
    parser.add_argument("--rounds", type=int, default=5_000_000)
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time runs")
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.no_compile:
        compile_time()
    kernels(args.rounds)
    old_simulator(args.rounds // 5)
    peer(args.peer, args.rounds)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
