"""``croupier simulate``: a simulated par sheet beside the exact one, here or on a Dask cluster."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from croupier.analysis.simulate import beside_exact, run_fields, simulated_document
from croupier.analysis.simulate import simulate as run_simulation
from croupier.commands.analysis import OnePaytableOpt, _only_paytable
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
    out,
)
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.wagers import ProgressiveStake

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


def where(workers: int, scheduler: str | None) -> str:
    """Where the chunks ran, in words."""
    if scheduler is not None:
        return f"on the Dask cluster at {scheduler}"
    if workers > 1:
        return f"on a local Dask cluster of {workers} workers"
    return "in this process"


@app.command()
def simulate(
    wager: WagerArg,
    paytable: OnePaytableOpt = None,
    decks: DecksOpt = None,
    rounds: Annotated[
        int, typer.Option("--rounds", "-n", min=2, help="Rounds to deal.")
    ] = 1_000_000,
    seed: SeedOpt = None,
    workers: WorkersOpt = 1,
    scheduler: SchedulerOpt = None,
    meter: MeterOpt = None,
    wager_amount: WagerAmountOpt = None,
    stake: StakeOpt = ProgressiveStake.COLLECTED,
    json_out: JsonFlag = False,
    paytable_files: PaytableFiles = None,
) -> None:
    """Simulate rounds from a shuffled shoe: the figures with standard errors, beside the exact.

    The rounds are dealt in chunks, each with its own stream spawned from the seed (compiled
    kernels for the wagers that have one), here or on Dask (--workers, --scheduler); the same
    seed gives the same tallies with any number of workers.
    """
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
    exact, z = beside_exact(w, paytable, sheet, stake)
    if json_out:
        d = simulated_document(
            sheet, exact, z, run_fields(w, entropy, workers, scheduler, sheet.decks)
        )
        print(json.dumps(d, indent=2, ensure_ascii=False))
        return
    _print_sheet(sheet)
    if z is None:
        out.print(f"exact house edge {_pct(exact.house_edge)}")
    else:
        side = "above" if z > 0 else "below"
        out.print(
            f"exact house edge {_pct(exact.house_edge)}; the simulated house edge is "
            f"{abs(z):.2f} standard errors {side} it"
        )
    out.print(
        f"seed entropy {entropy} (repeat with --seed {entropy}); dealt {where(workers, scheduler)}"
    )
