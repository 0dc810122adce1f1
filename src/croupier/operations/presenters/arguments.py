"""The money arguments both interfaces read alike: an amount in dollars, meter amounts. The CLI
passes its option's name, the service its query parameter's, so each error names what the caller
typed. Light to import (the CLI reads it at start-up): the paytables load only for meters by level.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from croupier.units import parse_amount

if TYPE_CHECKING:
    from croupier.paytables import MeterLevel


def money(text: str | None, what: str) -> int | None:
    """Parse '$12,345.67', '12345.67' or '5' into cents."""
    return None if text is None else parse_amount(text, what)


def meter_money(text: str, what: str) -> int:
    """A meter amount in cents: dollars as the ledger shows them, sub-cent digits (to the
    micro-dollar, '$50,000.1875') included, rounded down to the cent — a share of the meter
    (100%, 10%) is paid rounded down to the cent, so the fraction never changes a pay. The
    whole cents pass :func:`~croupier.units.parse_amount` (its limits and its one-line error)."""
    m = re.fullmatch(r"\s*(\$?[0-9,]*\.[0-9]{2})[0-9]{1,4}\s*", text)
    return parse_amount(m.group(1) if m else text, what)


def meter_arg(text: str | None, option: str = "--meter") -> int | dict[MeterLevel, int] | None:
    """``--meter``: one amount in dollars ('50000'), or amounts by level ('Mega=60000,Major=6000');
    an error names ``option`` (the service passes its query parameter's name)."""
    from croupier.paytables import MeterLevel

    if text is None:
        return None
    if "=" not in text:
        return meter_money(text, option)
    meters: dict[MeterLevel, int] = {}
    for part in text.split(","):
        name, _, amount = part.partition("=")
        meters[MeterLevel.parse(name)] = meter_money(amount, f"{option} {name.strip()}")
    return meters


__all__ = ["meter_arg", "meter_money", "money"]
