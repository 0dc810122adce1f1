"""Money and rates as the regulation prints them, held exactly.

Money is an ``int`` number of cents; rates are :class:`fractions.Fraction`. Floats never hold money.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from croupier.errors import PaytableError

_MONEY = re.compile(r"^\$\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?$")
_PERCENT = re.compile(r"^(\d+(?:\.\d+)?)\s*%$")


def parse_money(text: str) -> int:
    """Parse a dollar amount as printed ("$50,000", "$5", "$2.50") into integer cents.

    >>> parse_money("$50,000")
    5000000
    >>> parse_money("$2.50")
    250

    Raises :class:`~croupier.errors.PaytableError` naming the text when it is not an amount.
    """
    m = _MONEY.match(text.strip())
    if not m:
        raise PaytableError(f"not a dollar amount: {text!r} (expected e.g. '$3,000' or '$2.50')")
    dollars = int(m.group(1).replace(",", ""))
    cents = int(m.group(2)) if m.group(2) else 0
    return dollars * 100 + cents


def format_money(cents: int) -> str:
    """Format integer cents as dollars, dropping ".00".

    >>> format_money(5000000)
    '$50,000'
    >>> format_money(250)
    '$2.50'
    >>> format_money(-125)
    '-$1.25'
    """
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}" + (f".{rest:02d}" if rest else "")


def parse_percent(text: str) -> Fraction:
    """Parse a percentage ("3.75%", "100%") into an exact fraction of one.

    >>> parse_percent("3.75%")
    Fraction(3, 80)
    >>> parse_percent("100%")
    Fraction(1, 1)
    """
    m = _PERCENT.match(text.strip())
    if not m:
        raise PaytableError(f"not a percentage: {text!r} (expected e.g. '15%' or '3.75%')")
    try:
        return Fraction(Decimal(m.group(1))) / 100
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only decimals
        raise PaytableError(f"not a percentage: {text!r}") from exc


def format_percent(rate: Fraction) -> str:
    """Format a fraction of one as a percentage with no needless digits.

    >>> format_percent(Fraction(3, 80))
    '3.75%'
    >>> format_percent(Fraction(37, 200))
    '18.5%'
    """
    value = Decimal(rate.numerator) * 100 / Decimal(rate.denominator)
    text = format(value.normalize(), "f")
    return f"{text}%"
