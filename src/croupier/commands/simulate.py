"""``croupier simulate``: a simulated par sheet beside the exact one, here or on a Dask cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from croupier.analysis.simulate import (
    MAX_SIMULATED_ROUNDS,
    beside_exact,
    check_rounds,
    run_fields,
    where_dealt,
)
from croupier.analysis.simulate import simulate as run_simulation
from croupier.commands.analysis import OnePaytableOpt, _check_out_dir, _only_paytable
from croupier.commands.common import (
    DecksOpt,
    JsonFlag,
    MeterOpt,
    PaytableFiles,
    StakeOpt,
    WagerAmountOpt,
    WagerArg,
    _pct,
    _print_sheet,
    _progress,
    _wager,
    app,
    err,
    out,
)
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.wagers import ProgressiveStake

if TYPE_CHECKING:
    from croupier.analysis.evidence import Evidence

SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        min=0,
        help="Seed entropy of the run's SeedSequence (default: fresh entropy, printed so the run "
        "can be repeated).",
    ),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        min=1,
        help="Deal the chunks on a local Dask cluster of this many workers (1: no cluster).",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Deal the chunks on the Dask cluster whose scheduler is at this address "
        "(e.g. tcp://10.0.0.5:8786).",
    ),
]


def fresh_entropy(seed: int | None) -> int:
    """``seed``, or fresh entropy from the operating system (numpy's SeedSequence) for none."""
    if seed is not None:
        return seed
    import numpy as np

    return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]


@app.command()
def simulate(
    wager: WagerArg,
    paytable: OnePaytableOpt = None,
    decks: DecksOpt = None,
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds", "-n", min=2, help=f"Rounds to deal (at most {MAX_SIMULATED_ROUNDS:,})."
        ),
    ] = 1_000_000,
    seed: SeedOpt = None,
    workers: WorkersOpt = 1,
    scheduler: SchedulerOpt = None,
    meter: MeterOpt = None,
    wager_amount: WagerAmountOpt = None,
    stake: StakeOpt = ProgressiveStake.COLLECTED,
    json_out: JsonFlag = False,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Also write the simulation's evidence as .json, .csv and .html here.",
        ),
    ] = None,
    paytable_files: PaytableFiles = None,
) -> None:
    """Simulate rounds from a shuffled shoe: the figures with standard errors, beside the exact.

    The rounds are dealt in chunks, each with its own stream spawned from the seed (compiled
    kernels for the wagers that have one), here or on Dask (--workers, --scheduler); the same
    seed gives the same tallies with any number of workers. The evidence a lab attaches comes
    with it: the return's confidence intervals, observed against expected counts per outcome and
    a chi-square goodness-of-fit test, the generator, seed and software versions (with --out DIR
    also written as JSON, CSV and HTML).
    """
    from croupier.analysis.evidence import run_info, simulation_evidence

    check_rounds(rounds, "--rounds")
    _check_out_dir(out_dir)
    w = _wager(wager, paytable_files)
    paytable = _only_paytable(w, paytable)
    entropy = fresh_entropy(seed)
    with _progress(disable=json_out) as progress:
        task = progress.add_task(f"dealing {w.id}", total=rounds)
        sheet = run_simulation(
            w,
            paytable,
            rounds=rounds,
            seed=entropy,
            decks=decks,
            meter_cents=meter_arg(meter),
            wager_cents=money(wager_amount, "--amount"),
            stake=stake,
            progress=lambda done: progress.update(task, completed=done),
            workers=workers,
            scheduler=scheduler,
        )
    exact, _ = beside_exact(w, paytable, sheet, stake)
    run = run_info(run_fields(w, entropy, workers, scheduler, sheet.decks), rounds, entropy)
    evidence = simulation_evidence(exact, sheet, run)
    written = []
    if out_dir is not None:
        from croupier.analysis.evidence import write_evidence

        written = write_evidence(evidence, out_dir)
    if json_out:
        print(json.dumps(evidence.document(), indent=2, ensure_ascii=False))
    else:
        _print_text(evidence, where_dealt(workers, scheduler))
    if written:
        err.print("wrote " + ", ".join(str(p) for p in written), soft_wrap=True)


def _print_text(evidence: Evidence, dealt: str) -> None:
    """The simulated sheet, the exact house edge and z, then the evidence: observed against
    expected, the chi-square test, the return's confidence intervals and the run."""
    sheet, exact, entropy = evidence.simulated, evidence.exact, evidence.run.seed_entropy
    z = evidence.z_score
    _print_sheet(sheet)
    if z is None:
        out.print(f"exact house edge {_pct(exact.house_edge)}")
    else:
        side = "above" if z > 0 else "below"
        out.print(
            f"exact house edge {_pct(exact.house_edge)}; the simulated house edge is "
            f"{abs(z):.2f} standard errors {side} it"
        )
    t = Table(title="Observed against expected (rounds × exact probability)", title_justify="left")
    for col in ("Outcome", "Expected", "Observed", "O − E", "z"):
        t.add_column(col, justify="left" if col == "Outcome" else "right")
    for o in evidence.outcomes:
        t.add_row(
            o.label,
            f"{float(o.expected):,.1f}",
            f"{o.observed:,}",
            f"{float(o.observed - o.expected):+,.1f}",
            "—" if o.z is None else f"{o.z:+.2f}",
        )
    out.print(t)
    out.print(evidence.fit.sentence(), soft_wrap=True)
    intervals = "confidence intervals " + "; ".join(
        f"{i.level.label} {i.low:.4%} to {i.high:.4%}"
        + ("" if i.contains_exact else " (exact outside)")
        for i in evidence.intervals
    )
    out.print(
        f"return to player {float(evidence.simulated_return):.4%} (exact "
        f"{float(evidence.exact_return):.4%}); {evidence.no_interval_reason() or intervals}",
        soft_wrap=True,
    )
    run = evidence.run
    out.print(
        f"seed entropy {entropy} (repeat with --seed {entropy}); dealt {dealt}; {run.rng}; "
        f"croupier {run.croupier_version}",
        soft_wrap=True,
    )
