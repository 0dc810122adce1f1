"""Money and rates as the regulation prints them, held exactly.

Money is an ``int`` number of cents; rates are :class:`fractions.Fraction`. Floats never hold money.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from croupier.errors import InputError, PaytableError

MAX_AMOUNT_DIGITS = 13
"""The most digits in the whole-dollar part of an amount croupier reads (just under $10 trillion):
a printed amount, a stake or a meter given on the command line."""

# ASCII digits only (re.ASCII): Python's \d is any decimal digit, and int() reads them all —
# "$１０" (fullwidth) and "$١٠" (Arabic-Indic) would be read as $10
_DOLLARS = rf"\d{{1,3}}(?:,\d{{3}}){{1,{(MAX_AMOUNT_DIGITS - 1) // 3}}}|\d{{1,{MAX_AMOUNT_DIGITS}}}"
_MONEY = re.compile(rf"^\$\s*({_DOLLARS})(?:\.(\d{{1,2}}))?$", re.ASCII)
_AMOUNT = re.compile(rf"^\$?\s*({_DOLLARS})?(?:\.(\d{{0,2}})0*)?$", re.ASCII)
_PERCENT = re.compile(r"^(\d{1,6}(?:\.\d{1,12})?)\s*%$", re.ASCII)


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits ``0``–``9`` and nothing else — what croupier
    reads as a whole number (``str.isdigit`` is true of ``"９"``, ``"٣"`` and ``"²"`` too, and
    ``int`` reads the first two).

    >>> ascii_digits("42"), ascii_digits("４２"), ascii_digits("٤"), ascii_digits(""), ascii_digits("²")
    (True, False, False, False, False)
    """
    return text.isascii() and text.isdigit()


def digits_note(text: str) -> str:
    """``" (its digits are ASCII 0–9 only: '１' is U+FF11 FULLWIDTH DIGIT ONE)"`` when ``text``
    holds a digit croupier does not read, else ``""``: the words an error about a number adds."""
    odd = next((ch for ch in text if ch.isdigit() and not ch.isascii()), None)
    if odd is None:
        return ""
    name = unicodedata.name(odd, "a digit")
    return f" (digits are ASCII 0–9 only: {odd!r} is U+{ord(odd):04X} {name})"


@lru_cache(maxsize=4096)  # pure (str → int); a rejected text raises afresh, nothing cached
def parse_money(text: str) -> int:
    """Parse a dollar amount as printed ("$50,000", "$5", "$2.50") into integer cents.

    >>> parse_money("$50,000")
    5000000
    >>> parse_money("$2.50"), parse_money("$0.5")
    (250, 50)

    Raises :class:`~croupier.errors.PaytableError` naming the text when it is not an amount.
    """
    m = _MONEY.match(text.strip())
    if not m:
        raise PaytableError(
            f"not a dollar amount: {text!r} (expected e.g. '$3,000' or '$2.50'){digits_note(text)}"
        )
    dollars = int(m.group(1).replace(",", ""))
    cents = int(m.group(2).ljust(2, "0")) if m.group(2) else 0
    return dollars * 100 + cents


def parse_amount(text: str, what: str) -> int:
    """Parse an amount typed by a user, in dollars ("$12,345.67", "12345.67", "5", "0.25"), into
    positive integer cents; ``what`` names it in errors (e.g. ``"--amount"``).

    >>> parse_amount("$1,250.5", "--amount"), parse_amount("5", "--meter")
    (125050, 500)

    Raises :class:`~croupier.errors.InputError` for anything else: no exponents (``1e400``),
    ``NaN`` or ``inf``, fractions of a cent, zero, or more than :data:`MAX_AMOUNT_DIGITS` digits
    of dollars.
    """
    m = _AMOUNT.match(text.strip())
    if not m or not (m.group(1) or m.group(2)):
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise InputError(
            f"{what} must be an amount in dollars (up to {MAX_AMOUNT_DIGITS} digits, at most "
            f"two decimals), e.g. 12345.67, not {shown!r}{digits_note(text)}"
        )
    dollars = int((m.group(1) or "0").replace(",", ""))
    cents = dollars * 100 + int((m.group(2) or "0").ljust(2, "0"))
    if cents <= 0:
        raise InputError(f"{what} must be a positive amount, not {text!r}")
    return cents


MAX_CENTS = 10 ** (MAX_AMOUNT_DIGITS + 2) - 1
"""The largest amount croupier takes, in cents (13 digits of dollars and the cents)."""


def check_cents(amount_cents: object, what: str = "a wager") -> None:
    """Raise :class:`~croupier.errors.InputError` unless ``amount_cents`` is a whole number of
    cents from 1 to :data:`MAX_CENTS` (``what`` names it in the message).

    >>> check_cents(500)
    >>> check_cents(0)
    Traceback (most recent call last):
    ...
    croupier.errors.InputError: a wager must be a whole number of cents from 1 to 999999999999999, not 0
    """
    if type(amount_cents) is int and 0 < amount_cents <= MAX_CENTS:
        return
    if isinstance(amount_cents, int) and not -MAX_CENTS <= amount_cents <= MAX_CENTS:
        shown = f"an integer of {amount_cents.bit_length():,} bits"
    else:
        shown = repr(amount_cents)[:60]
    raise InputError(f"{what} must be a whole number of cents from 1 to {MAX_CENTS}, not {shown}")


@lru_cache(maxsize=4096, typed=True)  # pure; rounds print the same few amounts all day
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


@lru_cache(maxsize=4096)  # pure; a Fraction is immutable
def parse_percent(text: str) -> Fraction:
    """Parse a percentage ("3.75%", "100%") into an exact fraction of one.

    >>> parse_percent("3.75%")
    Fraction(3, 80)
    >>> parse_percent("100%")
    Fraction(1, 1)
    """
    m = _PERCENT.match(text.strip())
    if not m:
        raise PaytableError(
            f"not a percentage: {text!r} (expected e.g. '15%' or '3.75%'){digits_note(text)}"
        )
    return Fraction(m.group(1)) / 100


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


def parse_time(text: str | None, what: str) -> datetime | None:
    """An ISO 8601 date or time given by a user (``--from``, ``?since=``) as an aware UTC
    datetime; a time without a zone is read as UTC; ``None`` stays ``None``.
    :class:`~croupier.errors.InputError` naming ``what`` for anything else.

    >>> parse_time("2026-12-01", "--from").isoformat()
    '2026-12-01T00:00:00+00:00'
    >>> parse_time("2026-12-01T06:00-05:00", "--to").isoformat()
    '2026-12-01T11:00:00+00:00'
    """
    if text is None:
        return None
    try:
        at = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InputError(
            f"{what} {text!r} is not an ISO 8601 date or time (2026-12-01, 2026-12-01T06:00, "
            "2026-12-01T14:00:00Z)"
        ) from None
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).astimezone(UTC)
