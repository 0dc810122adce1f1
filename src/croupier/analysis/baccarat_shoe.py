"""Whole-shoe Baccarat simulation: shuffled shoes dealt coup after coup, with burn and cut card.

Unlike :func:`croupier.analysis.simulate.simulate` (a fresh shoe every round), each simulated shoe
here is shuffled once and dealt to the cut card the way a table deals it (:class:`BaccaratRules`):
the burn at the start, coups of four to six cards following § 631a.9–§ 631a.11, and, once the cut
card has come out, the coups the rules allow after it. Every coup's summary is tallied, so one run
gives the observed figures of every Baccarat wager and paytable at once (:func:`shoe_parsheet`).

Optionally each coup is recorded with what a card counter had seen before it (the cards of earlier
coups and the face-up burn card) and what the shoe actually still held (including the hidden burned
cards' absence): the count analysis of :mod:`croupier.analysis.eor` reads those records.

Vectorised with numpy over a batch of shoes at a time; PCG64 seeded with ``seed``: the same seed,
rules and batch size give the same shoes.

The averages are per coup over whole shoes, so they carry the cut-card effect (the number of coups
dealt depends on the cards); for Baccarat it is far below the standard errors of any practical run,
which is what the cross-check with the exact figures shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.analysis.parsheet import ParSheet, resolve
from croupier.analysis.simulate import observed_sheet
from croupier.cards import Shoe
from croupier.errors import CroupierError
from croupier.games.baccarat import (
    COUP_SIZE,
    SUMMARIES,
    BaccaratRules,
    BurnRule,
    coup_arrays,
    value_counts,
)
from croupier.paytables import Paytable
from croupier.wagers.baccarat import BaccaratWager
from croupier.wagers.base import IntArray, net_win

BATCH = 4_000
"""Shoes dealt per vectorised batch."""


@dataclass(frozen=True)
class CoupRecords:
    """One row per coup dealt, shoe by shoe and in dealing order within a shoe.

    ``seen[i, v]``: cards of point value v a counter had seen before coup i (earlier coups of the
    shoe and the face-up burn card); ``remaining[i, v]``: cards of value v physically left in the
    shoe before coup i (what the coup is dealt from); ``shoe[i]``: which simulated shoe;
    ``summary[i]``: the coup's :attr:`~croupier.games.baccarat.CoupSummary.index`.
    """

    seen: npt.NDArray[np.int16]
    remaining: npt.NDArray[np.int16]
    shoe: IntArray
    summary: IntArray


@dataclass(frozen=True)
class ShoeSimulation:
    """The result of :func:`simulate_shoes`: how often each of the 400 coup summaries came up."""

    rules: BaccaratRules
    shoes: int
    seed: int
    summary_counts: tuple[int, ...]
    records: CoupRecords | None = None

    @property
    def coups(self) -> int:
        """Coups dealt over all shoes."""
        return sum(self.summary_counts)

    def tallies(self, wager: BaccaratWager) -> tuple[int, ...]:
        """Observed count of each outcome of ``wager`` (last entry: no winning combination)."""
        positions = wager.summary_positions()
        out = [0] * (len(wager.outcomes) + 1)
        for index, n in enumerate(self.summary_counts):
            out[int(positions[index])] += n
        return tuple(out)


def simulate_shoes(
    shoes: int,
    seed: int,
    rules: BaccaratRules | None = None,
    record: bool = False,
    progress: Callable[[int], None] | None = None,
    batch: int = BATCH,
) -> ShoeSimulation:
    """Deal ``shoes`` shuffled shoes to the cut card under ``rules`` (default: eight decks, cut card
    14 cards from the end, first-card burn, one coup after the cut card).

    ``record`` keeps :class:`CoupRecords` (about 45 bytes per coup). ``progress`` is called with the
    number of shoes finished after each batch. Raises :class:`~croupier.errors.CroupierError` for
    fewer than one shoe.
    """
    if shoes < 1:
        raise CroupierError(f"simulate at least one shoe, not {shoes}")
    rules = rules or BaccaratRules()
    full = np.array(value_counts(Shoe.standard(rules.decks)), dtype=np.int64)
    deck = np.repeat(np.arange(10, dtype=np.int8), full)
    rng = np.random.Generator(np.random.PCG64(seed))
    counts = np.zeros(SUMMARIES, dtype=np.int64)
    parts: list[CoupRecords] = []
    done = 0
    while done < shoes:
        n = min(batch, shoes - done)
        order = rng.permuted(np.tile(deck, (n, 1)), axis=1)
        counts += _deal_batch(order, rules, full, done, parts if record else None)
        done += n
        if progress is not None:
            progress(done)
    records = None
    if record:
        shoe = np.concatenate([p.shoe for p in parts])
        order = np.argsort(shoe, kind="stable")  # dealt coup by coup across shoes: shoe order
        records = CoupRecords(
            np.concatenate([p.seen for p in parts])[order],
            np.concatenate([p.remaining for p in parts])[order],
            shoe[order],
            np.concatenate([p.summary for p in parts])[order],
        )
    return ShoeSimulation(rules, shoes, seed, tuple(int(c) for c in counts), records)


def _deal_batch(
    order: npt.NDArray[np.int8],
    rules: BaccaratRules,
    full: IntArray,
    first_shoe: int,
    parts: list[CoupRecords] | None,
) -> IntArray:
    n, size = order.shape
    rows = np.arange(n)
    seen = np.zeros((n, 10), dtype=np.int64)
    removed = np.zeros((n, 10), dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    if rules.burn is BurnRule.FIRST_CARD:
        first = order[:, 0].astype(np.int64)
        np.add.at(seen, (rows, first), 1)
        np.add.at(removed, (rows, first), 1)
        burned = np.where(first == 0, 10, first)
        for j in range(1, 11):
            hidden = burned >= j
            np.add.at(removed, (rows[hidden], order[hidden, j].astype(np.int64)), 1)
        pos = 1 + burned
    cut_at = size - rules.cut_card
    extra = np.full(n, rules.coups_after_cut_card, dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    counts = np.zeros(SUMMARIES, dtype=np.int64)
    offsets = np.arange(COUP_SIZE)
    while True:
        after_cut = pos >= cut_at
        active &= ~(after_cut & (extra == 0))
        extra -= after_cut & active
        live = rows[active]
        if live.size == 0:
            break
        six = order[live[:, None], pos[live, None] + offsets].astype(np.int64)
        pt, bt, pn, bn = coup_arrays(six)
        summary = ((pt * 10 + bt) * 2 + pn - 2) * 2 + bn - 2
        counts += np.bincount(summary, minlength=SUMMARIES)
        if parts is not None:
            parts.append(
                CoupRecords(
                    seen[live].astype(np.int16),
                    (full - removed[live]).astype(np.int16),
                    live + first_shoe,
                    summary,
                )
            )
        used = pn + bn
        for j in range(COUP_SIZE):
            dealt = used > j
            np.add.at(seen, (live[dealt], six[dealt, j]), 1)
            np.add.at(removed, (live[dealt], six[dealt, j]), 1)
        pos[live] += used
    return counts


def shoe_parsheet(
    simulation: ShoeSimulation, wager: BaccaratWager, paytable: str | Paytable
) -> ParSheet:
    """The observed par sheet of ``wager`` under ``paytable`` over the simulated coups, with the
    standard error of the mean return (the coups of one shoe are treated as independent, which
    their weak dependence makes a close approximation)."""
    setup = resolve(wager, paytable, decks=simulation.rules.decks)
    counts = simulation.tallies(wager)
    r = simulation.rules
    convention = (
        f"{simulation.shoes:,} shuffled {r.decks}-deck shoes dealt to a cut card "
        f"{r.cut_card} cards from the end (burn: {r.burn.value}; "
        f"{r.coups_after_cut_card} coup(s) after the cut card), {sum(counts):,} coups; "
        f"seed {simulation.seed}"
    )
    return observed_sheet(setup, counts, "whole-shoe simulation", convention)


def summary_nets(wager: BaccaratWager, paytable: Paytable) -> npt.NDArray[np.float64]:
    """The net win per unit of ``wager`` under ``paytable`` on each of the 400 coup summaries."""
    positions = wager.summary_positions()
    outcomes = list(wager.outcomes)
    nets = [
        float(net_win(wager.pay_line(paytable, outcomes[p] if p < len(outcomes) else None)))
        for p in positions.tolist()
    ]
    return np.array(nets, dtype=np.float64)
