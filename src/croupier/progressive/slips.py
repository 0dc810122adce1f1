"""What a hand-pay slip prints of an award: the award as its events made it and each of its
ledger events with its sequence number and chain MAC, so that the paper can be checked against
the ledger (N.J.A.C. 13:69E-1.39C's record of every win; N.J.A.C. 13:69D-1.40(e)'s supervisor
sign-off; § 633b.2(h)(3)'s validation by a floorperson or above).

The MAC printed is the event's link of the HMAC chain
(:func:`~croupier.progressive.store.event_mac`): ``croupier meters verify`` recomputes it from
the event's fields and the one before, so a slip whose sequence number and MAC match the
verified ledger is the ledger's record of that award, and one altered since does not match.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

import croupier.progressive.schema as t
from croupier.errors import LedgerIntegrityError, LedgerLookupError
from croupier.progressive.ledger import Ledger
from croupier.progressive.model import EventKind
from croupier.progressive.records import Award, LedgerEvent, replay_awards, stored_event


@dataclass(frozen=True)
class TrailEvent:
    """One ledger event of an award and its chain MAC (hex)."""

    event: LedgerEvent
    mac: str

    @property
    def seq(self) -> int:
        """The event's sequence number in the ledger."""
        return self.event.event.seq

    @property
    def kind(self) -> EventKind:
        """What the event is: ``award``, ``validation``, ``payment``, ``reset``, …"""
        return self.event.event.kind

    @property
    def at(self) -> datetime:
        """When it was recorded (UTC)."""
        return self.event.created_at


@dataclass(frozen=True)
class AwardTrail:
    """An award as its events made it (:func:`~croupier.progressive.records.replay_awards`),
    with those events in ledger order."""

    award: Award
    events: tuple[TrailEvent, ...]

    def first(self, kind: EventKind) -> TrailEvent | None:
        """The award's first event of ``kind`` (its ``award`` event, its ``validation``, its
        ``payment``), or ``None``."""
        return next((e for e in self.events if e.kind is kind), None)

    @property
    def made(self) -> TrailEvent:
        """The event that made the award (``award``, or ``envy`` for an envy bonus)."""
        found = self.first(EventKind.AWARD) or self.first(EventKind.ENVY)
        assert found is not None  # award_trail refuses an award without one
        return found

    @property
    def voided(self) -> TrailEvent | None:
        """The adjustment that voided it, if one did."""
        return next(
            (
                e
                for e in self.events
                if e.kind is EventKind.ADJUSTMENT and e.event.event.detail.get("void_award")
            ),
            None,
        )


def award_trail(ledger: Ledger, award_id: int) -> AwardTrail:
    """The award ``award_id`` and its ledger events (one indexed read of the log by award id):
    :class:`~croupier.errors.LedgerLookupError` for an award the ledger does not hold (or that
    is not a whole number), :class:`~croupier.errors.LedgerIntegrityError` for one with no award
    event."""
    if type(award_id) is not int or not 1 <= award_id <= t.MAX_INT:
        raise LedgerLookupError(f"no award {award_id!r}")
    row = ledger.award(award_id)
    e = t.ledger_events
    with ledger.reader.connect() as conn:
        rows = conn.execute(
            sa.select(e, t.progressives.c.name)
            .join(t.progressives, t.progressives.c.id == e.c.progressive_id)
            .where(e.c.award_id == award_id, t.progressives.c.name == row.progressive)
            .order_by(e.c.seq)
        ).all()
    events = tuple(
        TrailEvent(LedgerEvent(r.name, stored_event(r), r.created_at), r.mac or "") for r in rows
    )
    numbers = {award_id: row.number} if row.number is not None else {}
    made = replay_awards(row.progressive, [x.event.event for x in events], numbers).get(award_id)
    if made is None:
        raise LedgerIntegrityError(
            f"award {award_id} has a row but no award event: run `croupier meters verify`"
        )
    return AwardTrail(made, events)


__all__ = ["AwardTrail", "TrailEvent", "award_trail"]
