"""The numpy simulator: each round the top cards of a freshly shuffled shoe, drawn without
replacement with numpy over blocks of rounds and classified by the wager's vectorised
:meth:`~croupier.wagers.base.Wager.classify_indices` (or the wager's own
:meth:`~croupier.wagers.base.Wager.simulate_own`) — the simulator of a wager that declares no
compiled kernel, re-exported by :mod:`croupier.analysis.simulate`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from croupier.cards import Shoe
from croupier.errors import InputError, ShoeError
from croupier.wagers.base import IntArray, Wager

BLOCK = 200_000
"""Rounds dealt per vectorised block."""


def deal_positions(rng: np.random.Generator, n_cards: int, rounds: int, k: int) -> IntArray:
    """``(rounds, k)`` distinct positions in ``range(n_cards)`` per row, uniformly at random and in
    dealing order (the top k cards of a uniformly shuffled shoe).

    >>> rng = np.random.default_rng(1)
    >>> pos = deal_positions(rng, 5, 1000, 5)
    >>> bool((np.sort(pos, axis=1) == np.arange(5)).all())
    True
    """
    pos = np.empty((rounds, k), dtype=np.int64)
    for j in range(k):
        r = rng.integers(0, n_cards - j, size=rounds, dtype=np.int64)
        if j:
            taken = np.sort(pos[:, :j], axis=1)
            for t in range(j):  # map r to the r-th position not yet dealt
                r += r >= taken[:, t]
        pos[:, j] = r
    return pos


def simulate_counts(
    wager: Wager,
    shoe: Shoe,
    rounds: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, ...]:
    """Observed count of each outcome over ``rounds`` rounds (last entry: no winning combination),
    by the numpy simulator on one PCG64 stream seeded with ``seed`` (the wager's own
    :meth:`~croupier.wagers.base.Wager.simulate_own` when it has one) — no compiled kernel.

    ``progress`` is called with the number of rounds finished after each block.
    """
    if rounds < 2:
        raise InputError(f"simulate at least two rounds (a standard error needs two), not {rounds}")
    k = wager.deal.size
    if shoe.total < k:
        raise ShoeError(f"a {shoe} cannot deal the {k} cards the {wager.name} wager reads")
    own = wager.simulate_own(shoe, rounds, seed, progress)
    if own is not None:  # the wager plays whole rounds itself (AxMan reads the dealer's final hand)
        return own
    cards = np.repeat(np.arange(52, dtype=np.int64), shoe.counts)
    rng = np.random.Generator(np.random.PCG64(seed))
    tallies = np.zeros(len(wager.outcomes) + 1, dtype=np.int64)
    done = 0
    while done < rounds:
        n = min(BLOCK, rounds - done)
        dealt = cards[deal_positions(rng, cards.size, n, k)]
        tallies += np.bincount(wager.classify_indices(dealt), minlength=tallies.size)
        done += n
        if progress is not None:
            progress(done)
    return tuple(int(t) for t in tallies)
