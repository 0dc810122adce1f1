"""Hit odds of progressive levels: how likely a wager is to win an award from each meter.

A progressive level is *hit* when the wager's outcome is paid a share of that level's meter
("100% of Progressive", "10% of Progressive", "100% Mega"): the hits the ledger counts per level
(58 Pa. Code § 605a.7(a); NJ N.J.A.C. 13:69E-1.39A(b)3 "Progressive Hits Meter"). Its probability
is the sum of the probabilities of those outcomes; each award (one paytable line) has its own.
Regulators bound them: N.J.A.C. 13:69D-1.52(e)4 requires the "calculated probability of winning
each progressive jackpot" to be submitted, "which probability shall not exceed 100 million to
one" (see :data:`NJ_MAX_ONE_IN` and :func:`longer_than`).

>>> from fractions import Fraction
>>> odds_text(Fraction(4, 2598960))
'1 in 649,740'
>>> odds_text(Fraction(3, 10))
'1 in 3.33'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.paytables import MeterLevel, MeterShare, Paytable
from croupier.wagers.base import Wager

NJ_MAX_ONE_IN = 100_000_000
"""N.J.A.C. 13:69D-1.52(e)4: a progressive jackpot's probability "shall not exceed 100 million to
one" — read as 1 in 100,000,000 (docs/interpretations.md, *Hit odds bound*)."""
NJ_RULE = "N.J.A.C. 13:69D-1.52(e)(4)"


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def odds_text(p: Fraction) -> str:
    """``'1 in N'`` for probability ``p`` (N = 1/p: exact when a whole number, else rounded —
    to the unit from 100 up, to two decimals below); ``'never'`` for 0."""
    if p <= 0:
        return "never"
    n = 1 / p
    if n.denominator == 1:
        return f"1 in {n.numerator:,}"
    if n >= 100:
        return f"1 in {round(n):,}"
    return f"1 in {float(n):,.2f}"


@dataclass(frozen=True)
class AwardOdds:
    """One line paying a share of a level's meter and its probability."""

    outcome: str
    label: str
    pays: str
    probability: Fraction

    @property
    def odds(self) -> str:
        """``'1 in 649,740'``."""
        return odds_text(self.probability)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: probability as a float and exact ``"p/q"``, and ``"1 in N"``."""
        return {
            "outcome": self.outcome,
            "label": self.label,
            "pays": self.pays,
            "probability": float(self.probability),
            "probability_exact": _frac(self.probability),
            "odds": self.odds,
        }


@dataclass(frozen=True)
class LevelOdds:
    """A progressive level's hit odds: the probability that a wager wins any award from its meter
    (exact over the deals counted, or observed in a simulation), and each award's."""

    level: MeterLevel
    probability: Fraction
    awards: tuple[AwardOdds, ...]

    @property
    def one_in(self) -> Fraction | None:
        """N of "1 in N" (exact: 1 / probability); ``None`` when the level cannot be hit."""
        return 1 / self.probability if self.probability > 0 else None

    @property
    def odds(self) -> str:
        """``'1 in 649,740'``."""
        return odds_text(self.probability)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (``one_in`` a float, ``one_in_exact`` ``"p/q"``; both ``None`` when the
        level cannot be hit)."""
        n = self.one_in
        return {
            "level": self.level.value,
            "probability": float(self.probability),
            "probability_exact": _frac(self.probability),
            "one_in": float(n) if n is not None else None,
            "one_in_exact": _frac(n) if n is not None else None,
            "odds": self.odds,
            "awards": [a.to_dict() for a in self.awards],
        }


def level_odds(
    wager: Wager, table: Paytable, probabilities: Mapping[str, Fraction]
) -> tuple[LevelOdds, ...]:
    """Each meter level of ``table``'s progressive with its hit odds, in the paytable's meter
    order; empty for a paytable with no progressive.

    ``probabilities`` maps the wager's outcome keys to their probability (a par sheet's rows).
    An outcome's award is the line :meth:`Wager.pay_line` pays it (following a fallback past an
    "N/A"), so a level is hit by exactly the outcomes the ledger pays from its meter.
    """
    prog = table.progressive
    if prog is None:
        return ()
    by_level: dict[MeterLevel, list[AwardOdds]] = {m.level: [] for m in prog.meters}
    for outcome in wager.outcomes:
        line = wager.pay_line(table, outcome)
        if line is None or not isinstance(line.pays, MeterShare):
            continue
        p = probabilities.get(outcome.key, Fraction(0))
        by_level.setdefault(line.pays.level, []).append(
            AwardOdds(outcome.key, line.label, str(line.pays), p)
        )
    return tuple(
        LevelOdds(level, sum((a.probability for a in awards), Fraction(0)), tuple(awards))
        for level, awards in by_level.items()
    )


def longer_than(odds: LevelOdds | AwardOdds, max_one_in: int) -> bool:
    """Whether ``odds`` are longer than 1 in ``max_one_in`` (probability below 1/max_one_in); a
    level that can never be hit is longer than any bound."""
    return odds.probability * max_one_in < 1


__all__ = [
    "NJ_MAX_ONE_IN",
    "NJ_RULE",
    "AwardOdds",
    "LevelOdds",
    "level_odds",
    "longer_than",
    "odds_text",
]
