"""``croupier bundle``: a test lab's report bundle for one paytable (:mod:`croupier.operations.bundle`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from croupier.analysis.meters import ReseedFunding
from croupier.commands.analysis import OnePaytableOpt, ReseedOpt, _only_paytable
from croupier.commands.common import (
    DecksOpt,
    MeterOpt,
    PaytableFiles,
    StakeOpt,
    WagerAmountOpt,
    WagerArg,
    _progress,
    _wager,
    app,
    err,
    out,
)
from croupier.commands.simulate import SeedOpt, WorkersOpt, fresh_entropy
from croupier.operations.bundle import BundleRequest, write_bundle
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.wagers import ProgressiveStake

BundleOutOpt = Annotated[
    Path,
    typer.Option("--out", "-o", help="The bundle's folder (new or empty)."),
]
RoundsOpt = Annotated[
    int,
    typer.Option(
        "--rounds",
        "-n",
        min=0,
        help="Rounds to simulate as evidence (0: none; 1 is refused, a standard error needs two).",
    ),
]
SubmissionOpt = Annotated[
    Path | None,
    typer.Option(
        "--submission",
        help="A Rules Submission (TOML) that offers this wager and paytable: checked, its digest "
        "recorded and the file copied into the bundle.",
    ),
]


@app.command()
def bundle(
    wager: WagerArg,
    out_dir: BundleOutOpt,
    paytable: OnePaytableOpt = None,
    decks: DecksOpt = None,
    rounds: RoundsOpt = 10_000_000,
    seed: SeedOpt = None,
    workers: WorkersOpt = 1,
    meter: MeterOpt = None,
    wager_amount: WagerAmountOpt = None,
    stake: StakeOpt = ProgressiveStake.COLLECTED,
    reseed: ReseedOpt = ReseedFunding.RESERVE,
    submission: SubmissionOpt = None,
    paytable_files: PaytableFiles = None,
) -> None:
    """A test lab's report bundle for one wager × paytable × deck count: the exact par sheet, the
    simulation evidence, a manifest with every file's SHA-256, the paytable and Rules Submission
    digests, croupier's version and commit, and a print-ready cover page."""
    w = _wager(wager, paytable_files)
    request = BundleRequest(
        wager=w,
        paytable=_only_paytable(w, paytable),
        decks=decks,
        rounds=rounds,
        seed=fresh_entropy(seed),
        meter_cents=meter_arg(meter),
        wager_cents=money(wager_amount, "--amount"),
        stake=stake,
        reseed=reseed,
        submission=submission,
        workers=workers,
        paytable_files=tuple(paytable_files or ()),
    )
    with _progress(disable=rounds == 0) as progress:
        task = progress.add_task(f"dealing {w.id}", total=rounds or 1)
        written = write_bundle(
            request, out_dir, progress=lambda done: progress.update(task, completed=done)
        )
    out.print(f"bundle written to {out_dir}: {len(written.files)} files", soft_wrap=True)
    for f in written.files:
        out.print(f"  {f}", soft_wrap=True)
    err.print(
        f"check it with: cd {out_dir} && sha256sum -c SHA256SUMS; open {out_dir / 'index.html'}",
        soft_wrap=True,
    )
