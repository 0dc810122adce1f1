"""Paytables as data: one TOML file per regulation section, validated on load.

>>> from croupier.paytables import builtin_paytables
>>> pp = builtin_paytables().get("633b.1", "A", decks=8)
>>> str(pp.line("perfect-pair").pays)
'25 to 1'
"""

from croupier.paytables.digest import canonical_paytable, paytable_digest
from croupier.paytables.loader import builtin_paytables, load_paytable_file, parse_section_text
from croupier.paytables.model import Meter, Multiplier, PayLine, Paytable, PaytableBook, Progressive
from croupier.paytables.pays import (
    MeterLevel,
    MeterShare,
    NotAvailable,
    OddsFor,
    OddsTo,
    Pay,
    Push,
    parse_pay,
)

__all__ = [
    "Meter",
    "MeterLevel",
    "MeterShare",
    "Multiplier",
    "NotAvailable",
    "OddsFor",
    "OddsTo",
    "Pay",
    "PayLine",
    "Paytable",
    "PaytableBook",
    "Progressive",
    "Push",
    "builtin_paytables",
    "canonical_paytable",
    "load_paytable_file",
    "parse_pay",
    "parse_section_text",
    "paytable_digest",
]
