"""Writing par sheets out: JSON, CSV, and an HTML report with one chart per wager.

The chart shows each paytable × deck count as one horizontal bar: the return contribution of every
paying outcome stacked to the right of zero, the losses to the left, and a marker at the expected
return, so the paytables of a wager can be compared at a glance.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.analysis.eor import eor_report_html
from croupier.analysis.meters import meter_chart_svg
from croupier.analysis.parsheet import LOSE, ParSheet
from croupier.analysis.switch_hands import UPCARDS, GameSheet, switch_chart
from croupier.cards import decks_phrase
from croupier.errors import OutputError
from croupier.units import format_money

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def parsheets_json(sheets: Iterable[ParSheet], games: Sequence[GameSheet] = ()) -> str:
    """``{"parsheets": [...], "games": [...]}`` as indented JSON (``games``: the whole-game figures
    of § 633b.4, which are not per-outcome par sheets)."""
    doc: dict[str, object] = {"parsheets": [s.to_dict() for s in sheets]}
    if games:
        doc["games"] = [g.to_dict() for g in games]
    return json.dumps(doc, indent=2, ensure_ascii=False)


CSV_COLUMNS = (
    "wager",
    "section",
    "paytable",
    "paytable_citation",
    "decks",
    "method",
    "outcome",
    "label",
    "pays",
    "net_win",
    "combinations",
    "total",
    "probability",
    "return",
    "expected_return",
    "house_edge",
    "hit_frequency",
    "standard_deviation",
    "wager_amount",
    "meters",
)


def parsheets_csv(sheets: Iterable[ParSheet]) -> str:
    """One CSV row per outcome per par sheet (columns :data:`CSV_COLUMNS`)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for s in sheets:
        for r in s.rows:
            w.writerow(
                [
                    s.wager,
                    f"58 Pa. Code § {s.section}",
                    s.paytable,
                    s.paytable_origin,
                    s.decks,
                    s.method,
                    r.outcome,
                    r.label,
                    r.pays,
                    _number(r.net),
                    r.combinations if r.combinations is not None else r.hits,
                    s.total,
                    repr(float(r.probability)),
                    repr(float(r.contribution)),
                    repr(float(s.expected_return)),
                    repr(float(s.house_edge)),
                    repr(float(s.hit_frequency)),
                    repr(s.standard_deviation),
                    format_money(s.wager_cents) if s.wager_cents else "",
                    "; ".join(f"{lvl.value} {format_money(c)}" for lvl, c in s.meters.items()),
                ]
            )
    return buf.getvalue()


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else repr(float(x))


def contribution_figure(sheets: Sequence[ParSheet]) -> Figure:
    """A matplotlib figure of the return contribution of each outcome, one bar per par sheet."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"Paytable {s.paytable} · {decks_phrase(s.decks or 0)}" for s in sheets]
    outcomes: list[tuple[str, str]] = []
    for s in sheets:
        for r in s.rows:
            if r.outcome != LOSE and (r.outcome, r.label) not in outcomes:
                outcomes.append((r.outcome, r.label))
    height = max(2.5, 0.38 * len(sheets) + 1.6, 0.22 * len(outcomes) + 1.2)
    fig, ax = plt.subplots(figsize=(9, height))
    cmap = plt.get_cmap("tab10")
    colors = [cmap(i) for i in range(10) if i != 7]  # tab10 less its grey, kept for losses
    y = list(range(len(sheets)))
    left = [0.0] * len(sheets)
    for i, (key, label) in enumerate(outcomes):
        widths = []
        for s in sheets:
            row = next((r for r in s.rows if r.outcome == key), None)
            widths.append(max(0.0, float(row.contribution)) if row else 0.0)
        ax.barh(y, widths, left=left, color=colors[i % len(colors)], label=label, height=0.7)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    losses = [float(sum((r.contribution for r in s.rows if r.net < 0), 0)) for s in sheets]
    ax.barh(y, losses, color="#bbbbbb", label="losing hands", height=0.7)
    ax.scatter(
        [float(s.expected_return) for s in sheets],
        y,
        marker="D",
        color="black",
        zorder=3,
        label="expected return",
    )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("return contribution per unit wagered")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def contribution_chart_svg(sheets: Sequence[ParSheet]) -> str:
    """The :func:`contribution_figure` as inline SVG text."""
    import matplotlib.pyplot as plt

    fig = contribution_figure(sheets)
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    svg = out.getvalue()
    return svg[svg.index("<svg") :]


def games_html(games: Sequence[GameSheet]) -> str:
    """The § 633b.4 section of the report: house edges of Switch Hands and Blackjack Premium, and
    the keep-or-switch chart (§ 633b.4(f)) of the first deck count."""
    if not games:
        return ""
    parts = [
        "<h2>Switch Hands and Blackjack Premium <small>(58 Pa. Code § 633b.4)</small></h2>",
        "<table><tr><th>Decks</th><th>Game</th><th>Player</th><th>Tie Blackjack 1 to 2</th>"
        "<th>House edge / Blackjack wager</th><th>House edge / total wagered</th>"
        "<th>Switches</th></tr>",
    ]
    for g in games:
        for a in g.analyses:
            parts.append(
                f"<tr><td>{g.decks}</td><td>{html.escape(a.variant.value)}</td>"
                f"<td>{'Ante' if a.ante else 'plain Blackjack'}</td>"
                f"<td>{'yes' if a.tie_pays else 'no'}</td><td>{a.house_edge:.4%}</td>"
                f"<td>{a.house_edge_total:.4%}</td>"
                f"<td>{f'{a.switch_rate:.2%}' if a.ante else '—'}</td></tr>"
            )
    parts.append("</table>")
    g = games[0]
    chart = switch_chart(g.chart)
    parts.append(
        f"<h3>Keep (K) or switch (W), {g.decks} decks ({html.escape(g.rules)})</h3>"
        "<table><tr><th>Face-up pair</th>" + "".join(f"<th>{u}</th>" for u in UPCARDS) + "</tr>"
    )
    for pair in sorted(chart, key=lambda p: -chart[p]["T"].keep):
        cells = chart[pair]
        row = "".join(
            "<td style='background:#fde2c8'>W</td>" if cells[u].switches else "<td>K</td>"
            for u in UPCARDS
        )
        parts.append(f"<tr><td>{html.escape(pair)}</td>{row}</tr>")
    parts.append("</table>")
    return "\n".join(parts)


def parsheets_html(sheets: Sequence[ParSheet], games: Sequence[GameSheet] = ()) -> str:
    """A self-contained HTML report: per wager a chart and a summary table of its par sheets."""
    by_wager: dict[str, list[ParSheet]] = {}
    for s in sheets:
        by_wager.setdefault(s.wager, []).append(s)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>croupier par sheets</title><style>",
        "body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:.25em .6em;text-align:right}th{background:#f4f4f4}td:first-child,"
        "th:first-child{text-align:left}details{margin:.3em 0}",
        "</style></head><body><h1>croupier par sheets</h1>",
        f"<p>Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. Exact figures per unit wagered; "
        "progressive lines valued at the meter seed unless stated.</p>",
    ]
    for wager, group in by_wager.items():
        first = group[0]
        parts.append(
            f"<h2>{html.escape(first.wager_name)} "
            f"<small>(58 Pa. Code § {html.escape(first.section)})</small></h2>"
        )
        shoes = ", ".join(dict.fromkeys(s.shoe for s in group))
        parts.append(
            f"<p>Every deal from each shoe ({html.escape(shoes)}) is counted; each table below "
            "states its counting convention.</p>"
        )
        parts.append(
            f"<figure>{contribution_chart_svg(group)}<figcaption>Return contribution by "
            f"outcome, {html.escape(wager)}</figcaption></figure>"
        )
        meter_chart = meter_chart_svg(group)
        if meter_chart is not None:
            parts.append(
                f"<figure>{meter_chart}<figcaption>Expected return against the top award's "
                f"meter (other meters at their seeds; dot: the seed, cross: the breakeven "
                f"meter), {html.escape(wager)}</figcaption></figure>"
            )
        parts.append(
            "<table><tr><th>Paytable</th><th>Decks</th><th>House edge</th>"
            "<th>Hit frequency</th><th>Std. dev.</th></tr>"
        )
        for s in group:
            parts.append(
                f"<tr><td>{html.escape(s.paytable)}</td><td>{s.decks}</td>"
                f"<td>{float(s.house_edge):.4%}</td><td>{float(s.hit_frequency):.4%}</td>"
                f"<td>{s.standard_deviation:.4f}</td></tr>"
            )
        parts.append("</table>")
        for s in group:
            parts.append(
                f"<details><summary>Paytable {html.escape(s.paytable)}, "
                f"{decks_phrase(s.decks or 0)} ({html.escape(s.paytable_origin)})</summary>"
                f"<p>{html.escape(s.convention)}</p>"
                "<table><tr><th>Outcome</th><th>Pays</th><th>Combinations</th>"
                "<th>Probability</th><th>Return</th></tr>"
            )
            for r in s.rows:
                parts.append(
                    f"<tr><td>{html.escape(r.label)}</td><td>{html.escape(r.pays)}</td>"
                    f"<td>{r.combinations if r.combinations is not None else r.hits:,}</td>"
                    f"<td>{float(r.probability):.8f}</td><td>{float(r.contribution):+.6f}</td></tr>"
                )
            parts.append(
                f"<tr><th>Total</th><th></th><th>{s.total:,}</th><th>1.00000000</th>"
                f"<th>{float(s.expected_return):+.6f}</th></tr></table></details>"
            )
        eor_section = eor_report_html(group)
        if eor_section is not None:
            parts.append(eor_section)
    parts.append(games_html(games))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(
    sheets: Sequence[ParSheet], out_dir: Path, games: Sequence[GameSheet] = ()
) -> list[Path]:
    """Write ``parsheets.json``, ``parsheets.csv`` and ``parsheets.html`` into ``out_dir``."""
    files = {
        "parsheets.json": parsheets_json(sheets, games),
        "parsheets.csv": parsheets_csv(sheets),
        "parsheets.html": parsheets_html(sheets, games),
    }
    written = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            path = out_dir / name
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise OutputError(f"cannot write the report into {str(out_dir)!r}: {exc.strerror}") from exc
    return written
