"""Compiled simulation kernels (numba) on integer card arrays.

A kernel simulation has two parts: an *engine* that deals whole rounds of a game from a freshly
shuffled shoe into integer records (:class:`~croupier.analysis.kernels.plans.BlackjackRounds`:
whole Blackjack rounds with the dealer's play), and a *classifier* per wager that turns the records
into outcome positions — the positions of :meth:`~croupier.wagers.base.Wager.classify_indices`, so
the tallies have the shape of the existing simulator's counts and the exact par-sheet comparison
reads them unchanged.

Which kernel simulates a wager is data on the wager: :attr:`~croupier.wagers.base.Wager.kernel`
names a *plan* function (``"module:function"``) that, given the wager and the shoe, returns a
:class:`KernelPlan` (engine, classifier, arguments). No wager id appears here; a wager without a
kernel is simulated by :func:`croupier.analysis.simulate.simulate_counts`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol, runtime_checkable

import numpy as np

from croupier.cards import Shoe
from croupier.errors import CroupierError
from croupier.wagers.base import IntArray, Wager

BLOCK = 1 << 16
"""Rounds dealt into the record buffers per engine call."""


class Engine(Protocol):
    """Deals rounds of a game into records (hashable: plans sharing an engine share its rounds)."""

    def deal(
        self,
        shoe_cards: IntArray,
        state: np.ndarray,
        rounds: int,
        buffers: Any,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rounds`` records and their lengths, from ``shoe_cards`` with the stream ``state``."""
        ...

    def buffers(self, rounds: int) -> Any:
        """Record buffers for up to ``rounds`` rounds."""
        ...

    def describe(self, shoe: Shoe) -> str:
        """What one simulated round is, in words."""
        ...


@dataclass(frozen=True)
class KernelPlan:
    """How a wager is simulated by a kernel: the engine dealing the rounds, the classifier kernel
    ``classify(records, lengths, out, *args)`` writing each round's outcome position into ``out``,
    and the number of positions (outcomes, then no winning combination).

    ``reader`` (optional) names the same reading among the engine's own compiled readers — a
    tuple of ints the engine understands (for :class:`~croupier.analysis.kernels.plans.BlackjackRounds`
    a ``READ_*`` code of :mod:`~croupier.analysis.kernels.blackjack` and its arguments): when every
    plan of a run has one and the engine can :meth:`FusedEngine.count`, the rounds are read while
    they are dealt, with no records written — the same tallies from the same stream."""

    engine: Engine
    classify: Callable[..., None]
    args: tuple[Any, ...]
    positions: int
    reader: tuple[int, ...] | None = None


@runtime_checkable
class FusedEngine(Engine, Protocol):
    """An engine that also reads its rounds while dealing them (optional: :func:`count_with` uses
    it when every plan names a :attr:`KernelPlan.reader`)."""

    def count(
        self, shoe_cards: IntArray, state: np.ndarray, rounds: int, plans: Sequence[KernelPlan]
    ) -> list[np.ndarray]:
        """Each plan's tallies (int64, ``positions`` long) over ``rounds`` rounds dealt from
        ``shoe_cards`` with the stream ``state`` — the rounds :meth:`deal` would deal."""
        ...


def plan_for(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """The kernel plan :attr:`Wager.kernel` names for ``wager`` on ``shoe``, or ``None`` (no
    kernel, or none for this shoe: the numpy simulator deals it)."""
    spec = wager.kernel
    if spec is None:
        return None
    module, sep, name = spec.partition(":")
    if not sep:
        raise CroupierError(f"the {wager.name} wager's kernel {spec!r} is not 'module:function'")
    plan: KernelPlan | None = getattr(import_module(module), name)(wager, shoe)
    if plan is None:
        return None
    if plan.positions != len(wager.outcomes) + 1:
        raise CroupierError(
            f"the {wager.name} wager's kernel classifies {plan.positions} positions, not "
            f"{len(wager.outcomes) + 1}"
        )
    return plan


def shoe_cards(shoe: Shoe) -> IntArray:
    """The shoe's cards as indices (each card ``count`` times), the array the engines shuffle."""
    return np.repeat(np.arange(52, dtype=np.int64), shoe.counts)


def count_with(
    plans: Sequence[KernelPlan],
    shoe: Shoe,
    rounds: int,
    state: np.ndarray,
) -> list[tuple[int, ...]]:
    """The tallies of each plan over ``rounds`` rounds its one engine deals (every plan must share
    the engine: the wagers are read from the same rounds) with the stream ``state``: read while
    dealing (:class:`FusedEngine`) when the engine can and every plan names a reader, else dealt
    into records block by block and classified."""
    if not plans:
        return []
    engine = plans[0].engine
    if any(p.engine != engine for p in plans):
        raise CroupierError("wagers read from one set of rounds must share the rounds' engine")
    cards = shoe_cards(shoe)
    if isinstance(engine, FusedEngine) and all(p.reader is not None for p in plans):
        fused = engine.count(cards, state, rounds, plans)
        return [tuple(int(x) for x in t) for t in fused]
    return count_blocks(plans, cards, state, rounds)


def count_blocks(
    plans: Sequence[KernelPlan],
    cards: IntArray,
    state: np.ndarray,
    rounds: int,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[int, ...]]:
    """The tallies of each plan over ``rounds`` rounds dealt from ``cards`` (:func:`shoe_cards`)
    by the plans' one engine with the stream ``state``, into records block by block
    (:data:`BLOCK` rounds) and classified by every plan; ``progress`` (rounds done) is called
    after each block. The shoe's order carries from one block to the next."""
    engine = plans[0].engine
    tallies = [np.zeros(p.positions, dtype=np.int64) for p in plans]
    buffers = engine.buffers(min(BLOCK, rounds))
    out = np.empty(min(BLOCK, rounds), dtype=np.int64)
    done = 0
    while done < rounds:
        n = min(BLOCK, rounds - done)
        records, lengths = engine.deal(cards, state, n, buffers)
        for plan, tally in zip(plans, tallies, strict=True):
            plan.classify(records, lengths, out[:n], *plan.args)
            tally += np.bincount(out[:n], minlength=plan.positions)
        done += n
        if progress is not None:
            progress(done)
    return [tuple(int(x) for x in t) for t in tallies]


__all__ = [
    "BLOCK",
    "Engine",
    "FusedEngine",
    "KernelPlan",
    "count_blocks",
    "count_with",
    "plan_for",
    "shoe_cards",
]
