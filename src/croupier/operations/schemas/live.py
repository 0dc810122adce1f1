"""The live event stream's messages (``GET /events``, ``GET /events/display``): each
Server-Sent Event's ``data`` is one of these, as JSON; the event's name says which
(:data:`croupier.operations.live.EVENT_NAMES`) and its ``id`` is the ledger sequence."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.document import Document
from croupier.operations.schemas.progressives import Award, SignificantEvent

Dollars = Annotated[str, Field(examples=["$50,012.95", "$1,000.1875"])]
"""A meter in dollars, to the micro-dollar where it has one: ``meter_micros`` is the figure."""


class MeterValue(Shape):
    """One level's meter as of the stream's ``seq`` (§ 605a.7(a)(1): the meter visible from
    the front of the table)."""

    progressive: str
    """The progressive's name."""
    level: str
    """The level (Progressive, Mega, Major, …)."""
    meter: Dollars
    """The meter, as a sign shows it."""
    meter_micros: int
    """The meter in micro-dollars (10,000 per cent)."""
    available: Dollars
    """The meter less what is held for awards pending validation: what the next share award
    is taken from."""
    available_micros: int
    """The same, in micro-dollars."""


class MetersMessage(Shape):
    """``meters``: every level's meter as of ``seq``, sent first on every connection (and
    after a resumption, as of the ``Last-Event-ID``): a reader starts from it."""

    seq: int
    """The ledger sequence the meters are as of (the event's ``id``)."""
    meters: list[MeterValue]
    """Every level of every progressive, by progressive name, levels in their order."""


class MeterMessage(MeterValue):
    """``meter``: one level's meter changed (contributions, an award held or paid, a reset,
    an adjustment) — coalesced: at most one per level about every second, its value as of
    ``seq``."""

    seq: int
    """The newest ledger sequence the value includes (the event's ``id``)."""


class AwardMessage(Shape):
    """``award-pending``, ``award-validated``, ``award-paid`` or ``award-voided``: what
    happened to an award (§ 633b.2(h), § 633b.3(h)) at ledger event ``seq``."""

    seq: int
    """The ledger event (the SSE event's ``id``)."""
    at: str
    """When it was recorded (ISO 8601, UTC)."""
    by: str | None
    """Who did it: the dealer whose round made the award, the floorperson who validated,
    paid or voided it."""
    role: str | None
    """Their role."""
    reason: str | None
    """Why a voided award was voided; null otherwise."""
    award: Award
    """The award as the ledger has it when the message is read: a replayed ``award-pending``
    of an award paid since shows it paid."""


class SuspensionMessage(Shape):
    """``suspended`` or ``resumed``: a progressive taken out of play, or back (§ 605a.7)."""

    seq: int
    """The ledger event (the SSE event's ``id``)."""
    at: str
    """When (ISO 8601, UTC)."""
    progressive: str
    """The progressive."""
    by: str | None
    """Who suspended or resumed it."""
    reason: str | None
    """Why, as they gave it."""


class SignificantMessage(SignificantEvent):
    """``significant``: a significant event of the controller — sent only to a shift manager
    or an auditor (NIST SP 800-53 AU-9(4): they name members and client addresses)."""


class EndMessage(Shape):
    """``end``: the service ends the stream — it is stopping, or the reader's token expired
    or was revoked; the reader connects again (after logging in again, for a token)."""

    reason: str
    """Why, in one sentence."""


EVENTS: tuple[Document, ...] = (
    Document(
        "events-award",
        "GET /events: award-pending, award-validated, award-paid, award-voided",
        AwardMessage,
    ),
    Document("events-end", "GET /events, GET /events/display: end", EndMessage),
    Document("events-meter", "GET /events, GET /events/display: meter", MeterMessage),
    Document("events-meters", "GET /events, GET /events/display: meters", MetersMessage),
    Document(
        "events-significant",
        "GET /events (shift manager, auditor): significant",
        SignificantMessage,
    ),
    Document("events-suspension", "GET /events: suspended, resumed", SuspensionMessage),
)
"""The stream's messages' schema files (:mod:`.registry`)."""


__all__ = [
    "EVENTS",
    "AwardMessage",
    "EndMessage",
    "MeterMessage",
    "MeterValue",
    "MetersMessage",
    "SignificantMessage",
    "SuspensionMessage",
]
