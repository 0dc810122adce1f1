"""The values every model shares: a key that is sometimes absent, the text patterns croupier's
JSON keeps (a section and its citation, a signed amount, an exact fraction, a digest, a time),
money in cents, and a figure that is whole or not.

A key croupier leaves out when it does not apply (never writes as ``null``) is declared
``X | Absent = absent()``: the schema lists it as optional (not required, not nullable), a
value read without it is ``None``, and serialization leaves it out again.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, WithJsonSchema
from pydantic.json_schema import SkipJsonSchema

Absent = SkipJsonSchema[None]
"""The ``None`` of a key that is absent: not part of the schema."""


def _is_none(value: object) -> bool:
    return value is None


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def _described(text: str) -> Any:
    """A type's description in the schema where its field has none of its own (a field's
    docstring says more, and wins)."""

    def describe(schema: dict[str, Any]) -> None:
        schema.setdefault("description", text)

    return describe


def absent(description: str | None = None) -> Any:
    """A field's default when its key is sometimes absent: ``None``, left out on output and
    named in the schema without a default (``description``, when given, says what it is)."""
    return Field(
        default=None, exclude_if=_is_none, description=description, json_schema_extra=_no_default
    )


SECTION_PATTERN = r"^[0-9]{3}[a-z]\.[0-9]+"
CITATION_PATTERN = r"^58 Pa\. Code § [0-9]{3}[a-z]\.[0-9]+"

Section = Annotated[
    str,
    Field(
        pattern=SECTION_PATTERN,
        json_schema_extra=_described('the section or paragraph of 58 Pa. Code, bare: "633b.1(e)"'),
    ),
]
"""A section or paragraph of 58 Pa. Code, bare: ``633b.3(h)(3)``."""

Citation = Annotated[
    str,
    Field(
        pattern=CITATION_PATTERN,
        json_schema_extra=_described('the section\'s full citation: "58 Pa. Code § 633b.1(e)"'),
    ),
]
"""A section's full citation: ``58 Pa. Code § 633b.1(e)``."""

Signed = Annotated[
    str,
    Field(
        pattern=r"^[+-]\$[0-9]{1,3}(,[0-9]{3})*(\.[0-9]{2})?$",
        json_schema_extra=_described('the player\'s result with its sign: "+$10", "-$5"'),
    ),
]
"""An amount with its sign, for people: ``+$10``, ``-$5``."""

Cents = Annotated[int, Field(json_schema_extra=_described("money in integer cents"))]
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

Fraction = Annotated[
    str, Field(pattern=r"^-?[0-9]+/[0-9]+$", json_schema_extra=_described("exact fraction p/q"))
]
"""An exact fraction ``p/q`` (always with its denominator)."""

Exact = Annotated[
    str,
    Field(pattern=r"^-?[0-9]+(/[0-9]+)?$", description='an exact fraction, e.g. "17/415"'),
]
"""An exact fraction, its denominator left out when 1 (``17/415``, ``0``)."""

Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256 digest in lower-case hexadecimal (a paytable's, a Rules Submission's, a round's)."""

Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
"""A time as ISO 8601 text with its offset, kept as written (``2025-01-31T22:05:00+00:00``)."""

Number = Annotated[int | float, WithJsonSchema({"type": "number"})]
"""A figure croupier writes as a whole number when it is one (``25``, ``-1``) and with its
decimals otherwise (``0.95``): the model keeps it as written (a ``float`` field would write
``25.0``)."""

__all__ = [
    "CITATION_PATTERN",
    "SECTION_PATTERN",
    "Absent",
    "CentFraction",
    "Cents",
    "Citation",
    "Exact",
    "Fraction",
    "Number",
    "Section",
    "Sha256",
    "Signed",
    "Timestamp",
    "absent",
]
