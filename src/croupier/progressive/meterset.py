"""The meters a progressive table game system keeps (58 Pa. Code § 605a.7(a)), per progressive
and level, replayed from the ledger's events (so every figure is one the log accounts for).

Per level: the meter shown to players, the reserve, what is held for pending awards, the
progressive limit (ceiling) and its overflow meter, the payouts paid by an attendant (a share of
the meter may not be paid from the table inventory container, § 633b.2(h)(4), § 633b.3(h)(4)),
the cumulative payout meter (everything paid out of the level, § 605a.7(a)(4)), and the counts
of qualifying wagers, hits (share awards made, less those voided) and wins (hits paid). Per
progressive: the payouts paid by the table (odds lines and envy bonuses, paid at settlement from
the table inventory) and their count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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


def meter_set(
    defn: ProgressiveDefinition,
    states: dict[MeterLevel, LevelState],
    events: Iterable[StoredEvent],
) -> ProgressiveMeters:
    """The meters of ``defn`` from its ``events`` (in ledger order) and the level ``states``
    they replay to (:class:`~croupier.progressive.meters.Replayer`)."""
    wagers = dict.fromkeys(states, 0)
    overflow = dict.fromkeys(states, 0)
    attendant = dict.fromkeys(states, 0)
    wins = dict.fromkeys(states, 0)
    table_cents = table_pays = 0
    for e in events:
        k, lv = e.kind, e.level
        if k is EventKind.CONTRIBUTION and lv in wagers:
            wagers[lv] += int(e.detail.get("wagers", 0))
            overflow[lv] += int(e.detail.get("overflow_micros", 0))
        elif k is EventKind.PAYMENT and lv in attendant:
            attendant[lv] += e.amount_cents or 0
            wins[lv] += 1
        elif (k is EventKind.AWARD and e.detail.get("kind") != AwardKind.METER.value) or (
            k is EventKind.ENVY
        ):
            table_cents += e.amount_cents or 0
            table_pays += 1
    return ProgressiveMeters(
        defn.name,
        tuple(
            LevelMeters(
                level=s.level,
                shown_micros=s.meter,
                reserve_micros=s.reserve,
                held_micros=s.held,
                limit_cents=defn.level(s.level).limit_cents,
                overflow_micros=overflow[s.level],
                paid_by_attendant_cents=attendant[s.level],
                cumulative_paid_cents=s.paid_cents,
                qualifying_wagers=wagers[s.level],
                hits=s.hits,
                wins=wins[s.level],
            )
            for s in (states[lv.level] for lv in defn.levels)
        ),
        table_cents,
        table_pays,
    )
