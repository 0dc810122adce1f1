"""A progressive wager's return as a function of its meters, its breakeven meter, its long-run return.

For a paytable whose lines pay odds or a share of a meter, the expected return per unit wagered is
affine in the meter amounts:

    return(M) = fixed + Σ_level slope_level × M_level / wager

where *fixed* is the return with every meter award at zero (a meter line still loses or returns the
stake, by the :class:`~croupier.wagers.base.ProgressiveStake` reading) and *slope_level* is the
probability-weighted share of that meter paid. The **breakeven meter** is the top award's meter at
which the return is zero, the other levels at their seeds.

The **long-run return** follows the meter model of the progressive table game system (§ 605a.7;
docs/interpretations.md): every progressive wager adds its increment rates (primary to the meter,
secondary to the reserve) to the progressive; share awards are taken from the meter; after a 100%
award the level is reset to its seed/reseed amount. In the long run everything the players add is
paid out. Who pays for each reseed is a reading (:class:`ReseedFunding`):

* ``RESERVE`` (default): the house puts up the *initial* seed (§ 633b.3(j): "The initial seed
  amount … shall be 1,000 times the wager amount"); each reseed is paid from the reserve that the
  secondary increment rate builds, the house adding only what the reserve lacks;
* ``HOUSE``: every reseed is new money from the house, the reserve added on top (the model of the
  progressive ledger, croupier.progressive).

Per unit wagered

    long-run return = fixed + Σ increment rates + Σ_level house_level
                      + other players × Σ P(line) × envy / wager

where house_level is P(100% award of the level) × seed_level / wager under ``HOUSE`` and, under
``RESERVE``, what of that the level's secondary increment rate does not cover (never below 0): a
level with no printed reserve (P7–P36 of § 633b.2(i)) is reseeded by the house under both
readings. The envy term is the bonuses this player receives when one of ``other_players`` players
holding the wager makes an envy hand (§ 633b.2(i), paid by the house).

>>> from croupier.wagers import get_wager
>>> mr = meter_return(get_wager("jackpot-party"), "P1", decks=6)
>>> int(mr.breakeven_cents()) // 100    # dollars on the meter at which the house edge is zero
583449
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from croupier.analysis.exact import exact_counts
from croupier.analysis.parsheet import ParSheet, increment_rate, resolve
from croupier.cards import Shoe, decks_phrase
from croupier.errors import CroupierError, InputError
from croupier.paytables import MeterLevel, MeterShare, Paytable
from croupier.units import format_money
from croupier.wagers import get_wager
from croupier.wagers.base import ProgressiveStake, Wager, net_win

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class ReseedFunding(StrEnum):
    """Who pays for a progressive level's reseed after a 100% award (docs/interpretations.md)."""

    RESERVE = "reserve"
    """The reserve (the secondary increments) pays the reseed; the house only what it lacks."""
    HOUSE = "house"
    """Every reseed is new money from the house; the reserve is added to the meter on top."""


def long_run_assumptions(reseed: ReseedFunding = ReseedFunding.RESERVE) -> str:
    """What the long-run return assumes, as a clause (no capital, no full stop), under the
    ``reseed`` reading: the part of :func:`long_run_sentence` a figure's caption repeats."""
    if reseed is ReseedFunding.HOUSE:
        funding = "with new money from the house (the reserve added to the meter on top)"
    else:
        funding = "from the reserve (the house adding what the reserve lacks)"
    return (
        "every increment rate (meter and reserve) is paid back to the players through the "
        "meters, the house funds the initial seed, after a whole-meter award the meter is "
        f"reseeded to its seed {funding}, and after a share award the meter is reduced only "
        "by the share paid"
    )


def long_run_sentence(reseed: ReseedFunding = ReseedFunding.RESERVE) -> str:
    """The one sentence every output gives for a long-run return above 100% of the wager — the
    CLI (``analyze``, ``parsheet --summary``), the HTML report, the web pages — with the
    assumptions it stands on under the ``reseed`` reading; docs/interpretations.md ("A long-run
    return above 100%: the sentence") quotes it for the default reading.

    >>> long_run_sentence().startswith("A long-run return above 100% of the wager means the player")
    True
    """
    return (
        "A long-run return above 100% of the wager means the player has the edge over the long "
        f"run of many awards, assuming {long_run_assumptions(reseed)}."
    )


@dataclass(frozen=True)
class MeterReturn:
    """The return of one progressive wager × paytable × shoe as a function of its meters.

    Per unit wagered, exact. ``slopes`` are per unit of meter measured in wagers (a $50,000 meter on
    a $5 wager is 10,000 units); ``full_award_probability`` the probability of a 100% award of each
    level per round; ``increment_rates`` what each level takes from every wager (meter and reserve);
    ``envy_per_other_player`` the expected envy bonus per unit wagered that one other player holding
    the wager brings; ``reserve_rates`` the secondary (reserve) rate of each level that prints one.
    """

    wager: str
    paytable: str
    decks: int | None
    wager_cents: int
    stake: ProgressiveStake
    fixed: Fraction
    slopes: dict[MeterLevel, Fraction]
    seeds_cents: dict[MeterLevel, int]
    full_award_probability: dict[MeterLevel, Fraction]
    increment_rates: dict[MeterLevel, Fraction]
    total_increment_rate: Fraction
    envy_per_other_player: Fraction
    top: MeterLevel
    reserve_rates: dict[MeterLevel, Fraction] = field(default_factory=dict)

    def at(self, meters_cents: Mapping[MeterLevel, int] | None = None) -> Fraction:
        """The expected return with the meters at ``meters_cents`` (levels not given at their seed)."""
        values = dict(self.seeds_cents)
        for level, cents in (meters_cents or {}).items():
            if level not in values:
                raise InputError(f"paytable {self.paytable} has no {level.value} meter")
            values[level] = cents
        return self.fixed + sum(
            (s * Fraction(values[lvl], self.wager_cents) for lvl, s in self.slopes.items()),
            Fraction(0),
        )

    def breakeven_cents(self, level: MeterLevel | None = None) -> Fraction | None:
        """The amount on ``level``'s meter (default: the top award's) at which the return is zero,
        the other meters at their seeds; ``None`` when no line pays a share of that meter."""
        level = level or self.top
        slope = self.slopes.get(level, Fraction(0))
        if not slope:
            return None
        rest = self.at({level: 0})
        return -rest / slope * self.wager_cents

    def house_reseed(self, reseed: ReseedFunding = ReseedFunding.RESERVE) -> Fraction:
        """What the house adds to the meters per unit wagered, in the long run, to reseed them
        after 100% awards (see the module docstring)."""
        total = Fraction(0)
        for lvl, p in self.full_award_probability.items():
            cost = p * Fraction(self.seeds_cents[lvl], self.wager_cents)
            if reseed is ReseedFunding.RESERVE:
                cost = max(Fraction(0), cost - self.reserve_rates.get(lvl, Fraction(0)))
            total += cost
        return total

    def long_run(
        self, other_players: int = 0, reseed: ReseedFunding = ReseedFunding.RESERVE
    ) -> Fraction:
        """The long-run return per unit wagered (see the module docstring).

        Raises :class:`~croupier.errors.InputError` for a negative ``other_players``.
        """
        if other_players < 0:
            raise InputError(f"other players must be 0 or more, not {other_players}")
        return (
            self.fixed
            + self.house_reseed(reseed)
            + self.total_increment_rate
            + other_players * self.envy_per_other_player
        )

    def positive_at_seed(self) -> bool:
        """Whether the return is already zero or better with every meter at its seed."""
        return self.at() >= 0

    def to_dict(
        self,
        meters_cents: Mapping[MeterLevel, int] | None = None,
        reseed: ReseedFunding = ReseedFunding.RESERVE,
    ) -> dict[str, Any]:
        """A JSON-ready summary (floats, exact values as ``"p/q"``); the long-run return under
        the ``reseed`` reading."""
        be = self.breakeven_cents()
        return {
            "wager_amount": format_money(self.wager_cents),
            "wager_amount_cents": self.wager_cents,
            "fixed_return": float(self.fixed),
            "return_per_1000_on_meter": {
                lvl.value: float(s * Fraction(100_000, self.wager_cents))
                for lvl, s in self.slopes.items()
            },
            "return_at_meters": float(self.at(meters_cents)),
            "return_at_seed": float(self.at()),
            "top_meter": self.top.value,
            "breakeven_meter": (format_money(round(be)) if be is not None and be >= 0 else None),
            "breakeven_meter_cents": round(be) if be is not None and be >= 0 else None,
            "positive_at_seed": self.positive_at_seed(),
            "increment_rate": float(self.total_increment_rate),
            "increment_rates": {
                lvl.value: float(rate) for lvl, rate in self.increment_rates.items() if rate
            },
            "long_run_return": float(self.long_run(reseed=reseed)),
            "long_run_return_exact": _frac(self.long_run(reseed=reseed)),
            "reseed_funding": reseed.value,
            "envy_per_other_player": float(self.envy_per_other_player),
        }

    def csv_cells(
        self,
        meters_cents: Mapping[MeterLevel, int] | None = None,
        reseed: ReseedFunding = ReseedFunding.RESERVE,
    ) -> dict[str, str | int]:
        """The meter analysis as the par sheet CSV's cells
        (:data:`croupier.analysis.report.CSV_COLUMNS`): the return at ``meters_cents`` (net, per
        unit wagered) with its exact fraction, the top award's breakeven meter for a wager of
        :attr:`wager_cents` ('' when there is none), the total increment rate (exact beside it)
        and the reseed reading (each level's rates are the sheet's own: ``increment_rates``)."""
        at = self.at(meters_cents)
        be = self.breakeven_cents()
        be_cents = round(be) if be is not None and be >= 0 else None
        return {
            "return_at_meters": repr(float(at)),
            "return_at_meters_exact": _frac(at),
            "breakeven_meter": format_money(be_cents) if be_cents is not None else "",
            "breakeven_meter_cents": be_cents if be_cents is not None else "",
            "increment_rate": repr(float(self.total_increment_rate)),
            "increment_rate_exact": _frac(self.total_increment_rate),
            "reseed_funding": reseed.value,
        }


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def increment_rates(table: Paytable) -> tuple[dict[MeterLevel, Fraction], Fraction]:
    """Each level's increment rate (primary + secondary) and the progressive's total
    (:func:`croupier.analysis.parsheet.increment_rate`: the printed total increment rate where the
    paytable prints one, as P7–P16 of § 633b.2(i) do, else the sum of the levels' rates)."""
    prog = table.progressive
    if prog is None:
        return {}, Fraction(0)
    per_level = {
        m.level: (m.increment_rate or Fraction(0)) + (m.secondary_increment_rate or Fraction(0))
        for m in prog.meters
    }
    return per_level, increment_rate(table) or Fraction(0)


def meter_return(
    wager: Wager,
    paytable: str | Paytable,
    decks: int | None = None,
    shoe: Shoe | None = None,
    wager_cents: int | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
) -> MeterReturn:
    """The exact :class:`MeterReturn` of a progressive ``wager`` (arguments as in
    :func:`croupier.analysis.parsheet.exact_parsheet`).

    Raises :class:`~croupier.errors.InputError` for a paytable without a progressive meter, and
    what :func:`~croupier.analysis.parsheet.resolve` raises.
    """
    setup = resolve(wager, paytable, decks, shoe, None, wager_cents, stake)
    table = setup.paytable
    if table.progressive is None or setup.wager_cents is None:
        raise InputError(f"paytable {table.key} of § {table.section} has no progressive meter")
    counted = exact_counts(setup.wager, setup.shoe)
    total = counted.total
    fixed = Fraction(0)
    slopes: dict[MeterLevel, Fraction] = {m.level: Fraction(0) for m in table.progressive.meters}
    full: dict[MeterLevel, Fraction] = {}
    envy = Fraction(0)
    top: MeterLevel | None = None
    for outcome, n in zip(setup.wager.outcomes, counted.counts, strict=False):
        p = Fraction(n, total)
        line = setup.wager.pay_line(table, outcome)
        if line is not None and line.envy_cents is not None:
            envy += p * Fraction(line.envy_cents, setup.wager_cents)
        if line is not None and isinstance(line.pays, MeterShare):
            share = line.pays
            top = top or share.level
            slopes[share.level] += p * share.share
            fixed += p * (-1 if stake is ProgressiveStake.COLLECTED else 0)
            if share.share == 1:
                full[share.level] = full.get(share.level, Fraction(0)) + p
        else:
            fixed += p * net_win(line) * setup.wager.pay_factor(table, outcome)
    fixed -= Fraction(counted.counts[-1], total)
    rates, total_rate = increment_rates(table)
    return MeterReturn(
        wager=setup.wager.id,
        paytable=table.key,
        decks=setup.decks,
        wager_cents=setup.wager_cents,
        stake=stake,
        fixed=fixed,
        slopes=slopes,
        seeds_cents={m.level: m.seed_for(setup.wager_cents) for m in table.progressive.meters},
        full_award_probability=full,
        increment_rates=rates,
        total_increment_rate=total_rate,
        envy_per_other_player=envy,
        top=top or table.progressive.meters[0].level,
        reserve_rates={
            m.level: m.secondary_increment_rate
            for m in table.progressive.meters
            if m.secondary_increment_rate
        },
    )


def long_run_total(
    sheet: ParSheet, mr: MeterReturn | None, reseed: ReseedFunding = ReseedFunding.RESERVE
) -> Fraction | None:
    """What the wager returns in the long run per unit wagered, the stake included: 1 + the
    long-run net of :meth:`MeterReturn.long_run`, or for a wager without a meter 1 + the expected
    return; ``None`` for a progressive without its :class:`MeterReturn` (a user's paytable)."""
    if mr is not None:
        return 1 + mr.long_run(reseed=reseed)
    return None if sheet.meters else 1 + sheet.expected_return


def meter_returns(sheets: Sequence[ParSheet]) -> list[tuple[ParSheet, MeterReturn]]:
    """The :class:`MeterReturn` of every regulation paytable among progressive ``sheets`` (a
    user's paytable is left out: the registry's wagers read the built-in paytables)."""
    out = []
    for s in sheets:
        if not s.meters or not s.regulation or s.wager_cents is None:
            continue
        try:
            wager = get_wager(s.wager)
            mr = meter_return(wager, s.paytable, s.decks, wager_cents=s.wager_cents, stake=s.stake)
        except CroupierError:
            continue
        out.append((s, mr))
    return out


def meter_return_figure(sheets: Sequence[ParSheet]) -> Figure | None:
    """Return against the top award's meter, one line per paytable, a panel per deck count; the
    dot marks the seed, the cross the breakeven meter. ``None`` when no sheet has a meter."""
    pairs = meter_returns(sheets)
    if not pairs:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    decks = sorted({s.decks or 0 for s, _ in pairs})
    fig, axes = plt.subplots(
        1, len(decks), figsize=(min(4.2 * len(decks), 16), 4.2), squeeze=False, sharey=True
    )
    cmap = plt.get_cmap("tab20")
    for ax, d in zip(axes[0], decks, strict=True):
        panel = [(s, mr) for s, mr in pairs if (s.decks or 0) == d]
        ends = []
        for _, mr in panel:
            be = mr.breakeven_cents()
            seed = mr.seeds_cents[mr.top]
            ends.append(max(seed * 2, float(be) * 1.1 if be is not None and be > 0 else 0))
        right = min(max(ends), 100_000_000)
        crosses: list[float] = []
        for i, (s, mr) in enumerate(panel):
            seed = mr.seeds_cents[mr.top]
            xs = [seed / 100, right / 100]
            ys = [float(mr.at({mr.top: int(x * 100)})) * 100 for x in xs]
            label = f"{s.paytable} ({format_money(mr.wager_cents)})"
            ax.plot(
                xs, ys, color=cmap(i % 20), linewidth=1.2, label=label, marker="o",
                markevery=[0], markersize=3,
            )  # fmt: skip
            be = mr.breakeven_cents()
            if be is not None and seed <= be <= right:
                crosses.append(float(be) / 100)
        if crosses:
            ax.plot(crosses, [0] * len(crosses), "x", color="black", markersize=5)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylim(-50, 100)
        ax.set_title(decks_phrase(d), fontsize=9)
        ax.set_xlabel("top award's meter ($)", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6, frameon=False, ncol=2 if len(panel) > 8 else 1)
    axes[0][0].set_ylabel("expected return (% of the wager)")
    fig.tight_layout()
    return fig


def meter_chart_svg(sheets: Sequence[ParSheet]) -> str | None:
    """The :func:`meter_return_figure` as inline SVG text, or ``None``."""
    fig = meter_return_figure(sheets)
    if fig is None:
        return None
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg") :]
