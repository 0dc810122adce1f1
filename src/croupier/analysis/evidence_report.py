"""Writing a simulation's evidence out (``croupier simulate … --out DIR``): JSON, CSV and HTML.

* ``STEM-simulation.json``: what ``croupier simulate --json`` prints (the simulated par sheet and
  its ``evidence``);
* ``STEM-simulation.csv``: one row per outcome — exact probability, expected and observed count,
  their difference and z, the chi-square cell it went into — with the run's figures (the test,
  the confidence intervals, the seed, the versions) repeated on every row, as the par sheet CSV
  repeats its totals;
* ``STEM-simulation.html``: the run, the confidence intervals of the return, the observed and
  expected counts, the chi-square cells and result, and a chart (matplotlib SVG): observed
  against expected count per outcome on a log scale, beside each outcome's z.

``STEM`` is :func:`croupier.analysis.report.sheet_stem` (``fortune-7-A-8-decks``).
"""

from __future__ import annotations

import csv
import html
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.analysis.evidence_stats import POOLING_RULE, TEST_NAME, Evidence
from croupier.analysis.report import STYLE, _write, scoped_svg, sheet_stem
from croupier.analysis.simulate import where_dealt
from croupier.cards import decks_phrase
from croupier.errors import citation
from croupier.units import format_money

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def evidence_stem(evidence: Evidence) -> str:
    """The files' name without extension: ``fortune-7-A-8-decks-simulation``."""
    return f"{sheet_stem(evidence.simulated)}-simulation"


def _cell_numbers(evidence: Evidence) -> dict[str, int]:
    """Each outcome's chi-square cell, numbered from 1."""
    return {o: i for i, c in enumerate(evidence.fit.cells, start=1) for o in c.outcomes}


CSV_COLUMNS = (
    "wager",
    "section",
    "paytable",
    "paytable_sha256",
    "decks",
    "meters",
    "outcome",
    "label",
    "pays",
    "probability",
    "probability_exact",
    "expected",
    "observed",
    "difference",
    "z",
    "cell",
    "chi_square",
    "degrees_of_freedom",
    "p_value",
    "rounds",
    "exact_return",
    "simulated_return",
    "standard_error",
    *(f"ci_{p}_{end}" for p in (90, 95, 99) for end in ("low", "high")),
    "seed_entropy",
    "chunk_rounds",
    "rng",
    "croupier_version",
    "numpy_version",
    "scipy_version",
)
"""The CSV's columns: the outcome's figures, then the run's (the same on every row)."""


def evidence_csv(evidence: Evidence) -> str:
    """One CSV row per outcome (columns :data:`CSV_COLUMNS`); floats as ``repr`` (every digit)."""
    e = evidence
    s = e.simulated
    fit = e.fit.to_dict()
    run = e.run.to_dict()
    cells = _cell_numbers(e)
    shared: dict[str, object] = {
        "wager": s.wager,
        "section": f"58 Pa. Code § {s.section}",
        "paytable": s.paytable,
        "paytable_sha256": s.paytable_sha256,
        "decks": s.decks,
        "meters": "; ".join(f"{lvl.value} {format_money(c)}" for lvl, c in s.meters.items()),
        "chi_square": repr(fit["statistic"]),
        "degrees_of_freedom": fit["degrees_of_freedom"],
        "p_value": "" if fit["p_value"] is None else repr(fit["p_value"]),
        "rounds": s.total,
        "exact_return": repr(float(e.exact_return)),
        "simulated_return": repr(float(e.simulated_return)),
        "standard_error": repr(s.standard_error),
        "seed_entropy": run["seed_entropy"],
        "chunk_rounds": run["chunk_rounds"],
        "rng": run["rng"],
        "croupier_version": run["croupier_version"],
        "numpy_version": run["numpy_version"],
        "scipy_version": fit["scipy_version"],
    }
    for i in e.intervals:
        shared[f"ci_{i.level.percent}_low"] = repr(i.low)
        shared[f"ci_{i.level.percent}_high"] = repr(i.high)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for o in e.outcomes:
        d = o.to_dict()
        row = shared | {
            "outcome": o.outcome,
            "label": o.label,
            "pays": o.pays,
            "probability": repr(d["probability"]),
            "probability_exact": d["probability_exact"],
            "expected": repr(d["expected"]),
            "observed": o.observed,
            "difference": repr(d["difference"]),
            "z": "" if d["z"] is None else repr(d["z"]),
            "cell": cells[o.outcome],
        }
        w.writerow([row.get(c, "") for c in CSV_COLUMNS])
    return buf.getvalue()


def _short(label: str, width: int = 38) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def evidence_figure(evidence: Evidence) -> Figure:
    """Two panels, one row per outcome: the expected count (bar) and the observed count (dot) on
    a log scale; and each outcome's z, with the 95 % band (±1.96) dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = evidence.outcomes
    labels = [_short(o.label) for o in rows]
    y = list(range(len(rows)))
    height = max(2.6, 0.32 * len(rows) + 1.4)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(11, height), sharey=True, gridspec_kw={"width_ratios": [3, 2]}
    )
    expected = [float(o.expected) for o in rows]
    seen = [(o.observed, i) for i, o in enumerate(rows) if o.observed > 0]  # log scale: no 0
    left.barh(y, expected, color="#9ecae1", height=0.7, label="expected (rounds × exact p)")
    left.scatter(
        [n for n, _ in seen],
        [i for _, i in seen],
        color="#08306b",
        marker="D",
        zorder=3,
        label="observed",
    )
    left.set_xscale("log")
    left.set_xlabel("rounds (log scale)")
    left.set_yticks(y, labels)
    left.invert_yaxis()
    left.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, fontsize=8, frameon=False)
    zs = [o.z if o.z is not None else 0.0 for o in rows]
    colors = ["#cb181d" if abs(z) > 1.959964 else "#6baed6" for z in zs]
    right.barh(y, zs, color=colors, height=0.7)
    for edge in (-1.959964, 1.959964):
        right.axvline(edge, color="black", linestyle="--", linewidth=0.8)
    right.axvline(0, color="black", linewidth=0.8)
    bound = max(3.0, *(abs(z) for z in zs)) * 1.1
    right.set_xlim(-bound, bound)
    right.set_xlabel("z = (observed − expected) / √(N·p·(1 − p))")
    right.set_title("z per outcome (dashed: ±1.96)", fontsize=9)
    fig.tight_layout()
    return fig


def evidence_chart_svg(evidence: Evidence) -> str:
    """The :func:`evidence_figure` as inline SVG text, its ids prefixed ``evidence-``."""
    import matplotlib.pyplot as plt

    fig = evidence_figure(evidence)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    return scoped_svg(svg[svg.index("<svg") :], "evidence")


def _row(*cells: object, head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag}>{html.escape(str(c))}</{tag}>" for c in cells) + "</tr>"


def _z(z: float | None) -> str:
    return "—" if z is None else f"{z:+.2f}"


def _heading_html(evidence: Evidence) -> str:
    """The wager, its section, the paytable (where it comes from, its digest), shoe and meters."""
    s = evidence.simulated
    meters = "; ".join(f"{lvl.value} {format_money(c)}" for lvl, c in s.meters.items())
    return (
        f"<p>{html.escape(s.wager_name)}, {html.escape(citation(s.section))}; paytable "
        f"{html.escape(s.paytable)} ({html.escape(s.paytable_origin)}); {html.escape(s.shoe)}"
        + (f"; progressive pays valued at {html.escape(meters)}" if meters else "")
        + (
            f". SHA-256 of the paytable's data: <code class='digest'>{s.paytable_sha256}</code>.</p>"
            if s.paytable_sha256
            else ".</p>"
        )
    )


def _run_html(evidence: Evidence) -> list[str]:
    """The run: rounds, generator, seed, what was dealt (in what chunks), where, the
    software."""
    run = evidence.run
    return [
        "<h2>Run</h2><table>",
        _row("Rounds", f"{run.rounds:,}"),
        _row("Random number generator", run.rng),
        _row("Seed entropy", str(run.seed_entropy)),
        _row("Dealt", evidence.simulated.convention),  # with the chunks, as they were cut
        _row("Where", where_dealt(run.workers, run.scheduler, "in one process")),
        _row(
            "Software",
            f"croupier {run.croupier_version}; numpy {run.numpy_version}; "
            f"SciPy {evidence.fit.to_dict()['scipy_version']}; Python {run.python_version}",
        ),
        "</table>",
    ]


def _return_html(evidence: Evidence) -> list[str]:
    """The exact and simulated return and the confidence intervals."""
    e = evidence
    parts = [
        "<h2>Return to player</h2>",
        f"<p>Exact {float(e.exact_return):.6%}; simulated {float(e.simulated_return):.6%} "
        f"(standard error {e.simulated.standard_error or 0:.6f} per unit wagered; z "
        f"{_z(e.z_score)}). Interval: 1 + x̄ ± z·SE, x̄ the mean net win per unit wagered, SE its "
        "standard error, z the two-sided normal quantile.</p>",
    ]
    if not e.intervals:
        reason = e.no_interval_reason()
        return [*parts, f"<p class='warning'>{html.escape(reason[:1].upper() + reason[1:])}.</p>"]
    parts += [
        "<table>",
        _row("Confidence", "z", "Low", "High", "Exact return inside", head=True),
    ]
    for i in e.intervals:
        parts.append(
            _row(
                i.level.label,
                f"{i.level.z:.6f}",
                f"{i.low:.6%}",
                f"{i.high:.6%}",
                "yes" if i.contains_exact else "NO",
            )
        )
    parts.append("</table>")
    return parts


def _counts_html(evidence: Evidence) -> list[str]:
    """Observed against expected, one row per outcome."""
    cells = _cell_numbers(evidence)
    heads = ("Outcome", "Pays", "Probability", "Expected", "Observed", "O − E", "z", "Cell")
    parts = [
        "<h2>Observed against expected</h2>",
        "<p>Expected = rounds × the exact probability; z = (O − E)/√(N·p·(1 − p)).</p><table>",
        _row(*heads, head=True),
    ]
    for o in evidence.outcomes:
        parts.append(
            _row(
                o.label,
                o.pays,
                f"{float(o.probability):.10g}",
                f"{float(o.expected):,.2f}",
                f"{o.observed:,}",
                f"{float(o.observed - o.expected):+,.2f}",
                _z(o.z),
                cells[o.outcome],
            )
        )
    parts.append("</table>")
    return parts


def _fit_html(evidence: Evidence) -> list[str]:
    """The chi-square test: the rule, the cells, the result."""
    fit = evidence.fit
    parts = [
        f"<h2>Goodness of fit</h2><p>{html.escape(TEST_NAME)}: χ² = Σ (O − E)²/E; "
        f"{html.escape(POOLING_RULE)}.</p><table>",
        _row("Cell", "Outcomes", "Expected", "Observed", "(O − E)²/E", head=True),
    ]
    for n, c in enumerate(fit.cells, start=1):
        parts.append(
            _row(
                n,
                ", ".join(c.labels),
                f"{float(c.expected):,.2f}",
                f"{c.observed:,}",
                f"{float(c.term):.4f}",
            )
        )
    warn = " class='warning'" if fit.consistent is False else ""
    parts += ["</table>", f"<p{warn}>{html.escape(fit.sentence())}.</p>"]
    return parts


def evidence_section_html(evidence: Evidence) -> str:
    """The evidence as a piece of a page (for a report that holds several): the paytable and run,
    the return's confidence intervals, observed against expected per outcome, the chi-square test
    and the chart (its SVG ids prefixed ``evidence-``)."""
    parts = [
        _heading_html(evidence),
        *_run_html(evidence),
        *_return_html(evidence),
        *_counts_html(evidence),
        *_fit_html(evidence),
        f"<figure>{evidence_chart_svg(evidence)}<figcaption>Observed against expected count per "
        "outcome (log scale; an outcome never observed has no dot) and each outcome's z (dashed: "
        "±1.96, the 95 % band)</figcaption></figure>",
    ]
    return "\n".join(parts)


def evidence_html(evidence: Evidence, title: str | None = None) -> str:
    """The evidence as a self-contained HTML page (:func:`evidence_section_html` under a title)."""
    s = evidence.simulated
    title = title or (
        f"croupier simulation evidence: {s.wager} paytable {s.paytable}, "
        f"{decks_phrase(s.decks or 0)}"
    )
    return "\n".join(
        [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
            f"<h1>{html.escape(title)}</h1>",
            f"<p>Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC.</p>",
            evidence_section_html(evidence),
            "</body></html>",
        ]
    )


def write_evidence(evidence: Evidence, out_dir: Path) -> list[Path]:
    """Write ``STEM-simulation.json`` (:meth:`Evidence.document`), ``.csv``
    (:func:`evidence_csv`) and ``.html`` (:func:`evidence_html`) into ``out_dir``, ``STEM``
    :func:`evidence_stem`. Raises :class:`~croupier.errors.OutputError` when ``out_dir`` is a
    file or cannot be written."""
    stem = evidence_stem(evidence)
    files = {
        f"{stem}.json": json.dumps(evidence.document(), indent=2, ensure_ascii=False) + "\n",
        f"{stem}.csv": evidence_csv(evidence),
        f"{stem}.html": evidence_html(evidence),
    }
    return _write(files, out_dir)
