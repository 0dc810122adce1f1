"""A simulated par sheet as croupier writes it (``croupier simulate --json``, a simulation job's
result) and the service's simulation job (``POST /simulations``, ``GET /simulations/{job}``).

Units as in :mod:`~croupier.operations.schemas.analysis`: a return, an edge, a net win or a
standard deviation is *per unit wagered* (a fraction of the initial wager); a frequency is a
fraction from 0 to 1, observed over the rounds dealt; money is integer cents (US$ 0.01).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.analysis import (
    HitOdds,
    LevelIncrementRates,
    MaxWin,
    ParSheetHeading,
    VolatilityIndex,
)
from croupier.operations.schemas.values import (
    Absent,
    Fraction,
    Number,
    Sha256,
    absent,
)


class SimulatedParSheetOutcome(Shape):
    """One outcome of a simulated par sheet: its hits and observed frequency."""

    outcome: str
    """The outcome's id (the paytable line's key; "lose" for no winning combination)."""

    label: str
    """The outcome in words, as the paytable names it."""

    pays: str
    """What it pays, as printed ("25 to 1")."""

    net_win: Number
    """Net win per unit wagered (a fraction of the initial wager: 25 for 25 to 1, 0.95 for 19 to
    20, -1 for a loss); written whole when it is whole."""

    hits: int
    """Rounds that ended in this outcome."""

    frequency: float
    """Observed share of rounds (hits / rounds)."""

    frequency_fraction: Fraction
    """Hits / rounds as an exact fraction p/q (observed, not a probability)."""

    one_in: float | None
    """Observed "1 in N": rounds / hits (not the exact odds); null for an outcome that did not
    come up."""

    return_: float = Field(alias="return")
    """This outcome's share of the mean return: frequency × net_win, per unit wagered."""


class ConfidenceInterval(Shape):
    """The return's confidence interval at one level: 1 + x̄ ± z·SE, stake included."""

    confidence: Annotated[int, Field(gt=0, lt=100)]
    """The confidence level in percent (90, 95, 99)."""

    z: float
    """Its two-sided standard normal quantile (1.959964 at 95%)."""

    low: float
    """The interval's lower end: a return per unit wagered (0.95 = 95% of the money wagered
    comes back)."""

    high: float
    """The interval's upper end, per unit wagered."""

    contains_exact: bool
    """Whether the exact return (exact_return) lies inside the interval."""


class OutcomeAgainstExpected(Shape):
    """One outcome's observed count against its expected count."""

    outcome: str
    """The outcome's id ("lose": no winning combination)."""

    label: str
    """The outcome in words, as the paytable names it."""

    pays: str
    """What it pays, as printed."""

    probability: float
    """The outcome's exact probability, as a decimal."""

    probability_exact: Fraction
    """The same probability as an exact fraction p/q."""

    expected: float
    """The expected count: rounds × the exact probability."""

    observed: int
    """Rounds that ended in this outcome."""

    difference: float
    """observed − expected."""

    z: float | None
    """(observed − expected) / √(rounds·p·(1 − p)); null for an outcome that is certain or cannot
    happen."""


class ChiSquareCell(Shape):
    """One cell of the chi-square test: an outcome, or several pooled."""

    outcomes: list[str]
    """The outcomes' ids, in the order of the paytable."""

    observed: int
    """Their observed count, together."""

    expected: float
    """Their expected count, together."""

    term: float
    """The cell's share of the statistic, (observed − expected)² / expected."""


class GoodnessOfFit(Shape):
    """Pearson's chi-square goodness-of-fit test of the observed counts against the exact
    probabilities."""

    test: str
    """The test and the function that gives its p-value."""

    pooling: str
    """The rule that forms the cells, in words."""

    minimum_expected: int
    """The smallest expected count of a cell of its own (5)."""

    cells: list[ChiSquareCell]
    """The cells, in the order of the paytable."""

    statistic: float
    """The statistic, Σ (observed − expected)² / expected over the cells."""

    degrees_of_freedom: Annotated[int, Field(ge=0)]
    """Cells − 1 (0: one cell, no test)."""

    p_value: float | None
    """P(chi-square on degrees_of_freedom ≥ statistic); null without a degree of freedom."""

    alpha: float
    """The significance level of the verdict (0.01)."""

    consistent: bool | None
    """Whether the counts agree with the exact probabilities: p_value ≥ alpha; null without a
    test."""

    scipy_version: str
    """The version of SciPy that computed the p-value."""


class SimulationRun(Shape):
    """What repeats a simulation: the generator, the seed, the chunks, the software."""

    rng: str
    """The random number generator and how each chunk's stream is seeded, in words."""

    seed_entropy: Annotated[str, Field(pattern="^[0-9]+$")]
    """The entropy of the run's numpy SeedSequence (decimal digits; may exceed 2^53)."""

    rounds: int
    """Rounds dealt."""

    chunk_rounds: Annotated[int, Field(ge=1)]
    """Rounds per chunk (the last chunk may be shorter)."""

    chunks: Annotated[int, Field(ge=1)]
    """The number of chunks, each its own stream."""

    workers: Annotated[int, Field(ge=1)]
    """Dask workers (1: no cluster)."""

    scheduler: str | None
    """The Dask scheduler's address, or null."""

    kernel: bool
    """Whether a compiled kernel dealt the rounds (else the numpy simulator)."""

    croupier_version: str
    """croupier's version (importlib.metadata)."""

    numpy_version: str
    """numpy's version."""

    python_version: str
    """The Python interpreter's version."""


class SimulationEvidence(Shape):
    """A simulation as evidence a lab attaches: the return's confidence intervals, observed
    against expected counts, the chi-square test and the run."""

    exact_return: float
    """The exact return to player per unit wagered, stake included (1 + the exact expected
    return)."""

    simulated_return: float
    """The return observed over the rounds, per unit wagered, stake included."""

    standard_error: float
    """The standard error of the simulated return, per unit wagered."""

    z_score: float | None
    """(simulated − exact house edge) / standard_error; null when the standard error is 0."""

    confidence_intervals: list[ConfidenceInterval] | None
    """The simulated return's confidence intervals at 90, 95 and 99%; null when the standard
    error is 0 (every round gave the same result: too few rounds for an interval)."""

    outcomes: list[OutcomeAgainstExpected]
    """Every outcome's observed against expected count, in the order of the paytable."""

    goodness_of_fit: GoodnessOfFit
    """The chi-square goodness-of-fit test."""

    run: SimulationRun
    """The run's record."""


class SimulatedParSheet(ParSheetHeading):
    """A simulated par sheet (``croupier simulate --json``, a simulation job's result)."""

    method: str
    """How the figures were made: "simulation"."""

    counting: str
    """What was dealt, in words: the rounds, the shoe, the seats, the chunks and their seeds."""

    outcomes: list[SimulatedParSheetOutcome]
    """Every outcome, its hits, observed frequency, pay and share of the return."""

    rounds: int
    """Rounds dealt."""

    expected_return: float
    """The mean net win per unit wagered over the rounds (negative: the house won)."""

    house_edge: float
    """-expected_return, per unit wagered."""

    hit_frequency: float
    """The share of rounds (0 to 1) the wager won (a push is not a hit)."""

    standard_deviation: float
    """The sample standard deviation of the net win, per unit wagered."""

    volatility_index: VolatilityIndex
    """The volatility index z × the *sample* standard deviation at 90, 95 and 99 % (the exact
    par sheet's is z × the exact one)."""

    max_win: MaxWin
    """The largest net win per unit wagered the paytable pays (whether it came up or not)."""

    standard_error: float
    """The standard error of expected_return (and of house_edge), per unit wagered."""

    exact_house_edge: float
    """The exact par sheet's house edge per unit wagered, for comparison."""

    z_score: float | None
    """(house_edge - exact_house_edge) / standard_error: positive when the simulated house edge
    is above the exact one; null when the standard error is 0."""

    seed_entropy: Annotated[str, Field(pattern="^[0-9]+$")]
    """The entropy of the run's numpy SeedSequence (decimal digits; may exceed 2^53): --seed, or fresh
    entropy when none was given; chunk i draws from SeedSequence(entropy).spawn(n)[i]."""

    workers: Annotated[int, Field(ge=1)]
    """Dask workers of the local cluster (1: no cluster); with --scheduler, the workers the scheduler
    reported."""

    scheduler: str | None
    """The Dask scheduler address given with --scheduler, or null."""

    chunk_rounds: Annotated[int, Field(ge=1)]
    """Rounds per chunk (the last chunk may be shorter)."""

    kernel: bool
    """Whether a compiled kernel dealt the rounds (else the numpy simulator)."""

    wager_amount: str | Absent = absent()
    """A progressive wager: its amount, for people ("$5"); absent otherwise."""

    wager_amount_cents: int | Absent = absent()
    """A progressive wager: its amount in integer cents; absent otherwise."""

    meters: dict[str, str] | Absent = absent()
    """A progressive wager: the amount on each meter the pays were valued at, by level, for
    people; absent otherwise."""

    meters_cents: dict[str, int] | Absent = absent()
    """The same amounts in integer cents, by level."""

    progressive_stake: Literal["collected", "returned"] | Absent = absent()
    """A progressive wager: whether a meter award is the whole payment, the stake collected
    (the default reading), or paid on top of the returned stake; absent otherwise."""

    increment_rate: float | Absent = absent()
    """A progressive wager: the share of each wager sent to the meters and reserve (a fraction
    of the wager: 0.185 for 18.5%); absent when the paytable prints none."""

    increment_rates: dict[str, LevelIncrementRates] | Absent = absent()
    """A progressive wager: each meter level's printed increment rates, by level; absent
    otherwise."""

    paytable_sha256: Sha256
    """SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)."""

    hit_odds: list[HitOdds] | Absent = absent()
    """Each progressive level's observed hit odds (N.J.A.C. 13:69D-1.52(e)(4)): its hits over
    the rounds; absent without a progressive."""

    evidence: SimulationEvidence
    """The simulation as evidence: confidence intervals of the return, observed against expected
    counts, the chi-square goodness-of-fit test, the generator, seed and software versions."""


class JobError(Shape):
    """Why a simulation job failed."""

    error_type: str
    """The croupier error's class, or InternalError."""
    detail: str
    """The error in one line."""
    section: str | Absent | None = absent()
    """The section the error cites (null: none); absent on an internal error."""


class SimulationJob(Shape):
    """A simulation job (``POST /simulations``, ``GET /simulations/{job}``)."""

    job: str
    """The job's id."""
    status: Literal["queued", "preparing", "running", "done", "failed", "cancelled", "abandoned"]
    """Where it is: abandoned when its server stopped touching it (its process is gone)."""
    request: dict[str, Any]
    """The simulation asked for, as the service read it."""
    done: int
    """Rounds dealt so far."""
    total: int
    """Rounds to deal."""
    progress: float
    """done / total, from 0 to 1."""
    requested_by: str
    """The staff member who started it."""
    result: SimulatedParSheet | None
    """Once done: the simulated par sheet (as croupier simulate --json); null until then."""
    error: JobError | None
    """Once failed: why; null otherwise."""


__all__ = [
    "ChiSquareCell",
    "ConfidenceInterval",
    "GoodnessOfFit",
    "JobError",
    "OutcomeAgainstExpected",
    "SimulatedParSheet",
    "SimulatedParSheetOutcome",
    "SimulationEvidence",
    "SimulationJob",
    "SimulationRun",
]
