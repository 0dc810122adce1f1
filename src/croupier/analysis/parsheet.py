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
from functools import cached_property
from typing import TYPE_CHECKING, Any

from croupier.analysis.exact import exact_counts
from croupier.analysis.hit_odds import LevelOdds, level_odds
from croupier.cards import Shoe, decks_phrase
from croupier.errors import InputError, RulesError, citation
from croupier.paytables import MeterLevel, MeterShare, NotAvailable, Paytable, paytable_digest
from croupier.units import format_money
from croupier.wagers.base import MeterValues, ProgressiveStake, Wager, net_win

if TYPE_CHECKING:  # statistics (NormalDist) is imported when a sheet's bands are asked for
    from croupier.analysis.confidence import ReturnBand

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

    @property
    def one_in(self) -> Fraction | None:
        """N of "1 in N" (1 / probability, exact; for a simulation rounds / hits, observed);
        ``None`` for a line that never came up (:func:`croupier.analysis.confidence.one_in`)."""
        from croupier.analysis.confidence import one_in

        return one_in(self.probability)


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
    paytable_citation: str = ""
    paytable_source: str = ""
    regulation: bool = True
    increment_rate: Fraction | None = None
    hit_odds: tuple[LevelOdds, ...] = ()
    """Each progressive level's hit odds (:mod:`croupier.analysis.hit_odds`); empty without a
    progressive."""
    paytable_sha256: str = ""
    """The paytable's configuration digest (:func:`croupier.paytables.paytable_digest`)."""
    level_rates: dict[MeterLevel, tuple[Fraction | None, Fraction | None]] = field(
        default_factory=dict
    )
    """Each progressive level's printed (increment rate, secondary increment rate), ``None``
    where the paytable prints none; empty without a progressive."""

    @property
    def paytable_origin(self) -> str:
        """Where the paytable comes from: its citation, or the user's file for a paytable the
        regulation does not print."""
        if self.regulation:
            return self.paytable_citation
        return f"{self.paytable_citation} ({self.paytable_source}; not printed in the regulation)"

    @property
    def example(self) -> bool:
        """Whether the paytable is one croupier made up as an example (not PA text, not any
        casino's table): its id starts ``example-`` or its citation says EXAMPLE."""
        return not self.regulation and (
            self.paytable.lower().startswith("example-")
            or self.paytable_citation.upper().startswith("EXAMPLE")
        )

    @property
    def paytable_status(self) -> str:
        """'' for a paytable printed in the regulation, else what it is, for a summary row:
        'EXAMPLE, made up; not PA text' or 'not printed in the regulation'."""
        if self.regulation:
            return ""
        return "EXAMPLE, made up; not PA text" if self.example else "not printed in the regulation"

    @cached_property
    def expected_return(self) -> Fraction:
        """E[net win] per unit wagered (negative: the house wins)."""
        return sum((r.contribution for r in self.rows), Fraction(0))

    @cached_property
    def house_edge(self) -> Fraction:
        """−expected return, per unit wagered."""
        return -self.expected_return

    @cached_property
    def hit_frequency(self) -> Fraction:
        """Probability that the wager wins (a line with a net win; a push is not a hit)."""
        return sum(
            (r.probability for r in self.rows if r.outcome != LOSE and r.net > 0), Fraction(0)
        )

    @cached_property
    def variance(self) -> Fraction:
        """Var[net win] per unit wagered (exact: population variance over all deals)."""
        mean = self.expected_return
        return sum((r.probability * r.net**2 for r in self.rows), Fraction(0)) - mean**2

    @cached_property
    def standard_deviation(self) -> float:
        """Standard deviation of the net win per unit wagered; for a simulation, of the sample."""
        if self.sample_standard_deviation is not None:
            return self.sample_standard_deviation
        return math.sqrt(self.variance)

    @property
    def volatility_indexes(self) -> dict[int, float]:
        """The volatility index VI = z · SD at 90, 95 and 99 % (by percent; per unit wagered;
        :mod:`croupier.analysis.confidence`); for a simulation, of the sample SD."""
        from croupier.analysis.confidence import CONFIDENCE_LEVELS, volatility_index

        sd = self.standard_deviation
        return {lv.percent: volatility_index(sd, lv) for lv in CONFIDENCE_LEVELS}

    @cached_property
    def return_bands(self) -> tuple[ReturnBand, ...]:
        """The confidence band of the player's return (stake included) after 10², …, 10⁸ rounds
        at 90, 95 and 99 %, by rounds then level (:func:`croupier.analysis.confidence.return_bands`,
        the normal approximation 1 + E[X] ± VI/√N)."""
        from croupier.analysis.confidence import return_bands

        return return_bands(self.expected_return, self.standard_deviation)

    @property
    def max_win(self) -> OutcomeRow:
        """The line with the largest net win per unit wagered that can come up (an exact sheet's
        line with no combination is left out; a simulation's line is possible whether it came up
        or not); the first such line in paytable order on a tie."""
        possible = [r for r in self.rows if r.combinations is None or r.combinations > 0]
        return max(possible or self.rows, key=lambda r: r.net)

    @property
    def least_return(self) -> float:
        """The least the wager can return in one round per unit wagered, stake included: 1 +
        the largest loss of a line that can come up (0 for a wager that loses at most its
        stake); a band's low end below it is the normal approximation failing."""
        possible = [r for r in self.rows if r.combinations is None or r.combinations > 0]
        return float(1 + min(r.net for r in possible or self.rows))

    @property
    def max_win_cents(self) -> int | None:
        """The maximum win in integer cents on the sheet's wager size (net: the stake not
        counted; a fraction of a cent dropped, as a settlement rounds down); ``None`` for a
        sheet with no wager size (no progressive)."""
        if not self.wager_cents:
            return None
        return math.floor(self.max_win.net * self.wager_cents)

    def _lab_dict(self) -> dict[str, Any]:
        """The lab's figures of :meth:`to_dict`: volatility index, return bands (exact sheets
        only: a simulation's interval is its own), maximum win."""
        best = self.max_win
        top: dict[str, Any] = {
            "outcome": best.outcome,
            "label": best.label,
            "pays": best.pays,
            "net_win": _num(best.net),
        }
        cents = self.max_win_cents
        if cents is not None:
            top["amount"] = format_money(cents)
            top["amount_cents"] = cents
        out: dict[str, Any] = {
            "volatility_index": {str(k): v for k, v in self.volatility_indexes.items()}
        }
        if self.method == "exact":
            out["return_bands"] = [b.to_dict() for b in self.return_bands]
        out["max_win"] = top
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (floats for display, exact fractions as ``"p/q"`` strings)."""
        exact = self.method == "exact"
        out: dict[str, Any] = {
            "wager": self.wager,
            "wager_name": self.wager_name,
            "section": self.section,
            "citation": citation(self.section),
            "paytable": self.paytable,
            "paytable_citation": self.paytable_citation,
            "paytable_source": self.paytable_source,
            "paytable_in_regulation": self.regulation,
            "paytable_example": self.example,
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
                    **(
                        {
                            "probability": float(r.probability),
                            "probability_exact": _frac(r.probability),
                        }
                        if exact
                        else {  # observed: hits over rounds, not a probability
                            "frequency": float(r.probability),
                            "frequency_fraction": _frac(r.probability),
                        }
                    ),
                    "one_in": float(r.one_in) if r.one_in is not None else None,
                    **(
                        {"one_in_exact": _frac(r.one_in) if r.one_in is not None else None}
                        if exact
                        else {}
                    ),
                    "return": float(r.contribution),
                }
                for r in self.rows
            ],
            ("total_combinations" if exact else "rounds"): self.total,
            "expected_return": float(self.expected_return),
            "house_edge": float(self.house_edge),
            "hit_frequency": float(self.hit_frequency),
            "standard_deviation": self.standard_deviation,
            **self._lab_dict(),
            "paytable_sha256": self.paytable_sha256,
        }
        if self.hit_odds:
            out["hit_odds"] = [lv.to_dict() for lv in self.hit_odds]
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
            out["wager_amount_cents"] = self.wager_cents or 0
            out["meters"] = {lvl.value: format_money(c) for lvl, c in self.meters.items()}
            out["meters_cents"] = {lvl.value: c for lvl, c in self.meters.items()}
            out["progressive_stake"] = self.stake.value
            if self.increment_rate is not None:
                out["increment_rate"] = float(self.increment_rate)
            if self.level_rates:
                out["increment_rates"] = {
                    lvl.value: {
                        "increment_rate": _opt_float(rate),
                        "secondary_increment_rate": _opt_float(secondary),
                    }
                    for lvl, (rate, secondary) in self.level_rates.items()
                }
        return out


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _num(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


def _opt_float(x: Fraction | None) -> float | None:
    return None if x is None else float(x)


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

    def sheet(
        self,
        method: str,
        convention: str,
        rows: tuple[OutcomeRow, ...],
        total: int,
        standard_error: float | None = None,
        sample_standard_deviation: float | None = None,
    ) -> ParSheet:
        """The :class:`ParSheet` of this request from its rows (exact or simulated)."""
        return ParSheet(
            wager=self.wager.id,
            wager_name=self.wager.name,
            section=self.wager.section,
            paytable=self.paytable.key,
            decks=self.decks,
            shoe=str(self.shoe),
            method=method,
            convention=convention,
            rows=rows,
            total=total,
            wager_cents=self.wager_cents,
            meters=self.meters_cents,
            stake=self.stake,
            standard_error=standard_error,
            sample_standard_deviation=sample_standard_deviation,
            paytable_citation=self.paytable.citation,
            paytable_source=self.paytable.source,
            regulation=self.paytable.regulation,
            increment_rate=increment_rate(self.paytable),
            hit_odds=level_odds(
                self.wager, self.paytable, {r.outcome: r.probability for r in rows}
            ),
            paytable_sha256=paytable_digest(self.paytable),
            level_rates=level_rates(self.paytable),
        )

    @property
    def meter_units(self) -> MeterValues:
        """Meter values in units of the wager."""
        if not self.wager_cents:
            return {}
        return {lvl: Fraction(c, self.wager_cents) for lvl, c in self.meters_cents.items()}


def increment_rate(table: Paytable) -> Fraction | None:
    """The share of each progressive wager the paytable sends to its meters and reserve: the
    printed total rate, else the sum of every meter's (primary and secondary) rates; ``None``
    for a paytable with no progressive or no printed rate."""
    prog = table.progressive
    if prog is None:
        return None
    if prog.total_increment_rate is not None:
        return prog.total_increment_rate
    rates = [
        r
        for m in prog.meters
        for r in (m.increment_rate, m.secondary_increment_rate)
        if r is not None
    ]
    return sum(rates, Fraction(0)) if rates else None


def level_rates(table: Paytable) -> dict[MeterLevel, tuple[Fraction | None, Fraction | None]]:
    """Each progressive level's printed (increment rate, secondary increment rate), in the
    paytable's meter order; empty for a paytable with no progressive."""
    prog = table.progressive
    if prog is None:
        return {}
    return {m.level: (m.increment_rate, m.secondary_increment_rate) for m in prog.meters}


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

    Raises :class:`~croupier.errors.UnknownPaytableError`, :class:`RulesError` (deck count,
    wager size forbidden), :class:`~croupier.errors.InputError` (a
    missing deck count, a meter for a paytable without one) or
    :class:`~croupier.errors.PaytableError`.
    """
    if decks is None and shoe is not None:
        decks = shoe.decks
    table = paytable if isinstance(paytable, Paytable) else None
    if table is None:
        assert isinstance(paytable, str)
        if decks is None:
            table = wager.paytable(paytable)
            if len(table.decks) != 1:
                raise InputError(
                    f"paytable {table.key} of § {table.section} is offered with "
                    f"{decks_phrase(table.decks, ', ')}: give the deck count"
                )
            decks = table.decks[0]
        table = wager.paytable(paytable, decks)
    elif decks is None:
        decks = table.decks[0]
    if decks not in table.decks:
        raise RulesError(f"paytable {table.key} is not for {decks} decks", section=table.section)
    wager.check_decks(decks)
    meters: dict[MeterLevel, int] = {}
    if table.progressive is None and (meter_cents is not None or wager_cents is not None):
        raise InputError(
            f"paytable {table.key} of § {table.section} has no progressive meter: "
            "a meter amount or progressive wager size does not apply"
        )
    if table.progressive is not None:
        size = wager_cents if wager_cents is not None else min(table.progressive.wager_cents)
        wager.check_wager_amount(table, size)
        wager_cents = size
        meters = {m.level: m.seed_for(size) for m in table.progressive.meters}
        if isinstance(meter_cents, int):
            if len(meters) != 1:
                raise InputError(
                    f"paytable {table.key} has {len(meters)} meters: give each level's amount"
                )
            meters = {next(iter(meters)): meter_cents}
        elif meter_cents:
            meters.update(meter_cents)
        unknown = sorted(
            lvl.value for lvl in meters if lvl not in {m.level for m in table.progressive.meters}
        )
        if unknown:
            raise InputError(f"paytable {table.key} has no {', '.join(unknown)} meter")
        for lvl, cents in meters.items():
            wager.check_meter(table, lvl, cents, size)
    return Setup(wager, table, decks, shoe or Shoe.standard(decks), wager_cents, meters, stake)


def rows_for(
    setup: Setup, counts: tuple[int, ...], total: int, exact: bool
) -> tuple[OutcomeRow, ...]:
    """Par-sheet rows from per-outcome counts (last entry: no winning combination)."""
    wager, table = setup.wager, setup.paytable
    priced = wager.priced_outcomes(table)
    if priced is not None:  # the wager values its own outcomes (§ 641a.7(d)(1) Ante and Play)
        keys = [o.key for o in wager.outcomes] + [LOSE]
        return tuple(
            OutcomeRow(
                k,
                p.label,
                p.pays,
                p.net,
                Fraction(n, total),
                n if exact else None,
                None if exact else n,
            )
            for k, p, n in zip(keys, priced, counts, strict=True)
        )
    units = setup.meter_units
    rows = []
    for outcome, n in zip(wager.outcomes, counts, strict=False):
        printed = table.line(outcome.line_key)
        assert printed is not None  # checked when the paytable was resolved
        paid = wager.pay_line(table, outcome)
        factor = wager.pay_factor(table, outcome)
        if paid is None:
            pays = "N/A (loses)"
        elif paid is not printed:
            na = "N/A, " if isinstance(printed.pays, NotAvailable) else ""
            pays = f"{paid.pays} ({na}paid as {paid.label})"
        else:
            pays = str(paid.pays)
            if isinstance(paid.pays, MeterShare):
                level_value = setup.meters_cents[paid.pays.level]
                pays += f" ({format_money(int(paid.pays.share * level_value))})"
        net = net_win(paid, units, setup.stake)
        if factor != 1 and net > 0:  # a paytable multiplier on a winning pay (§ 633c.12(j))
            net *= factor
            pays += f" ×{factor}"
        rows.append(
            OutcomeRow(
                outcome.key,
                printed.label if factor == 1 else f"{printed.label} ×{factor}",
                pays,
                net,
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
    return setup.sheet(
        "exact",
        counted.convention,
        rows_for(setup, counted.counts, counted.total, exact=True),
        counted.total,
    )
