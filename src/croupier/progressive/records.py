"""What the ledger returns: frozen views of awards, rounds, settlements, events and staff, and
their conversions from database rows (:mod:`croupier.progressive.schema`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from croupier.paytables import MeterLevel
from croupier.progressive.meters import Delta, LevelState, StoredEvent
from croupier.progressive.model import (
    AwardKind,
    AwardStatus,
    EventKind,
    ProgressiveDefinition,
    Role,
    RoundStatus,
)
from croupier.progressive.store import dumps

# -- what the ledger returns ----------------------------------------------------------------


@dataclass(frozen=True)
class Award:
    """One payout recorded by the ledger. ``amount_cents`` is what the player is handed;
    ``meter_cents`` the part taken from a meter level (share awards). ``id`` is the key every
    award has (the API's paths name it); ``number`` the one people are told, counting meter
    awards alone (1, 2, … across the ledger in id order; ``None`` for an odds or envy pay)."""

    id: int
    progressive: str
    round_id: str
    table_id: str
    position: int
    outcome: str
    kind: AwardKind
    status: AwardStatus
    amount_cents: int
    meter_cents: int = 0
    level: MeterLevel | None = None
    share: Fraction | None = None
    source_position: int | None = None
    validated_by: str | None = None
    number: int | None = None

    @property
    def label(self) -> str:
        """How people are told the award (:func:`award_words`): ``award 1 (id 3)``."""
        return award_words(self.id, self.number, self.kind.value)


def award_words(award_id: int, number: int | None, kind: str) -> str:
    """How people are told an award: a meter award by its number with the id a command or a
    path takes, ``award 1 (id 3)``; an odds or envy pay, which has no number, by its kind and
    id, ``odds pay (id 2)``, ``envy bonus (id 4)``."""
    if number is not None:
        return f"award {number} (id {award_id})"
    what = "envy bonus" if kind == AwardKind.ENVY.value else "odds pay"
    return f"{what} (id {award_id})"


@dataclass(frozen=True)
class Contribution:
    """What one round's wagers added to one level, in micro-dollars."""

    level: MeterLevel
    meter_micros: int
    reserve_micros: int


@dataclass(frozen=True)
class RoundSettlement:
    """The result of :meth:`ProgressiveSystem.settle_round`. ``replayed`` is True when the
    idempotency key had been settled already and nothing was changed."""

    progressive: str
    round_id: str
    table_id: str
    idempotency_key: str
    contributions: tuple[Contribution, ...]
    awards: tuple[Award, ...]
    replayed: bool = False

    @property
    def pending(self) -> tuple[Award, ...]:
        """The awards waiting for a floorperson's validation."""
        return tuple(a for a in self.awards if a.status is AwardStatus.PENDING)


@dataclass(frozen=True)
class RoundView:
    """A round as the ledger holds it."""

    progressive: str
    round_id: str
    table_id: str
    status: RoundStatus
    positions: tuple[int, ...]
    chips_counted: int | None
    content: str | None = None


@dataclass(frozen=True)
class ProgressiveStatus:
    """A progressive's definition, linked tables, current levels and pending awards."""

    definition: ProgressiveDefinition
    tables: tuple[str, ...]
    levels: tuple[LevelState, ...]
    pending: tuple[Award, ...]


@dataclass(frozen=True)
class LedgerEvent:
    """One event of the log with the progressive it belongs to (``None`` for staff events)."""

    progressive: str | None
    event: StoredEvent
    created_at: datetime


@dataclass(frozen=True)
class StaffMember:
    """A staff member, as :meth:`Ledger.authenticate` returns them once their credential is
    checked: the identity a command (or a service token) acts as."""

    name: str
    role: Role
    since: int = field(default=0, repr=False, compare=False)
    """The seq of the staff event that last set the member's role or credential, or logged them
    out, when they were authenticated (:class:`~croupier.progressive.roster.LoggedMember`): a
    token issued now names it."""


def level_from_row(r: Any) -> LevelState:
    """A ``meter_levels`` row as a :class:`LevelState`."""
    return LevelState(
        MeterLevel(r.level),
        r.meter_micros,
        r.reserve_micros,
        r.held_micros,
        r.wagered_cents,
        r.paid_cents,
        r.hits,
    )


def level_columns(s: LevelState) -> dict[str, int]:
    """A :class:`LevelState`'s figures under their ``meter_levels`` column names (the inverse of
    :func:`level_from_row`, the level's name and order aside)."""
    return {
        "meter_micros": s.meter,
        "reserve_micros": s.reserve,
        "held_micros": s.held,
        "wagered_cents": s.wagered_cents,
        "paid_cents": s.paid_cents,
        "hits": s.hits,
    }


def award_from_row(r: Any, progressive: str) -> Award:
    return Award(
        id=r.id,
        progressive=progressive,
        round_id=r.round_id,
        table_id=r.table_id,
        position=r.position,
        outcome=r.outcome,
        kind=AwardKind(r.kind),
        status=AwardStatus(r.status),
        amount_cents=r.amount_cents,
        meter_cents=r.meter_cents,
        level=MeterLevel(r.level) if r.level is not None else None,
        share=Fraction(r.share) if r.share is not None else None,
        source_position=r.source_position if r.source_position != r.position else None,
        validated_by=r.validated_by,
        number=r.number,
    )


def stored_event(r: Any) -> StoredEvent:
    return StoredEvent(
        seq=r.seq,
        kind=EventKind(r.kind),
        level=MeterLevel(r.level) if r.level is not None else None,
        delta=Delta(
            r.meter_delta,
            r.reserve_delta,
            r.held_delta,
            r.wagered_delta,
            r.paid_delta,
            r.hits_delta,
        ),
        round_id=r.round_id,
        table_id=r.table_id,
        position=r.position,
        award_id=r.award_id,
        amount_cents=r.amount_cents,
        actor=r.actor,
        actor_role=r.actor_role,
        detail=json.loads(r.detail),
    )


def replay_awards(
    progressive: str, events: Iterable[StoredEvent], numbers: Mapping[int, int] | None = None
) -> dict[int, Award]:
    """The awards made by ``events`` (in ledger order), by id, each as its ``award`` or ``envy``
    event recorded it and with the status its later validation, payment or void gave it: what
    the ledger pays from and what :meth:`Ledger.verify` compares the ``awards`` table with.
    ``numbers`` gives the meter awards' numbers by id (:func:`award_numbers`; none without it:
    a number is counted over the whole ledger, not one progressive's events)."""
    numbers = numbers or {}
    out: dict[int, Award] = {}
    for e in events:
        k, d, aid = e.kind, e.detail, e.award_id
        if aid is None:
            continue
        if k in (EventKind.AWARD, EventKind.ENVY):
            kind = AwardKind(d.get("kind", "envy" if k is EventKind.ENVY else "odds"))
            src = d.get("source_position")
            out[aid] = Award(
                id=aid,
                progressive=progressive,
                round_id=e.round_id or "",
                table_id=e.table_id or "",
                position=e.position or 0,
                outcome=str(d.get("outcome", "")),
                kind=kind,
                status=AwardStatus.PENDING if kind is AwardKind.METER else AwardStatus.PAID,
                amount_cents=e.amount_cents or 0,
                meter_cents=int(d.get("meter_cents", 0)),
                level=e.level if kind is AwardKind.METER else None,
                share=Fraction(d["share"]) if d.get("share") is not None else None,
                source_position=int(src) if src is not None else None,
                number=numbers.get(aid) if kind is AwardKind.METER else None,
            )
        elif aid in out:
            a = out[aid]
            if k is EventKind.VALIDATION:
                out[aid] = replace(a, validated_by=e.actor)
            elif k is EventKind.PAYMENT:
                out[aid] = replace(a, status=AwardStatus.PAID)
            elif k is EventKind.ADJUSTMENT and d.get("void_award") is not None:
                out[aid] = replace(a, status=AwardStatus.VOIDED, validated_by=e.actor)
            elif k is EventKind.SHARE:  # re-split with a near-simultaneous hit (HitPolicy.SHARE)
                out[aid] = replace(
                    a, amount_cents=e.amount_cents or 0, meter_cents=int(d["meter_cents"])
                )
    return out


def award_numbers(events: Iterable[StoredEvent]) -> dict[int, int]:
    """The numbers people are told for the meter awards that ``events`` (the whole ledger's)
    make: 1, 2, … in id order, by id — an odds or envy pay has none. What the ``awards`` table's
    ``number`` must hold (the ids and kinds are in the chained log, so the numbers are too)."""
    ids = sorted(
        e.award_id
        for e in events
        if e.award_id is not None
        and e.kind is EventKind.AWARD
        and e.detail.get("kind") == AwardKind.METER.value
    )
    return {aid: n for n, aid in enumerate(ids, 1)}


def settlement_to_json(s: RoundSettlement) -> str:
    return dumps(
        {
            "progressive": s.progressive,
            "round_id": s.round_id,
            "table_id": s.table_id,
            "idempotency_key": s.idempotency_key,
            "contributions": [
                [c.level.value, c.meter_micros, c.reserve_micros] for c in s.contributions
            ],
            "awards": [
                {
                    "id": a.id,
                    "position": a.position,
                    "outcome": a.outcome,
                    "kind": a.kind.value,
                    "status": a.status.value,
                    "amount_cents": a.amount_cents,
                    "meter_cents": a.meter_cents,
                    "level": a.level.value if a.level is not None else None,
                    "share": str(a.share) if a.share is not None else None,
                    "source_position": a.source_position,
                }
                for a in s.awards
            ],
        }
    )
