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
from typing import Any

from croupier.errors import AmountLimitError, InputError, PaytableError

STORED_INT_MAX = 2**63 - 1
"""The largest integer a money column holds: every amount croupier stores — the ledger's meters,
reserves and held amounts in micro-dollars, its wagers, payouts and totals in cents
(``croupier/progressive/schema.py``, ``Money``), the service's rounds' net in cents
(``croupier/service/store.py``) — is a signed 64-bit integer (SQLite's INTEGER, PostgreSQL's
BIGINT)."""

MICROS_PER_CENT = 10_000
"""Meter units per cent: meters, reserves and held amounts are integer micro-dollars, so every
printed increment rate (two decimals of a percent) of a whole-cent wager is exact."""

METER_HEADROOM = 1_000
"""How many more of the largest amount a meter already at the largest amount must still be able
to take, at the least, before its column is full: a meter keeps growing by increments after
anyone sets it (a seed, an adjustment), and the largest amount leaves it this much room."""


def _largest_amount() -> int:
    """The largest amount croupier takes, in cents: the largest ``10**k - 1`` (all nines: a
    limit a person can say) for which a meter holding it, in micro-dollars, can still take
    :data:`METER_HEADROOM` more of it within :data:`STORED_INT_MAX`::

        (1 + METER_HEADROOM) × MAX_CENTS × MICROS_PER_CENT ≤ 2**63 − 1
        MAX_CENTS ≤ 9,223,372,036,854,775,807 / (1,001 × 10,000) = 921,415,787,897.3
        MAX_CENTS = 10**11 − 1 = 99,999,999,999 cents = $999,999,999.99

    The margin it leaves is larger than the headroom asked for: a meter at $999,999,999.99
    (10**15 micro-dollars) has 2**63 − 1 − 10**15 ≈ 9.222 × 10**18 micro-dollars of room, 9,222
    more of the largest amount — more than nine trillion increments of $1, or nine billion of
    $1,000 — before :class:`~croupier.errors.MeterLimitError` stops it. A total in cents (a
    level's wagers and payouts, a round's net) has 10,000 times that room.
    """
    bound = STORED_INT_MAX // ((1 + METER_HEADROOM) * MICROS_PER_CENT)
    digits: int = len(str(bound + 1)) - 1
    return int(10**digits) - 1


MAX_CENTS = _largest_amount()
"""The largest amount croupier takes, in cents: 99,999,999,999 ($999,999,999.99), derived from
the columns that store money (:func:`_largest_amount`). Every money input — a wager, a table's
limits, a seed, a meter limit (cap), an envy bonus, a progressive's stake, an adjustment of a
meter or a reserve, a meter given for a par sheet — in the CLI, round files, Rules Submissions,
paytable files and over HTTP is refused above it (:class:`~croupier.errors.AmountLimitError`)
before anything is written."""

MAX_AMOUNT_DIGITS = len(str(MAX_CENTS)) - 2
"""The most digits in the whole-dollar part of an amount croupier takes (9: $999,999,999.99)."""


def amount_schema(signed: bool = False) -> dict[str, Any]:
    """The JSON Schema keywords of an amount in dollars as croupier reads one
    (:func:`parse_amount`: ``"$1,250.50"``, ``"1250.5"``, ``".50"``; with ``signed`` a leading
    ``-`` or ``+``, as an adjustment takes, :func:`parse_signed_amount`): a ``pattern`` of at
    most :data:`MAX_AMOUNT_DIGITS` whole-dollar digits, and the limit as ``x-maximum`` (JSON
    Schema's ``maximum`` constrains numbers, and an amount is a string of dollars) — for the
    OpenAPI document's request schemas (pydantic's ``json_schema_extra``). The pattern takes
    what the parser takes within the limit (``tests/test_money_limit.py`` checks both on the
    same samples).

    >>> amount_schema()["x-maximum"]
    '999999999.99'
    """
    d = MAX_AMOUNT_DIGITS
    sign = "[-+]?" if signed else ""
    whole = rf"(?:[0-9]{{1,3}}(?:,[0-9]{{3}}){{0,{(d - 1) // 3}}}|[0-9]{{1,{d}}})"
    cents = r"\.[0-9]{1,2}0*"  # no lookahead: generators of strings from patterns lack it
    return {
        "pattern": rf"^{_WS}*{sign}(?:\$[ \t]*)?(?:{whole}(?:{cents})?|{cents}){_WS}*$",
        "x-maximum": f"{MAX_CENTS // 100}.{MAX_CENTS % 100:02d}",
    }


_WS = r"[ \t\n\r\f\v]"
r"""The whitespace an amount may have around it: ASCII's (``str.strip`` would take Unicode's too,
and the schema's ``\s`` differs between regex dialects)."""

_READ_DIGITS = 40
"""The most digits of dollars read as an amount at all: a longer run is refused as not an amount
(nothing is converted); a shorter one beyond :data:`MAX_AMOUNT_DIGITS` as over the limit."""

# ASCII digits only (re.ASCII): Python's \d is any decimal digit, and int() reads them all —
# "$１０" (fullwidth) and "$١٠" (Arabic-Indic) would be read as $10
_DOLLARS = rf"\d{{1,3}}(?:,\d{{3}}){{1,{_READ_DIGITS // 3}}}|\d{{1,{_READ_DIGITS}}}"
_MONEY = re.compile(rf"^\$\s*({_DOLLARS})(?:\.(\d{{1,2}}))?$", re.ASCII)
_AMOUNT = re.compile(
    rf"^{_WS}*([-+]?)(?:\$[ \t]*)?(?=\.?\d)({_DOLLARS})?(?:\.(\d{{1,2}})0*)?{_WS}*$", re.ASCII
)
"""An amount as typed: ASCII whitespace around it, a sign (taken only where an adjustment
reads one), ``$`` (spaces may follow it), whole dollars (digits, or digits in thousands
groups), a point with one or two digits of cents (zeros after them are read as written); a
digit at least, before the point or after it. Not ``5.`` nor ``.``."""
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
        _check_long(text)
        raise PaytableError(
            f"not a dollar amount: {text!r} (expected e.g. '$3,000' or '$2.50'){digits_note(text)}"
        )
    dollars = _dollars(m.group(1), text)
    cents = int(m.group(2).ljust(2, "0")) if m.group(2) else 0
    return _within(dollars * 100 + cents, text)


def over_limit(text: str, what: str = "") -> str:
    """The one message of an amount over the largest croupier takes: ``"'$1,000,000,000' is over
    croupier's limit: at most 9 digits of dollars ($999,999,999.99)"`` (``what`` before it)."""
    head = f"{what} " if what else ""
    return (
        f"{head}{text.strip()!r} is over croupier's limit: at most {MAX_AMOUNT_DIGITS} digits of "
        f"dollars ({format_money(MAX_CENTS)})"
    )


_LONG = re.compile(r"^[-+]?\$?\s*([0-9][0-9,]*)(?:\.[0-9]*)?$", re.ASCII)
"""An amount written as dollars (digits, commas, maybe cents): over the limit, not "not an
amount", when its whole dollars have more than :data:`MAX_AMOUNT_DIGITS` digits."""


def _check_long(text: str, what: str = "") -> None:
    """:class:`AmountLimitError` when ``text``, not read as an amount, is one written with more
    whole-dollar digits than :data:`MAX_AMOUNT_DIGITS` (``"$99999999999999999999"``)."""
    m = _LONG.match(text.strip())
    if m is not None and len(m.group(1).replace(",", "").lstrip("0")) > MAX_AMOUNT_DIGITS:
        raise AmountLimitError(over_limit(text, what), format_money(MAX_CENTS))


def _dollars(digits: str, text: str, what: str = "") -> int:
    """The whole dollars ``digits`` (commas allowed) stand for; :class:`AmountLimitError` for more
    than :data:`MAX_AMOUNT_DIGITS` of them, before converting any."""
    plain = digits.replace(",", "").lstrip("0")
    if len(plain) > MAX_AMOUNT_DIGITS:
        raise AmountLimitError(over_limit(text, what), format_money(MAX_CENTS))
    return int(plain or "0")


def _within(cents: int, text: str, what: str = "") -> int:
    """``cents``, or :class:`AmountLimitError` when it is over :data:`MAX_CENTS`."""
    if cents > MAX_CENTS:
        raise AmountLimitError(over_limit(text, what), format_money(MAX_CENTS))
    return cents


def parse_amount(text: str, what: str) -> int:
    """Parse an amount typed by a user, in dollars ("$12,345.67", "12345.67", "5", "0.25",
    ".50"; ASCII whitespace around it), into positive integer cents; ``what`` names it in
    errors (e.g. ``"--amount"``), which quote the text as written.

    >>> parse_amount("$1,250.5", "--amount"), parse_amount("5", "--meter")
    (125050, 500)

    Raises :class:`~croupier.errors.InputError` for anything else: a sign (``+5``), a point
    without digits (``5.``), no exponents (``1e400``), ``NaN`` or ``inf``, fractions of a cent,
    zero; and its :class:`~croupier.errors.AmountLimitError` for an amount over
    :data:`MAX_CENTS`.
    """
    cents = _read_amount(text, what, signed=False)
    if cents <= 0:
        raise InputError(f"{what} must be a positive amount, not {text!r}")
    return cents


def parse_signed_amount(text: str, what: str) -> int:
    """Parse a signed amount in dollars, as an adjustment takes (``"-5"``, ``"+$1.50"``,
    ``"0"``: one ``-`` or ``+`` before the amount of :func:`parse_amount`) into integer cents,
    zero included; errors quote the text as written, its sign too.

    >>> parse_signed_amount("-$1,000", "--meter"), parse_signed_amount("+.5", "x")
    (-100000, 50)
    """
    return _read_amount(text, what, signed=True)


def _read_amount(text: str, what: str, *, signed: bool) -> int:
    """The cents of ``text`` (:data:`_AMOUNT`), signed when ``signed`` allows a sign."""
    m = _AMOUNT.match(text)
    if not m or (m.group(1) and not signed):
        _check_long(text, what)
        shown = text if len(text) <= 40 else text[:40] + "…"
        kind = "a signed amount" if signed else "an amount"
        raise InputError(
            f"{what} must be {kind} in dollars (at most {format_money(MAX_CENTS)}, at most "
            f"two decimals), e.g. {'-' if signed else ''}12345.67, not {shown!r}"
            f"{digits_note(text)}"
        )
    dollars = _dollars(m.group(2) or "0", text, what)
    cents = _within(dollars * 100 + int((m.group(3) or "0").ljust(2, "0")), text, what)
    return -cents if m.group(1) == "-" else cents


def check_cents(amount_cents: object, what: str = "a wager") -> None:
    """Raise :class:`~croupier.errors.InputError` unless ``amount_cents`` is a whole number of
    cents from 1 to :data:`MAX_CENTS` (``what`` names it in the message; an integer over it is an
    :class:`~croupier.errors.AmountLimitError`).

    >>> check_cents(500)
    >>> check_cents(0)
    Traceback (most recent call last):
    ...
    croupier.errors.InputError: a wager must be a whole number of cents from 1 to 99999999999, not 0
    """
    if type(amount_cents) is int and 0 < amount_cents <= MAX_CENTS:
        return
    if isinstance(amount_cents, int) and abs(amount_cents) > MAX_CENTS:
        bits = amount_cents.bit_length()
        shown = f"{amount_cents:,}" if bits <= 128 else f"an integer of {bits:,} bits"
        if amount_cents > 0:
            raise AmountLimitError(
                f"{what} must be a whole number of cents from 1 to {MAX_CENTS} (croupier's limit, "
                f"{format_money(MAX_CENTS)}), not {shown}",
                format_money(MAX_CENTS),
            )
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


_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_GROUPS = ("", " thousand", " million", " billion", " trillion", " quadrillion")


def _below_thousand(n: int) -> str:
    """0 < ``n`` < 1000 in words: "five hundred twelve", "forty-two"."""
    hundreds, rest = divmod(n, 100)
    words = [f"{_ONES[hundreds]} hundred"] if hundreds else []
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        words.append(_TENS[tens] + (f"-{_ONES[ones]}" if ones else ""))
    elif rest:
        words.append(_ONES[rest])
    return " ".join(words)


def number_words(n: int) -> str:
    """A whole number 0 ≤ ``n`` < 10¹⁸ in English words, as a cheque writes it (no "and"):

    >>> number_words(5018)
    'five thousand eighteen'
    >>> number_words(0)
    'zero'
    """
    if not 0 <= n < 1000 ** len(_GROUPS):
        raise ValueError(f"no words for {n}")
    if n == 0:
        return _ONES[0]
    parts = []
    for group in _GROUPS:
        n, chunk = divmod(n, 1000)
        if chunk:
            parts.append(_below_thousand(chunk) + group)
        if not n:
            break
    return " ".join(reversed(parts))


def money_words(cents: int) -> str:
    """Integer cents in words, as a hand-pay slip or a cheque writes the amount beside its
    figures (the figures are :func:`format_money`'s):

    >>> money_words(500018)
    'Five thousand dollars and eighteen cents'
    >>> money_words(100)
    'One dollar'
    >>> money_words(-5)
    'Minus zero dollars and five cents'
    """
    dollars, rest = divmod(abs(cents), 100)
    text = f"{number_words(dollars)} dollar{'' if dollars == 1 else 's'}"
    if rest:
        text += f" and {number_words(rest)} cent{'' if rest == 1 else 's'}"
    text = ("minus " if cents < 0 else "") + text
    return text[0].upper() + text[1:]


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
