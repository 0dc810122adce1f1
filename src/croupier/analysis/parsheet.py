"""Par sheets: for one wager × paytable × shoe, every outcome's count, probability, pay and return.

Figures are exact :class:`~fractions.Fraction` values (per unit wagered) until shown:

* *expected return* E[X] where X is the net win per unit wagered (a loss is −1);
* *house edge* −E[X];
* *hit frequency* P(the wager is paid);
* *standard deviation* √(E[X²] − E[X]²) per unit wagered.

Progressive lines are valued at a meter amount (default: the seed for the wager size), see
:func:`exact_parsheet`.

>>> from croupier.wagers import get_wager
>>> sheet = exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)
>>> sheet.rows[0].combinations, sheet.total
(1456, 86320)
>>> f"{float(sheet.house_edge):.4%}"
'4.0964%'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from croupier.analysis.exact import exact_counts
from croupier.cards import Shoe
from croupier.errors import RulesError
from croupier.paytables import MeterLevel, MeterShare, Paytable
from croupier.units import format_money
from croupier.wagers.base import MeterValues, ProgressiveStake, Wager, net_win

LOSE = "lose"


@dataclass(frozen=True)
class OutcomeRow:
    """One line of a par sheet.

    ``combinations`` is the exact count (``None`` for a simulation, whose ``hits`` are observed
    counts); ``probability`` is exact (or the observed frequency); ``net`` the net win per unit
    wagered; ``contribution`` = probability × net.
    """

    outcome: str
    label: str
    pays: str
    net: Fraction
    probability: Fraction
    combinations: int | None = None
    hits: int | None = None

    @property
    def contribution(self) -> Fraction:
        """This line's share of the expected return."""
        return self.probability * self.net


@dataclass(frozen=True)
class ParSheet:
    """A wager's par sheet for one paytable and shoe (exact or simulated).

    ``total`` is the number of deals counted (exact) or rounds dealt (simulation); ``meters`` the
    meter values used for progressive lines, in cents, by level; ``wager_cents`` the wager size they
    are relative to. ``standard_error`` (simulation only) is the standard error of the mean return.
    """

    wager: str
    wager_name: str
    section: str
    paytable: str
    decks: int | None
    shoe: str
    method: str
    convention: str
    rows: tuple[OutcomeRow, ...]
    total: int
    wager_cents: int | None = None
    meters: dict[MeterLevel, int] = field(default_factory=dict)
    stake: ProgressiveStake = ProgressiveStake.COLLECTED
    standard_error: float | None = None
    sample_standard_deviation: float | None = None

    @property
    def expected_return(self) -> Fraction:
        """E[net win] per unit wagered (negative: the house wins)."""
        return sum((r.contribution for r in self.rows), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """−expected return, per unit wagered."""
        return -self.expected_return

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the wager is paid (any line with a pay)."""
        return sum(
            (r.probability for r in self.rows if r.outcome != LOSE and r.net > -1), Fraction(0)
        )

    @property
    def variance(self) -> Fraction:
        """Var[net win] per unit wagered (exact: population variance over all deals)."""
        mean = self.expected_return
        return sum((r.probability * r.net**2 for r in self.rows), Fraction(0)) - mean**2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the net win per unit wagered; for a simulation, of the sample."""
        if self.sample_standard_deviation is not None:
            return self.sample_standard_deviation
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (floats for display, exact fractions as ``"p/q"`` strings)."""
        exact = self.method == "exact"
        out: dict[str, Any] = {
            "wager": self.wager,
            "wager_name": self.wager_name,
            "section": f"58 Pa. Code § {self.section}",
            "paytable": self.paytable,
            "decks": self.decks,
            "shoe": self.shoe,
            "method": self.method,
            "counting": self.convention,
            "outcomes": [
                {
                    "outcome": r.outcome,
                    "label": r.label,
                    "pays": r.pays,
                    "net_win": _num(r.net),
                    **({"combinations": r.combinations} if exact else {"hits": r.hits}),
                    "probability": float(r.probability),
                    "probability_exact": _frac(r.probability),
                    "return": float(r.contribution),
                }
                for r in self.rows
            ],
            ("total_combinations" if exact else "rounds"): self.total,
            "expected_return": float(self.expected_return),
            "house_edge": float(self.house_edge),
            "hit_frequency": float(self.hit_frequency),
            "standard_deviation": self.standard_deviation,
        }
        if exact:
            out["exact"] = {
                "expected_return": _frac(self.expected_return),
                "house_edge": _frac(self.house_edge),
                "hit_frequency": _frac(self.hit_frequency),
                "variance": _frac(self.variance),
            }
        else:
            out["standard_error"] = self.standard_error
        if self.meters:
            out["wager_amount"] = format_money(self.wager_cents or 0)
            out["meters"] = {lvl.value: format_money(c) for lvl, c in self.meters.items()}
            out["progressive_stake"] = self.stake.value
        return out


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _num(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


@dataclass(frozen=True)
class Setup:
    """A resolved analysis request: wager, paytable, shoe, meter values and stake reading."""

    wager: Wager
    paytable: Paytable
    decks: int | None
    shoe: Shoe
    wager_cents: int | None
    meters_cents: dict[MeterLevel, int]
    stake: ProgressiveStake

    @property
    def meter_units(self) -> MeterValues:
        """Meter values in units of the wager."""
        if not self.wager_cents:
            return {}
        return {lvl: Fraction(c, self.wager_cents) for lvl, c in self.meters_cents.items()}


def resolve(
    wager: Wager,
    paytable: str | Paytable,
    decks: int | None = None,
    shoe: Shoe | None = None,
    meter_cents: int | dict[MeterLevel, int] | None = None,
    wager_cents: int | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
) -> Setup:
    """Check and complete an analysis request.

    ``decks`` may be omitted when the paytable allows one deck count or a ``shoe`` is given (a
    partly dealt shoe: its deck count for the rules is then ``decks`` or, if it is whole decks,
    its own). ``meter_cents`` values the progressive meter(s): one amount for a single-meter
    progressive, or a dict by level; levels not given stand at their seed. ``wager_cents`` is the
    progressive wager size (default: the smallest the paytable takes).

    Raises :class:`~croupier.errors.UnknownPaytableError`, :class:`RulesError` (deck count or
    wager size forbidden) or :class:`~croupier.errors.PaytableError`.
    """
    if decks is None and shoe is not None:
        decks = shoe.decks
    table = paytable if isinstance(paytable, Paytable) else None
    if table is None:
        assert isinstance(paytable, str)
        if decks is None:
            table = wager.paytable(paytable)
            if len(table.decks) != 1:
                allowed = ", ".join(map(str, table.decks))
                raise RulesError(
                    f"paytable {table.key} is offered with {allowed} decks: say which",
                    section=wager.section,
                )
            decks = table.decks[0]
        table = wager.paytable(paytable, decks)
    elif decks is None:
        decks = table.decks[0]
    if decks not in table.decks:
        raise RulesError(f"paytable {table.key} is not for {decks} decks", section=table.section)
    wager.check_decks(decks)
    meters: dict[MeterLevel, int] = {}
    if table.progressive is not None:
        size = wager_cents if wager_cents is not None else min(table.progressive.wager_cents)
        wager.check_wager_amount(table, size)
        wager_cents = size
        meters = {m.level: m.seed_for(size) for m in table.progressive.meters}
        if isinstance(meter_cents, int):
            if len(meters) != 1:
                raise RulesError(
                    f"paytable {table.key} has {len(meters)} meters: give each level's amount",
                    section=table.section,
                )
            meters = {next(iter(meters)): meter_cents}
        elif meter_cents:
            meters.update(meter_cents)
        for lvl, cents in meters.items():
            if cents <= 0:
                raise RulesError(f"the {lvl.value} meter must be positive", section=table.section)
    return Setup(wager, table, decks, shoe or Shoe.standard(decks), wager_cents, meters, stake)


def rows_for(
    setup: Setup, counts: tuple[int, ...], total: int, exact: bool
) -> tuple[OutcomeRow, ...]:
    """Par-sheet rows from per-outcome counts (last entry: no winning combination)."""
    wager, table = setup.wager, setup.paytable
    units = setup.meter_units
    rows = []
    for outcome, n in zip(wager.outcomes, counts, strict=False):
        printed = table.line(outcome.key)
        assert printed is not None  # checked when the paytable was resolved
        paid = wager.pay_line(table, outcome)
        if paid is None:
            pays = "N/A (loses)"
        elif paid is not printed:
            pays = f"{paid.pays} (N/A, paid as {paid.label})"
        else:
            pays = str(paid.pays)
            if isinstance(paid.pays, MeterShare):
                level_value = setup.meters_cents[paid.pays.level]
                pays += f" ({format_money(int(paid.pays.share * level_value))})"
        rows.append(
            OutcomeRow(
                outcome.key,
                printed.label,
                pays,
                net_win(paid, units, setup.stake),
                Fraction(n, total),
                n if exact else None,
                None if exact else n,
            )
        )
    n_lose = counts[-1]
    rows.append(
        OutcomeRow(
            LOSE,
            "No winning combination",
            "loses",
            Fraction(-1),
            Fraction(n_lose, total),
            n_lose if exact else None,
            None if exact else n_lose,
        )
    )
    return tuple(rows)


def exact_parsheet(
    wager: Wager,
    paytable: str | Paytable,
    decks: int | None = None,
    shoe: Shoe | None = None,
    meter_cents: int | dict[MeterLevel, int] | None = None,
    wager_cents: int | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
) -> ParSheet:
    """The exact par sheet of ``wager`` under ``paytable`` (arguments as in :func:`resolve`).

    Every deal of the cards the wager reads is counted (see :mod:`croupier.analysis.exact` for the
    convention); probabilities and returns are exact fractions.
    """
    setup = resolve(wager, paytable, decks, shoe, meter_cents, wager_cents, stake)
    counted = exact_counts(setup.wager, setup.shoe)
    return ParSheet(
        wager=wager.id,
        wager_name=wager.name,
        section=wager.section,
        paytable=setup.paytable.key,
        decks=setup.decks,
        shoe=str(setup.shoe),
        method="exact",
        convention=counted.convention,
        rows=rows_for(setup, counted.counts, counted.total, exact=True),
        total=counted.total,
        wager_cents=setup.wager_cents,
        meters=setup.meters_cents,
        stake=stake,
    )
