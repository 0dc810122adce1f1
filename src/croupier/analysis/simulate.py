"""Monte Carlo simulation that cross-checks the exact par sheets.

Each round shuffles the full shoe and deals the cards the wager reads from its top. Dealing the
first k cards of a uniformly shuffled shoe is the same as drawing k cards uniformly without
replacement, so the simulator draws exactly that, vectorised with numpy over blocks of rounds:
the j-th card is a uniform choice among the N − j positions not yet dealt. Classification uses the
wager's vectorised :meth:`~croupier.wagers.base.Wager.classify_indices`, a second implementation
independent of the scalar classifier the exact counts use.

The generator is numpy's PCG64 seeded with ``seed``; the same seed, shoe and block size give the
same rounds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from croupier.analysis.parsheet import ParSheet, Setup, resolve, rows_for
from croupier.cards import Shoe
from croupier.errors import InputError, ShoeError
from croupier.paytables import MeterLevel, Paytable
from croupier.wagers.base import IntArray, ProgressiveStake, Wager

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
    """Observed count of each outcome over ``rounds`` rounds (last entry: no winning combination).

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


def simulate(
    wager: Wager,
    paytable: str | Paytable,
    rounds: int,
    seed: int,
    decks: int | None = None,
    shoe: Shoe | None = None,
    meter_cents: int | dict[MeterLevel, int] | None = None,
    wager_cents: int | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
    progress: Callable[[int], None] | None = None,
) -> ParSheet:
    """A simulated par sheet: observed frequencies, mean return, its standard error.

    Arguments as in :func:`croupier.analysis.parsheet.exact_parsheet`, plus ``rounds`` and ``seed``.
    The standard deviation reported is the sample's; ``standard_error`` = sd / √rounds.
    """
    setup = resolve(wager, paytable, decks, shoe, meter_cents, wager_cents, stake)
    counts = simulate_counts(setup.wager, setup.shoe, rounds, seed, progress)
    convention = setup.wager.simulation_convention(setup.shoe, rounds, seed) or (
        f"{rounds:,} rounds, each the top cards of a freshly shuffled {setup.shoe}; seed {seed}"
    )
    return observed_sheet(setup, counts, "simulation", convention)


def observed_sheet(setup: Setup, counts: tuple[int, ...], method: str, convention: str) -> ParSheet:
    """A par sheet of observed counts (one per outcome, then no winning combination): observed
    frequencies, the mean return, the sample standard deviation and the standard error of the mean.
    Raises :class:`~croupier.errors.InputError` for fewer than two rounds."""
    rounds = sum(counts)
    if rounds < 2:
        raise InputError(f"a standard error needs at least two rounds, not {rounds}")
    rows = rows_for(setup, counts, rounds, exact=False)
    mean = sum((r.contribution for r in rows), Fraction(0))
    sd = math.sqrt(sum((r.hits or 0) * (r.net - mean) ** 2 for r in rows) / (rounds - 1))
    return setup.sheet(method, convention, rows, rounds, sd / math.sqrt(rounds), sd)
