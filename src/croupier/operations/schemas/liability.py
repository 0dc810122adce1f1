"""The liability report's, the contributions-by-table report's and the hand-pay slip's JSON
(``croupier meters liability | contributions | slip --json``, ``GET /liability``, ``GET
/contributions``; :mod:`croupier.operations.presenters.liability`,
:mod:`croupier.operations.presenters.slips`). Money is integer micro-dollars (``*_micros``) or
cents (``*_cents``) with the amount in dollars beside it."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.progressives import Award
from croupier.paytables import MeterLevel

Dollars = Annotated[str, Field(examples=["$5,000", "$0.1875"])]
"""An amount in dollars, for people, beside its integer figure."""


class LiabilityLevel(Shape):
    """One level over the period: what it owed at the opening and closing instants and the
    flows between; closing = opening + contributions + reseeds + adjustments − awards paid."""

    level: MeterLevel
    """The level."""
    opening_meter_micros: int
    """At the opening instant, the meter shown to players, in integer micro-dollars."""
    opening_meter: Dollars
    """The same, in dollars."""
    opening_held_micros: int
    """At the opening instant, the part of the meter held for awards pending validation, in
    integer micro-dollars."""
    opening_held: Dollars
    """The same, in dollars."""
    opening_pending_micros: int
    """At the opening instant, every pending award's value from the meter (held on it, or locked
    off it at the hit), in integer micro-dollars."""
    opening_pending: Dollars
    """The same, in dollars."""
    opening_reserve_micros: int
    """At the opening instant, the reserve funding the next reseed, in integer micro-dollars."""
    opening_reserve: Dollars
    """The same, in dollars."""
    opening_liability_micros: int
    """At the opening instant, what the level owes: available meter (meter − held) + pending +
    reserve, in integer micro-dollars."""
    opening_liability: Dollars
    """The same, in dollars."""
    contributions_micros: int
    """The period's increments from wagers, to the meter and the reserve, in integer micro-
    dollars."""
    contributions: Dollars
    """The same, in dollars."""
    reseeds_micros: int
    """What the house put in: a new progressive's seeds, each reset's top-up or new seed, in
    integer micro-dollars."""
    reseeds: Dollars
    """The same, in dollars."""
    adjustments_micros: int
    """Manual corrections of meter and reserve (§ 605a.7(a)(6)); a void is not one, in integer
    micro-dollars."""
    adjustments: Dollars
    """The same, in dollars."""
    awards_paid_micros: int
    """What left the progressive when pending awards were paid, in integer micro-dollars."""
    awards_paid: Dollars
    """The same, in dollars."""
    closing_meter_micros: int
    """At the closing instant, the meter shown to players, in integer micro-dollars."""
    closing_meter: Dollars
    """The same, in dollars."""
    closing_held_micros: int
    """At the closing instant, the part of the meter held for awards pending validation, in
    integer micro-dollars."""
    closing_held: Dollars
    """The same, in dollars."""
    closing_pending_micros: int
    """At the closing instant, every pending award's value from the meter (held on it, or locked
    off it at the hit), in integer micro-dollars."""
    closing_pending: Dollars
    """The same, in dollars."""
    closing_reserve_micros: int
    """At the closing instant, the reserve funding the next reseed, in integer micro-dollars."""
    closing_reserve: Dollars
    """The same, in dollars."""
    closing_liability_micros: int
    """At the closing instant, what the level owes: available meter (meter − held) + pending +
    reserve, in integer micro-dollars."""
    closing_liability: Dollars
    """The same, in dollars."""
    awards_won_count: int
    """Awards won from the level in the period (shares of the meter)."""
    awards_paid_count: int
    """Awards paid in the period."""
    awards_voided_count: int
    """Pending awards voided in the period (§ 633b.2(h)(1))."""
    balanced: bool
    """Whether closing = opening + contributions + reseeds + adjustments − awards paid."""
    reconciled: bool
    """Whether the level agrees with the reconciliation of the same period (``croupier meters
    report``): the same opening and closing meter and reserve, contributions and house money."""


class LiabilityProgressive(Shape):
    """One progressive's liability over the period."""

    progressive: str
    """The progressive."""
    events: int
    """Its ledger events in the period."""
    opening_micros: int
    """What it owed at the opening instant, every level together, in integer micro-dollars."""
    opening: Dollars
    """The same, in dollars."""
    closing_micros: int
    """What it owes at the closing instant, every level together, in integer micro-dollars."""
    closing: Dollars
    """The same, in dollars."""
    balanced: bool
    """Whether every level balances."""
    reconciled: bool
    """Whether every level agrees with the reconciliation."""
    levels: list[LiabilityLevel]
    """Its levels."""
    pending: list[Award]
    """The awards pending validation at the closing instant."""


class LiabilityReport(Shape):
    """``croupier meters liability --json``, ``GET /liability``: what the house owes on each
    progressive (58 Pa. Code § 605a.7(a)), at an instant or over a period."""

    period_from: Annotated[str | None, Field(alias="from")]
    """Start of the period (ISO 8601); null: the first event (with ``to`` alone, the report
    is the liability at that instant)."""
    period_to: Annotated[str | None, Field(alias="to")]
    """End of the period, excluded (ISO 8601); null: now."""
    balanced: bool
    """Whether every level of every progressive balances."""
    reconciled: bool
    """Whether every level agrees with the reconciliation (a level that does not: run ``croupier
    meters verify``)."""
    progressives: list[LiabilityProgressive]
    """Each progressive."""


class LevelContribution(Shape):
    """What a table's wagers added to one level."""

    level: MeterLevel
    """The level."""
    meter_micros: int
    """Added to the meter players see, in integer micro-dollars."""
    meter: Dollars
    """The same, in dollars."""
    reserve_micros: int
    """Added to the reserve (the secondary rate, and any overflow above the limit), in integer
    micro-dollars."""
    reserve: Dollars
    """The same, in dollars."""


class TableContribution(Shape):
    """One table's contributions to one progressive over the period."""

    progressive: str
    """The progressive."""
    table: str
    """The table."""
    rounds: int
    """Its rounds that contributed."""
    wagers: int
    """Its progressive wagers."""
    handle_cents: int
    """What those wagers staked, in integer cents."""
    handle: Dollars
    """The handle, in dollars."""
    contributions_micros: int
    """Everything they added, every level's meter and reserve, in integer micro-dollars."""
    contributions: Dollars
    """The same, in dollars."""
    levels: list[LevelContribution]
    """By level."""


class ContributionsReport(Shape):
    """``croupier meters contributions --json``, ``GET /contributions``: each table's
    contributions to each progressive over a period (§ 605a.7(a)(1), § 605a.8)."""

    period_from: Annotated[str | None, Field(alias="from")]
    """Start of the period (ISO 8601); null: the first event."""
    period_to: Annotated[str | None, Field(alias="to")]
    """End of the period, excluded (ISO 8601); null: now."""
    tables: list[TableContribution]
    """Each table that contributed, by progressive, in the order they first contributed."""


class SlipEvent(Shape):
    """One ledger event of an award, to check the slip against the ledger."""

    seq: int
    """Its sequence number in the ledger."""
    kind: str
    """What it is: award, validation, payment, reset, adjustment (a void), share."""
    at: str
    """When it was recorded (ISO 8601, UTC)."""
    by: str | None
    """Who recorded it (null: the table's settlement)."""
    role: str | None
    """Their role."""
    mac: str
    """Its link of the ledger's HMAC chain (hex): ``croupier meters verify`` recomputes it."""


class Slip(Award):
    """``croupier meters slip AWARD --json``: a progressive award's hand-pay slip (N.J.A.C.
    13:69E-1.39C, 13:69D-1.40(e))."""

    amount_words: str
    """The amount in words ("Five thousand dollars and eighteen cents")."""
    hand: str
    """The winning hand as its paytable line is labelled (the outcome id when none is)."""
    citation: str
    """The progressive's section of the regulation."""
    paytable: str
    """Its paytable."""
    cards: str | None
    """The round's cards, from the service's stored round; null when none holds them."""
    won_at: str
    """When the award was made (ISO 8601, UTC)."""
    validated_at: str | None
    """When a floorperson or above validated it; null until then."""
    paid_at: str | None
    """When the ledger paid it; null until then."""
    paid_by: str | None
    """Who the ledger records as paying it (the validator: one transaction validates and
    pays); null until then."""
    void_reason: str | None
    """Why it was voided; null unless it was."""
    ledger: list[SlipEvent]
    """Its ledger events, in order, each with its chain MAC."""


__all__ = [
    "ContributionsReport",
    "LevelContribution",
    "LiabilityLevel",
    "LiabilityProgressive",
    "LiabilityReport",
    "Slip",
    "SlipEvent",
    "TableContribution",
]
