"""What a live event stream reads of the ledger: its sequence, the events after a sequence, and
every level's meter as of a sequence (:mod:`croupier.operations.live` turns them into the
stream's messages).

Each read is one statement on an engine that takes no writer lock (the ledger's ``reader``):

* :func:`head` — the newest event's ``seq``, ``max(seq)`` of the log's primary key: one index
  probe, however long the log, what a stream polls;
* :func:`events_after` — at most ``limit`` events with ``seq`` above a given one, oldest first
  (the primary key's range);
* :func:`awards_by_id` — the awards an event names, as they stand now;
* :func:`levels_at` — every level's meter and held amount as the events up to ``seq`` leave
  them: the sum of their deltas, grouped by level. The log's writers hold the chain head's lock
  (:mod:`croupier.progressive.schema`, ``ledger_chain``), so events commit in ``seq`` order and
  the events up to a ``seq`` seen once never change: the figures are those the pit saw at that
  event, whatever commits meanwhile. Its cost grows with the log (one grouped scan): a stream
  reads it once, when it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import Engine

import croupier.progressive.schema as t
from croupier.progressive.records import Award, LedgerEvent, award_from_row, stored_event


@dataclass(frozen=True)
class LevelMeter:
    """One level's meter as of an event: ``meter`` and ``held`` (the part held for awards
    pending validation) in micro-dollars; ``ordinal`` its place in its progressive."""

    progressive: str
    level: str
    ordinal: int
    meter: int
    held: int

    @property
    def available(self) -> int:
        """The meter less what is held: what a new share award is taken from, micro-dollars."""
        return self.meter - self.held


def head(engine: Engine) -> int:
    """The newest event's ``seq`` (0 for an empty log)."""
    with engine.connect() as conn:
        found = conn.execute(sa.select(sa.func.max(t.ledger_events.c.seq))).scalar()
    return int(found or 0)


def events_after(engine: Engine, after: int, limit: int) -> list[LedgerEvent]:
    """At most ``limit`` events with ``seq`` above ``after``, in ledger order, each with its
    progressive's name (``None`` for a staff or controller event)."""
    e = t.ledger_events
    q = (
        sa.select(e, t.progressives.c.name)
        .outerjoin(t.progressives, t.progressives.c.id == e.c.progressive_id)
        .where(e.c.seq > after)
        .order_by(e.c.seq)
        .limit(limit)
    )
    with engine.connect() as conn:
        rows = conn.execute(q).all()
    return [LedgerEvent(r.name, stored_event(r), r.created_at) for r in rows]


def levels_at(engine: Engine, seq: int) -> list[LevelMeter]:
    """Every level of every progressive as the events up to ``seq`` (inclusive) leave it, in
    the order of the progressives' names and the levels' ordinals; a level with no event by
    then is left out."""
    e, lv, p = t.ledger_events, t.meter_levels, t.progressives
    sums = (
        sa.select(
            e.c.progressive_id,
            e.c.level,
            sa.func.sum(e.c.meter_delta).label("meter"),
            sa.func.sum(e.c.held_delta).label("held"),
        )
        .where(e.c.seq <= seq, e.c.level.is_not(None), e.c.progressive_id.is_not(None))
        .group_by(e.c.progressive_id, e.c.level)
        .subquery()
    )
    q = (
        sa.select(p.c.name, lv.c.level, lv.c.ordinal, sums.c.meter, sums.c.held)
        .join(lv, lv.c.progressive_id == p.c.id)
        .join(sums, (sums.c.progressive_id == p.c.id) & (sums.c.level == lv.c.level))
        .order_by(p.c.name, lv.c.ordinal)
    )
    with engine.connect() as conn:
        rows = conn.execute(q).all()
    return [LevelMeter(r.name, r.level, r.ordinal, int(r.meter), int(r.held)) for r in rows]


def awards_by_id(engine: Engine, ids: set[int]) -> dict[int, Award]:
    """The awards of ``ids`` as the ledger has them now (by the primary key), by id."""
    if not ids:
        return {}
    a = t.awards
    q = (
        sa.select(a, t.progressives.c.name.label("progressive_name"))
        .join(t.progressives, t.progressives.c.id == a.c.progressive_id)
        .where(a.c.id.in_(sorted(ids)))
    )
    with engine.connect() as conn:
        rows = conn.execute(q).all()
    return {r.id: award_from_row(r, r.progressive_name) for r in rows}


__all__ = ["LevelMeter", "awards_by_id", "events_after", "head", "levels_at"]
