"""The effect-of-removal and count-vulnerability section of the HTML report
(:func:`eor_report_html`, one per wager): the effects of removal by rank, the balanced count, the
true count where the wager turns positive and what a simulated counter wins there."""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from croupier.analysis.eor import BACCARAT_EXACT_SAMPLE, CARD_ORDER, RANK_ORDER, EffectOfRemoval
from croupier.analysis.eor_table import (
    VERDICT_RULE,
    CounterConditions,
    Vulnerability,
    vulnerability,
)
from croupier.analysis.parsheet import ParSheet
from croupier.errors import CroupierError
from croupier.wagers.baccarat import BaccaratWager

if TYPE_CHECKING:
    from matplotlib.figure import Figure

REPORT_SHOES = 4_000
"""Whole Baccarat shoes the HTML report simulates for the count figures (seed
:data:`REPORT_SEED`)."""
REPORT_BLACKJACK_SHOES = 2_000
"""Whole Blackjack shoes the HTML report deals for a side wager's counter."""
REPORT_PERFECT_SHOES = 500
"""Shoes for the perfect-information bound of a wager no count tracks (Match the Dealer's
three-card return costs 52³ products a round)."""
REPORT_SEED = 1
REPORT_PAYTABLES = 3
"""Paytables of one wager the report counts (the first ones at the largest deck count)."""


def eor_figure(effects: Sequence[EffectOfRemoval]) -> Figure:
    """A matplotlib bar chart of the effects of removal by rank, one bar per paytable."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 3.2))
    width = 0.8 / max(1, len(effects))
    x = np.arange(len(RANK_ORDER))
    for i, eor in enumerate(effects):
        ax.bar(
            x + (i - (len(effects) - 1) / 2) * width,
            [float(r.effect) * 100 for r in eor.effects],
            width=width,
            label=f"paytable {eor.paytable}",
        )
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [r.letter for r in RANK_ORDER])
    ax.set_xlabel("rank removed (average over its suits)")
    ax.set_ylabel("change in return (% per card)")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    fig.set_layout_engine(None)  # laid out once: savefig need not draw the figure twice
    return fig


def _tags(row: Vulnerability) -> str:
    c = row.count
    if c is None:
        return "".join("<td></td>" for _ in RANK_ORDER)
    if c.suit_aware:
        cells = []
        for r in RANK_ORDER:
            tags = [c.card_tag(card) for card in CARD_ORDER if card.rank is r]
            cells.append("<td>" + " ".join(f"{t:+d}" if t else "0" for t in tags) + "</td>")
        return "".join(cells)
    return "".join(f"<td>{c.tag(r):+d}</td>" if c.tag(r) else "<td>0</td>" for r in RANK_ORDER)


def _figures(row: Vulnerability) -> str:
    c = row.count
    if c is None:
        return "<td>no count</td><td></td><td></td><td></td><td></td>"
    if c.threshold is None or c.trigger is None:
        return "<td>never</td><td></td><td></td><td></td><td></td>"
    head = f"<td>{c.threshold:+.2f} (bet at {c.trigger:+d})</td>"
    if row.bet_frequency is None:
        return head + f"<td colspan='4'>{html.escape(row.not_simulated or '')}</td>"
    edge = row.edge_when_betting
    hour = row.win_per_hour or 0.0
    se = f" ± {row.win_per_hour_se:.3f}" if row.win_per_hour_se is not None else ""
    return (
        head + f"<td>{row.bet_frequency:.2%}</td><td>{'' if edge is None else f'{edge:+.2%}'}</td>"
        f"<td>{row.win_per_shoe or 0:+.3f}</td><td>{hour:+.3f}{se}</td>"
    )


def eor_report_html(sheets: Sequence[ParSheet]) -> str | None:
    """The effect-of-removal section of the HTML report for one wager's par sheets: a chart of
    the EoR by rank per paytable (largest deck count in the report, at most
    :data:`REPORT_PAYTABLES` paytables), the tags of the balanced count, where the wager turns
    positive, and how a counter fares in :data:`REPORT_SHOES` simulated shoes. ``None`` when
    the wager's effects of removal cannot be computed."""
    import matplotlib.pyplot as plt

    from croupier.wagers.registry import get_wager

    if not sheets:
        return None
    try:
        wager = get_wager(sheets[0].wager)
    except CroupierError:
        return None
    decks = max(s.decks or 0 for s in sheets)
    keys = list(dict.fromkeys(s.paytable for s in sheets if s.decks == decks))
    baccarat = isinstance(wager, BaccaratWager)
    cond = CounterConditions(
        shoes=REPORT_SHOES if baccarat else REPORT_BLACKJACK_SHOES,
        seed=REPORT_SEED,
        perfect_shoes=REPORT_PERFECT_SHOES,
    )
    rows = []
    for key in keys[:REPORT_PAYTABLES]:
        try:
            rows.append(vulnerability(wager, key, decks, cond))
        except CroupierError:
            return None
    effects = [r.eor for r in rows if r.eor is not None]
    if not effects:
        return None
    fig = eor_figure(effects)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    suits = any(e.suits_matter for e in effects)
    parts = [
        f"<h3>Effect of removal and counting, {decks}-deck shoe</h3>",
        f"<figure>{svg[svg.index('<svg') :]}<figcaption>Change in the exact expected return when "
        f"one card of each rank is removed from a full {decks}-deck shoe, "
        f"{html.escape(wager.id)}"
        + (" (the suits of a rank differ: tags are by card, ♣ ♦ ♥ ♠)" if suits else "")
        + "</figcaption></figure>",
        "<table><tr><th>Paytable</th>"
        + "".join(f"<th>{r.letter}</th>" for r in RANK_ORDER)
        + "<th>Turns positive at true count</th><th>Rounds bet</th><th>Return when betting</th>"
        "<th>Units per shoe</th><th>Units per hour</th><th>Verdict</th></tr>",
    ]
    for row in rows:
        verdict = f"<td title='{html.escape(row.verdict_basis)}'>{html.escape(row.verdict)}</td>"
        parts.append(
            f"<tr><td>{html.escape(row.paytable)}</td>{_tags(row)}{_figures(row)}{verdict}</tr>"
        )
    parts.append("</table>")
    for row in rows:
        if row.no_count:
            parts.append(
                f"<p>Paytable {html.escape(row.paytable)}: {html.escape(row.no_count)}</p>"
            )
        p = row.perfect
        if p is not None:
            parts.append(
                f"<p>Paytable {html.escape(row.paytable)}, a computer knowing every unseen card "
                f"({p.shoes:,} shoes): bets {p.bet_frequency:.2%} of rounds, "
                f"{p.win_per_hour:+.4f} units an hour; best exact return before a round "
                f"{p.best:+.3%} — the most any count could win.</p>"
            )
    more = (
        f" (the first {REPORT_PAYTABLES} of {len(keys)} paytables)"
        if len(keys) > REPORT_PAYTABLES
        else ""
    )
    if baccarat:
        how = (
            f"{REPORT_SHOES:,} simulated shoes (cut card 14 cards from the end, first-card burn, "
            f"seed {REPORT_SEED}); the return when betting is the exact expected return of the "
            f"cards left, averaged over the coups bet (up to {BACCARAT_EXACT_SAMPLE:,} of them, "
            "as <code>croupier eor</code> does); ± one standard error over the shoes; 60 coups an "
            "hour"
        )
    else:
        how = (
            f"{REPORT_BLACKJACK_SHOES:,} simulated shoes dealt to three seats to 75% penetration (seed "
            f"{REPORT_SEED}), the bets settled by the wager's own classifier; ± one standard "
            "error; 60 rounds an hour"
        )
    parts.append(
        f"<p>Tags of the balanced count derived from the effects of removal{more}; the true "
        "count is the running count divided by the decks unseen, and the counter bets one unit "
        "at the whole true count at or above break-even, nothing otherwise. Rounds bet, return "
        f"and units come from {how}. <code>croupier eor</code> gives the full figures.</p>"
    )
    parts.append(f"<p>Verdict: {html.escape(VERDICT_RULE)}.</p>")
    return "\n".join(parts)
