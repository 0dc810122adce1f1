"""Monte Carlo simulation that cross-checks the exact par sheets.

The numpy simulator (:mod:`croupier.analysis.kernels.numpy_sim`, re-exported here): each round
shuffles the full shoe and deals the cards the wager reads from its top. Dealing the
first k cards of a uniformly shuffled shoe is the same as drawing k cards uniformly without
replacement, so the simulator draws exactly that, vectorised with numpy over blocks of rounds:
the j-th card is a uniform choice among the N − j positions not yet dealt. Classification uses the
wager's vectorised :meth:`~croupier.wagers.base.Wager.classify_indices`, a second implementation
independent of the scalar classifier the exact counts use.

The generator is numpy's PCG64 seeded with ``seed``; the same seed, shoe and block size give the
same rounds.

:func:`simulate` (the par sheet) runs in chunks (:mod:`croupier.analysis.kernels.chunks`), each with
its own stream spawned from the seed, here or on a Dask cluster: a wager that declares a compiled
kernel (:attr:`~croupier.wagers.base.Wager.kernel`, e.g. whole Blackjack rounds) is dealt by it,
any other by :func:`simulate_counts` on the chunk's stream. The same seed gives the same tallies
whatever the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from croupier.analysis.kernels.numpy_sim import BLOCK, deal_positions, simulate_counts
from croupier.analysis.parsheet import ParSheet, Setup, exact_parsheet, resolve, rows_for
from croupier.cards import Shoe
from croupier.errors import InputError, ShoeError
from croupier.paytables import MeterLevel, Paytable
from croupier.wagers.base import ProgressiveStake, Wager

MAX_SIMULATED_ROUNDS = 10**12
"""The most rounds one simulation deals (``croupier simulate --rounds``, ``croupier bundle``, the
Python API): 10^12, days of one core at a few million rounds a second (hours on a Dask
cluster); more is taken for a slip of the keyboard. The HTTP service's jobs stop far lower
(:data:`croupier.service.job_work.MAX_ROUNDS`, 50,000,000: a shared server's time)."""

__all__ = [
    "BLOCK",
    "MAX_SIMULATED_ROUNDS",
    "check_rounds",
    "deal_positions",
    "observed_sheet",
    "run_fields",
    "simulate",
    "simulate_counts",
]


def check_rounds(rounds: int, name: str = "rounds") -> None:
    """Raise :class:`InputError` (naming ``name``, e.g. ``--rounds``) for fewer than 2 rounds or
    more than :data:`MAX_SIMULATED_ROUNDS`."""
    if rounds < 2:
        raise InputError(
            f"{name}: simulate at least two rounds (a standard error needs two), not {rounds:,}"
        )
    if rounds > MAX_SIMULATED_ROUNDS:
        raise InputError(
            f"{name}: simulate at most {MAX_SIMULATED_ROUNDS:,} rounds (10^12), not {rounds:,}"
        )


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
    workers: int = 1,
    scheduler: str | None = None,
    client: Any = None,
    chunk_rounds: int | None = None,
    runner: Callable[..., tuple[int, ...]] | None = None,
) -> ParSheet:
    """A simulated par sheet: observed frequencies, mean return, its standard error.

    Arguments as in :func:`croupier.analysis.parsheet.exact_parsheet`, plus ``rounds`` and
    ``seed`` (the entropy of the run's :class:`numpy.random.SeedSequence`, any int ≥ 0), and where
    the chunks run (:func:`croupier.analysis.kernels.chunks.run_chunks`: ``workers``, a Dask
    ``scheduler`` address or ``client``; ``chunk_rounds``, default
    :data:`~croupier.analysis.kernels.chunks.CHUNK_ROUNDS`; ``runner``, what deals them, with
    :func:`~croupier.analysis.kernels.chunks.run_chunks`'s arguments and tallies — the default).
    The standard deviation reported is the sample's; ``standard_error`` = sd / √rounds.
    Raises :class:`InputError` for rounds outside 2 … :data:`MAX_SIMULATED_ROUNDS`
    (:func:`check_rounds`) or a negative seed.
    """
    from croupier.analysis.kernels import plan_for
    from croupier.analysis.kernels.chunks import CHUNK_ROUNDS, chunks_phrase, run_chunks

    check_rounds(rounds)
    if seed < 0:
        raise InputError(f"a seed is an integer ≥ 0, not {seed}")
    setup = resolve(wager, paytable, decks, shoe, meter_cents, wager_cents, stake)
    k = setup.wager.deal.size
    if setup.shoe.total < k:
        raise ShoeError(
            f"a {setup.shoe} cannot deal the {k} cards the {setup.wager.name} wager reads"
        )
    plan = plan_for(setup.wager, setup.shoe)
    chunk = chunk_rounds or CHUNK_ROUNDS
    counts = (runner or run_chunks)(
        setup.wager, setup.shoe, rounds, seed, workers, scheduler, progress, client=client,
        chunk_rounds=chunk,
    )  # fmt: skip
    if plan is not None:
        dealt = f"{rounds:,} {plan.engine.describe(setup.shoe)} (compiled kernel)"
    else:
        dealt = setup.wager.simulation_convention(setup.shoe, rounds, seed) or (
            f"{rounds:,} rounds, each the top cards of a freshly shuffled {setup.shoe}"
        )
        dealt = dealt.removesuffix(f"; seed {seed}")
    streams = "each its own stream" if rounds > chunk else "its own stream"
    convention = (
        f"{dealt}; in {chunks_phrase(rounds, chunk)}, {streams} of "
        f"SeedSequence({seed}).spawn; seed entropy {seed}"
    )
    return observed_sheet(setup, counts, "simulation", convention)


def where_dealt(workers: int, scheduler: str | None, alone: str = "in this process") -> str:
    """Where a run's chunks were dealt, in words: on a Dask cluster (its scheduler's address, or
    a local one of ``workers``), else ``alone`` ("in this process" on the terminal; a report
    read later says "in one process").

    >>> where_dealt(1, None), where_dealt(2, None)
    ('in this process', 'on a local Dask cluster of 2 workers')
    """
    if scheduler is not None:
        return f"on the Dask cluster at {scheduler}"
    if workers > 1:
        return f"on a local Dask cluster of {workers} workers"
    return alone


def run_fields(
    wager: Wager,
    seed: int,
    workers: int = 1,
    scheduler: str | None = None,
    decks: int | None = None,
) -> dict[str, Any]:
    """The fields ``croupier simulate --json`` adds about the run (docs/schemas/simulate.schema.json):
    the seed entropy (a string: it may exceed 2^53), where the chunks ran, their size, and
    whether a compiled kernel dealt the rounds (of a full shoe of ``decks`` decks).

    >>> from croupier.wagers import get_wager
    >>> run_fields(get_wager("perfect-pairs"), 7)["seed_entropy"]
    '7'
    """
    from croupier.analysis.kernels import plan_for
    from croupier.analysis.kernels.chunks import CHUNK_ROUNDS

    kernel = wager.kernel is not None
    if kernel and decks is not None:
        kernel = plan_for(wager, Shoe.standard(decks)) is not None
    return {
        "seed_entropy": str(seed),
        "workers": workers,
        "scheduler": scheduler,
        "chunk_rounds": CHUNK_ROUNDS,
        "kernel": kernel,
    }


def beside_exact(
    wager: Wager, paytable: str, sheet: ParSheet, stake: ProgressiveStake
) -> tuple[ParSheet, float | None]:
    """The exact par sheet of a simulated ``sheet``'s game (its decks, meters and wager) and the
    simulated house edge's z score against it (``None`` without a standard error; above zero, the
    simulated house edge is above the exact one): what ``croupier simulate`` and a simulation job
    report."""
    exact = exact_parsheet(
        wager,
        paytable,
        decks=sheet.decks,
        meter_cents=sheet.meters or None,
        wager_cents=sheet.wager_cents,
        stake=stake,
    )
    z = (
        float(sheet.house_edge - exact.house_edge) / sheet.standard_error
        if sheet.standard_error
        else None
    )
    return exact, z


def simulated_document(
    sheet: ParSheet, exact: ParSheet, z: float | None, fields: dict[str, Any]
) -> dict[str, Any]:
    """``croupier simulate --json``'s document: the simulated ``sheet``, the exact house edge,
    the z score and the run's ``fields`` (:func:`run_fields`)."""
    d: dict[str, Any] = sheet.to_dict()
    d["exact_house_edge"] = float(exact.house_edge)
    d["z_score"] = z
    d |= fields
    return d


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
