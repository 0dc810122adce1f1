"""What anyone may read: the wagers (``croupier wagers --json``, ``GET /wagers``), the paytables
printed in the regulation (``croupier paytables --json``, ``GET /paytables``) and the service's
health (``GET /health``). Money in integer cents."""

from __future__ import annotations

from croupier.operations.schemas import Shape
from croupier.operations.schemas.absent import Absent, Citation, Section, Sha256, absent


class WagerPaytable(Shape):
    """A paytable a wager can be settled on, and the deck counts it is defined for."""

    paytable: str

    decks: list[int]


class WagerInfo(Shape):
    """A wager croupier settles and analyses."""

    wager: str

    name: str

    game: str

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    reads: str

    decks: list[int] | None

    paytables: list[WagerPaytable]


class WagerList(Shape):
    """``croupier wagers --json`` and ``GET /wagers``: every wager."""

    wagers: list[WagerInfo]


class PaytableLine(Shape):
    """One line of a paytable, as printed in the regulation."""

    outcome: str

    label: str

    pays: str

    envy: str | Absent = absent()

    envy_cents: int | Absent = absent()
    """Money in integer cents."""


class PaytableProgressive(Shape):
    """A paytable's progressive: the wagers that feed it and its meters."""

    wagers: list[str]

    wager_cents: list[int]
    """Money in integer cents."""

    meters: list[dict[str, int | str | None]]

    total_increment_rate: str | Absent = absent()


class PaytableMultiplier(Shape):
    """A multiplier a paytable applies under a condition."""

    condition: str

    factor: int


class PaytableInfo(Shape):
    """A paytable printed in the regulation, with its section."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    paytable: str

    title: str

    decks: list[int]

    citation: str

    source: str

    lines: list[PaytableLine]

    notes: str | Absent = absent()

    progressive: PaytableProgressive | Absent = absent()

    multipliers: list[PaytableMultiplier] | Absent = absent()

    sha256: Sha256
    """SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)."""


class PaytableList(Shape):
    """``croupier paytables --json`` and ``GET /paytables``: the paytables asked for."""

    paytables: list[PaytableInfo]


class Health(Shape):
    """``GET /health``: the service and its database answer."""

    status: str
    """Always "ok" when the service answers."""
    ledger_revision: str | None
    """The ledger's schema revision."""
    service_revision: str | None
    """The service's own tables' schema revision."""
    database: str | Absent = absent()
    """To a staff member (a valid bearer token) only: the database served, password hidden."""


__all__ = [
    "Health",
    "PaytableInfo",
    "PaytableLine",
    "PaytableList",
    "PaytableMultiplier",
    "PaytableProgressive",
    "WagerInfo",
    "WagerList",
    "WagerPaytable",
]
