"""Effect of removal and a balanced card count built from it: can a wager be beaten by counting?

*Effect of removal* (EoR) of a rank: the change in a wager's exact expected return (per unit
wagered) when one card of that rank is taken out of a full shoe, averaged over the four suits
(for a wager blind to suits, as every Baccarat wager is, the suits agree). Exact fractions, from
the exact par sheets of the shoe less one card.

*Balanced count*: integer tags per rank, at most ``level`` in size, proportional to the EoRs and
summing to zero over a deck (so a full shoe counts zero). Among levels 1–4 croupier takes the
smallest whose betting correlation is within 0.02 of the best level's; within a level the tags
minimise Σ (tag − scaled EoR)² subject to balance (ranks with equal EoR get equal tags), found by
dynamic programming. A counter adds the tag of every card seen; the *true count* is the running
count divided by the decks still unseen.

*When the wager turns positive* (linear estimate, the standard one): with EoRs e_r and tags t_r
over the 13 ranks of an N-card shoe, the expected return moves by

    gain per true-count point = (N − 1)/52 · Σ e_r t_r / Σ t_r²

so the wager turns positive at true count −E₀ / gain (E₀ the full-shoe expected return). The
whole-shoe simulation (:func:`count_in_shoes`) then measures, for Baccarat wagers, how often
a realistic shoe reaches that count and the exact edge on the coups where it does.

>>> from croupier.wagers import get_wager
>>> eor = effect_of_removal(get_wager("fortune-7"), "A", decks=8)
>>> [r.rank.letter for r in eor.effects][:3], eor.effect(Rank.NINE) > 0 > eor.effect(Rank.FIVE)
(['A', '2', '3'], True)
"""

from __future__ import annotations

import html
import io
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from croupier.analysis.baccarat_shoe import ShoeSimulation, simulate_shoes, summary_nets
from croupier.analysis.parsheet import ParSheet, exact_parsheet, resolve
from croupier.cards import Card, Rank, Shoe, Suit
from croupier.errors import CroupierError, InputError, NoCountError
from croupier.games.baccarat import BaccaratRules, expected_values
from croupier.paytables import Paytable
from croupier.wagers.baccarat import BaccaratWager
from croupier.wagers.base import Wager

if TYPE_CHECKING:
    from matplotlib.figure import Figure

RANK_ORDER: tuple[Rank, ...] = (Rank.ACE, *(r for r in Rank if r is not Rank.ACE))
"""Ranks as analysts list them: A, 2, …, 10, J, Q, K."""

MAX_LEVEL = 4
"""The largest tag a derived count may use."""


@dataclass(frozen=True)
class RankEffect:
    """One rank's effect of removal: the exact expected return with one card of the rank removed,
    and its difference from the full shoe's (per unit wagered)."""

    rank: Rank
    expected_return: Fraction
    effect: Fraction


@dataclass(frozen=True)
class EffectOfRemoval:
    """A wager's effects of removal for one paytable and a full ``decks``-deck shoe."""

    wager: str
    wager_name: str
    section: str
    paytable: str
    decks: int
    expected_return: Fraction
    effects: tuple[RankEffect, ...]

    @property
    def cards(self) -> int:
        """Cards in the full shoe."""
        return 52 * self.decks

    def effect(self, rank: Rank) -> Fraction:
        """The effect of removing one card of ``rank``."""
        for r in self.effects:
            if r.rank is rank:
                return r.effect
        raise KeyError(rank)  # pragma: no cover - every rank is present


@dataclass(frozen=True)
class BalancedCount:
    """A balanced count for a wager (see the module docstring for how it is built).

    ``tags`` follow :data:`RANK_ORDER`. ``gain_per_true_count`` is the linear change in expected
    return per true-count point; ``threshold`` the true count at which the wager turns positive
    (``None`` when the count's correlation with the wager's EoRs is not positive); ``trigger`` the
    whole true count a counter would bet at, ⌈threshold⌉.
    """

    tags: tuple[int, ...]
    level: int
    betting_correlation: float
    gain_per_true_count: float
    threshold: float | None

    @property
    def trigger(self) -> int | None:
        """The smallest whole true count at or above the threshold."""
        return None if self.threshold is None else math.ceil(self.threshold - 1e-12)

    def tag(self, rank: Rank) -> int:
        """The tag of ``rank``."""
        return self.tags[RANK_ORDER.index(rank)]


EOR_BUDGET_SECONDS = 120.0
"""The longest :func:`effect_of_removal` computes by default: it counts 52 shoes exactly (a full
shoe less each card), and refuses a wager whose first such count shows the 52 would take longer."""


def effect_of_removal(
    wager: Wager,
    paytable: str | Paytable,
    decks: int,
    budget_seconds: float | None = EOR_BUDGET_SECONDS,
) -> EffectOfRemoval:
    """The exact effect of removal of every rank for ``wager`` under ``paytable`` from a full
    ``decks``-deck shoe (checked as :func:`~croupier.analysis.parsheet.resolve` checks it).

    Any wager whose par sheet is exact over a shoe composition is handled the same way: the exact
    par sheet of the full shoe less one card (each of the 52), averaged over the four suits of a
    rank. Raises :class:`~croupier.errors.InputError` when the wager's exact analysis does not
    take a partly dealt shoe, or when the first of the 52 counts shows that all of them would take
    longer than ``budget_seconds`` (``None``: no limit).
    """
    setup = resolve(wager, paytable, decks=decks)
    full = Shoe.standard(decks)
    base = exact_parsheet(wager, setup.paytable, decks=decks).expected_return

    def without(card: Card) -> Fraction:
        shoe = full.remove([card])
        return exact_parsheet(wager, setup.paytable, decks=decks, shoe=shoe).expected_return

    first = Card(RANK_ORDER[0], Suit.CLUBS)
    started = time.perf_counter()
    try:
        known = {first: without(first)}
    except InputError as exc:
        raise InputError(
            f"croupier cannot compute the effect of removal of the {wager.name} wager: {exc}"
        ) from exc
    took = time.perf_counter() - started
    if budget_seconds is not None and took * 52 > budget_seconds:
        raise InputError(
            f"the effect of removal of the {wager.name} wager needs 52 exact counts of a "
            f"{decks}-deck shoe less one card, about {took:.1f} s each here (about "
            f"{took * 52 / 60:.0f} min in all, more than the {budget_seconds:.0f} s croupier "
            "allows): not computed"
        )
    effects = []
    for rank in RANK_ORDER:
        cards = [Card(rank, suit) for suit in Suit]
        removed = [known[c] if c in known else without(c) for c in cards]
        mean = sum(removed, Fraction(0)) / len(removed)
        effects.append(RankEffect(rank, mean, mean - base))
    return EffectOfRemoval(
        wager.id, wager.name, wager.section, setup.paytable.key, decks, base, tuple(effects)
    )


def _correlation(effects: Sequence[float], tags: Sequence[int]) -> float:
    mean = sum(effects) / len(effects)
    e = [x - mean for x in effects]
    num = sum(a * b for a, b in zip(e, tags, strict=True))
    den = math.sqrt(sum(a * a for a in e) * sum(b * b for b in tags))
    return num / den if den else 0.0


def _balanced_tags(raw: Sequence[float], level: int) -> tuple[int, ...]:
    """Integer tags in [−level, level] minimising Σ (tag − raw)² with Σ tags = 0, equal raw values
    sharing a tag (dynamic programming over groups of equal raw values and the running sum)."""
    groups: dict[float, list[int]] = {}
    for i, x in enumerate(raw):
        groups.setdefault(x, []).append(i)
    # state: running sum → (cost, tags chosen per group so far)
    states: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    keys = list(groups)
    for x in keys:
        size = len(groups[x])
        nxt: dict[int, tuple[float, tuple[int, ...]]] = {}
        for total, (cost, chosen) in states.items():
            for t in range(-level, level + 1):
                c = cost + size * (t - x) ** 2
                s = total + size * t
                if s not in nxt or c < nxt[s][0]:
                    nxt[s] = (c, (*chosen, t))
        states = nxt
    _, chosen = states[0]
    tags = [0] * len(raw)
    for x, t in zip(keys, chosen, strict=True):
        for i in groups[x]:
            tags[i] = t
    return tuple(tags)


def balanced_count(eor: EffectOfRemoval, max_level: int = MAX_LEVEL) -> BalancedCount:
    """The balanced count built from ``eor`` (see the module docstring).

    Raises :class:`~croupier.errors.NoCountError` when there is none: every effect is zero (a
    wager whose ranks play alike, e.g. Perfect Pairs), or no tags up to ``max_level`` other than
    all zeros balance (Match the Dealer, whose aces alone differ).
    """
    effects = [float(r.effect) for r in eor.effects]
    biggest = max(abs(x) for x in effects)
    if all(r.effect == 0 for r in eor.effects):
        raise NoCountError(
            f"every rank's effect of removal is exactly 0 for the {eor.wager_name} wager "
            f"(paytable {eor.paytable}, {eor.decks} decks): taking one card of any rank from the "
            "full shoe, averaged over its suits, leaves the expected return as it was, so no "
            "count of ranks can track it"
        )
    candidates = []
    for level in range(1, max_level + 1):
        raw = [x / biggest * level for x in effects]
        tags = _balanced_tags(raw, level)
        candidates.append((level, tags, _correlation(effects, tags)))
    candidates = [c for c in candidates if any(c[1])]
    if not candidates:
        raise NoCountError(
            f"no balanced count with tags of at most ±{max_level} follows the effects of removal "
            f"of the {eor.wager_name} wager (paytable {eor.paytable}, {eor.decks} decks): ranks "
            "with equal effects share a tag, and no such tags other than all zeros sum to zero "
            "over a deck"
        )
    best = max(c for _, _, c in candidates)
    level, tags, corr = next(c for c in candidates if c[2] >= best - 0.02)
    gain = (eor.cards - 1) / 52 * sum(e * t for e, t in zip(effects, tags, strict=True))
    gain /= sum(t * t for t in tags)
    threshold = -float(eor.expected_return) / gain if gain > 0 else None
    return BalancedCount(tags, level, corr, gain, threshold)


def tags_by_value(count: BalancedCount) -> tuple[int, ...]:
    """The count's tags by Baccarat point value 0–9 (ten-valued ranks must share a tag)."""
    tens = {count.tag(r) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)}
    if len(tens) != 1:
        raise CroupierError("a Baccarat count gives the ten-valued ranks one tag")
    out = [tens.pop()] + [0] * 9
    out[1] = count.tag(Rank.ACE)
    for r in Rank:
        if Rank.TWO <= r <= Rank.NINE:
            out[int(r)] = count.tag(r)
    return tuple(out)


@dataclass(frozen=True)
class CountInShoes:
    """How a count plays in simulated whole shoes (Baccarat): bet one unit whenever the true count
    before a coup is at least ``trigger``.

    ``bets``: coups at or above the trigger; ``shoes_with_a_bet``: share of shoes with at least
    one; ``average_edge``: mean *exact* expected return of the shoe as it stood at the coups bet
    (the composition actually left, hidden burned cards included), over ``evaluated`` of them (all,
    or a seeded random sample); ``positive_share``: share of those whose exact expected return was
    positive; ``win_per_shoe``: expected units won per shoe, ``average_edge × bets ÷ shoes``.
    """

    shoes: int
    coups: int
    trigger: int
    bets: int
    shoes_with_a_bet: float
    evaluated: int
    average_edge: float | None
    positive_share: float | None

    @property
    def bet_frequency(self) -> float:
        """Share of coups at or above the trigger."""
        return self.bets / self.coups if self.coups else 0.0

    @property
    def win_per_shoe(self) -> float:
        """Expected units won per shoe betting one unit at every coup at or above the trigger."""
        return (self.average_edge or 0.0) * self.bets / self.shoes

    def to_dict(self) -> dict[str, float | int | None]:
        """JSON-ready figures."""
        return {
            "shoes": self.shoes,
            "coups": self.coups,
            "trigger_true_count": self.trigger,
            "bets": self.bets,
            "bet_frequency": self.bet_frequency,
            "shoes_with_a_bet": self.shoes_with_a_bet,
            "coups_evaluated_exactly": self.evaluated,
            "average_edge_when_betting": self.average_edge,
            "positive_share_when_betting": self.positive_share,
            "win_per_shoe": self.win_per_shoe,
        }


def true_counts(simulation: ShoeSimulation, count: BalancedCount) -> npt.NDArray[np.float64]:
    """The true count before every recorded coup: running count (tags of the cards seen) ÷ decks
    unseen."""
    records = simulation.records
    if records is None:
        raise CroupierError("the shoe simulation kept no coup records (record=True)")
    tags = np.array(tags_by_value(count), dtype=np.float64)
    seen = records.seen.astype(np.float64)
    unseen = 52 * simulation.rules.decks - seen.sum(axis=1)
    out: npt.NDArray[np.float64] = (seen @ tags) / (unseen / 52)
    return out


def count_in_shoes(
    wager: Wager,
    paytable: str | Paytable,
    count: BalancedCount,
    simulation: ShoeSimulation,
    trigger: int | None = None,
    sample: int = 20_000,
) -> CountInShoes:
    """Play ``count`` over the coups recorded by a whole-shoe Baccarat simulation
    (:func:`croupier.analysis.baccarat_shoe.simulate_shoes` with ``record=True``), betting at
    ``trigger`` (default: the count's own). The exact expected return of each coup bet is computed
    from the shoe's remaining composition (six-card convention), for all of them or, beyond
    ``sample``, a random sample seeded by the simulation's seed."""
    if not isinstance(wager, BaccaratWager):
        raise CroupierError(f"whole-shoe counting is simulated for Baccarat wagers, not {wager.id}")
    level = trigger if trigger is not None else count.trigger
    if level is None:
        raise CroupierError(
            f"the count does not turn the {wager.name} wager positive: give a trigger"
        )
    records = simulation.records
    tc = true_counts(simulation, count)
    assert records is not None
    table = resolve(wager, paytable, decks=simulation.rules.decks).paytable
    bet = np.flatnonzero(tc >= level - 1e-9)
    chosen = bet
    if bet.size > sample:
        rng = np.random.Generator(np.random.PCG64(simulation.seed))
        chosen = np.sort(rng.choice(bet, size=sample, replace=False))
    edges = expected_values(records.remaining[chosen], summary_nets(wager, table))
    return CountInShoes(
        shoes=simulation.shoes,
        coups=int(tc.size),
        trigger=level,
        bets=int(bet.size),
        shoes_with_a_bet=np.unique(records.shoe[bet]).size / simulation.shoes,
        evaluated=int(chosen.size),
        average_edge=float(edges.mean()) if edges.size else None,
        positive_share=float((edges > 0).mean()) if edges.size else None,
    )


# ------------------------------------------------------------------------------ HTML report

REPORT_SHOES = 4_000
"""Whole shoes the HTML report simulates for the count figures (seed :data:`REPORT_SEED`)."""
REPORT_SEED = 1
REPORT_SAMPLE = 1_000
"""Coups bet whose exact edge the report evaluates (a seeded sample)."""


@lru_cache(maxsize=8)
def _report_simulation(decks: int) -> ShoeSimulation:
    return simulate_shoes(REPORT_SHOES, REPORT_SEED, BaccaratRules(decks=decks), record=True)


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
    ax.set_xlabel("rank removed")
    ax.set_ylabel("change in return (% per card)")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def eor_report_html(sheets: Sequence[ParSheet]) -> str | None:
    """The effect-of-removal section of the HTML report for one wager's par sheets: for Baccarat
    wagers, a chart of the EoR by rank per paytable (largest deck count in the report), the tags of
    the balanced count, where the wager turns positive, and how the count plays in
    :data:`REPORT_SHOES` simulated shoes. ``None`` for other wagers."""
    import matplotlib.pyplot as plt

    from croupier.wagers.registry import get_wager

    if not sheets:
        return None
    wager = get_wager(sheets[0].wager)
    if not isinstance(wager, BaccaratWager):
        return None
    decks = max(s.decks or 0 for s in sheets)
    keys = list(dict.fromkeys(s.paytable for s in sheets if s.decks == decks))
    effects = [effect_of_removal(wager, key, decks) for key in keys]
    counts = [balanced_count(e) for e in effects]
    sim = _report_simulation(decks)
    fig = eor_figure(effects)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    parts = [
        f"<h3>Effect of removal and counting, {decks}-deck shoe</h3>",
        f"<figure>{svg[svg.index('<svg') :]}<figcaption>Change in the exact expected return when "
        f"one card of each rank is removed from a full {decks}-deck shoe, "
        f"{html.escape(wager.id)}</figcaption></figure>",
        "<table><tr><th>Paytable</th>"
        + "".join(f"<th>{r.letter}</th>" for r in RANK_ORDER)
        + "<th>Turns positive at true count</th><th>Coups bet</th><th>Edge when betting</th>"
        "<th>Units per shoe</th></tr>",
    ]
    played_by_effects: dict[tuple[Fraction, ...], CountInShoes] = {}
    for eor, count in zip(effects, counts, strict=True):
        cells = "".join(
            f"<td>{count.tag(r):+d}</td>" if count.tag(r) else "<td>0</td>" for r in RANK_ORDER
        )
        if count.trigger is None:
            tail = "<td>never</td><td></td><td></td><td></td>"
        else:
            same = (eor.expected_return, *(r.effect for r in eor.effects))  # same pays, same play
            if same not in played_by_effects:
                played_by_effects[same] = count_in_shoes(
                    wager, eor.paytable, count, sim, sample=REPORT_SAMPLE
                )
            played = played_by_effects[same]
            edge = f"{played.average_edge:+.2%}" if played.average_edge is not None else ""
            tail = (
                f"<td>{count.threshold:+.2f} (bet at {count.trigger:+d})</td>"
                f"<td>{played.bet_frequency:.2%}</td><td>{edge}</td>"
                f"<td>{played.win_per_shoe:+.3f}</td>"
            )
        parts.append(f"<tr><td>{html.escape(eor.paytable)}</td>{cells}{tail}</tr>")
    parts.append("</table>")
    parts.append(
        f"<p>Tags of the balanced count derived from the effects of removal (level "
        f"{', '.join(str(c.level) for c in counts)}); the true count is the running count "
        f"divided by the decks unseen. Coups bet, edge and units per shoe come from "
        f"{REPORT_SHOES:,} simulated shoes (cut card 14 cards from the end, first-card burn, "
        f"seed {REPORT_SEED}); the edge is the exact expected return of the cards left, averaged "
        f"over up to {REPORT_SAMPLE:,} of the coups bet. <code>croupier eor</code> gives the "
        "full figures.</p>"
    )
    return "\n".join(parts)
