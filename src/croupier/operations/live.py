"""The live event stream's messages, made from the ledger's log (``GET /events``, ``GET
/events/display``; docs/interpretations.md, *The live event stream*).

A :class:`Feed` follows the log from a ledger sequence: :meth:`Feed.start` answers the
``meters`` message (every level as of that sequence), then each :meth:`Feed.poll` reads the
events committed since (at most :data:`BATCH` at a time) and answers what they mean, in ledger
order, filtered by what its reader may read:

=================  ================================================  ======================
message            ledger events                                     who reads it
=================  ================================================  ======================
``award-pending``  ``award`` of a share of a meter                   every staff member
``award-validated`` ``validation``                                   every staff member
``award-paid``     ``payment``                                       every staff member
``award-voided``   ``adjustment`` voiding an award                   every staff member
``suspended``,     ``suspend``, ``resume``                           every staff member
``resumed``
``significant``    ``significant``                                   a shift manager or an
                                                                     auditor
``meter``          any event moving a level's meter or held amount  everyone, the display
                                                                     feed too
=================  ================================================  ======================

Every message's ``id`` is a ledger sequence, never decreasing along a stream: an award's or a
suspension's is its own event's; a ``meter`` message is coalesced — at most one per level every
``coalesce`` seconds — and carries the sequence of the newest event the feed has read when it is
sent (its value is as of that event), so it comes after the messages of that poll. A reader
that reconnects with the last id it saw (``Last-Event-ID``) misses nothing: its ``meters``
message is as of that id (a change coalesced and not yet sent is in it) and every event after
it is read again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from croupier.progressive import EventKind, Role, format_micros
from croupier.progressive.feed import LevelMeter, awards_by_id, events_after, head, levels_at
from croupier.progressive.records import LedgerEvent
from croupier.progressive.significant import READER as SIGNIFICANT_READER
from croupier.progressive.views import award_dict, significant_dict, utc_iso

BATCH = 500
"""Events read per poll at most: a reader resuming far back catches up a batch at a time."""

COALESCE_SECONDS = 1.0
"""A level's ``meter`` messages are at least this far apart (a busy pit's contributions)."""

EVENT_NAMES = (
    "meters",
    "meter",
    "award-pending",
    "award-validated",
    "award-paid",
    "award-voided",
    "suspended",
    "resumed",
    "significant",
    "end",
)
"""Every event name a stream sends."""

_AWARD_EVENTS = {
    EventKind.VALIDATION: "award-validated",
    EventKind.PAYMENT: "award-paid",
}


@dataclass(frozen=True)
class Message:
    """One Server-Sent Event: its ``id`` (a ledger sequence), its name and its ``data``."""

    seq: int
    event: str
    data: dict[str, Any]


def _meter(m: LevelMeter) -> dict[str, Any]:
    return {
        "progressive": m.progressive,
        "level": m.level,
        "meter": format_micros(m.meter),
        "meter_micros": m.meter,
        "available": format_micros(m.available),
        "available_micros": m.available,
    }


class Feed:
    """The messages of one stream, read by ``role`` (``None``: the display feed, meters only)
    from ``engine`` (an engine that takes no writer lock), from ledger sequence ``after``
    (``None``: the newest)."""

    def __init__(
        self,
        engine: Engine,
        role: Role | None,
        after: int | None = None,
        *,
        coalesce: float = COALESCE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.role = role
        self.seq = after
        self.coalesce = coalesce
        self.clock = clock
        self.levels: dict[tuple[str, str], LevelMeter] = {}
        self.dirty: set[tuple[str, str]] = set()
        self.sent: dict[tuple[str, str], float] = {}

    def start(self) -> Message:
        """The ``meters`` message: every level as of the feed's sequence (the newest, when it
        was given none; a sequence beyond the newest is read as the newest)."""
        newest = head(self.engine)
        self.seq = newest if self.seq is None else min(max(self.seq, 0), newest)
        found = levels_at(self.engine, self.seq)
        self.levels = {(m.progressive, m.level): m for m in found}
        return Message(self.seq, "meters", {"seq": self.seq, "meters": [_meter(m) for m in found]})

    def poll(self) -> list[Message]:
        """The messages of the events committed since the last poll (at most :data:`BATCH`),
        then the ``meter`` messages due."""
        assert self.seq is not None, "start() first"
        events = events_after(self.engine, self.seq, BATCH)
        out: list[Message] = []
        wanted = {e.event.award_id for e in events if self._names_award(e)}
        awards = awards_by_id(self.engine, {a for a in wanted if a is not None})
        for e in events:
            self._move_meter(e)
            message = self._message(e, awards)
            if message is not None and self._may_read(message.event):
                out.append(message)
            self.seq = e.event.seq
        return out + self._meters_due()

    # -- what an event means ------------------------------------------------------------
    def _names_award(self, e: LedgerEvent) -> bool:
        return self.role is not None and self._award_event(e) is not None

    @staticmethod
    def _award_event(e: LedgerEvent) -> str | None:
        ev = e.event
        if ev.award_id is None:
            return None
        if ev.kind is EventKind.AWARD and ev.detail.get("kind") == "meter":
            return "award-pending"
        if ev.kind is EventKind.ADJUSTMENT and ev.detail.get("void_award") is not None:
            return "award-voided"
        return _AWARD_EVENTS.get(ev.kind)

    def _message(self, e: LedgerEvent, awards: dict[int, Any]) -> Message | None:
        ev = e.event
        at = utc_iso(e.created_at)
        name = self._award_event(e)
        if name is not None and ev.award_id in awards:
            reason = ev.detail.get("reason") if name == "award-voided" else None
            data = {
                "seq": ev.seq,
                "at": at,
                "by": ev.actor,
                "role": ev.actor_role,
                "reason": reason,
                "award": award_dict(awards[ev.award_id]),
            }
            return Message(ev.seq, name, data)
        if ev.kind in (EventKind.SUSPEND, EventKind.RESUME) and e.progressive is not None:
            name = "suspended" if ev.kind is EventKind.SUSPEND else "resumed"
            data = {
                "seq": ev.seq,
                "at": at,
                "progressive": e.progressive,
                "by": ev.actor,
                "reason": ev.detail.get("reason"),
            }
            return Message(ev.seq, name, data)
        if ev.kind is EventKind.SIGNIFICANT:
            return Message(ev.seq, "significant", significant_dict(e))
        return None

    def _may_read(self, event: str) -> bool:
        """Whether the feed's reader reads messages named ``event``."""
        if self.role is None:
            return event in ("meters", "meter")
        if event == "significant":
            return self.role.may_read(SIGNIFICANT_READER)
        return True

    # -- meters -------------------------------------------------------------------------
    def _move_meter(self, e: LedgerEvent) -> None:
        ev = e.event
        if ev.level is None or e.progressive is None:
            return
        if not (ev.delta.meter or ev.delta.held):
            return
        key = (e.progressive, ev.level.value)
        was = self.levels.get(key) or LevelMeter(e.progressive, ev.level.value, 0, 0, 0)
        self.levels[key] = LevelMeter(
            was.progressive, was.level, was.ordinal, was.meter + ev.delta.meter,
            was.held + ev.delta.held,
        )  # fmt: skip
        self.dirty.add(key)

    def _meters_due(self) -> list[Message]:
        """A ``meter`` message for each level changed and not sent within ``coalesce``
        seconds, as of the feed's sequence."""
        assert self.seq is not None
        now = self.clock()
        due = [k for k in sorted(self.dirty) if now - self.sent.get(k, -1e18) >= self.coalesce]
        out = []
        for k in due:
            self.dirty.discard(k)
            self.sent[k] = now
            out.append(Message(self.seq, "meter", {**_meter(self.levels[k]), "seq": self.seq}))
        return out


__all__ = ["BATCH", "COALESCE_SECONDS", "EVENT_NAMES", "Feed", "Message"]
