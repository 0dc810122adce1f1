"""The meters a progressive table game system keeps (58 Pa. Code § 605a.7(a)), per progressive
and level, each one the ledger's events account for.

Per level: the meter shown to players, the reserve, what is held for pending awards, the
progressive limit (ceiling) and its overflow meter, the payouts paid by an attendant (a share of
the meter may not be paid from the table inventory container, § 633b.2(h)(4), § 633b.3(h)(4)),
the cumulative payout meter (everything paid out of the level, § 605a.7(a)(4)), and the counts
of qualifying wagers, hits (share awards made, less those voided) and wins (hits paid). Per
progressive: the payouts paid by the table (odds lines and envy bonuses, paid at settlement from
the table inventory) and their count.

The level states (:class:`~croupier.progressive.meters.LevelState`) hold the meter, reserve,
held amount, cumulative payouts and hits; the other figures are sums over events,
:class:`Totals`. Both are kept by the ledger as running state, moved in the transaction that
writes the events (:mod:`croupier.progressive.totals`), so reading them is a few rows whatever the
log's length (:func:`stored_meter_set`); :func:`meter_set` makes the same figures from the log
alone, as ``verify`` does to check the stored ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from croupier.paytables import MeterLevel
from croupier.progressive.meters import LevelState, StoredEvent
from croupier.progressive.model import AwardKind, EventKind, ProgressiveDefinition


@dataclass(frozen=True)
class LevelMeters:
    """One level's § 605a.7(a) meters. Money in micro-dollars (``*_micros``) or cents."""

    level: MeterLevel
    shown_micros: int
    reserve_micros: int
    held_micros: int
    limit_cents: int | None
    overflow_micros: int
    paid_by_attendant_cents: int
    cumulative_paid_cents: int
    qualifying_wagers: int
    hits: int
    wins: int


@dataclass(frozen=True)
class ProgressiveMeters:
    """A progressive's § 605a.7(a) meters: its levels, and what the table paid."""

    progressive: str
    levels: tuple[LevelMeters, ...]
    paid_by_table_cents: int
    table_pays: int


class LevelTotals(NamedTuple):
    """The sums over one level's events that its :class:`LevelState` does not hold: qualifying
    wagers (a count), the overflow meter (micro-dollars), what an attendant paid (cents, the
    amounts handed to players) and wins (payments made, a count). A named tuple: the writers
    make a few per round."""

    qualifying_wagers: int = 0
    overflow_micros: int = 0
    paid_by_attendant_cents: int = 0
    wins: int = 0


NO_LEVEL_TOTALS = LevelTotals()

_CONTRIBUTION = EventKind.CONTRIBUTION.value
_PAYMENT = EventKind.PAYMENT.value
_AWARD = EventKind.AWARD.value
_ENVY = EventKind.ENVY.value
_METER = AwardKind.METER.value


@dataclass
class Totals:
    """The running totals of one progressive's events (:meth:`add` each, in any order — they are
    sums): :class:`LevelTotals` per level, by the level's name (``MeterLevel.value``), and what
    the table paid — odds lines and envy bonuses, in cents, and their count.

    A contribution adds its ``wagers`` and ``overflow_micros``; a payment its amount (to the
    player) and one win; an odds award or envy bonus its amount and one table pay. Every other
    event adds nothing.
    """

    levels: dict[str, LevelTotals] = field(default_factory=dict)
    paid_by_table_cents: int = 0
    table_pays: int = 0

    def add(
        self,
        kind: str,
        level: str | None,
        amount_cents: int | None,
        detail: Mapping[str, Any] | str,
    ) -> None:
        """Count one event: its kind (``EventKind.value``), level name, ``amount_cents`` and
        ``detail`` (a mapping, or the JSON text the log stores, parsed only when needed)."""
        if kind == _CONTRIBUTION:
            if level is not None:
                d = json.loads(detail) if isinstance(detail, str) else detail
                w, o, a, n = self.levels.get(level, NO_LEVEL_TOTALS)
                wagers, over = int(d.get("wagers", 0)), int(d.get("overflow_micros", 0))
                self.levels[level] = LevelTotals(w + wagers, o + over, a, n)
        elif kind == _PAYMENT:
            if level is not None:
                w, o, a, n = self.levels.get(level, NO_LEVEL_TOTALS)
                self.levels[level] = LevelTotals(w, o, a + (amount_cents or 0), n + 1)
        elif kind == _ENVY or (
            kind == _AWARD
            and (json.loads(detail) if isinstance(detail, str) else detail).get("kind") != _METER
        ):  # an envy bonus or an odds line: paid by the table
            self.paid_by_table_cents += amount_cents or 0
            self.table_pays += 1

    def level(self, level: MeterLevel) -> LevelTotals:
        """The totals of ``level`` (zero if none of its events counted)."""
        return self.levels.get(level.value, NO_LEVEL_TOTALS)

    @classmethod
    def of_events(cls, events: Iterable[StoredEvent]) -> Totals:
        """The totals of a progressive's ``events`` (its log, or any part of it)."""
        totals = cls()
        for e in events:
            level = e.level.value if e.level is not None else None
            totals.add(e.kind.value, level, e.amount_cents, e.detail)
        return totals


def stored_meter_set(
    defn: ProgressiveDefinition, states: Mapping[MeterLevel, LevelState], totals: Totals
) -> ProgressiveMeters:
    """The meters of ``defn`` from its level ``states`` and running ``totals`` (as the ledger
    stores them, or as its log makes them), levels in the definition's order."""
    levels = []
    for lv in defn.levels:
        s, more = states[lv.level], totals.level(lv.level)
        levels.append(
            LevelMeters(
                level=s.level,
                shown_micros=s.meter,
                reserve_micros=s.reserve,
                held_micros=s.held,
                limit_cents=lv.limit_cents,
                overflow_micros=more.overflow_micros,
                paid_by_attendant_cents=more.paid_by_attendant_cents,
                cumulative_paid_cents=s.paid_cents,
                qualifying_wagers=more.qualifying_wagers,
                hits=s.hits,
                wins=more.wins,
            )
        )
    return ProgressiveMeters(
        defn.name, tuple(levels), totals.paid_by_table_cents, totals.table_pays
    )


def meter_set(
    defn: ProgressiveDefinition,
    states: dict[MeterLevel, LevelState],
    events: Iterable[StoredEvent],
) -> ProgressiveMeters:
    """The meters of ``defn`` from its ``events`` (in ledger order) and the level ``states``
    they replay to (:class:`~croupier.progressive.meters.Replayer`): the log alone."""
    return stored_meter_set(defn, states, Totals.of_events(events))
