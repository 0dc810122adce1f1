"""``croupier verify-parsheets``: every par sheet simulated until its standard error reaches a target,
exact against simulated, the z-score of each (a test lab's check)."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any

import typer

from croupier.analysis.evidence_stats import GoodnessOfFit, goodness_of_fit
from croupier.analysis.kernels import plan_for
from croupier.analysis.kernels.chunks import CHUNK_ROUNDS, chunks, dask_client, run_chunks
from croupier.analysis.parsheet import ParSheet, exact_parsheet, resolve
from croupier.analysis.simulate import observed_sheet, where_dealt
from croupier.cards import decks_phrase
from croupier.commands.common import JsonFlag, _pct, _progress, app, out
from croupier.commands.simulate import SchedulerOpt, SeedOpt, WorkersOpt, fresh_entropy
from croupier.errors import InputError
from croupier.wagers import ProgressiveStake, Wager, all_wagers, get_wager

FLAG_Z = 4.0
"""|z| above which a par sheet is flagged: exact and simulated differ by more than chance explains
(P(|z| > 4) ≈ 6 × 10⁻⁵ for one sheet)."""

MIN_ROUNDS = 10_000
"""The fewest rounds a sheet is simulated with (the sample standard deviation needs some)."""


@dataclass(frozen=True)
class Verified:
    """One par sheet checked: the exact sheet, the simulated one, and how they compare."""

    exact: ParSheet
    simulated: ParSheet
    target_se: float
    kernel: bool

    @property
    def standard_error(self) -> float:
        """The simulated house edge's standard error."""
        return self.simulated.standard_error or 0.0

    @property
    def z(self) -> float | None:
        """(simulated − exact house edge) / standard error (``None`` for a zero standard error)."""
        se = self.standard_error
        if not se:
            return None
        return float(self.simulated.house_edge - self.exact.house_edge) / se

    @property
    def flagged(self) -> bool:
        """Whether |z| > :data:`FLAG_Z` (with a zero standard error: whether the two differ)."""
        z = self.z
        if z is None:
            return self.simulated.house_edge != self.exact.house_edge
        return abs(z) > FLAG_Z

    @cached_property
    def fit(self) -> GoodnessOfFit:
        """The chi-square goodness-of-fit test of the simulated counts against the exact
        probabilities (:mod:`croupier.analysis.evidence`): shown beside z, not flagged on."""
        return goodness_of_fit(self.exact, self.simulated)

    @property
    def target_reached(self) -> bool:
        """Whether the standard error reached the target (else the round limit stopped it)."""
        return self.standard_error <= self.target_se

    def to_dict(self) -> dict[str, Any]:
        """The JSON row."""
        return {
            "wager": self.exact.wager,
            "section": self.exact.section,
            "paytable": self.exact.paytable,
            "decks": self.exact.decks,
            "rounds": self.simulated.total,
            "exact_house_edge": float(self.exact.house_edge),
            "exact_house_edge_fraction": str(self.exact.house_edge),
            "simulated_house_edge": float(self.simulated.house_edge),
            "standard_error": self.standard_error,
            "z_score": self.z,
            "chi_square": float(self.fit.statistic),
            "degrees_of_freedom": self.fit.degrees_of_freedom,
            "chi_square_p_value": self.fit.p_value,
            "flagged": self.flagged,
            "target_reached": self.target_reached,
            "kernel": self.kernel,
        }


def sheet_entropy(entropy: int, wager: str, paytable: str, decks: int) -> int:
    """The entropy of one par sheet's streams: the run's ``entropy`` with the sheet's wager,
    paytable and deck count (the first 128 bits of SHA-256 of ``"ENTROPY/WAGER/PAYTABLE/DECKS"``).

    Each sheet is dealt its own rounds, so the z-scores of one run are independent samples (with
    one stream for every sheet, two paytables of one wager were judged on the same deals, and
    their z-scores moved together); a sheet's rounds depend on the seed and the sheet only, not
    on which other sheets are verified beside it.

    >>> sheet_entropy(3, "perfect-pairs", "A", 6) == sheet_entropy(3, "perfect-pairs", "B", 6)
    False
    """
    text = f"{entropy}/{wager}/{paytable}/{decks}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:16], "big")


def rounds_for(sd: float, target_se: float, max_rounds: int) -> int:
    """Rounds for a standard error of ``target_se`` given a standard deviation ``sd``
    (sd² / target²), at least :data:`MIN_ROUNDS`, at most ``max_rounds``.

    >>> rounds_for(5.0, 0.01, 10**9)
    250000
    """
    return min(max_rounds, max(MIN_ROUNDS, math.ceil((sd / target_se) ** 2)))


def verify(
    wager: Wager,
    paytable: str,
    decks: int,
    target_se: float,
    max_rounds: int,
    entropy: int,
    client: Any = None,
    progress: Any = None,
) -> Verified:
    """Simulate one par sheet (the paytable's meters at their seeds) until the standard error of
    its house edge is ``target_se`` or ``max_rounds`` rounds are dealt: first the rounds the
    exact standard deviation asks for, then more chunks (fresh streams, at least
    :data:`MIN_ROUNDS` rounds at a time) while the sample's is above the target."""
    stake = ProgressiveStake.COLLECTED
    exact = exact_parsheet(wager, paytable, decks=decks, stake=stake)
    setup = resolve(wager, paytable, decks, None, None, None, stake)
    rounds = rounds_for(exact.standard_deviation, target_se, max_rounds)
    entropy = sheet_entropy(entropy, wager.id, paytable, decks)
    counts = run_chunks(setup.wager, setup.shoe, rounds, entropy, progress=progress, client=client)
    used = len(chunks(rounds))  # chunks 0 … used − 1 are dealt; more rounds take fresh ones
    sheet = observed_sheet(setup, counts, "simulation", "")
    while (sheet.standard_error or 0.0) > target_se and rounds < max_rounds:
        sd = sheet.sample_standard_deviation or exact.standard_deviation
        more = min(
            max_rounds - rounds, max(MIN_ROUNDS, rounds_for(sd, target_se, max_rounds) - rounds)
        )
        extra = run_chunks(setup.wager, setup.shoe, more, entropy, start=used, client=client)
        used += len(chunks(more))
        counts = tuple(a + b for a, b in zip(counts, extra, strict=True))
        rounds += more
        sheet = observed_sheet(setup, counts, "simulation", "")
    convention = (
        f"{rounds:,} rounds in chunks of {CHUNK_ROUNDS:,}, each its own stream of "
        f"SeedSequence({entropy}).spawn (this sheet's own entropy, from the run's seed)"
    )
    sheet = observed_sheet(setup, counts, "simulation", convention)
    return Verified(exact, sheet, target_se, plan_for(setup.wager, setup.shoe) is not None)


def _sheets(wager_ids: list[str] | None) -> list[tuple[Wager, str, int]]:
    wagers = [get_wager(w) for w in wager_ids] if wager_ids else list(all_wagers())
    seen = set()
    todo = []
    for w in wagers:
        for table, decks in w.offerings():
            key = (w.id, table.key, decks)
            if key not in seen:
                seen.add(key)
                todo.append((w, table.key, decks))
    return todo


@contextmanager
def _client(workers: int, scheduler: str | None) -> Iterator[Any]:
    if workers == 1 and scheduler is None:
        with nullcontext(None) as none:
            yield none
        return
    with dask_client(workers, scheduler) as client:
        yield client


@app.command("verify-parsheets")
def verify_parsheets(
    wager_ids: Annotated[
        list[str] | None,
        typer.Option("--wager", help="Only this wager (a wager id); repeatable."),
    ] = None,
    target_se: Annotated[
        float,
        typer.Option(
            "--target-se",
            help="Simulate each par sheet until the standard error of its house edge is this "
            "(per unit wagered).",
        ),
    ] = 0.01,
    max_rounds: Annotated[
        int,
        typer.Option("--max-rounds", min=2, help="The most rounds dealt for one par sheet."),
    ] = 1_000_000_000,
    seed: SeedOpt = None,
    workers: WorkersOpt = 1,
    scheduler: SchedulerOpt = None,
    json_out: JsonFlag = False,
) -> None:
    """Simulate every par sheet (or those of the wagers named) until the standard error reaches
    the target, and print exact against simulated with the z-score of each; |z| > 4 is flagged
    and makes the exit status 1.

    Every wager × paytable × allowed deck count, progressive meters at their seeds; the rounds
    the exact standard deviation asks for (sd² / target²), more while the sample's is above the
    target, at most --max-rounds. Each sheet is dealt its own rounds (its streams' entropy is
    the seed's with the sheet's wager, paytable and decks), so the z-scores are independent.
    Runs on Dask with --workers or --scheduler.
    """
    if not (0 < target_se < math.inf):
        raise InputError(f"--target-se is a standard error above 0, not {target_se}")
    entropy = fresh_entropy(seed)
    todo = _sheets(wager_ids)
    results: list[Verified] = []
    with _client(workers, scheduler) as client, _progress(disable=json_out) as bar:
        sheets = bar.add_task("par sheets", total=len(todo))
        for w, key, decks in todo:
            task = bar.add_task(f"{w.id} {key} {decks_phrase(decks)}", total=None)

            def progress(done: int, task: Any = task) -> None:
                bar.update(task, completed=done)

            results.append(verify(w, key, decks, target_se, max_rounds, entropy, client, progress))
            bar.remove_task(task)
            bar.advance(sheets)
    flagged = [r for r in results if r.flagged]
    if json_out:
        doc = {
            "target_se": target_se,
            "max_rounds": max_rounds,
            "seed_entropy": str(entropy),
            "workers": workers,
            "scheduler": scheduler,
            "flag_z": FLAG_Z,
            "sheets": [r.to_dict() for r in results],
            "flagged": len(flagged),
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        _print_results(results, target_se)
        out.print(
            f"{len(results)} par sheets; {len(flagged)} flagged (|z| > {FLAG_Z:g}); seed "
            f"entropy {entropy} (repeat with --seed {entropy}); dealt {where_dealt(workers, scheduler)}"
        )
    if flagged:
        raise typer.Exit(1)


def _print_results(results: list[Verified], target_se: float) -> None:
    from rich.table import Table

    table = Table(
        title=f"Par sheets, exact against simulated (target standard error {target_se:g})"
    )
    names = (
        "Wager",
        "Paytable",
        "Decks",
        "Rounds",
        "Exact edge",
        "Simulated",
        "SE",
        "z",
        "χ² p",
        "",
    )
    for name in names:
        table.add_column(name, justify="left" if name in ("Wager", "Paytable", "") else "right")
    for r in results:
        z = r.z
        note = "FLAGGED" if r.flagged else ("" if r.target_reached else "target not reached")
        table.add_row(
            r.exact.wager,
            r.exact.paytable,
            str(r.exact.decks),
            f"{r.simulated.total:,}",
            _pct(r.exact.house_edge),
            _pct(r.simulated.house_edge),
            f"{r.standard_error:.5f}",
            "—" if z is None else f"{z:+.2f}",
            "—" if r.fit.p_value is None else f"{r.fit.p_value:.3f}",
            note,
        )
    out.print(table)
