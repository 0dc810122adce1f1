"""A test lab's report bundle: one folder per paytable that a reviewer can certify.

``croupier bundle WAGER -p PAYTABLE -d DECKS --rounds N --seed S --out DIR`` writes::

    DIR/index.html            the print-ready cover: what was analysed, by which software, the
                              headline figures, the simulation's verdict, every file and its SHA-256
    DIR/parsheet/STEM.*       the exact par sheet (JSON, CSV, HTML: as croupier analyze --out)
    DIR/simulation/STEM.*     the simulation evidence (JSON, CSV, HTML: as croupier simulate --out)
    DIR/submission/NAME       the Rules Submission file, when one is given, byte for byte
    DIR/manifest.json         the provenance and every other file's path, size and SHA-256
    DIR/SHA256SUMS            every file's SHA-256, manifest.json and index.html included, in the
                              form ``sha256sum -c SHA256SUMS`` checks

The manifest ties the figures to their inputs and software: the wager, its section, the paytable and
its configuration digest (:func:`~croupier.paytables.paytable_digest`), the deck count, the meter
values, the Rules Submission's digest (:func:`~croupier.table.submission.submission_digest`), the
rounds and seed of the simulation, croupier's version with the commit of a checkout
(:func:`~croupier.analysis.provenance.software`) and the command line.
"""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from croupier.analysis.evidence import (
    POOLING_RULE,
    Evidence,
    ReturnInterval,
    run_info,
    simulation_evidence,
    write_evidence,
)
from croupier.analysis.lab_report import figures_html, one_in_cell
from croupier.analysis.meters import ReseedFunding
from croupier.analysis.provenance import command_line, file_sha256, software
from croupier.analysis.report import write_sheet
from croupier.analysis.simulate import check_rounds, run_fields, simulate
from croupier.cards import decks_phrase
from croupier.errors import InputError, OutputError, RulesError, citation
from croupier.operations.analysis import AnalysedSheet, analyse_sheet
from croupier.paytables import MeterLevel
from croupier.table.submission import RulesSubmission, load_submission, submission_digest
from croupier.units import format_money
from croupier.wagers.base import ProgressiveStake, Wager

MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
COVER = "index.html"


@dataclass(frozen=True)
class BundleRequest:
    """What a bundle analyses: one wager × paytable × deck count, simulated ``rounds`` times."""

    wager: Wager
    """The wager (from the registry, or one a paytable file adds a paytable to)."""
    paytable: str
    """The paytable id."""
    decks: int | None
    """The deck count (``None``: the paytable's only one)."""
    rounds: int
    """Rounds to simulate as evidence; 0 for none."""
    seed: int
    """The simulation's seed entropy (any int ≥ 0)."""
    meter_cents: int | dict[MeterLevel, int] | None = None
    """Meter values for a progressive (default: the seeds)."""
    wager_cents: int | None = None
    """A progressive's wager size in cents (default: the smallest it takes)."""
    stake: ProgressiveStake = ProgressiveStake.COLLECTED
    """How a progressive's pay is read (:class:`~croupier.wagers.base.ProgressiveStake`)."""
    reseed: ReseedFunding = ReseedFunding.RESERVE
    """Who pays a reseed in the long-run return."""
    submission: Path | None = None
    """A Rules Submission that offers this wager and paytable, copied into the bundle."""
    workers: int = 1
    """Local processes to simulate on."""
    paytable_files: tuple[Path, ...] = ()
    """The user's paytable files (``--paytable-file``), copied into the bundle byte for byte: a
    reviewer checks the paytable against the file, not only against its digest."""


@dataclass(frozen=True)
class Bundle:
    """A written bundle: its folder, its files (relative paths, in the order written) and the
    manifest as written."""

    folder: Path
    files: tuple[str, ...]
    manifest: dict[str, Any]


def _offered(sub: RulesSubmission, request: BundleRequest, sheet_paytable: str, decks: int) -> None:
    """Refuse a Rules Submission that does not offer this wager with this paytable and decks."""
    offered = sub.offered(request.wager.id)
    if offered is None or offered.paytable is None:
        raise RulesError(
            f"the Rules Submission {request.submission} does not offer {request.wager.id}",
            section=request.wager.section,
        )
    if offered.paytable.key != sheet_paytable or sub.decks != decks:
        raise RulesError(
            f"the Rules Submission {request.submission} offers {request.wager.id} with paytable "
            f"{offered.paytable.key} at {decks_phrase(sub.decks)}, not paytable {sheet_paytable} "
            f"at {decks_phrase(decks)}",
            section=request.wager.section,
        )


def _check_folder(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out {str(out_dir)!r} is a file, not a folder")
    above = next((p for p in out_dir.parents if p.exists()), None)
    if above is not None and not above.is_dir():
        raise OutputError(f"--out {str(out_dir)!r} is under {str(above)!r}, a file, not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()):
        raise OutputError(
            f"--out {str(out_dir)!r} is not empty: a bundle is written into a new or empty folder, "
            "so that its manifest lists every file in it"
        )


def write_bundle(
    request: BundleRequest,
    out_dir: Path,
    *,
    progress: Callable[[int], None] | None = None,
    command: str | None = None,
) -> Bundle:
    """Analyse, simulate and write the bundle of ``request`` into ``out_dir`` (new or empty).

    ``progress`` is called with the rounds dealt so far; ``command`` is the command line recorded
    (default: this process's). Raises :class:`~croupier.errors.OutputError` for a folder that is
    a file, not empty or not writable; :class:`~croupier.errors.InputError` /
    :class:`~croupier.errors.RulesError` for a request the paytable or the submission does not
    allow — before anything is written.
    """
    if request.rounds < 0 or request.rounds == 1:
        raise InputError(f"simulate 0 rounds (none) or at least 2, not {request.rounds}")
    if request.rounds:
        check_rounds(request.rounds, "--rounds")
    _check_folder(out_dir)
    analysed = analyse_sheet(
        request.wager,
        request.paytable,
        decks=request.decks,
        meter_cents=request.meter_cents,
        wager_cents=request.wager_cents,
        stake=request.stake,
        reseed=request.reseed,
    )
    sheet = analysed.sheet
    sub = None
    if request.submission is not None:
        sub = load_submission(request.submission)
        _offered(sub, request, sheet.paytable, sheet.decks or 0)
    evidence = None
    if request.rounds:
        simulated = simulate(
            request.wager,
            request.paytable,
            request.rounds,
            request.seed,
            decks=sheet.decks,
            meter_cents=sheet.meters or None,
            wager_cents=sheet.wager_cents,
            stake=request.stake,
            progress=progress,
            workers=request.workers,
        )
        fields = run_fields(request.wager, request.seed, request.workers, None, sheet.decks)
        evidence = simulation_evidence(
            sheet, simulated, run_info(fields, request.rounds, request.seed)
        )
    written: list[Path] = []
    try:
        written += write_sheet(
            sheet, analysed.document, out_dir / "parsheet", request.reseed, analysed.meter
        )
        if evidence is not None:
            written += write_evidence(evidence, out_dir / "simulation")
        for i, source in enumerate(request.paytable_files):
            folder = out_dir / "paytables" / (str(i + 1) if len(request.paytable_files) > 1 else "")
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, folder / source.name)
            written.append(folder / source.name)
        if request.submission is not None:
            (out_dir / "submission").mkdir()
            target = out_dir / "submission" / request.submission.name
            shutil.copyfile(request.submission, target)
            written.append(target)
    except OSError as exc:
        raise OutputError(
            f"cannot write the bundle into {str(out_dir)!r}: {exc.strerror or exc}"
        ) from exc
    files = [p.relative_to(out_dir).as_posix() for p in written]
    manifest = _manifest(request, analysed, sub, evidence, out_dir, files, command)
    cover = _cover_html(manifest, analysed, evidence)
    _write_text(out_dir / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    _write_text(out_dir / COVER, cover)
    every = [*files, MANIFEST, COVER]
    sums = "".join(f"{file_sha256(out_dir / f)}  {f}\n" for f in every)
    _write_text(out_dir / SUMS, sums)
    return Bundle(out_dir, (*every, SUMS), manifest)


def _write_text(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from exc


def _manifest(
    request: BundleRequest,
    analysed: AnalysedSheet,
    sub: RulesSubmission | None,
    evidence: Evidence | None,
    out_dir: Path,
    files: list[str],
    command: str | None,
) -> dict[str, Any]:
    sheet = analysed.sheet
    return {
        "bundle": 1,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command if command is not None else command_line(),
        "software": software().to_dict(),
        "wager": sheet.wager,
        "wager_name": sheet.wager_name,
        "section": sheet.section,
        "citation": citation(sheet.section),
        "paytable": sheet.paytable,
        "paytable_citation": sheet.paytable_origin,
        "paytable_sha256": sheet.paytable_sha256,
        "decks": sheet.decks,
        "meters_cents": {lvl.value: c for lvl, c in sheet.meters.items()},
        "wager_amount_cents": sheet.wager_cents,
        "paytable_files": [f for f in files if f.startswith("paytables/")],
        "reseed_funding": request.reseed.value,
        "rules_submission": (
            None
            if sub is None or request.submission is None
            else {
                "file": f"submission/{request.submission.name}",
                "sha256": submission_digest(sub),
                "file_sha256": file_sha256(out_dir / "submission" / request.submission.name),
            }
        ),
        "simulation": (
            None
            if evidence is None
            else {"rounds": request.rounds, "seed_entropy": str(request.seed)}
        ),
        "files": [
            {"path": f, "bytes": (out_dir / f).stat().st_size, "sha256": file_sha256(out_dir / f)}
            for f in files
        ],
    }


_STYLE = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #999;padding:.2rem .5rem;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-size:.85em;word-break:break-all}
.sign td{height:3rem;width:14rem}
@media print{a{color:inherit;text-decoration:none}body{margin:0;max-width:none}
section{break-inside:avoid}}
"""


def _rows(pairs: list[tuple[str, str]]) -> str:
    return "".join(f"<tr><th>{html.escape(k)}</th><td>{v}</td></tr>" for k, v in pairs)


def _cover_html(
    manifest: dict[str, Any], analysed: AnalysedSheet, evidence: Evidence | None
) -> str:
    """The bundle's print-ready cover page."""
    sheet = analysed.sheet
    sw = manifest["software"]
    commit = sw["commit"] or "not installed from a git checkout"
    if sw["dirty"]:
        commit += " (with uncommitted changes)"
    e = html.escape
    what = [
        ("Wager", e(f"{sheet.wager_name} ({sheet.wager})")),
        ("Regulation", e(manifest["citation"])),
        ("Paytable", e(f"{sheet.paytable}: {sheet.paytable_origin}")),
        ("Paytable SHA-256", f"<code>{e(sheet.paytable_sha256)}</code>"),
        ("Shoe", e(f"{decks_phrase(sheet.decks or 0)} ({sheet.shoe})")),
    ]
    if sheet.meters:
        meters = ", ".join(f"{lvl.value} {format_money(c)}" for lvl, c in sheet.meters.items())
        what.append(("Meters", e(f"{meters} on a {format_money(sheet.wager_cents or 0)} wager")))
    for f in manifest["paytable_files"]:
        what.append(("Paytable file", e(f)))
    rs = manifest["rules_submission"]
    if rs is not None:
        what.append(("Rules Submission", f"{e(rs['file'])}, digest <code>{e(rs['sha256'])}</code>"))
    made = [
        ("croupier", e(sw["croupier"])),
        ("Commit", f"<code>{e(commit)}</code>"),
        ("Python", e(sw["python"])),
        ("Libraries", e(", ".join(f"{k} {v}" for k, v in sw["libraries"].items()))),
        ("Machine", e(sw["machine"])),
        ("Command", f"<code>{e(manifest['command'])}</code>"),
        ("Created", e(manifest["created"])),
    ]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>croupier report bundle: {e(sheet.wager)} {e(sheet.paytable)}, "
        f"{e(decks_phrase(sheet.decks or 0))}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Math report: {e(sheet.wager_name)}, paytable {e(sheet.paytable)}, "
        f"{e(decks_phrase(sheet.decks or 0))}</h1>",
        "<section><h2>What was analysed</h2><table>" + _rows(what) + "</table></section>",
        "<section><h2>Exact figures</h2>"
        + "".join(figures_html(sheet, analysed.meter))
        + f"<p>{e(sheet.convention[:1].upper() + sheet.convention[1:])}: "
        f"{sheet.total:,} deals counted.</p>"
        + _outcomes_html(analysed)
        + "<p>Every outcome's count, probability, 1 in N and share of the return: "
        + _links(manifest, "parsheet/")
        + "</p></section>",
    ]
    if analysed.meter is not None:
        long_run = 1 + analysed.meter.long_run(reseed=manifest_reseed(manifest))
        parts.append(
            f"<p>Long-run return {float(long_run):.4%} of the wager (every increment rate paid "
            f"back through the meters; reseeds paid by the {manifest_reseed(manifest).value}; "
            "docs/interpretations.md).</p>"
        )
    if evidence is None:
        parts.append("<section><h2>Simulation</h2><p>No simulation was run (--rounds 0).</p>")
    else:
        run = evidence.run
        parts.append(
            "<section><h2>Simulation</h2>"
            + f"<p>{run.rounds:,} rounds, seed entropy {run.seed_entropy}; {e(run.rng)}. "
            + (
                ""
                if evidence.z_score is None
                else f"The simulated house edge is {abs(evidence.z_score):.2f} standard errors "
                f"{'above' if evidence.z_score > 0 else 'below'} the exact one. "
            )
            + f"{e(POOLING_RULE[:1].upper() + POOLING_RULE[1:])}.</p>"
            + f"<p>{html.escape(evidence.fit.sentence())}.</p>"
            + (
                "<table>" + _rows([_interval(iv) for iv in evidence.intervals]) + "</table>"
                if evidence.intervals
                else f"<p>{e(evidence.no_interval_reason())}.</p>"
            )
            + "<p>Observed against expected, outcome by outcome: "
            + _links(manifest, "simulation/")
            + "</p></section>"
        )
    parts += [
        "<section><h2>Software</h2><table>" + _rows(made) + "</table></section>",
        "<section><h2>Files</h2><p>Check them with <code>sha256sum -c SHA256SUMS</code> in this "
        "folder (SHA256SUMS also lists manifest.json and this page).</p><table>"
        "<tr><th>File</th><th>Bytes</th><th>SHA-256</th></tr>"
        + "".join(
            f"<tr><td><a href='{e(f['path'])}'>{e(f['path'])}</a></td>"
            f"<td class='num'>{f['bytes']:,}</td><td><code>{e(f['sha256'])}</code></td></tr>"
            for f in manifest["files"]
        )
        + "</table></section>",
        "<section><h2>Review</h2><table class='sign'><tr><th>Reviewed by</th><td></td>"
        "<th>Date</th><td></td></tr><tr><th>Signature</th><td></td><th>Laboratory</th><td></td>"
        "</tr></table></section>",
        "</body></html>",
    ]
    return "\n".join(parts)


def _outcomes_html(analysed: AnalysedSheet) -> str:
    """Every outcome's pay, count, probability, 1 in N and share of the return."""
    e = html.escape
    head = "".join(
        f"<th>{h}</th>"
        for h in ("Outcome", "Pays", "Combinations", "Probability", "1 in", "Return")
    )
    body = "".join(
        f"<tr><td>{e(r.label)}</td><td>{e(r.pays)}</td>"
        f"<td class='num'>{r.combinations or 0:,}</td>"
        f"<td class='num'>{float(r.probability):.8f}</td>"
        f"<td class='num'>{one_in_cell(r.probability)}</td>"
        f"<td class='num'>{float(r.contribution):+.6f}</td></tr>"
        for r in analysed.sheet.rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def manifest_reseed(manifest: dict[str, Any]) -> ReseedFunding:
    """The reseed reading the bundle was written under."""
    return ReseedFunding(manifest["reseed_funding"])


def _interval(iv: ReturnInterval) -> tuple[str, str]:
    inside = "contains" if iv.contains_exact else "DOES NOT contain"
    return (
        f"{iv.level.label} confidence interval of the return",
        f"{iv.low:.4%} to {iv.high:.4%} ({inside} the exact {float(iv.exact):.4%})",
    )


def _links(manifest: dict[str, Any], prefix: str) -> str:
    return ", ".join(
        f"<a href='{html.escape(f['path'])}'>{html.escape(f['path'])}</a>"
        for f in manifest["files"]
        if f["path"].startswith(prefix)
    )
