"""What anyone may read: the wagers (``croupier wagers --json``, ``GET /wagers``), the paytables
printed in the regulation (``croupier paytables --json``, ``GET /paytables``) and the service's
health (``GET /health``). Money in integer cents."""

from __future__ import annotations

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import Absent, Citation, Section, Sha256, absent


class WagerPaytable(Shape):
    """A paytable a wager can be settled on, and the deck counts it is defined for."""

    paytable: str
    """The paytable's id."""

    decks: list[int]
    """The deck counts it is defined for."""


class WagerInfo(Shape):
    """A wager croupier settles and analyses."""

    wager: str
    """The wager's id (what croupier analyze, a round file and GET /parsheets/{wager} take)."""

    name: str
    """The wager's name."""

    game: str
    """The game it is offered at ("Blackjack", "Baccarat", "Four Card Poker", …)."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    reads: str
    """The cards the wager reads, in words."""

    decks: list[int] | None
    """The deck counts the wager itself allows; null when it sets none (its paytables' deck
    counts apply)."""

    paytables: list[WagerPaytable]
    """The paytables it can be settled on."""


class WagerList(Shape):
    """``croupier wagers --json`` and ``GET /wagers``: every wager."""

    wagers: list[WagerInfo]
    """Every wager croupier settles and analyses."""


class PaytableLine(Shape):
    """One line of a paytable, as printed in the regulation."""

    outcome: str
    """The outcome's id (what a settlement line names)."""

    label: str
    """The outcome in words, as printed."""

    pays: str
    """What it pays, as printed ("25 to 1", "100% of Progressive")."""

    envy: str | Absent = absent()
    """The envy bonus it pays every other player holding the wager, for people ("$250");
    absent when it pays none."""

    envy_cents: int | Absent = absent()
    """The envy bonus in integer cents; absent with envy."""


class PaytableMeter(Shape):
    """One meter of a paytable's progressive: its seed and increment rates."""

    level: str
    """The meter's level ("Progressive", "Mega", …)."""

    seed: str
    """Its seed, for people: an amount ("$50,000") or a multiple of the wager ("1,000 ×
    wager")."""

    seed_cents: int | None
    """The seed in integer cents; null when it is a multiple of the wager."""

    increment_rate: str | Absent = absent()
    """The share of each wager added to the meter, as a percentage ("16%"); absent when the
    paytable prints none."""

    secondary_increment_rate: str | Absent = absent()
    """The share of each wager added to the reserve that funds the reseed, as a percentage;
    absent when the paytable prints none."""


class PaytableProgressive(Shape):
    """A paytable's progressive: the wagers that feed it and its meters."""

    wagers: list[str]
    """The amounts of the progressive wager it takes, for people ("$5")."""

    wager_cents: list[int]
    """The same amounts in integer cents."""

    meters: list[PaytableMeter]
    """Its meters, in the paytable's order."""

    total_increment_rate: str | Absent = absent()
    """The share of each wager sent to the meters and reserve together, as a percentage
    ("18.5%"); absent when the paytable prints no total."""


class PaytableMultiplier(Shape):
    """A multiplier a paytable applies under a condition."""

    condition: str
    """When the multiplier applies, in words."""

    factor: int
    """What the pay is multiplied by."""


class PaytableInfo(Shape):
    """A paytable printed in the regulation, with its section."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    paytable: str
    """The paytable's id."""

    title: str
    """The paytable's title."""

    decks: list[int]
    """The deck counts it is defined for."""

    citation: str
    """Where it is printed ("58 Pa. Code § 633b.1(f)"), or what it is when the regulation does
    not print it."""

    source: str
    """The paytable file it was read from."""

    lines: list[PaytableLine]
    """Its lines, as printed."""

    notes: str | Absent = absent()
    """Notes on the paytable; absent when it has none."""

    progressive: PaytableProgressive | Absent = absent()
    """Its progressive: the wagers that feed it and its meters; absent without one."""

    multipliers: list[PaytableMultiplier] | Absent = absent()
    """The multipliers it applies; absent when it has none."""

    sha256: Sha256
    """SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)."""


class PaytableList(Shape):
    """``croupier paytables --json`` and ``GET /paytables``: the paytables asked for."""

    paytables: list[PaytableInfo]
    """The paytables asked for (every one printed in the regulation when none is named)."""


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
    "PaytableMeter",
    "PaytableMultiplier",
    "PaytableProgressive",
    "WagerInfo",
    "WagerList",
    "WagerPaytable",
]
