"""What a paytable line pays, represented as the regulation prints it.

The regulation uses four kinds of pay:

* ``"X to Y"`` — :class:`OddsTo`: a win of X per Y wagered *and* the stake is returned
  ("25 to 1" returns 26 units for 1). Net win per unit wagered: X/Y.
* ``"X for Y"`` — :class:`OddsFor`: X units returned per Y wagered, stake included
  ("10 for 1" returns 10 units, a net win of 9). Net win per unit wagered: X/Y − 1.
* ``"P% of Progressive"``, ``"100% Mega"`` — :class:`MeterShare`: a share of a progressive meter
  level (58 Pa. Code § 633b.2(i), § 633b.3(i)). Its value in units of the wager depends on the meter.
* ``"N/A"`` — :class:`NotAvailable`: the paytable does not offer that line.
* ``"push"`` — :class:`Push`: the stake is returned, nothing won (Player and Banker on a tie).

Fixed dollar amounts ("$3,000" envy bonuses) are parsed by :func:`croupier.units.parse_money`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property, lru_cache

from croupier.errors import PaytableError
from croupier.units import format_percent, parse_percent


class MeterLevel(Enum):
    """A progressive meter level, named as in 58 Pa. Code § 633b.2(i).

    ``PROGRESSIVE`` is the single meter of a one-level progressive ("100% of Progressive").
    """

    PROGRESSIVE = "Progressive"
    MEGA = "Mega"
    MAJOR = "Major"
    MINOR = "Minor"
    MINI = "Mini"
    MICRO = "Micro"

    @classmethod
    def parse(cls, text: str) -> MeterLevel:
        """Look a level up by its printed name, ignoring case."""
        for level in cls:
            if level.value.lower() == text.strip().lower():
                return level
        names = ", ".join(level.value for level in cls)
        raise PaytableError(f"unknown progressive meter level {text!r} (expected one of {names})")


@dataclass(frozen=True)
class OddsTo:
    """``"win to stake"`` odds: the stake is returned with the win (e.g. 25 to 1, 3 to 2, 1 to 2)."""

    win: int
    stake: int = 1

    @cached_property
    def net(self) -> Fraction:
        """Net win per unit wagered (worked out once: settling reads it at every pay)."""
        return Fraction(self.win, self.stake)

    def __str__(self) -> str:
        return self._text

    @cached_property
    def _text(self) -> str:  # printed with every settlement line it pays
        return f"{self.win} to {self.stake}"


@dataclass(frozen=True)
class OddsFor:
    """``"total for stake"`` odds: the total returned includes the stake (10 for 1 nets 9)."""

    total: int
    stake: int = 1

    @cached_property
    def net(self) -> Fraction:
        """Net win per unit wagered (worked out once: settling reads it at every pay)."""
        return Fraction(self.total, self.stake) - 1

    def __str__(self) -> str:
        return self._text

    @cached_property
    def _text(self) -> str:  # printed with every settlement line it pays
        return f"{self.total} for {self.stake}"


@dataclass(frozen=True)
class MeterShare:
    """A share of a progressive meter level ("100% of Progressive", "10% of Progressive", "100% Mega")."""

    share: Fraction
    level: MeterLevel

    def __str__(self) -> str:
        return self._text

    @cached_property
    def _text(self) -> str:  # printed with every settlement line it pays
        if self.level is MeterLevel.PROGRESSIVE:
            return f"{format_percent(self.share)} of Progressive"
        return f"{format_percent(self.share)} {self.level.value}"


@dataclass(frozen=True)
class NotAvailable:
    """The line is printed "N/A": the paytable does not pay it."""

    def __str__(self) -> str:
        return "N/A"


@dataclass(frozen=True)
class Push:
    """The wager pushes: the stake is returned and nothing is won (net 0)."""

    @cached_property
    def net(self) -> Fraction:
        """Net win per unit wagered: 0."""
        return Fraction(0)

    def __str__(self) -> str:
        return "push"


Pay = OddsTo | OddsFor | MeterShare | NotAvailable | Push
"""Any pay a paytable line can hold."""

_ODDS = re.compile(r"^(\d{1,9})\s+(to|for)\s+(\d{1,9})$", re.IGNORECASE | re.ASCII)
_SHARE = re.compile(
    r"^(\d{1,6}(?:\.\d{1,12})?\s*%)\s+(?:of\s+)?([A-Za-z]+)$", re.IGNORECASE | re.ASCII
)


@lru_cache(maxsize=4096)  # pure, and its values are frozen: the shipped files repeat pays
def parse_pay(text: str) -> Pay:
    """Parse a pay as printed in the regulation.

    >>> parse_pay("25 to 1")
    OddsTo(win=25, stake=1)
    >>> parse_pay("10 for 1").net
    Fraction(9, 1)
    >>> str(parse_pay("10% of Progressive"))
    '10% of Progressive'
    >>> parse_pay("100% Mega").level
    <MeterLevel.MEGA: 'Mega'>
    >>> parse_pay("N/A")
    NotAvailable()
    >>> parse_pay("push").net
    Fraction(0, 1)

    Raises :class:`~croupier.errors.PaytableError` naming the text when it is none of these.
    """
    raw = text.strip()
    if raw.upper() == "N/A":
        return NotAvailable()
    if raw.lower() == "push":
        return Push()
    m = _ODDS.match(raw)
    if m:
        left, word, right = int(m.group(1)), m.group(2).lower(), int(m.group(3))
        if right == 0:
            raise PaytableError(f"pay {text!r} has a zero stake")
        if left == 0:
            raise PaytableError(
                f"pay {text!r} pays nothing: write 'push' for a returned stake, or leave the line out"
            )
        return OddsTo(left, right) if word == "to" else OddsFor(left, right)
    m = _SHARE.match(raw)
    if m:
        share = parse_percent(m.group(1))
        if not 0 < share <= 1:
            raise PaytableError(f"pay {text!r}: a meter share must be above 0% and at most 100%")
        return MeterShare(share, MeterLevel.parse(m.group(2)))
    raise PaytableError(
        f"cannot read pay {text!r}: expected 'X to Y', 'X for Y', 'P% of Progressive', "
        "'P% Mega' (or another level), 'push' or 'N/A'"
    )
