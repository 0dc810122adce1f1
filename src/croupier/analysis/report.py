"""Writing par sheets out: JSON, CSV, and an HTML report with one chart per wager.

The chart shows each paytable × deck count as one horizontal bar: the return contribution of every
paying outcome stacked to the right of zero, the losses to the left, and a marker at the expected
return, so the paytables of a wager can be compared at a glance. Every outcome has a colour of its
own (:func:`outcome_colors`) and one legend entry.

The report opens with a table of contents (section, wager, then each sheet, every entry an anchor);
each sheet says where its paytable comes from (an EXAMPLE made up for croupier is marked so) and,
for a progressive whose long-run return is above the wager, warns in plain words
(:func:`long_run_warning`).
"""

from __future__ import annotations

import colorsys
import csv
import html
import io
import json
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.analysis.lab_report import (
    BandChart,
    band_chart_svg,
    bands_csv,
    bands_html,
    breakeven_text,
    figures_html,
    hit_odds_text,
    one_in_cell,
    rates_text,
)
from croupier.analysis.meters import (
    MeterReturn,
    ReseedFunding,
    long_run_assumptions,
    long_run_sentence,
    long_run_total,
    meter_chart_svg,
    meter_returns,
)
from croupier.analysis.parsheet import LOSE, ParSheet
from croupier.cards import decks_phrase
from croupier.errors import OutputError
from croupier.units import format_money

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from croupier.analysis.switch_hands import GameSheet, SwitchAnalysis

# The report's heavier parts (numpy under the effect-of-removal charts and the Switch Hands
# strategy engine) are imported where they are drawn: `croupier parsheet` on a terminal imports
# this module for a few phrases and writes no report (issue 33: start-up time).


def parsheets_json(
    sheets: Iterable[ParSheet],
    games: Sequence[GameSheet] = (),
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    meters: Sequence[tuple[ParSheet, MeterReturn]] | None = None,
) -> str:
    """``{"parsheets": [...], "games": [...]}`` as indented JSON (``games``: the whole-game figures
    of § 633b.4, which are not per-outcome par sheets). A progressive's sheet carries its
    ``meter_analysis`` as ``croupier analyze --json`` gives it (the return at its meters, the
    breakeven meter and the wager it is on, the increment rates, the long-run return under
    ``reseed``); ``meters`` as in :func:`parsheets_csv`."""
    sheets = list(sheets)
    by_sheet = {id(s): mr for s, mr in (meter_returns(sheets) if meters is None else meters)}
    rows = []
    for s in sheets:
        d = s.to_dict()
        mr = by_sheet.get(id(s))
        if mr is not None:
            d["meter_analysis"] = mr.to_dict(s.meters, reseed)
        rows.append(d)
    doc: dict[str, object] = {"parsheets": rows}
    if games:
        doc["games"] = [g.to_dict() for g in games]
    return json.dumps(doc, indent=2, ensure_ascii=False)


READINGS_DOC = "docs/interpretations.md"


def see_readings(reseed: ReseedFunding) -> str:
    """Where the reading of the reseed is argued, and the option that picks it: the short
    sentence after :func:`~croupier.analysis.meters.long_run_sentence` in a report."""
    return f"See {READINGS_DOC} (--reseed {reseed.value})."


def long_run_warning(
    sheet: ParSheet, mr: MeterReturn | None, reseed: ReseedFunding = ReseedFunding.RESERVE
) -> str | None:
    """The plain-words warning for a paytable whose long-run return is above 100% of the wager
    (the player's edge), or ``None``: the figure, then :func:`~croupier.analysis.meters.
    long_run_sentence` (what that means and assumes, under the ``reseed`` reading).

    >>> from croupier.analysis.meters import meter_return
    >>> from croupier.analysis.parsheet import exact_parsheet
    >>> from croupier.wagers import get_wager
    >>> w = get_wager("match-the-dealer")
    >>> text = long_run_warning(exact_parsheet(w, "10", decks=6), meter_return(w, "10", decks=6))
    >>> text.split(", though")[0]
    'WARNING: in the long run paytable 10 (6 decks) returns 110.1132% of the wager'
    """
    total = long_run_total(sheet, mr, reseed)
    if mr is None or total is None or total <= 1:
        return None
    return (
        f"WARNING: in the long run paytable {sheet.paytable} ({decks_phrase(sheet.decks or 0)}) "
        f"returns {float(total):.4%} of the wager, though its house edge at the seed is "
        f"{float(sheet.house_edge):.4%}. {long_run_sentence(reseed)} {see_readings(reseed)}"
    )


def paytable_name(sheet: ParSheet) -> str:
    """The paytable as a summary row names it: its id, and what it is when the regulation does
    not print it ('example-aces-up (EXAMPLE, made up; not PA text)')."""
    status = sheet.paytable_status
    return f"{sheet.paytable} ({status})" if status else sheet.paytable


CSV_COLUMNS = (
    "wager",
    "section",
    "paytable",
    "paytable_status",
    "paytable_citation",
    "paytable_sha256",
    "decks",
    "method",
    "outcome",
    "label",
    "pays",
    "net_win",
    "combinations",
    "total",
    "probability",
    "probability_exact",
    "one_in",
    "one_in_exact",
    "return",
    "return_exact",
    "expected_return",
    "expected_return_exact",
    "house_edge",
    "house_edge_exact",
    "hit_frequency",
    "hit_frequency_exact",
    "standard_deviation",
    "vi_90",
    "vi_95",
    "vi_99",
    "max_win",
    "max_win_outcome",
    "max_win_amount",
    "long_run_return",
    "long_run_return_exact",
    "wager_amount",
    "meters",
    "return_at_meters",
    "return_at_meters_exact",
    "breakeven_meter",
    "breakeven_meter_cents",
    "increment_rate",
    "increment_rate_exact",
    "increment_rates",
    "reseed_funding",
    "hit_odds",
    "house_edge_per_total_wagered",
    "switch_rate",
)
"""The CSV columns. Each decimal figure of an exact par sheet has its exact fraction (``p/q``)
beside it; ``one_in`` is N of "1 in N" (a simulation's observed: rounds / hits); ``vi_90`` …
``vi_99`` the volatility index z·SD (:mod:`croupier.analysis.confidence`); ``max_win`` the largest
net win per unit wagered (``max_win_amount`` in money on a progressive's wager size);
``long_run_return`` is 1 + the long-run net (a progressive: meter model under the
reseed reading; otherwise 1 + the expected return). A progressive's meter analysis
(:class:`~croupier.analysis.meters.MeterReturn`) fills ``return_at_meters`` (the expected net
return per unit wagered at ``meters``), the ``breakeven_meter`` of the top award for a wager of
``wager_amount``, the total ``increment_rate`` and each level's (``increment_rates``,
``"Progressive 19.75%"``), the ``hit_odds`` of each level and the ``reseed_funding`` the long-run
return assumes. The § 633b.4 rows (Switch Hands, Blackjack Premium: one per kind of player,
outcome ``whole-game``) fill the house edges and the switch rate only (their strategy engine
computes in floats, so they have no exact fractions)."""


def parsheets_csv(
    sheets: Iterable[ParSheet],
    games: Sequence[GameSheet] = (),
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    meters: Sequence[tuple[ParSheet, MeterReturn]] | None = None,
) -> str:
    """One CSV row per outcome per par sheet, then one per § 633b.4 game figure (columns
    :data:`CSV_COLUMNS`). ``meters``: the progressives' :class:`MeterReturn` by sheet (default:
    :func:`~croupier.analysis.meters.meter_returns`, the regulation's paytables)."""
    sheets = list(sheets)
    by_sheet = {id(s): mr for s, mr in (meter_returns(sheets) if meters is None else meters)}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for s in sheets:
        exact = s.method == "exact"
        mr = by_sheet.get(id(s))
        long_run = long_run_total(s, mr, reseed) if exact else None
        lab = _lab_columns(s)
        for r in s.rows:
            row: dict[str, object] = {
                "wager": s.wager,
                "section": f"58 Pa. Code § {s.section}",
                "paytable": s.paytable,
                "paytable_status": s.paytable_status or "printed in the regulation",
                "paytable_citation": s.paytable_origin,
                "paytable_sha256": s.paytable_sha256,
                "decks": s.decks,
                "method": s.method,
                "outcome": r.outcome,
                "label": r.label,
                "pays": r.pays,
                "net_win": _number(r.net),
                "combinations": r.combinations if r.combinations is not None else r.hits,
                "total": s.total,
                "probability": repr(float(r.probability)),
                "return": repr(float(r.contribution)),
                "expected_return": repr(float(s.expected_return)),
                "house_edge": repr(float(s.house_edge)),
                "hit_frequency": repr(float(s.hit_frequency)),
                "standard_deviation": repr(s.standard_deviation),
                "wager_amount": format_money(s.wager_cents) if s.wager_cents else "",
                "meters": "; ".join(
                    f"{lvl.value} {format_money(c)}" for lvl, c in s.meters.items()
                ),
                **lab,
                "one_in": repr(float(r.one_in)) if r.one_in is not None else "",
            }
            if exact:
                row |= {
                    "probability_exact": _frac(r.probability),
                    "one_in_exact": _frac(r.one_in) if r.one_in is not None else "",
                    "return_exact": _frac(r.contribution),
                    "expected_return_exact": _frac(s.expected_return),
                    "house_edge_exact": _frac(s.house_edge),
                    "hit_frequency_exact": _frac(s.hit_frequency),
                }
            if long_run is not None:
                row |= {
                    "long_run_return": repr(float(long_run)),
                    "long_run_return_exact": _frac(long_run),
                }
            if mr is not None:
                row |= mr.csv_cells(s.meters, reseed)
            w.writerow([row.get(c, "") for c in CSV_COLUMNS])
    for g in games:
        for a in g.analyses:
            w.writerow([_game_row(g, a).get(c, "") for c in CSV_COLUMNS])
    return buf.getvalue()


def _lab_columns(s: ParSheet) -> dict[str, object]:
    """A sheet's lab figures as CSV cells (the same on each of its rows)."""
    best = s.max_win
    cells: dict[str, object] = {
        lv_key: repr(v) for lv_key, v in zip(_VI_KEYS, s.volatility_indexes.values(), strict=True)
    }
    cells |= {
        "max_win": _number(best.net),
        "max_win_outcome": best.outcome,
        "max_win_amount": format_money(s.max_win_cents) if s.max_win_cents is not None else "",
        "increment_rates": rates_text(s),
        "hit_odds": hit_odds_text(s),
    }
    return cells  # a progressive's breakeven and rates by level: MeterReturn.csv_cells


_VI_KEYS = ("vi_90", "vi_95", "vi_99")
"""The CSV columns of the volatility index, in the order of ``ParSheet.volatility_indexes``."""


def _game_row(g: GameSheet, a: SwitchAnalysis) -> dict[str, object]:
    """A § 633b.4 whole-game figure as a CSV row."""
    player = "Ante (Switch Hands)" if a.ante else "plain Blackjack (no Ante)"
    tie = "tie Blackjack pays 1 to 2" if a.tie_pays else "tie Blackjack pushes"
    return {
        "wager": a.variant.value,
        "section": "58 Pa. Code § 633b.4",
        "paytable": "(o)" if a.variant.value == "blackjack-premium" else "(i)",
        "paytable_status": "printed in the regulation",
        "paytable_citation": f"58 Pa. Code § 633b.4; {g.rules}",
        "decks": g.decks,
        "method": "strategy engine (whole game)",
        "outcome": "whole-game",
        "label": f"{player}, {tie}",
        "expected_return": repr(a.expected),
        "house_edge": repr(a.house_edge),
        "house_edge_per_total_wagered": repr(a.house_edge_total),
        "switch_rate": repr(a.switch_rate) if a.ante else "",
    }


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else repr(float(x))


LOSS_COLOR = "#bbbbbb"
"""The colour of the losing hands in the contribution chart."""


def outcome_colors(n: int) -> list[str]:
    """``n`` distinct colours (``#rrggbb``), none the losses' grey: matplotlib's tab10 less its
    grey for up to 9, tab20 less its greys for up to 18, else evenly spaced hues at alternating
    lightness (AxMan's 27 outcomes).

    >>> len(set(outcome_colors(27))) == 27
    True
    """
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    if n <= 9:
        tab10 = colormaps["tab10"]
        return [to_hex(tab10(i)) for i in range(10) if i != 7][:n]
    if n <= 18:
        tab20 = colormaps["tab20"]
        return [to_hex(tab20(i)) for i in range(20) if i not in (14, 15)][:n]
    out = []
    for i in range(n):
        hue = i / n
        light, sat = ((0.42, 0.75), (0.62, 0.85), (0.32, 0.55))[i % 3]
        out.append(to_hex(colorsys.hls_to_rgb(hue, light, sat)))
    return out


def chart_outcomes(sheets: Sequence[ParSheet]) -> list[tuple[str, str]]:
    """The paying outcomes of ``sheets`` in order, once each, with their legend label: the
    labels the paytables print for it, joined by ' / ' when they differ (Jackpot Party's P1
    prints 'Royal Flush—Diamonds', P7 'Royal Flush (A—J)—Diamonds')."""
    labels: dict[str, list[str]] = {}
    for s in sheets:
        for r in s.rows:
            if r.outcome != LOSE and r.label not in labels.setdefault(r.outcome, []):
                labels[r.outcome].append(r.label)
    return [(key, " / ".join(names)) for key, names in labels.items()]


def contribution_figure(sheets: Sequence[ParSheet]) -> Figure:
    """A matplotlib figure of the return contribution of each outcome, one bar per par sheet;
    each outcome one colour and one legend entry (:func:`chart_outcomes`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"Paytable {s.paytable} · {decks_phrase(s.decks or 0)}" for s in sheets]
    outcomes = chart_outcomes(sheets)
    height = max(2.5, 0.38 * len(sheets) + 1.6, 0.22 * len(outcomes) + 1.2)
    longest = max((len(label) for _, label in outcomes), default=0)
    width = min(14.0, 9 + max(0, longest - 30) * 0.07)  # room beside the legend's long labels
    fig, ax = plt.subplots(figsize=(width, height))
    colors = outcome_colors(len(outcomes))
    y = list(range(len(sheets)))
    left = [0.0] * len(sheets)
    for (key, label), color in zip(outcomes, colors, strict=True):
        widths = []
        for s in sheets:
            row = next((r for r in s.rows if r.outcome == key), None)
            widths.append(max(0.0, float(row.contribution)) if row else 0.0)
        ax.barh(y, widths, left=left, color=color, label=label, height=0.7)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    losses = [float(sum((r.contribution for r in s.rows if r.net < 0), 0)) for s in sheets]
    ax.barh(y, losses, color=LOSS_COLOR, label="losing hands", height=0.7)
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
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
        frameon=False,
        ncol=2 if len(outcomes) > 18 else 1,
    )
    fig.tight_layout()
    fig.set_layout_engine(None)  # laid out once: savefig need not draw the figure twice
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
        f"<section id='{GAMES_ID}'>",
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
    from croupier.analysis.switch_hands import UPCARDS, switch_chart

    g = games[0]
    chart = switch_chart(g.chart)
    parts.append(
        f"<h3>Keep (K) or switch (W), {decks_phrase(g.decks)} ({html.escape(g.rules)})</h3>"
        "<table><tr><th>Face-up pair</th>" + "".join(f"<th>{u}</th>" for u in UPCARDS) + "</tr>"
    )
    for pair in sorted(chart, key=lambda p: -chart[p]["T"].keep):
        cells = chart[pair]
        row = "".join(
            "<td style='background:#fde2c8'>W</td>" if cells[u].switches else "<td>K</td>"
            for u in UPCARDS
        )
        parts.append(f"<tr><td>{html.escape(pair)}</td>{row}</tr>")
    parts.append("</table></section>")
    return "\n".join(parts)


GAMES_ID = "switch-hands-and-blackjack-premium"
"""The anchor of the § 633b.4 section."""


def _slug(text: str) -> str:
    """Text as a piece of an HTML id or a file name: letters, digits, '.', '_' and '-' only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "_"


def sheet_id(sheet: ParSheet) -> str:
    """The anchor of a sheet in the report: ``sheet-match-the-dealer-10-6d``."""
    return f"sheet-{_slug(sheet.wager)}-{_slug(sheet.paytable)}-{sheet.decks or 0}d"


def wager_id(wager: str) -> str:
    """The anchor of a wager's part of the report."""
    return f"wager-{_slug(wager)}"


def _contents(by_wager: dict[str, list[ParSheet]], games: Sequence[GameSheet]) -> str:
    """The table of contents: section, then wager, then every sheet, each an anchor."""
    by_section: dict[str, list[str]] = {}
    for wager, group in by_wager.items():
        by_section.setdefault(group[0].section, []).append(wager)
    parts = ["<nav id='contents'><h2>Contents</h2><ul>"]
    for section, wagers in by_section.items():
        parts.append(f"<li>58 Pa. Code § {html.escape(section)}<ul>")
        for wager in wagers:
            group = by_wager[wager]
            links = ", ".join(
                f"<a href='#{sheet_id(s)}'>{html.escape(s.paytable)} · {s.decks}d</a>"
                for s in group
            )
            parts.append(
                f"<li><a href='#{wager_id(wager)}'>{html.escape(group[0].wager_name)}</a> "
                f"<small>({html.escape(wager)})</small>: {links}</li>"
            )
        parts.append("</ul></li>")
    if games:
        parts.append(
            f"<li>58 Pa. Code § 633b.4<ul><li><a href='#{GAMES_ID}'>Switch Hands and Blackjack "
            "Premium</a> (whole-game house edges)</li></ul></li>"
        )
    parts.append("</ul></nav>")
    return "\n".join(parts)


_SVG_REF = re.compile(r"""(\bid=["']|url\(#|href=["']#)([^"')]+)""")


def scoped_svg(fragment: str, prefix: str) -> str:
    """``fragment`` (inline SVG, or HTML holding it) with every id, and every reference to one
    (``url(#…)``, ``href="#…"``), prefixed: matplotlib numbers the ids of each figure from 1
    (``figure_1``, glyphs ``DejaVuSans-31``, clip paths), so two figures on one page would share
    ids and one figure's references could land in the other."""
    return _SVG_REF.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", fragment)


def _wager_html(
    group: Sequence[ParSheet], mrs: dict[int, MeterReturn], reseed: ReseedFunding, bands: BandChart
) -> list[str]:
    """One wager's part of the report: charts, summary table, then each sheet (``bands``: the
    band chart every sheet's is drawn with)."""
    first = group[0]
    wager = first.wager
    parts = [
        f"<section id='{wager_id(wager)}'>",
        f"<h2>{html.escape(first.wager_name)} "
        f"<small>(58 Pa. Code § {html.escape(first.section)})</small></h2>",
    ]
    shoes = ", ".join(dict.fromkeys(s.shoe for s in group))
    parts.append(
        f"<p>Every deal from each shoe ({html.escape(shoes)}) is counted; each table below "
        "states its counting convention.</p>"
    )
    chart = scoped_svg(contribution_chart_svg(group), f"{wager_id(wager)}-return")
    parts.append(
        f"<figure>{chart}<figcaption>Return contribution by "
        f"outcome, {html.escape(wager)}</figcaption></figure>"
    )
    meter_chart = meter_chart_svg(group)
    if meter_chart is not None:
        meter_chart = scoped_svg(meter_chart, f"{wager_id(wager)}-meter")
        parts.append(
            f"<figure>{meter_chart}<figcaption>Expected return against the top award's "
            f"meter (other meters at their seeds; dot: the seed, cross: the breakeven "
            f"meter), {html.escape(wager)}</figcaption></figure>"
        )
    progressive = any(s.meters for s in group)
    parts.append(
        "<table class='summary'><tr><th>Paytable</th><th>Decks</th><th>House edge"
        + (" at seed" if progressive else "")
        + "</th>"
        + ("<th>Long-run return</th><th>Breakeven meter</th>" if progressive else "")
        + "<th>Hit frequency</th><th>Std. dev.</th></tr>"
    )
    warnings: list[str] = []
    for s in group:
        mr = mrs.get(id(s))
        cells = ""
        if progressive:
            total = long_run_total(s, mr, reseed)
            warning = long_run_warning(s, mr, reseed)
            flag = " <span class='warn'>⚠ above 100%</span>" if warning else ""
            if warning:
                link = f"<a href='#{sheet_id(s)}'>{html.escape(s.paytable)}</a>"
                warnings.append(f"{link} ({decks_phrase(s.decks or 0)}) {float(total or 0):.4%}")
            cells = (
                f"<td>{f'{float(total):.4%}' if total is not None else '—'}{flag}</td>"
                f"<td>{breakeven_text(mr) if mr is not None else '—'}</td>"
            )
        parts.append(
            f"<tr><td><a href='#{sheet_id(s)}'>{html.escape(paytable_name(s))}</a></td>"
            f"<td>{s.decks}</td><td>{float(s.house_edge):.4%}</td>{cells}"
            f"<td>{float(s.hit_frequency):.4%}</td><td>{s.standard_deviation:.4f}</td></tr>"
        )
    parts.append("</table>")
    if warnings:
        parts.append(
            "<p class='warning'>⚠ WARNING: long-run return above 100% of the wager: "
            + "; ".join(warnings)
            + f". {html.escape(long_run_sentence(reseed))} {see_readings(reseed)}</p>"
        )
    for s in group:
        parts.extend(_sheet_html(s, mrs.get(id(s)), reseed, bands))
    from croupier.analysis.eor_report import eor_report_html

    eor_section = eor_report_html(group)
    if eor_section is not None:
        parts.append(scoped_svg(eor_section, f"{wager_id(wager)}-eor"))
    parts.append("</section>")
    return parts


def _sheet_html(
    sheet: ParSheet, mr: MeterReturn | None, reseed: ReseedFunding, bands: BandChart
) -> list[str]:
    """One sheet: heading (its anchor), where the paytable comes from, the long-run warning,
    the counting convention and the outcomes with their exact counts."""
    s = sheet
    status = (
        f" <span class='status'>({html.escape(s.paytable_status)})</span>"
        if s.paytable_status
        else ""
    )
    parts = [
        f"<section class='sheet' id='{sheet_id(s)}'>",
        f"<h3>{html.escape(s.wager_name)}, paytable {html.escape(s.paytable)}, "
        f"{decks_phrase(s.decks or 0)}{status}</h3>",
        f"<p>Paytable: {html.escape(s.paytable_origin)}."
        + (
            f" SHA-256 of its data: <code class='digest'>{s.paytable_sha256}</code>.</p>"
            if s.paytable_sha256
            else "</p>"
        ),
    ]
    warning = long_run_warning(s, mr, reseed)
    if warning is not None:
        parts.append(f"<p class='warning'>⚠ {html.escape(warning)}</p>")
    if mr is not None:
        total = long_run_total(s, mr, reseed)
        assuming = (  # the warning above has said it
            "" if warning else f" (assuming {html.escape(long_run_assumptions(reseed))})"
        )
        parts.append(
            f"<p>House edge at the seed {float(s.house_edge):.4%}; long-run return "
            f"{float(total or 0):.4%} of the wager{assuming}.</p>"
        )
    parts.append(
        f"<details open><summary>Outcomes</summary><p>{html.escape(s.convention)}</p>"
        "<table><tr><th>Outcome</th><th>Pays</th><th>Combinations</th>"
        "<th>Probability</th><th>1 in N</th><th>Return</th></tr>"
    )
    for r in s.rows:
        parts.append(
            f"<tr><td>{html.escape(r.label)}</td><td>{html.escape(r.pays)}</td>"
            f"<td>{r.combinations if r.combinations is not None else r.hits:,}</td>"
            f"<td>{float(r.probability):.8f}</td><td>{one_in_cell(r.probability)}</td>"
            f"<td>{float(r.contribution):+.6f}</td></tr>"
        )
    parts.append(
        f"<tr><th>Total</th><th></th><th>{s.total:,}</th><th>1.00000000</th><th></th>"
        f"<th>{float(s.expected_return):+.6f}</th></tr></table></details>"
    )
    parts.extend(figures_html(s, mr))
    if s.method == "exact":
        parts.extend(bands_html(s, scoped_svg(band_chart_svg(s, bands), f"{sheet_id(s)}-bands")))
    parts.append("</section>")
    return parts


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
    "padding:.25em .6em;text-align:right}th{background:#f4f4f4}td:first-child,"
    "th:first-child{text-align:left}details{margin:.3em 0}"
    ".warning,.warn{color:#8a1c00;font-weight:600}.status{color:#8a4b00;font-size:.8em}"
    "nav ul ul{font-size:.9em}section.sheet{border-top:1px solid #eee}"
    "table.lab th{text-align:left}table.lab td{text-align:left}.note{font-size:.9em;color:#444}"
)


def parsheets_html(
    sheets: Sequence[ParSheet],
    games: Sequence[GameSheet] = (),
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    title: str = "croupier par sheets",
    meters: Sequence[tuple[ParSheet, MeterReturn]] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> str:
    """A self-contained HTML report: a table of contents, then per wager its charts, a summary
    table (long-run return and its warning for a progressive) and each sheet under its anchor
    (:func:`sheet_id`); then the § 633b.4 games. Charts: matplotlib, inline SVG. ``meters`` as
    in :func:`parsheets_csv`; ``progress(done, total, wager)`` is told before each wager."""
    by_wager: dict[str, list[ParSheet]] = {}
    for s in sheets:
        by_wager.setdefault(s.wager, []).append(s)
    mrs = {id(s): mr for s, mr in (meter_returns(sheets) if meters is None else meters)}
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. Exact figures per unit wagered; "
        "progressive lines valued at the meter seed unless stated.</p>",
        _contents(by_wager, games),
    ]
    bands = BandChart()  # one figure for every sheet's band chart
    try:
        for done, (wager, group) in enumerate(by_wager.items()):
            if progress is not None:
                progress(done, len(by_wager), wager)
            parts.extend(_wager_html(group, mrs, reseed, bands))
    finally:
        bands.close()
    parts.append(games_html(games))
    parts.append("</body></html>")
    return "\n".join(parts)


def _write(files: dict[str, str], out_dir: Path) -> list[Path]:
    """Write ``files`` (name → text) into ``out_dir`` (created if missing).

    Raises :class:`~croupier.errors.OutputError` when ``out_dir`` is a file or cannot be written.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out {str(out_dir)!r} is a file, not a folder")
    written = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            path = out_dir / name
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        reason = getattr(exc, "strerror", None) or str(exc)
        raise OutputError(f"cannot write the report into {str(out_dir)!r}: {reason}") from exc
    return written


def write_report(
    sheets: Sequence[ParSheet],
    out_dir: Path,
    games: Sequence[GameSheet] = (),
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[Path]:
    """Write ``parsheets.json``, ``parsheets.csv``, ``parsheets-return-bands.csv`` (every sheet's
    confidence bands, :func:`~croupier.analysis.lab_report.bands_csv`) and ``parsheets.html`` into
    ``out_dir``, and
    the summary (:mod:`croupier.analysis.summary`) as ``summary.json`` and ``summary.csv``; the
    progressives' meter analysis is in the JSON and CSV as in the HTML (``progress``: as
    :func:`parsheets_html` takes it)."""
    from croupier.analysis.summary import summary_csv, summary_json, summary_rows

    meters = meter_returns(sheets)  # once, for every file
    rows = summary_rows(sheets, reseed, meters)
    files = {
        "parsheets.json": parsheets_json(sheets, games, reseed, meters),
        "parsheets.csv": parsheets_csv(sheets, games, reseed, meters),
        "parsheets-return-bands.csv": bands_csv(sheets),
        "parsheets.html": parsheets_html(sheets, games, reseed, meters=meters, progress=progress),
        "summary.json": summary_json(rows, [g.to_dict() for g in games]) + "\n",
        "summary.csv": summary_csv(rows),
    }
    return _write(files, out_dir)


def sheet_stem(sheet: ParSheet) -> str:
    """The file name (without extension) of one sheet's export: ``match-the-dealer-10-6-decks``."""
    return f"{_slug(sheet.wager)}-{_slug(sheet.paytable)}-{sheet.decks or 0}-decks"


def write_sheet(
    sheet: ParSheet,
    document: dict[str, object],
    out_dir: Path,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    meter: MeterReturn | None = None,
) -> list[Path]:
    """Write one sheet (``croupier analyze … --out DIR``) as ``STEM.json`` (``document``: what
    ``analyze --json`` prints), ``STEM.csv`` (:func:`parsheets_csv`), ``STEM-return-bands.csv``
    (its confidence bands, :func:`~croupier.analysis.lab_report.bands_csv`) and ``STEM.html`` (the
    report of this sheet alone), ``STEM`` being :func:`sheet_stem`; ``meter``: the progressive's
    :class:`MeterReturn` (a user's paytable too).

    Raises :class:`~croupier.errors.OutputError` when ``out_dir`` is a file or cannot be written.
    """
    stem = sheet_stem(sheet)
    title = f"croupier par sheet: {sheet.wager} paytable {sheet.paytable}, {decks_phrase(sheet.decks or 0)}"
    meters = [(sheet, meter)] if meter is not None else []
    files = {
        f"{stem}.json": json.dumps(document, indent=2, ensure_ascii=False) + "\n",
        f"{stem}.csv": parsheets_csv([sheet], reseed=reseed, meters=meters),
        f"{stem}-return-bands.csv": bands_csv([sheet]),
        f"{stem}.html": parsheets_html([sheet], reseed=reseed, title=title, meters=meters),
    }
    return _write(files, out_dir)
