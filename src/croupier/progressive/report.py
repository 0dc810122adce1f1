"""The reconciliation of a progressive's meters over a period (a shift, a day, a month), per level
(58 Pa. Code § 605a.7(a); the reconciliation reports of NJ N.J.A.C. 13:69E-1.39A–C): the opening
meter, what the period's events added or took away, by kind, and the closing meter — with the
balance equation checked:

    closing = opening + contributions + resets + adjustments − awards from the meter

for the meter shown to players, and the same for the reserve (contributions there are the
secondary increments and any overflow above the limit; a reset moves the reserve onto the
meter). Awards paid by the table (odds lines, envy) and by an attendant (shares of the meter)
in the period are reported beside it. Everything is replayed from the log
(:class:`~croupier.progressive.meters.Replayer`): the opening and closing meters are the levels
the events up to each instant replay to, so the equation checks the flows against the replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from croupier.errors import InputError
from croupier.paytables import MeterLevel
from croupier.progressive.meters import Replayer, StoredEvent
from croupier.progressive.model import AwardKind, EventKind, ProgressiveDefinition


@dataclass(frozen=True)
class LevelReconciliation:
    """One level over the period; money in micro-dollars (``*_micros``) or cents."""

    level: MeterLevel
    opening_micros: int
    contributions_micros: int
    awards_micros: int
    resets_micros: int
    adjustments_micros: int
    closing_micros: int
    opening_reserve_micros: int
    reserve_contributions_micros: int
    reserve_resets_micros: int
    reserve_adjustments_micros: int
    closing_reserve_micros: int
    paid_by_attendant_cents: int
    wagers: int
    house_micros: int = 0
    """What the house put into the level in the period: the initial seed, and at each reset what
    the reset added to meter and reserve together — the whole seed (``HOUSE``), or the top-up
    the reserve lacked of it (``RESERVE``; the reserve's own part only moves to the meter)."""

    @property
    def balanced(self) -> bool:
        """Whether the balance equations hold (meter and reserve)."""
        meter = (
            self.opening_micros
            + self.contributions_micros
            + self.resets_micros
            + self.adjustments_micros
            - self.awards_micros
        )
        reserve = (
            self.opening_reserve_micros
            + self.reserve_contributions_micros
            + self.reserve_resets_micros
            + self.reserve_adjustments_micros
        )
        return meter == self.closing_micros and reserve == self.closing_reserve_micros


@dataclass(frozen=True)
class Reconciliation:
    """A progressive over ``[start, end)`` (``None``: from the first event / to the last)."""

    progressive: str
    start: datetime | None
    end: datetime | None
    levels: tuple[LevelReconciliation, ...]
    paid_by_table_cents: int
    events: int

    @property
    def balanced(self) -> bool:
        """Whether every level balances."""
        return all(lv.balanced for lv in self.levels)


def _naive(dt: datetime) -> datetime:
    from croupier.progressive.store import timestamp

    return datetime.fromisoformat(timestamp(dt))


def check_period(
    start: datetime | None,
    end: datetime | None,
    names: tuple[str, str] = ("--from", "--to"),
    what: str = "the period to reconcile",
) -> None:
    """:class:`~croupier.errors.InputError` for a period ``[start, end)`` that ends before or
    when it starts (an open end is no error); the message names the bounds as ``names`` (the
    CLI's options, or the service's query parameters) and the period as ``what`` (the period of
    a report's rounds: nothing is in an empty one, and an empty report must not look like a
    quiet period)."""
    if start is not None and end is not None and _naive(end) <= _naive(start):
        raise InputError(
            f"{what} ends ({end.isoformat()}) before or when it starts "
            f"({start.isoformat()}): give {names[0]} before {names[1]}"
        )


def reconcile(
    defn: ProgressiveDefinition,
    events: Sequence[tuple[StoredEvent, datetime]],
    start: datetime | None = None,
    end: datetime | None = None,
) -> Reconciliation:
    """Reconcile ``defn`` over ``[start, end)`` from its ``events`` (in ledger order, each with
    the time it was recorded). :class:`~croupier.errors.InputError` for a period that ends before
    or when it starts."""
    check_period(start, end)
    lo = _naive(start) if start is not None else None
    hi = _naive(end) if end is not None else None
    before = Replayer.for_log(defn, [e for e, _ in events])
    keys = ("contrib", "awards", "resets", "adjust", "r_contrib", "r_resets", "r_adjust", "house")
    flows = {lv.level: dict.fromkeys((*keys, "attendant", "wagers"), 0) for lv in defn.levels}
    table_cents = n = 0
    opening: dict[MeterLevel, tuple[int, int]] | None = None
    for e, at in events:
        t = _naive(at)
        if lo is not None and t < lo:
            before.apply(e)
            continue
        if hi is not None and t >= hi:
            break
        if opening is None:
            opening = {lv: (s.meter, s.reserve) for lv, s in before.states.items()}
        before.apply(e)
        n += 1
        k = e.kind
        if k in (EventKind.AWARD, EventKind.ENVY) and e.detail.get("kind") != AwardKind.METER.value:
            table_cents += e.amount_cents or 0
        if e.level is None or e.level not in flows:
            continue
        f, d = flows[e.level], e.delta
        if k is EventKind.SEED:  # the progressive created in the period: its first (re)seed
            f["resets"] += d.meter
            f["house"] += d.meter
        elif k is EventKind.CONTRIBUTION:
            f["contrib"] += d.meter
            f["r_contrib"] += d.reserve
            f["wagers"] += int(e.detail.get("wagers", 0))
        elif k in (EventKind.AWARD, EventKind.PAYMENT):
            f["awards"] -= d.meter
            if k is EventKind.PAYMENT:
                f["attendant"] += e.amount_cents or 0
        elif k is EventKind.RESET:
            f["resets"] += d.meter
            f["r_resets"] += d.reserve
            f["house"] += d.meter + d.reserve
        elif k is EventKind.ADJUSTMENT:
            f["adjust"] += d.meter
            f["r_adjust"] += d.reserve
    closing = before.states
    if opening is None:  # no event in the period: it opens as it closes
        opening = {lv: (s.meter, s.reserve) for lv, s in closing.items()}
    levels = []
    for lv in defn.levels:
        f = flows[lv.level]
        o_meter, o_reserve = opening.get(lv.level, (0, 0))
        c = closing.get(lv.level)
        levels.append(
            LevelReconciliation(
                level=lv.level,
                opening_micros=o_meter,
                contributions_micros=f["contrib"],
                awards_micros=f["awards"],
                resets_micros=f["resets"],
                adjustments_micros=f["adjust"],
                closing_micros=c.meter if c is not None else 0,
                opening_reserve_micros=o_reserve,
                reserve_contributions_micros=f["r_contrib"],
                reserve_resets_micros=f["r_resets"],
                reserve_adjustments_micros=f["r_adjust"],
                closing_reserve_micros=c.reserve if c is not None else 0,
                paid_by_attendant_cents=f["attendant"],
                wagers=f["wagers"],
                house_micros=f["house"],
            )
        )
    return Reconciliation(defn.name, start, end, tuple(levels), table_cents, n)
