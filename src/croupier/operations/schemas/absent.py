"""What the models of rounds, reading and problems share: a key that is sometimes absent, and
the text patterns croupier's JSON keeps (a section, its citation, a signed amount, an exact
fraction, a digest), and a figure that is whole or not.

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


def absent(alias: str | None = None) -> Any:
    """A field's default when its key is sometimes absent: ``None``, left out on output."""
    return Field(default=None, exclude_if=_is_none, alias=alias)


Section = Annotated[str, Field(pattern=r"^[0-9]{3}[a-z]\.[0-9]+")]
"""A section or paragraph of 58 Pa. Code, bare: ``633b.3(h)(3)``."""

Citation = Annotated[str, Field(pattern=r"^58 Pa\. Code § [0-9]{3}[a-z]\.[0-9]+")]
"""A section's full citation: ``58 Pa. Code § 633b.1(e)``."""

Signed = Annotated[str, Field(pattern=r"^[+-]\$[0-9]{1,3}(,[0-9]{3})*(\.[0-9]{2})?$")]
"""An amount with its sign, for people: ``+$10``, ``-$5``."""

Fraction = Annotated[str, Field(pattern=r"^-?[0-9]+/[0-9]+$")]
"""An exact fraction ``p/q``."""

Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256 digest in lower-case hexadecimal."""

Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
"""A time as ISO 8601 text with its offset, kept as written (``2025-01-31T22:05:00+00:00``)."""

Number = Annotated[int | float, WithJsonSchema({"type": "number"})]
"""A figure croupier writes as a whole number when it is one (``25``, ``-1``) and with its
decimals otherwise (``0.95``): the model keeps it as written (a ``float`` field would write
``25.0``)."""

__all__ = [
    "Absent",
    "Citation",
    "Fraction",
    "Number",
    "Section",
    "Sha256",
    "Signed",
    "Timestamp",
    "absent",
]
