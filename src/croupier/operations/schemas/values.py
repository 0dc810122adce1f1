"""The small values the command documents share: a section and its citation, signed money, exact
fractions, digests, and a key a document holds only sometimes (:func:`absent`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

SECTION_PATTERN = r"^[0-9]{3}[a-z]\.[0-9]+"
CITATION_PATTERN = r"^58 Pa\. Code § [0-9]{3}[a-z]\.[0-9]+"

Section = Annotated[
    str,
    Field(
        pattern=SECTION_PATTERN,
        description='the section or paragraph of 58 Pa. Code, bare: "633b.1(e)"',
    ),
]
"""A section or paragraph of 58 Pa. Code, bare (``633b.1(e)``)."""

Citation = Annotated[
    str,
    Field(
        pattern=CITATION_PATTERN,
        description='the section\'s full citation: "58 Pa. Code § 633b.1(e)"',
    ),
]
"""The section's full citation (``58 Pa. Code § 633b.1(e)``)."""

SignedMoney = Annotated[
    str,
    Field(
        pattern=r"^[+-]\$[0-9]{1,3}(,[0-9]{3})*(\.[0-9]{2})?$",
        description='the player\'s result with its sign: "+$10", "-$5"',
    ),
]
"""A player's result formatted with its sign (``+$10``, ``-$5``)."""

Cents = Annotated[int, Field(description="money in integer cents")]
"""Money in integer cents (US$ 0.01)."""

CentFraction = Annotated[
    str,
    Field(
        pattern=r"^[0-9]+/[1-9][0-9]*$",
        description="what rounding the pay down to the cent did not pay, as an exact fraction "
        'of a cent ("1/2": half a cent of a Banker win); "0/1" when nothing',
    ),
]
"""What rounding a pay down to the cent did not pay, a fraction of a cent (``1/2``)."""

Ratio = Annotated[str, Field(pattern=r"^-?[0-9]+/[0-9]+$", description="exact fraction p/q")]
"""An exact fraction written ``p/q`` (always with its denominator)."""

Exact = Annotated[
    str,
    Field(pattern=r"^-?[0-9]+(/[0-9]+)?$", description='an exact fraction, e.g. "17/415"'),
]
"""An exact fraction, its denominator left out when 1 (``17/415``, ``0``)."""

PaytableDigest = Annotated[
    str,
    Field(
        pattern=r"^[0-9a-f]{64}$",
        description="SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)",
    ),
]
"""A paytable's SHA-256 digest, 64 lowercase hex digits."""


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def absent(description: str | None = None) -> Any:
    """A key the document leaves out rather than writing ``null``: use as the field's default
    with the annotation ``X | SkipJsonSchema[None]``, so the schema names only
    ``X`` and does not list the key as required."""
    return Field(default=None, description=description, json_schema_extra=_no_default)


__all__ = [
    "CITATION_PATTERN",
    "SECTION_PATTERN",
    "CentFraction",
    "Cents",
    "Citation",
    "Exact",
    "PaytableDigest",
    "Ratio",
    "Section",
    "SignedMoney",
    "SkipJsonSchema",
    "absent",
]
