"""A test lab's volatility figures: the volatility index and the confidence band of the return.

A math report beside the house edge gives how far the player's result strays from it:

* the **volatility index** at a confidence level, VI = z · SD, where SD is the standard deviation
  of the net win per unit wagered and z the two-sided quantile of the standard normal
  distribution at that level (z = Φ⁻¹(1 − (1 − level)/2): 1.644854 at 90 %, 1.959964 at 95 %,
  2.575829 at 99 %);
* the **confidence band** of the player's return after N rounds: by the central limit theorem the
  mean net win per unit over N independent rounds lies within E[X] ± VI/√N at that level, so the
  return to player (stake included) lies within 1 + E[X] ± VI/√N.

The quantiles come from :class:`statistics.NormalDist` (the standard library: no SciPy import on the
par sheet's path); the tests check them against SciPy and against the figures published with
GLI-style reports. The band is the normal approximation: for a handful of rounds of a wager whose
pays are rare and large it is not the distribution of the result, which is why the table starts at
10² rounds and a report says so (:data:`BAND_NOTE`).

>>> level = CONFIDENCE_LEVELS[1]
>>> level.label, f"{level.z:.6f}"
('95%', '1.959964')
>>> f"{volatility_index(2.0, level):.6f}"
'3.919928'
>>> band = return_band(Fraction(-1, 20), 2.0, 10_000, level)
>>> f"{band.low:.6f} {band.high:.6f}"
'0.910801 0.989199'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from croupier.errors import InputError


@dataclass(frozen=True)
class ConfidenceLevel:
    """A two-sided confidence level and its normal quantile.

    ``percent`` is the level in whole percent (90, 95, 99); :attr:`z` its two-sided standard
    normal quantile Φ⁻¹(1 − (1 − level)/2).
    """

    percent: int
    """The confidence level in percent, 0 < percent < 100."""

    @property
    def label(self) -> str:
        """'95%'."""
        return f"{self.percent}%"

    @property
    def key(self) -> str:
        """The level's key in JSON and CSV: 'vi_95'."""
        return f"vi_{self.percent}"

    @property
    def z(self) -> float:
        """The two-sided standard normal quantile of this level (1.959964 at 95 %)."""
        return NormalDist().inv_cdf(1 - (100 - self.percent) / 200)


CONFIDENCE_LEVELS: tuple[ConfidenceLevel, ...] = (
    ConfidenceLevel(90),
    ConfidenceLevel(95),
    ConfidenceLevel(99),
)
"""The levels a lab's report gives, in order: 90, 95 and 99 %."""

BAND_ROUNDS: tuple[int, ...] = tuple(10**k for k in range(2, 9))
"""The numbers of rounds the confidence-band table gives: 10², 10³, …, 10⁸."""

VI_NOTE = (
    "volatility index VI = z·SD per unit wagered, z the two-sided standard normal quantile "
    "(1.644854 at 90%, 1.959964 at 95%, 2.575829 at 99%)"
)
"""The sentence a report prints beside the volatility index."""

BAND_NOTE = (
    "the player's return after N rounds lies within 1 + E[X] ± VI/√N with the stated confidence "
    "(normal approximation: N independent rounds of one unit each)"
)
"""The sentence a report prints beside the confidence-band table."""


def floor_note(least_return: float) -> str:
    """The sentence under a band table whose low end falls below ``least_return``, the least
    the wager can return per unit wagered (1 + its largest loss: 0 for a wager that loses at
    most its stake).

    >>> floor_note(0.0)
    'a low end below 0%, the least the wager can return, marks too few rounds for the approximation'
    """
    return (
        f"a low end below {least_return:.0%}, the least the wager can return, marks too few "
        "rounds for the approximation"
    )


def level(percent: int) -> ConfidenceLevel:
    """The :class:`ConfidenceLevel` of ``percent``; raises :class:`InputError` for one outside
    (0, 100)."""
    if not 0 < percent < 100:
        raise InputError(f"a confidence level is between 0 and 100 percent, not {percent}")
    return ConfidenceLevel(percent)


def volatility_index(standard_deviation: float, at: ConfidenceLevel) -> float:
    """VI = z · SD at the level ``at`` (``standard_deviation`` per unit wagered)."""
    return at.z * standard_deviation


@dataclass(frozen=True)
class ReturnBand:
    """The confidence band of the player's return after ``rounds`` rounds, stake included.

    ``low`` and ``high`` are returns per unit wagered (0.95 = 95 % of the money wagered comes
    back); ``expected`` is 1 + E[X].
    """

    rounds: int
    """The number of rounds N (one unit wagered each)."""
    level: ConfidenceLevel
    """The confidence level of the band."""
    expected: float
    """The expected return to player, 1 + E[X]."""
    low: float
    """The band's lower end, 1 + E[X] − VI/√N."""
    high: float
    """The band's upper end, 1 + E[X] + VI/√N."""

    def to_dict(self) -> dict[str, Any]:
        """``{"rounds", "confidence", "low", "high"}`` (confidence in percent)."""
        return {
            "rounds": self.rounds,
            "confidence": self.level.percent,
            "low": self.low,
            "high": self.high,
        }


def return_band(
    expected_return: Fraction | float, standard_deviation: float, rounds: int, at: ConfidenceLevel
) -> ReturnBand:
    """The band 1 + E[X] ± z·SD/√N of the return after ``rounds`` rounds.

    ``expected_return`` is E[X], the net win per unit wagered (negative when the house wins).
    Raises :class:`InputError` for fewer than one round.
    """
    if rounds < 1:
        raise InputError(f"a confidence band needs at least one round, not {rounds}")
    rtp = 1 + float(expected_return)
    half = volatility_index(standard_deviation, at) / math.sqrt(rounds)
    return ReturnBand(rounds, at, rtp, rtp - half, rtp + half)


def return_bands(
    expected_return: Fraction | float,
    standard_deviation: float,
    rounds: tuple[int, ...] = BAND_ROUNDS,
    levels: tuple[ConfidenceLevel, ...] = CONFIDENCE_LEVELS,
) -> tuple[ReturnBand, ...]:
    """Every band of :data:`BAND_ROUNDS` × :data:`CONFIDENCE_LEVELS`, by rounds then level."""
    return tuple(
        return_band(expected_return, standard_deviation, n, at) for n in rounds for at in levels
    )


def one_in(probability: Fraction) -> Fraction | None:
    """The "1 in N" of an outcome: N = 1 / probability, exact; ``None`` for an outcome that
    cannot happen."""
    return None if probability == 0 else 1 / probability
