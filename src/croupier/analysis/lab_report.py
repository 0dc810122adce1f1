"""A par sheet's test-lab figures in the HTML report and the CSV exports.

Beside each sheet's outcomes (:mod:`croupier.analysis.report`) a lab reads:

* the house edge, hit frequency, standard deviation and the **volatility index** at 90, 95 and
  99 % (:data:`~croupier.analysis.confidence.VI_NOTE` says what it is);
* the **maximum win** (in money on a progressive's wager size at the meters shown);
* for a progressive: the return at the meters shown, the breakeven meter *with the stake it is
  on* ("$583,449.50 on a $5 wager"), each level's hit odds and printed increment rates;
* the **confidence band** of the player's return after 10², …, 10⁸ rounds at the three levels, as
  a table and a chart (matplotlib, inline SVG, the rounds on a log axis).

The band table is also a CSV of its own (:func:`bands_csv`: one row per sheet × rounds × level),
beside the one-row-per-outcome CSV of :func:`croupier.analysis.report.parsheets_csv`.

:mod:`croupier.analysis.confidence` (and its ``statistics`` import) is loaded where a figure is
made: ``croupier parsheet --summary`` imports the report module for a few phrases (issue 33).
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from croupier.analysis.hit_odds import odds_text
from croupier.analysis.parsheet import ParSheet
from croupier.units import format_money, format_percent

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.collections import FillBetweenPolyCollection
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend
    from matplotlib.lines import Line2D

    from croupier.analysis.meters import MeterReturn

BAND_COLORS = {90: "#2171b5", 95: "#6baed6", 99: "#c6dbef"}
"""The colour of each level's band in the chart (the widest, 99 %, lightest: each band is drawn
over the wider one)."""


def one_in_cell(probability: Fraction) -> str:
    """N of "1 in N" for a table cell (:func:`~croupier.analysis.hit_odds.odds_text`'s N):
    '59.29', '597,653'; '—' for a line that never comes up."""
    text = odds_text(probability)
    return text.removeprefix("1 in ") if text.startswith("1 in ") else "—"


def max_win_text(sheet: ParSheet) -> str:
    """'25× the wager (Perfect Pair, pays 25 to 1; 1 in 59.29)'; a progressive's also in money:
    '9,999× the wager = $49,995 on a $5 wager at the meters shown (…)'."""
    best = sheet.max_win
    net = best.net
    times = f"{net.numerator:,}" if net.denominator == 1 else f"{float(net):,.4f}"
    money = ""
    if sheet.max_win_cents is not None:
        money = (
            f" = {format_money(sheet.max_win_cents)} on a {format_money(sheet.wager_cents or 0)} "
            "wager at the meters shown"
        )
    seen = ", seen" if sheet.method != "exact" else ""
    return (
        f"{times}× the wager{money} ({best.label}, pays {best.pays}; "
        f"{odds_text(best.probability)}{seen})"
    )


def rates_text(sheet: ParSheet) -> str:
    """Each level's printed increment rates: 'Progressive 16% to the meter, 3.75% to the
    reserve'; '' without a progressive."""
    parts = []
    for lvl, (meter, reserve) in sheet.level_rates.items():
        rates = ", ".join(
            f"{format_percent(rate)} {what}"
            for rate, what in ((meter, "to the meter"), (reserve, "to the reserve"))
            if rate is not None
        )
        parts.append(f"{lvl.value} {rates or 'none printed'}")
    return "; ".join(parts)


def hit_odds_text(sheet: ParSheet) -> str:
    """Each progressive level's hit odds: 'Progressive 1 in 149,413'; '' without one."""
    return "; ".join(f"{lv.level.value} {lv.odds}" for lv in sheet.hit_odds)


def breakeven_text(mr: MeterReturn) -> str:
    """'$583,449.50 on a $5 wager' (the top meter at which the return is zero, the other meters
    at their seeds); '—' when there is none."""
    be = mr.breakeven_cents()
    if be is None or be < 0:
        return "—"
    return f"{format_money(round(be))} on a {format_money(mr.wager_cents)} wager"


def figures_html(sheet: ParSheet, mr: MeterReturn | None) -> list[str]:
    """The sheet's figures as a table of two columns: house edge, hit frequency, SD, the
    volatility index at each level (its definition under the table), maximum win; for a
    progressive the return at the meters, breakeven meter with its stake, hit odds and
    increment rates."""
    from croupier.analysis.confidence import VI_NOTE

    s = sheet
    sample = " (sample)" if s.method != "exact" else ""
    seen = " (seen)" if s.method != "exact" else ""  # a sample's hit odds, as its maximum win
    rows = [
        ("House edge", f"{float(s.house_edge):.4%}"),
        ("Hit frequency", f"{float(s.hit_frequency):.4%}"),
        (f"Standard deviation{sample}", f"{s.standard_deviation:.4f}"),
        *((f"Volatility index, {k}%{sample}", f"{v:.4f}") for k, v in s.volatility_indexes.items()),
        ("Maximum win", max_win_text(s)),
    ]
    if s.meters:
        meters = ", ".join(f"{lvl.value} {format_money(c)}" for lvl, c in s.meters.items())
        rows.append(
            (
                "Return at the meters shown",
                f"{float(1 + s.expected_return):.4%} of the wager ({meters} on a "
                f"{format_money(s.wager_cents or 0)} wager)",
            )
        )
    if mr is not None:
        rows.append((f"Breakeven {mr.top.value} meter", breakeven_text(mr)))
    for lv in s.hit_odds:
        awards = "; ".join(f"{a.label} {a.odds}" for a in lv.awards)
        rows.append(
            (
                f"Hit odds, {lv.level.value} meter{seen}",
                lv.odds + (f" ({awards})" if awards else ""),
            )
        )
    if s.level_rates:
        rows.append(("Increment rates", rates_text(s)))
    body = "".join(
        f"<tr><th scope='row'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows
    )
    return [
        f"<table class='lab'>{body}</table>",
        f"<p class='note'>{html.escape(_sentence(VI_NOTE))}</p>",
    ]


def _sentence(text: str) -> str:
    """``text`` as a sentence: its first letter capital, a full stop at its end."""
    return text[:1].upper() + text[1:] + "."


def band_title(sheet: ParSheet) -> str:
    """The band table's title: 'Return to player after N rounds (expected 95.9036%)'; a
    progressive's says the band is at the meters the sheet shows, not the long-run return."""
    at = ", the meters as shown" if sheet.meters else ""
    return f"Return to player after N rounds (expected {float(1 + sheet.expected_return):.4%}{at})"


def band_rows(sheet: ParSheet) -> list[tuple[int, list[str]]]:
    """The band table's rows: N, then 'low – high' in percent at each level (90, 95, 99 %)."""
    by_rounds: dict[int, list[str]] = {}
    for b in sheet.return_bands:
        by_rounds.setdefault(b.rounds, []).append(f"{b.low:.2%} – {b.high:.2%}")
    return list(by_rounds.items())


def band_note(sheet: ParSheet) -> str:
    """:data:`~croupier.analysis.confidence.BAND_NOTE`, and the floor's sentence when a band's
    low end is below what the wager can return at worst."""
    from croupier.analysis.confidence import BAND_NOTE, floor_note

    least = sheet.least_return
    if any(b.low < least for b in sheet.return_bands):
        return f"{BAND_NOTE}; {floor_note(least)}"
    return BAND_NOTE


def bands_html(sheet: ParSheet, svg: str) -> list[str]:
    """The band table (rounds down, a low – high column per level), its note and its chart
    (``svg``: :func:`band_chart_svg`, its ids scoped to the page); nothing for a simulation."""
    if sheet.method != "exact":
        return []
    from croupier.analysis.confidence import CONFIDENCE_LEVELS

    head = "".join(f"<th>{lv.label} band</th>" for lv in CONFIDENCE_LEVELS)
    body = "".join(
        f"<tr><td>{n:,}</td>{''.join(f'<td>{c}</td>' for c in cells)}</tr>"
        for n, cells in band_rows(sheet)
    )
    note = band_note(sheet)
    return [
        f"<details open><summary>{html.escape(band_title(sheet))}</summary>",
        f"<table class='bands'><tr><th>Rounds N</th>{head}</tr>{body}</table>",
        f"<p class='note'>{html.escape(_sentence(note))}</p>",
        f"<figure>{svg}<figcaption>Confidence band of the return to player against the rounds "
        "played (log scale), at 90, 95 and 99 %</figcaption></figure></details>",
    ]


class BandChart:
    """The band chart of :func:`band_chart_svg`, one matplotlib figure drawn again for each sheet.

    Every exact sheet's chart has the same artists, axes, x ticks (the rounds of
    :data:`~croupier.analysis.confidence.BAND_ROUNDS`) and labels: the figure is made once (on
    first use) and each sheet only sets its bands' data, the expected return's line, the least
    return's line (shown when a band's low end is below it), the y limits and the legend's texts
    — a report of 251 sheets no longer builds 251 figures (issue 33). The SVG is what a figure
    made for the sheet alone gives (tests/analysis/test_lab_report.py compares them). Not for
    use from two threads at once; :meth:`close` frees the figure.
    """

    def __init__(self) -> None:
        self._figure: Figure | None = None
        self._legends: dict[bool, Legend] = {}
        self._fills: list[FillBetweenPolyCollection] = []  # widest band first
        self._ends: list[Line2D] = []  # each band's low end, then its high end
        self._lines: dict[str, Line2D] = {}  # "expected", "even", "least"

    def _make(self, rounds: list[int]) -> Figure:
        """The figure, its artists at zero: the bands (widest first), their ends, the expected
        return, 100 % and the least return."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullLocator

        from croupier.analysis.confidence import CONFIDENCE_LEVELS

        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        zeros = [0.0] * len(rounds)
        self._fills.clear()
        self._ends.clear()
        for lv in reversed(CONFIDENCE_LEVELS):
            color = BAND_COLORS.get(lv.percent, "#4292c6")
            label = f"{lv.label} band (low to high)"
            self._fills.append(ax.fill_between(rounds, zeros, zeros, color=color, label=label))
            for _ in range(2):  # low end, high end
                self._ends.extend(ax.plot(rounds, zeros, color="#08306b", linewidth=0.6))
        self._lines = {
            "expected": ax.axhline(0, color="black", linewidth=0.9),
            "even": ax.axhline(
                100, color="#8a1c00", linewidth=0.7, linestyle="--", label="100% (break even)"
            ),
            "least": ax.axhline(0, color="#555555", linewidth=0.7, linestyle=":"),
        }
        ax.set_xscale("log")
        # plain text labels: the log axis's own (10^k) are mathtext, which costs more to draw
        ax.set_xticks(rounds, [f"{n:,}" for n in rounds], fontsize=7)
        ax.xaxis.set_minor_locator(NullLocator())  # a report holds one chart per sheet: draw less
        ax.set_xlabel("rounds played N (one unit each)")
        ax.set_ylabel("return to player (% of wagered)")
        ax.grid(True, which="major", linewidth=0.3)
        fig.subplots_adjust(left=0.12, right=0.97, bottom=0.15, top=0.96)  # not tight_layout
        return fig

    def figure(self, sheet: ParSheet) -> Figure:
        """The figure showing ``sheet``'s bands: the band's low and high ends against N (10² …
        10⁸, log axis), one shaded band per level (the widest first), the expected return as a
        line; in percent of the amount wagered."""
        from croupier.analysis.confidence import CONFIDENCE_LEVELS

        bands = sheet.return_bands
        if self._figure is None:
            self._figure = self._make([b.rounds for b in bands if b.level == CONFIDENCE_LEVELS[0]])
        ax = self._figure.axes[0]
        for i, lv in enumerate(reversed(CONFIDENCE_LEVELS)):
            mine = [b for b in bands if b.level == lv]
            xs = [b.rounds for b in mine]
            lows = [b.low * 100 for b in mine]
            highs = [b.high * 100 for b in mine]
            self._fills[i].set_data(xs, lows, highs)
            self._ends[2 * i].set_data(xs, lows)
            self._ends[2 * i + 1].set_data(xs, highs)
        lines = self._lines
        expected = float(1 + sheet.expected_return) * 100
        lines["expected"].set_ydata([expected, expected])
        lines["expected"].set_label(f"expected {expected:.2f}%")
        least = sheet.least_return
        below = any(b.low < least for b in bands)
        lines["least"].set_visible(below)
        lines["least"].set_ydata([least * 100, least * 100])
        lines["least"].set_label(f"{least:.0%}: the least the wager can return")
        ax.relim(visible_only=True)  # the limits a figure of this sheet alone has
        ax.autoscale_view()
        handles: list[Artist] = [*reversed(self._fills), lines["expected"], lines["even"]]
        handles += [lines["least"]] if below else []  # 90 % first, as the table
        labels = [str(h.get_label()) for h in handles]
        legend = self._legends.get(below)
        if legend is None:  # one legend with the least return's line, one without
            legend = ax.legend(handles, labels, fontsize=7, frameon=False, loc="upper right")
            self._legends[below] = legend
        else:
            for text, label in zip(legend.texts, labels, strict=True):
                text.set_text(label)
            ax.legend_ = legend
        return self._figure

    def svg(self, sheet: ParSheet) -> str:
        """``sheet``'s chart as inline SVG text (its text kept as text, not glyph paths: the
        report holds one chart per sheet; the ids from a fixed salt, so the same chart gives
        the same SVG)."""
        import matplotlib

        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "croupier"}):
            fig = self.figure(sheet)
            buf = io.StringIO()
            fig.savefig(buf, format="svg")
        svg = buf.getvalue()
        return svg[svg.index("<svg") :]

    def close(self) -> None:
        """Free the figure (a later :meth:`svg` makes it again)."""
        if self._figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self._figure)
            self._figure = None
            self._legends.clear()


def band_chart_svg(sheet: ParSheet, chart: BandChart | None = None) -> str:
    """``sheet``'s band chart as inline SVG text (:class:`BandChart`); ``chart``: the one a
    report draws all its sheets' charts with (default: a figure made for this sheet alone)."""
    if chart is not None:
        return chart.svg(sheet)
    alone = BandChart()
    try:
        return alone.svg(sheet)
    finally:
        alone.close()


BAND_CSV_COLUMNS = (
    "wager",
    "section",
    "paytable",
    "paytable_sha256",
    "decks",
    "method",
    "expected_return_to_player",
    "standard_deviation",
    "rounds",
    "confidence",
    "z",
    "volatility_index",
    "return_low",
    "return_high",
)
"""The columns of :func:`bands_csv`: the return to player (stake included) per unit wagered,
its band's ends after ``rounds`` rounds at ``confidence`` percent, z and VI = z·SD."""


def bands_csv(sheets: Iterable[ParSheet]) -> str:
    """Every exact sheet's confidence bands, one row per sheet × rounds × level (columns
    :data:`BAND_CSV_COLUMNS`); a simulated sheet has none."""
    from croupier.analysis.confidence import volatility_index

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(BAND_CSV_COLUMNS)
    for s in sheets:
        if s.method != "exact":
            continue
        sd = s.standard_deviation
        for b in s.return_bands:
            w.writerow(
                [
                    s.wager,
                    f"58 Pa. Code § {s.section}",
                    s.paytable,
                    s.paytable_sha256,
                    s.decks,
                    s.method,
                    repr(b.expected),
                    repr(sd),
                    b.rounds,
                    b.level.percent,
                    repr(b.level.z),
                    repr(volatility_index(sd, b.level)),
                    repr(b.low),
                    repr(b.high),
                ]
            )
    return buf.getvalue()
