"""The statistics of a simulation as evidence (:mod:`croupier.analysis.evidence`): a simulated par
sheet set against the exact one, as a test lab attaches it to a math report.

:func:`simulation_evidence` takes the exact par sheet, the simulated one (the same wager,
paytable, shoe and meters) and the run's record (:class:`RunInfo`) and gives an :class:`Evidence`:

* the **confidence interval of the return** at 90, 95 and 99 %
  (:data:`~croupier.analysis.confidence.CONFIDENCE_LEVELS`): 1 + x̄ ± z·SE, x̄ the mean net win per
  unit wagered over the rounds, SE = s/√N its standard error (s the sample standard deviation),
  z the two-sided normal quantile — and whether the exact return 1 + E[X] lies inside;
* **observed against expected counts** per outcome: expected = N × the exact probability, the
  difference and its z = (O − E)/√(N·p·(1 − p)) (the binomial standard deviation of the count);
* **Pearson's chi-square goodness-of-fit test** of the observed counts against the exact
  probabilities: χ² = Σ (O − E)²/E over the cells, the cells formed by :func:`pooled_cells`
  (:data:`POOLING_RULE`), degrees of freedom = cells − 1, the p-value P(χ²_df ≥ χ²) from
  ``scipy.stats.chi2.sf`` (SciPy is imported only here, when a test is made); the counts agree
  with the exact probabilities at the 1 % level (:data:`ALPHA`) when p ≥ 0.01;
* the **run**: the generator and how each chunk is seeded, the seed entropy, rounds, chunk size,
  where it ran, and the versions of croupier, numpy, SciPy and Python.

The statistic is summed exactly (observed counts are ints, expected counts exact fractions) and
shown as a float; the p-value is a float from SciPy.

>>> from croupier.analysis.parsheet import exact_parsheet, resolve
>>> from croupier.analysis.simulate import observed_sheet
>>> from croupier.wagers import get_wager
>>> w = get_wager("perfect-pairs")
>>> exact = exact_parsheet(w, "A", decks=8)
>>> seen = observed_sheet(resolve(w, "A", 8), (1456, 1664, 3328, 79872), "simulation", "")
>>> fit = simulation_evidence(exact, seen, RunInfo(7, 86320, 1 << 20, True)).fit
>>> fit.statistic, fit.degrees_of_freedom, fit.p_value
(Fraction(0, 1), 3, 1.0)
"""

from __future__ import annotations

import math
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from croupier.analysis.confidence import CONFIDENCE_LEVELS, ConfidenceLevel
from croupier.analysis.parsheet import ParSheet
from croupier.analysis.provenance import library_version, software
from croupier.errors import InputError

MINIMUM_EXPECTED = 5
"""The smallest expected count a chi-square cell may have (the usual rule of thumb: below it the
chi-square distribution is a poor approximation of the statistic's)."""

ALPHA = Fraction(1, 100)
"""The significance level of the verdict: the counts agree with the exact probabilities when
the p-value is at least 0.01 (a lab's 99 % confidence)."""

POOLING_RULE = (
    "outcomes expected fewer than 5 times are pooled, in the order of the paytable, into one "
    "cell; if that cell is still expected fewer than 5 times it is merged with the other cell "
    "of the smallest expected count; degrees of freedom = cells − 1"
)
"""The pooling rule, as a report states it (:func:`pooled_cells`)."""

POOLING_BRIEF = (
    "outcomes expected fewer than 5 times pool together, joining the smallest other cell while "
    "still fewer"
)
"""The pooling rule in brief, beside the outcomes a terminal line names as pooled."""

TEST_NAME = "Pearson chi-square goodness of fit (scipy.stats.chi2.sf)"
"""The test's name, as the report states it."""


def croupier_version() -> str:
    """croupier's version (:func:`croupier.analysis.provenance.software`)."""
    return software().croupier


def rng_description(kernel: bool) -> str:
    """The generator that dealt the rounds and how each chunk's stream is seeded, in words."""
    child = "SeedSequence(entropy, spawn_key=(i,)) (= SeedSequence(entropy).spawn(n)[i])"
    if kernel:
        return (
            f"xoshiro256** (compiled kernel), chunk i's four state words from {child}"
            ".generate_state(4, uint64); bounded draws by Lemire's multiply-and-reject"
        )
    return (
        f"numpy PCG64 (numpy.random.Generator), chunk i seeded with the 128-bit integer of "
        f"{child}.generate_state(4, uint32)"
    )


@dataclass(frozen=True)
class RunInfo:
    """What a lab needs to repeat a simulation: the seed, the rounds, the chunks and where they
    ran, and the software that dealt them.

    ``seed_entropy`` is the run's :class:`numpy.random.SeedSequence` entropy (any int ≥ 0);
    ``chunk_rounds`` the rounds per chunk (the last one shorter); ``kernel`` whether a compiled
    kernel dealt the rounds (else the numpy simulator).
    """

    seed_entropy: int
    """The entropy of the run's SeedSequence (``--seed``, or the fresh entropy used)."""
    rounds: int
    """Rounds dealt."""
    chunk_rounds: int
    """Rounds per chunk, each chunk its own stream."""
    kernel: bool
    """Whether a compiled kernel dealt the rounds."""
    workers: int = 1
    """Dask workers (1: no cluster)."""
    scheduler: str | None = None
    """The Dask scheduler's address, or ``None``."""
    croupier_version: str = field(default_factory=croupier_version)
    """croupier's version (importlib.metadata)."""
    numpy_version: str = field(default_factory=lambda: library_version("numpy"))
    """numpy's version (its SeedSequence and PCG64 streams)."""
    python_version: str = field(default_factory=platform.python_version)
    """The Python interpreter's version."""

    @property
    def chunks(self) -> int:
        """The number of chunks: ⌈rounds / chunk_rounds⌉."""
        return -(-self.rounds // self.chunk_rounds)

    @property
    def rng(self) -> str:
        """The generator and its seeding, in words (:func:`rng_description`)."""
        return rng_description(self.kernel)

    def to_dict(self) -> dict[str, Any]:
        """The run as JSON: the seed entropy as a decimal string (it may exceed 2^53)."""
        return {
            "rng": self.rng,
            "seed_entropy": str(self.seed_entropy),
            "rounds": self.rounds,
            "chunk_rounds": self.chunk_rounds,
            "chunks": self.chunks,
            "workers": self.workers,
            "scheduler": self.scheduler,
            "kernel": self.kernel,
            "croupier_version": self.croupier_version,
            "numpy_version": self.numpy_version,
            "python_version": self.python_version,
        }


def run_info(
    fields: dict[str, Any], rounds: int, seed: int, chunk_rounds: int | None = None
) -> RunInfo:
    """A :class:`RunInfo` from :func:`croupier.analysis.simulate.run_fields`'s ``fields`` (where
    the chunks ran, their size, the kernel), the ``rounds`` and the ``seed`` entropy."""
    return RunInfo(
        seed_entropy=seed,
        rounds=rounds,
        chunk_rounds=chunk_rounds or int(fields["chunk_rounds"]),
        kernel=bool(fields["kernel"]),
        workers=int(fields["workers"]),
        scheduler=fields["scheduler"],
    )


@dataclass(frozen=True)
class OutcomeCheck:
    """One outcome's observed count against its expected count over ``rounds`` rounds."""

    outcome: str
    """The outcome's id ("lose": no winning combination)."""
    label: str
    """The outcome in words, as the paytable names it."""
    pays: str
    """What it pays, as printed."""
    probability: Fraction
    """The exact probability of the outcome."""
    observed: int
    """Rounds that ended in it."""
    rounds: int
    """Rounds dealt."""

    @property
    def expected(self) -> Fraction:
        """The expected count N·p, exact."""
        return self.rounds * self.probability

    @property
    def z(self) -> float | None:
        """(O − E)/√(N·p·(1 − p)), the count's departure in binomial standard deviations;
        ``None`` for an outcome that is certain or cannot happen (no spread)."""
        variance = self.expected * (1 - self.probability)
        if variance == 0:
            return None
        return float(self.observed - self.expected) / math.sqrt(variance)

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON (probability exact as "p/q", expected count a float)."""
        p = self.probability
        return {
            "outcome": self.outcome,
            "label": self.label,
            "pays": self.pays,
            "probability": float(p),
            "probability_exact": f"{p.numerator}/{p.denominator}",
            "expected": float(self.expected),
            "observed": self.observed,
            "difference": float(self.observed - self.expected),
            "z": self.z,
        }


@dataclass(frozen=True)
class Cell:
    """One cell of the chi-square test: one outcome, or several pooled."""

    outcomes: tuple[str, ...]
    """The outcomes' ids, in the order of the paytable."""
    labels: tuple[str, ...]
    """The outcomes in words."""
    observed: int
    """Their observed count, together."""
    expected: Fraction
    """Their expected count, together, exact."""

    @property
    def term(self) -> Fraction:
        """This cell's share of the statistic, (O − E)²/E."""
        return (self.observed - self.expected) ** 2 / self.expected

    @property
    def pooled(self) -> bool:
        """Whether the cell pools several outcomes."""
        return len(self.outcomes) > 1

    def to_dict(self) -> dict[str, Any]:
        """The cell as JSON."""
        return {
            "outcomes": list(self.outcomes),
            "observed": self.observed,
            "expected": float(self.expected),
            "term": float(self.term),
        }


def _and(labels: Sequence[str]) -> str:
    """'a, b and c'."""
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def _cell(checks: Sequence[OutcomeCheck]) -> Cell:
    return Cell(
        tuple(c.outcome for c in checks),
        tuple(c.label for c in checks),
        sum(c.observed for c in checks),
        sum((c.expected for c in checks), Fraction(0)),
    )


def pooled_cells(
    checks: Sequence[OutcomeCheck], minimum: int = MINIMUM_EXPECTED
) -> tuple[Cell, ...]:
    """The cells of the chi-square test (:data:`POOLING_RULE`), in the order of the paytable.

    Every outcome expected at least ``minimum`` times is a cell of its own; the others are pooled
    into one cell; when that cell is still expected fewer than ``minimum`` times, it is merged with
    the other cell of the smallest expected count (the first of equals). When every outcome is
    rare, the one cell holds them all (no test: no degree of freedom).
    """
    order = {c.outcome: i for i, c in enumerate(checks)}
    rare = [c for c in checks if c.expected < minimum]
    groups: list[list[OutcomeCheck]] = [[c] for c in checks if c.expected >= minimum]
    if rare:
        if sum((c.expected for c in rare), Fraction(0)) < minimum and groups:
            smallest = min(groups, key=lambda g: sum((c.expected for c in g), Fraction(0)))
            smallest.extend(rare)
            smallest.sort(key=lambda c: order[c.outcome])
        else:
            groups.append(rare)
    groups.sort(key=lambda g: order[g[0].outcome])
    return tuple(_cell(g) for g in groups)


def chi_square_p_value(statistic: Fraction | float, degrees_of_freedom: int) -> float:
    """P(χ² ≥ ``statistic``) on ``degrees_of_freedom`` degrees of freedom (SciPy's
    ``chi2.sf``, imported here: not at croupier's start-up). Raises :class:`InputError` for fewer
    than one degree of freedom or a negative statistic."""
    if degrees_of_freedom < 1:
        raise InputError(
            f"a chi-square test needs at least one degree of freedom, not {degrees_of_freedom}"
        )
    if statistic < 0:
        raise InputError(f"a chi-square statistic is ≥ 0, not {float(statistic)}")
    from scipy.stats import chi2

    return float(chi2.sf(float(statistic), degrees_of_freedom))


@dataclass(frozen=True)
class GoodnessOfFit:
    """Pearson's chi-square test of observed counts against exact probabilities."""

    cells: tuple[Cell, ...]
    """The cells (:func:`pooled_cells`)."""

    @property
    def statistic(self) -> Fraction:
        """χ² = Σ (O − E)²/E over the cells, exact."""
        return sum((c.term for c in self.cells), Fraction(0))

    @property
    def degrees_of_freedom(self) -> int:
        """Cells − 1 (no parameter is estimated from the sample)."""
        return len(self.cells) - 1

    @property
    def p_value(self) -> float | None:
        """P(χ²_df ≥ the statistic); ``None`` without a degree of freedom (one cell)."""
        if self.degrees_of_freedom < 1:
            return None
        return chi_square_p_value(self.statistic, self.degrees_of_freedom)

    @property
    def consistent(self) -> bool | None:
        """Whether the counts agree with the exact probabilities at :data:`ALPHA` (p ≥ 0.01);
        ``None`` without a test."""
        p = self.p_value
        return None if p is None else p >= ALPHA

    def sentence(self) -> str:
        """The result in one sentence: the statistic, degrees of freedom, cells (a pooled cell's
        outcomes named, with :data:`POOLING_BRIEF`), p-value and verdict."""
        p = self.p_value
        if p is None:
            return (
                "chi-square goodness of fit: no test (every outcome pooled into one cell: "
                "too few rounds)"
            )
        verdict = "agree with" if self.consistent else "DO NOT agree with"
        cells = f"{len(self.cells)} cells" + "".join(
            f"; pooled into one: {_and(c.labels)}" for c in self.cells if c.pooled
        )
        if any(c.pooled for c in self.cells):
            cells += f" — the rule: {POOLING_BRIEF}"
        return (
            f"chi-square goodness of fit {float(self.statistic):.4f} on "
            f"{self.degrees_of_freedom} degree{'s' if self.degrees_of_freedom != 1 else ''} of "
            f"freedom ({cells}), p = {p:.4g}: the observed counts {verdict} the exact "
            f"probabilities at the {float(ALPHA):.0%} level"
        )

    def to_dict(self) -> dict[str, Any]:
        """The test as JSON."""
        return {
            "test": TEST_NAME,
            "pooling": POOLING_RULE,
            "minimum_expected": MINIMUM_EXPECTED,
            "cells": [c.to_dict() for c in self.cells],
            "statistic": float(self.statistic),
            "degrees_of_freedom": self.degrees_of_freedom,
            "p_value": self.p_value,
            "alpha": float(ALPHA),
            "consistent": self.consistent,
            "scipy_version": library_version("scipy"),
        }


NO_INTERVAL = (
    "no confidence interval: every round gave the same result, so the standard error is 0 "
    "(too few rounds to measure the spread)"
)
"""What a report says instead of the return's confidence intervals when the standard error is
0 (:func:`return_intervals`)."""


@dataclass(frozen=True)
class ReturnInterval:
    """The confidence interval of the return to player, stake included, from a simulation."""

    level: ConfidenceLevel
    """The confidence level."""
    low: float
    """1 + x̄ − z·SE."""
    high: float
    """1 + x̄ + z·SE."""
    exact: Fraction
    """The exact return to player, 1 + E[X]."""

    @property
    def contains_exact(self) -> bool:
        """Whether the exact return lies inside the interval."""
        return self.low <= self.exact <= self.high

    def to_dict(self) -> dict[str, Any]:
        """The interval as JSON (returns per unit wagered: 0.95 = 95 %)."""
        return {
            "confidence": self.level.percent,
            "z": self.level.z,
            "low": self.low,
            "high": self.high,
            "contains_exact": self.contains_exact,
        }


def return_intervals(
    simulated: ParSheet,
    exact_return: Fraction,
    levels: tuple[ConfidenceLevel, ...] = CONFIDENCE_LEVELS,
) -> tuple[ReturnInterval, ...]:
    """1 + x̄ ± z·SE at each of ``levels`` (x̄ and SE the ``simulated`` sheet's mean return and
    standard error); ``exact_return`` is 1 + E[X]. None, ``()``, for a standard error of 0:
    every round gave the same result, and a point is no interval (:data:`NO_INTERVAL`). Raises
    :class:`InputError` for a sheet without a standard error (an exact one)."""
    se = simulated.standard_error
    if se is None:
        raise InputError("a confidence interval needs a simulated par sheet (its standard error)")
    if se == 0:
        return ()
    rtp = 1 + float(simulated.expected_return)
    return tuple(
        ReturnInterval(at, rtp - at.z * se, rtp + at.z * se, exact_return) for at in levels
    )


@dataclass(frozen=True)
class Evidence:
    """A simulation as evidence: the sheets, the run, and the statistics set against each other."""

    exact: ParSheet
    """The exact par sheet."""
    simulated: ParSheet
    """The simulated par sheet (same wager, paytable, shoe and meters)."""
    run: RunInfo
    """The run's record."""
    outcomes: tuple[OutcomeCheck, ...]
    """Each outcome's observed against expected count, in the order of the paytable."""
    intervals: tuple[ReturnInterval, ...]
    """The return's confidence intervals at 90, 95 and 99 %; none for a standard error of 0
    (:meth:`no_interval_reason`)."""
    fit: GoodnessOfFit
    """The chi-square goodness-of-fit test."""

    @property
    def z_score(self) -> float | None:
        """(simulated − exact house edge) / standard error; ``None`` for a zero standard
        error."""
        se = self.simulated.standard_error
        if not se:
            return None
        return float(self.simulated.house_edge - self.exact.house_edge) / se

    @property
    def exact_return(self) -> Fraction:
        """1 + E[X], exact."""
        return 1 + self.exact.expected_return

    @property
    def simulated_return(self) -> Fraction:
        """1 + x̄, the return observed over the rounds."""
        return 1 + self.simulated.expected_return

    def no_interval_reason(self) -> str:
        """Why there is no confidence interval (:data:`NO_INTERVAL`); '' when there are."""
        return "" if self.intervals else NO_INTERVAL

    def to_dict(self) -> dict[str, Any]:
        """The evidence as JSON (``croupier simulate --json``'s ``evidence``); the confidence
        intervals ``null`` when there are none (a standard error of 0)."""
        return {
            "exact_return": float(self.exact_return),
            "simulated_return": float(self.simulated_return),
            "standard_error": self.simulated.standard_error,
            "z_score": self.z_score,
            "confidence_intervals": [i.to_dict() for i in self.intervals] or None,
            "outcomes": [o.to_dict() for o in self.outcomes],
            "goodness_of_fit": self.fit.to_dict(),
            "run": self.run.to_dict(),
        }

    def document(self) -> dict[str, Any]:
        """``croupier simulate --json``'s document: the simulated sheet, the exact house edge,
        the z score, the run's fields and the ``evidence``."""
        from croupier.analysis.simulate import simulated_document

        fields = {
            "seed_entropy": str(self.run.seed_entropy),
            "workers": self.run.workers,
            "scheduler": self.run.scheduler,
            "chunk_rounds": self.run.chunk_rounds,
            "kernel": self.run.kernel,
        }
        d = simulated_document(self.simulated, self.exact, self.z_score, fields)
        d["evidence"] = self.to_dict()
        return d


def outcome_checks(exact: ParSheet, simulated: ParSheet) -> tuple[OutcomeCheck, ...]:
    """Each outcome's observed count (``simulated``) against its expected count (``exact``), in
    the order of the paytable.

    Raises :class:`InputError` when the two are not of the same wager, paytable, shoe, meters and
    outcomes, or ``simulated`` is not a simulation.
    """
    same = (exact.wager, exact.paytable, exact.shoe, exact.meters) == (
        simulated.wager,
        simulated.paytable,
        simulated.shoe,
        simulated.meters,
    )
    keys = [r.outcome for r in exact.rows]
    if not same or keys != [r.outcome for r in simulated.rows]:
        raise InputError(
            f"the simulated par sheet ({simulated.wager} {simulated.paytable}, {simulated.shoe}) "
            f"does not match the exact one ({exact.wager} {exact.paytable}, {exact.shoe})"
        )
    if simulated.standard_error is None or exact.method != "exact":
        raise InputError("evidence sets a simulated par sheet against an exact one")
    rounds = simulated.total
    return tuple(
        OutcomeCheck(e.outcome, e.label, e.pays, e.probability, s.hits or 0, rounds)
        for e, s in zip(exact.rows, simulated.rows, strict=True)
    )


def goodness_of_fit(exact: ParSheet, simulated: ParSheet) -> GoodnessOfFit:
    """The chi-square test of ``simulated``'s counts against ``exact``'s probabilities
    (:func:`outcome_checks`, :func:`pooled_cells`)."""
    return GoodnessOfFit(pooled_cells(outcome_checks(exact, simulated)))


def simulation_evidence(exact: ParSheet, simulated: ParSheet, run: RunInfo) -> Evidence:
    """The :class:`Evidence` of a ``simulated`` par sheet against the ``exact`` one.

    Raises :class:`InputError` when the two are not of the same wager, paytable, shoe, meters and
    outcomes, or ``simulated`` is not a simulation (:func:`outcome_checks`).
    """
    checks = outcome_checks(exact, simulated)
    return Evidence(
        exact=exact,
        simulated=simulated,
        run=run,
        outcomes=checks,
        intervals=return_intervals(simulated, 1 + exact.expected_return),
        fit=GoodnessOfFit(pooled_cells(checks)),
    )
