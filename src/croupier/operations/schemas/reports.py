"""The reports' JSON: the reconciliation of each progressive's levels over a period (58 Pa. Code
§ 605a.7(a); ``croupier meters report --json``, ``GET /reconciliation``,
:mod:`croupier.operations.presenters.reports`) and the hold report (``GET /hold-report``,
:mod:`croupier.service.web.hold`). Money is integer micro-dollars (``*_micros``) or cents
(``*_cents``) with the amount in dollars beside it (``opening`` beside ``opening_micros``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from croupier.operations.schemas import Shape
from croupier.operations.schemas.progressives import OptionalInt, OptionalStr, omitted
from croupier.paytables import MeterLevel

Dollars = Annotated[str, Field(examples=["$5,000", "$0.1875"])]
"""An amount in dollars, for people, beside its integer figure."""
OptionalFloat = Annotated[float | SkipJsonSchema[None], Field(json_schema_extra=omitted)]
"""A number present only where it applies (never ``null``)."""
OptionalSd = Annotated[int | float | SkipJsonSchema[None], Field(json_schema_extra=omitted)]
"""A band's width in standard deviations, present only with a par sheet: a whole number stays
one (3, not 3.0)."""
OptionalBool = Annotated[bool | SkipJsonSchema[None], Field(json_schema_extra=omitted)]
"""A true or false present only where it applies (never ``null``)."""
OptionalRule = Annotated[
    Literal["normal", "chebyshev"] | SkipJsonSchema[None], Field(json_schema_extra=omitted)
]
"""The band's rule, present only with a par sheet."""


class ReportLevel(Shape):
    """One level reconciled over the period: closing = opening + contributions + resets +
    adjustments − awards, for the meter and for the reserve."""

    progressive: str
    """The progressive."""
    level: MeterLevel
    """The level."""
    opening_micros: int
    """The meter at the start of the period, in integer micro-dollars."""
    opening: Dollars
    """The opening meter, in dollars."""
    contributions_micros: int
    """Contributions to the meter in the period, in integer micro-dollars."""
    contributions: Dollars
    """Contributions, in dollars."""
    awards_micros: int
    """Awards paid from the meter, in integer micro-dollars."""
    awards: Dollars
    """Awards, in dollars."""
    resets_micros: int
    """Resets of the meter to its seed, in integer micro-dollars."""
    resets: Dollars
    """Resets, in dollars."""
    adjustments_micros: int
    """Manual corrections of the meter (§ 605a.7(a)(6)), in integer micro-dollars."""
    adjustments: Dollars
    """Adjustments, in dollars."""
    closing_micros: int
    """The meter at the end of the period, in integer micro-dollars."""
    closing: Dollars
    """The closing meter, in dollars."""
    opening_reserve_micros: int
    """The reserve at the start of the period, in integer micro-dollars."""
    opening_reserve: Dollars
    """The opening reserve, in dollars."""
    reserve_contributions_micros: int
    """Contributions to the reserve, in integer micro-dollars."""
    reserve_contributions: Dollars
    """Reserve contributions, in dollars."""
    reserve_resets_micros: int
    """What resets took from the reserve, in integer micro-dollars."""
    reserve_resets: Dollars
    """Reserve resets, in dollars."""
    reserve_adjustments_micros: int
    """Manual corrections of the reserve, in integer micro-dollars."""
    reserve_adjustments: Dollars
    """Reserve adjustments, in dollars."""
    closing_reserve_micros: int
    """The reserve at the end of the period, in integer micro-dollars."""
    closing_reserve: Dollars
    """The closing reserve, in dollars."""
    paid_by_attendant_cents: int
    """Share-of-meter payouts paid by an attendant in the period, in integer cents."""
    paid_by_attendant: Dollars
    """Paid by an attendant, in dollars."""
    wagers: int
    """Qualifying wagers in the period."""
    house_micros: int
    """What the house put into the level in the period: the initial seed and, at each reset,
    the whole seed (house-funded) or the top-up the reserve lacked (reserve-funded), in integer
    micro-dollars."""
    house: Dollars
    """The house's, in dollars."""
    balanced: bool
    """Whether the balance equation holds for the meter and for the reserve."""


class ReportProgressive(Shape):
    """One progressive reconciled over the period."""

    progressive: str
    """The progressive."""
    events: int
    """Its ledger events in the period."""
    paid_by_table_cents: int
    """Odds-line and envy pays made by the table in the period (not by level), in integer
    cents."""
    paid_by_table: Dollars
    """Paid by the table, in dollars."""
    balanced: bool
    """Whether every level balances."""
    levels: list[ReportLevel]
    """Its levels."""


class MetersReport(Shape):
    """``croupier meters report --json``: each progressive's levels reconciled over a period
    (58 Pa. Code § 605a.7(a))."""

    period_from: Annotated[str | None, Field(alias="from")]
    """Start of the period (ISO 8601); null: the first event."""
    period_to: Annotated[str | None, Field(alias="to")]
    """End of the period, excluded (ISO 8601); null: now."""
    progressives: list[ReportProgressive]
    """Each progressive reconciled."""


class Reconciliation(Shape):
    """``GET /reconciliation``: the meters report (:class:`MetersReport`), with whether every
    level balances."""

    period_from: Annotated[str | None, Field(alias="from")]
    """Start of the period (ISO 8601); null: the first event."""
    period_to: Annotated[str | None, Field(alias="to")]
    """End of the period, excluded (ISO 8601); null: now."""
    balanced: bool
    """Whether every level of every progressive balances (a level that does not: run ``GET
    /verify``)."""
    progressives: list[ReportProgressive]
    """Each progressive reconciled."""


class ReportRow(Shape):
    """A row of the reconciliation's CSV (``GET /reconciliation?format=csv``, ``croupier meters
    report --format csv``): one per level, money in integer micro-dollars or cents."""

    progressive: str
    """The progressive."""
    level: MeterLevel
    """The level."""
    opening_micros: int
    """The opening meter."""
    contributions_micros: int
    """Contributions to the meter."""
    awards_micros: int
    """Awards from the meter."""
    resets_micros: int
    """Resets of the meter."""
    adjustments_micros: int
    """Adjustments of the meter."""
    closing_micros: int
    """The closing meter."""
    opening_reserve_micros: int
    """The opening reserve."""
    reserve_contributions_micros: int
    """Contributions to the reserve."""
    reserve_resets_micros: int
    """What resets took from the reserve."""
    reserve_adjustments_micros: int
    """Adjustments of the reserve."""
    closing_reserve_micros: int
    """The closing reserve."""
    paid_by_attendant_cents: int
    """Paid by an attendant."""
    wagers: int
    """Qualifying wagers."""
    house_micros: int
    """What the house put in."""
    paid_by_table_cents: int
    """The progressive's odds-line and envy pays (the same on each of its levels' rows: count
    it once per progressive)."""
    balanced: bool
    """Whether the level balances."""


class HoldFilters(Shape):
    """The filters the hold report was asked for (null: not given)."""

    table: str | None
    """Only this table's rounds."""
    since: str | None
    """Settled at or after (ISO 8601)."""
    until: str | None
    """Settled before (ISO 8601)."""
    wager: str | None
    """Only this wager's rows."""


class HoldProgressive(Shape):
    """A progressive wager's progressive line: what the meter took from the table's wagers and
    paid from itself (issue 31; :mod:`croupier.service.web.hold_progressive`)."""

    progressives: list[str]
    """The progressives the rounds fed."""
    contributions_micros: int
    """The rounds' contributions to the meters and reserves (the increment rates × the
    wagers), in integer micro-dollars."""
    contributions_cents: int
    """The contributions, rounded to the cent (what the table's hold is net of)."""
    contributions: Dollars
    """The contributions, in dollars."""
    increment_rate: float
    """The paytable's total increment rate (meter and reserve), per unit wagered."""
    awards_paid_cents: int
    """Meter awards paid from the meter (validated), in integer cents (a stake returned with
    an award is the table's, not in it)."""
    awards_paid: Dollars
    """Awards paid, in dollars."""
    pending_cents: int
    """Meter awards awaiting validation: owed by the meter, not yet paid, in integer cents."""
    pending: Dollars
    """Pending, in dollars."""
    net_cents: int
    """Contributions − awards paid: what the meter kept of these wagers, in integer cents."""
    net: Dollars
    """The net, in dollars."""
    theoretical_cents: int
    """The line's theoretical: the increment rate × the handle − the awards the par sheet
    expects at the meters each wager saw, in integer cents."""
    theoretical: Dollars
    """The theoretical, in dollars."""
    lines_at_seed: int
    """Wagers of rounds fed to no progressive, valued at the seed (their theoretical too)."""


class HoldRow(Shape):
    """A table's wager: its handle and actual hold and, where its par sheet is known, the band
    of theoretical hold it is judged by; else ``note`` says why not."""

    table: str
    """The table."""
    wager: str
    """The wager."""
    rounds: int
    """Rounds with a line of the wager."""
    lines: int
    """The wager's settled lines."""
    handle_cents: int
    """The amount wagered, in integer cents."""
    handle: Dollars
    """The handle, in dollars."""
    hold_cents: int
    """The actual hold of the wager (stakes kept less every pay; a progressive's award counted
    as the ledger has it), in integer cents (negative: it lost)."""
    hold: Dollars
    """The hold, in dollars."""
    pending_cents: int
    """Progressive awards awaiting validation: owed, not yet paid, not in the hold, in integer
    cents."""
    pending: Dollars
    """Pending, in dollars."""
    voided_cents: int
    """Progressive awards voided (they paid nothing), in integer cents."""
    hold_ratio: float | None
    """Hold ÷ handle; null with no handle."""
    hold_percent: float | None
    """The same in percent, to four places; null with no handle."""
    table_hold_cents: int
    """The table's own hold, net of the progressive: ``hold_cents`` + awards paid from the
    meter − contributions to it (the hold itself for a wager without a meter); what the band
    judges, in integer cents."""
    table_hold: Dollars
    """The table's hold, in dollars."""
    table_hold_percent: OptionalFloat = None
    """The table's hold ÷ handle in percent, to four places (a progressive wager's row)."""
    progressive: Annotated[
        HoldProgressive | SkipJsonSchema[None], Field(json_schema_extra=omitted)
    ] = None
    """A progressive wager's progressive line (present only then)."""
    return_at_meters: OptionalFloat = None
    """The par sheet's return per unit wagered at the meters each wager saw, stake-weighted
    (a progressive wager's row)."""
    return_at_meters_exact: OptionalStr = None
    """The same, exact ("p/q")."""
    theoretical_with_progressive_cents: OptionalInt = None
    """The wager's theoretical hold, table and progressive together: −Σ stake × the return at
    the meters it saw, in integer cents."""
    theoretical_with_progressive: OptionalStr = None
    """The same, in dollars."""
    strategy: OptionalStr = None
    """The player's strategy a Blackjack row's house edge assumes (``basic``)."""
    initial_wagers_cents: OptionalInt = None
    """A Blackjack row's initial wagers (what its house edge is per unit of; doubles and splits
    not in it), in integer cents."""
    initial_wagers: OptionalStr = None
    """The same, in dollars."""
    note: OptionalStr = None
    """Why the row has no par sheet or no band, or no theoretical (present only then)."""
    paytable: OptionalStr = None
    """The paytable's id (with a par sheet)."""
    section: OptionalStr = None
    """Its section of 58 Pa. Code (with a par sheet)."""
    decks: OptionalInt = None
    """The deck count (with a par sheet)."""
    house_edge: OptionalFloat = None
    """The par sheet's house edge, per unit wagered (with a par sheet; a progressive wager's
    the table's, net of the increment rate; Blackjack's of its rules, per initial wager)."""
    theoretical_cents: OptionalInt = None
    """The theoretical hold, in integer cents (with a par sheet)."""
    theoretical: OptionalStr = None
    """The theoretical hold, in dollars."""
    sd_cents: OptionalInt = None
    """One standard deviation of the hold, in integer cents."""
    low_cents: OptionalInt = None
    """The band's low end in force, in integer cents."""
    high_cents: OptionalInt = None
    """The band's high end in force, in integer cents."""
    band: OptionalStr = None
    """The band in dollars ("$12.50 to $30")."""
    band_rule: OptionalRule = None
    """``normal``: ± 3 SD (wagers enough for it); ``chebyshev``: too few, ± ``band_sd`` SD."""
    band_sd: OptionalSd = None
    """The band's half-width in standard deviations: 3 (normal), or Chebyshev's to three
    places."""
    judged: OptionalBool = None
    """Whether the row has a verdict: wagers enough for the ± 3 SD band (Cochran's rule) and a
    band that excludes a hold of zero (theoretical − 3 SD > 0; for a paytable with a house
    edge)."""
    lines_needed: OptionalInt = None
    """How many lines of equal stakes a verdict needs: the larger of ``lines_needed_normal``
    and ``lines_needed_zero``."""
    lines_needed_normal: OptionalInt = None
    """How many lines of equal stakes the ± 3 SD band needs (Cochran's rule: more than 25 ×
    the wager's skewness²)."""
    lines_needed_zero: OptionalInt = None
    """How many lines of equal stakes the ± 3 SD band needs to exclude a hold of zero (more
    than 9 × variance ÷ house edge²); absent for a paytable without a house edge."""
    effective_lines: OptionalFloat = None
    """How many lines of equal stakes the wagers count as for Cochran's rule ((Σs²)³ ÷
    (Σs³)²)."""
    effective_lines_zero: OptionalFloat = None
    """How many lines of equal stakes the wagers count as for excluding zero ((Σs)² ÷ Σs²)."""
    excludes_zero: OptionalBool = None
    """Whether the ± 3 SD band excludes a hold of zero now."""
    flagged: OptionalBool = None
    """Whether the hold is outside the band in force (at any count of wagers)."""
    verdict: OptionalStr = None
    """The status in words: "within the band", "outside the band", or before the handle
    supports a verdict "not enough handle to judge: 2 of the 36,503 wagers needed"."""


class HoldReport(Shape):
    """``GET /hold-report``: actual against theoretical hold per table and wager."""

    band_sd: int
    """The normal band's half-width in standard deviations (3)."""
    chebyshev_sd: float
    """The band's half-width with too few wagers for the normal one (Chebyshev)."""
    false_flag_rate: float
    """The chance a fair table is flagged, either band."""
    filters: HoldFilters
    """The filters asked for."""
    rows: list[HoldRow]
    """Per table and wager."""


__all__ = [
    "HoldFilters",
    "HoldProgressive",
    "HoldReport",
    "HoldRow",
    "MetersReport",
    "Reconciliation",
    "ReportLevel",
    "ReportProgressive",
    "ReportRow",
]
