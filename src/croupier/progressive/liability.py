"""What the house owes on a progressive, per level, at a moment and over a period: the liability
report (58 Pa. Code § 605a.7(a); NSW Gaming Machines Regulation 2019 cl. 88's progressive
reconciliation; docs/interpretations.md, *The liability report*).

At an instant a level owes

    liability = available meter + pending awards + reserve

— the meter players see less what it holds for awards pending validation (``available``), every
award won and not yet paid or voided (``pending``: held on the meter under
:attr:`~croupier.progressive.model.ResetTiming.ON_VALIDATION`, already off it under
``ON_AWARD``'s jackpot lock), and the reserve that funds the next reseed. Over ``[start, end)``:

    closing = opening + contributions + reseeds + adjustments − awards paid

contributions are the increments of the period's wagers (meter and reserve), reseeds what the
house put in (a new progressive's seeds, each reset's top-up or new seed), adjustments the pit
manager's corrections (§ 605a.7(a)(6)) and awards paid what left the progressive when a pending
award was paid. A hit only moves money from the meter to a pending award, and a void moves it
back: neither changes what is owed. Everything is replayed from the log, as the reconciliation
(:mod:`croupier.progressive.report`) is, and :func:`agrees` checks the two against each other.

Money is integer micro-dollars (``*_micros``), as the meters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from croupier.paytables import MeterLevel
from croupier.progressive.meters import Replayer, StoredEvent
from croupier.progressive.model import MICROS_PER_CENT, AwardKind, AwardStatus, EventKind
from croupier.progressive.model import ProgressiveDefinition as Definition
from croupier.progressive.records import Award, replay_awards
from croupier.progressive.report import LevelReconciliation, Reconciliation, _naive, check_period


@dataclass(frozen=True)
class Owed:
    """What one level owes at an instant, in micro-dollars: ``meter`` (shown to players),
    ``held`` (the part of it held for pending awards), ``pending`` (every pending award's value
    from the meter, held or locked off it) and ``reserve``."""

    meter: int = 0
    held: int = 0
    pending: int = 0
    reserve: int = 0

    @property
    def available(self) -> int:
        """The meter less what it holds for pending awards."""
        return self.meter - self.held

    @property
    def total(self) -> int:
        """The liability: available meter + pending awards + reserve."""
        return self.available + self.pending + self.reserve


@dataclass(frozen=True)
class LevelLiability:
    """One level over the period: what it owed at the opening and the closing instant and the
    flows between (micro-dollars), with the counts of awards made, paid and voided."""

    level: MeterLevel
    opening: Owed
    contributions_micros: int
    reseeds_micros: int
    adjustments_micros: int
    awards_paid_micros: int
    closing: Owed
    awards_made: int = 0
    awards_paid: int = 0
    awards_voided: int = 0

    @property
    def balanced(self) -> bool:
        """Whether closing = opening + contributions + reseeds + adjustments − awards paid."""
        flows = self.contributions_micros + self.reseeds_micros + self.adjustments_micros
        return self.opening.total + flows - self.awards_paid_micros == self.closing.total


@dataclass(frozen=True)
class Liability:
    """A progressive's liability over ``[start, end)`` (``None``: from the first event / to the
    last), its levels, and the awards pending at the closing instant."""

    progressive: str
    start: datetime | None
    end: datetime | None
    levels: tuple[LevelLiability, ...]
    pending: tuple[Award, ...]
    events: int

    @property
    def balanced(self) -> bool:
        """Whether every level balances."""
        return all(lv.balanced for lv in self.levels)

    @property
    def opening_micros(self) -> int:
        """What the progressive owed at the opening instant, every level together."""
        return sum(lv.opening.total for lv in self.levels)

    @property
    def closing_micros(self) -> int:
        """What the progressive owes at the closing instant, every level together."""
        return sum(lv.closing.total for lv in self.levels)


def _owed(r: Replayer) -> dict[MeterLevel, Owed]:
    """Each level's :class:`Owed` after the events ``r`` has applied."""
    pending: dict[MeterLevel, int] = {}
    for a in r.awards.values():
        if a.status is AwardStatus.PENDING:
            pending[a.level] = pending.get(a.level, 0) + a.meter_cents * MICROS_PER_CENT
    return {lv: Owed(s.meter, s.held, pending.get(lv, 0), s.reserve) for lv, s in r.states.items()}


_FLOWS = ("contributions", "reseeds", "adjustments", "paid", "made", "paid_n", "voided")


def _flow(f: dict[str, int], e: StoredEvent) -> None:
    """Add event ``e``'s part to its level's flows ``f``."""
    k, d = e.kind, e.delta
    if k is EventKind.CONTRIBUTION:
        f["contributions"] += d.meter + d.reserve
    elif k in (EventKind.SEED, EventKind.RESET):  # what the house put in
        f["reseeds"] += d.meter + d.reserve
    elif k is EventKind.ADJUSTMENT and e.detail.get("void_award") is None:
        f["adjustments"] += d.meter + d.reserve
    elif k is EventKind.ADJUSTMENT:  # a void: the award's value back to the meter, or unheld
        f["voided"] += 1
    elif k is EventKind.PAYMENT:
        f["paid"] += int(e.detail.get("meter_cents", 0)) * MICROS_PER_CENT
        f["paid_n"] += 1
    elif k is EventKind.AWARD and e.detail.get("kind") == AwardKind.METER.value:
        f["made"] += 1


def liability(
    defn: Definition,
    events: Sequence[tuple[StoredEvent, datetime]],
    start: datetime | None = None,
    end: datetime | None = None,
    numbers: Mapping[int, int] | None = None,
) -> Liability:
    """The liability of ``defn`` over ``[start, end)`` from its ``events`` (in ledger order,
    each with the time it was recorded); ``end`` alone is the liability at that instant. The
    pending awards carry their ``numbers`` (by id: the ``awards`` table's) when given.
    :class:`~croupier.errors.InputError` for a period that ends before or when it starts;
    :class:`~croupier.errors.LedgerIntegrityError` for an event the definition does not make."""
    check_period(start, end)
    lo = _naive(start) if start is not None else None
    hi = _naive(end) if end is not None else None
    r = Replayer.for_log(defn, [e for e, _ in events])
    flows = {lv.level: dict.fromkeys(_FLOWS, 0) for lv in defn.levels}
    opening: dict[MeterLevel, Owed] | None = None
    seen: list[StoredEvent] = []
    n = 0
    for e, at in events:
        t = _naive(at)
        if hi is not None and t >= hi:
            break
        if lo is None or t >= lo:
            if opening is None:
                opening = _owed(r)
            n += 1
            if e.level is not None and e.level in flows:
                _flow(flows[e.level], e)
        r.apply(e)
        seen.append(e)
    closing = _owed(r)
    if opening is None:  # no event in the period: it opens as it closes
        opening = closing
    levels = tuple(
        LevelLiability(
            level=lv.level,
            opening=opening.get(lv.level, Owed()),
            contributions_micros=flows[lv.level]["contributions"],
            reseeds_micros=flows[lv.level]["reseeds"],
            adjustments_micros=flows[lv.level]["adjustments"],
            awards_paid_micros=flows[lv.level]["paid"],
            closing=closing.get(lv.level, Owed()),
            awards_made=flows[lv.level]["made"],
            awards_paid=flows[lv.level]["paid_n"],
            awards_voided=flows[lv.level]["voided"],
        )
        for lv in defn.levels
    )
    pending = tuple(
        a
        for a in replay_awards(defn.name, seen, numbers).values()
        if a.kind is AwardKind.METER and a.status is AwardStatus.PENDING
    )
    return Liability(defn.name, start, end, levels, pending, n)


def level_agrees(lv: LevelLiability, rec: LevelReconciliation) -> bool:
    """Whether a level's liability and its reconciliation over the same period tell the same
    story: the same opening and closing meter and reserve, the same contributions (meter and
    reserve together) and the same money from the house."""
    return (
        (lv.opening.meter, lv.opening.reserve) == (rec.opening_micros, rec.opening_reserve_micros)
        and (lv.closing.meter, lv.closing.reserve)
        == (rec.closing_micros, rec.closing_reserve_micros)
        and lv.contributions_micros == rec.contributions_micros + rec.reserve_contributions_micros
        and lv.reseeds_micros == rec.house_micros
    )


def agrees(li: Liability, rec: Reconciliation) -> bool:
    """Whether every level of ``li`` agrees with the reconciliation ``rec`` of the same
    progressive and period (:func:`level_agrees`)."""
    by_level = {lv.level: lv for lv in rec.levels}
    return li.progressive == rec.progressive and all(
        lv.level in by_level and level_agrees(lv, by_level[lv.level]) for lv in li.levels
    )


__all__ = ["LevelLiability", "Liability", "Owed", "agrees", "level_agrees", "liability"]
