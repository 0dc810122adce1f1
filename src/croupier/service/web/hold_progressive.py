"""The hold report's progressive part: each table's hold net of its progressives, a separate
progressive line, and the theoretical at the meters each wager saw (issue 31).

A progressive wager's stake is split at the table (§ 605a.7; § 633b.2(i)'s increment rates): the
increment rates × the wager go to the meter and the reserve — a **contribution**, not the table's
win — and a meter award is paid **from the meter**, not by the table. So the table's hold, net of
the progressive, is

    table hold = hold + awards paid from the meter − contributions

(``hold`` the wager's hold as the ledger has it: stakes kept less every pay, the meter's
included), and the **progressive line** is what the meter took and gave: contributions (the
ledger's ``contribution`` events of the rounds, meter and reserve, rounded to the cent once per
row) and awards paid from it (a pending award is owed, shown apart; a voided one paid nothing).
The two add up to the hold to the cent. Odds lines and envy bonuses are the table's pays.

**The table's theoretical** is the par sheet with every meter award at zero (what the table itself
settles: a meter line loses, or returns, the stake — :attr:`~croupier.analysis.meters.MeterReturn.
zero_meter_outcomes`) less the increment rate: per unit ``−fixed − rate``, its variance and
skewness the distribution's own, so the row is judged against a band like any other (the
contribution is a constant: it moves the mean, not the spread). Envy bonuses depend on the other
players' hands and are not in it.

**The progressive line's theoretical** is the par sheet's return at the meters each wager saw:
the meter the ledger had, after the round's contribution (what a share award of the round is
taken from), weighted by each wager's stake: ``rate × H − Σ_i Σ_level slope_level × M_i,level ×
s_i / w_i`` (``w_i`` the progressive's wager, ``slope`` the probability-weighted share of the
meter a unit wager wins: :func:`~croupier.analysis.meters.meter_return`). A round fed to no
progressive was valued at the seed (:func:`~croupier.table.progressive.valued_at_seed`) and is
taken at it. The table's and the progressive's theoreticals add up to ``−Σ s_i × return(M_i)``,
the par sheet's return at those meters (:meth:`~croupier.analysis.meters.MeterReturn.at`). The
progressive line gets no band: a top award comes once in hundreds of thousands of rounds, and the
meter's own balance is the reconciliation's (``GET /progressives/{name}/reconciliation``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from croupier.analysis.meters import MeterReturn, meter_return
from croupier.paytables import MeterLevel
from croupier.progressive import AwardStatus, Ledger
from croupier.progressive.model import EventKind
from croupier.table.progressive import wager_of
from croupier.units import format_money
from croupier.wagers import get_wager
from croupier.wagers.base import ProgressiveStake

MICROS_PER_CENT = 10_000
"""The ledger keeps meters in micro-dollars: 10,000 to the cent."""

__all__ = [
    "FedRound",
    "ProgressiveTally",
    "Progressives",
    "TablePar",
    "progressive_fields",
    "progressives_of",
    "table_par",
]


@dataclass(frozen=True)
class FedRound:
    """A ledger round of one progressive: each level's meter available after the round's
    contribution (integer cents, rounded down: what a share award of the round is taken from)
    and what the round contributed to the meters and reserves (micro-dollars)."""

    meters_cents: dict[MeterLevel, int]
    contribution_micros: int


@dataclass(frozen=True)
class Progressives:
    """What the hold report needs of the ledger: each progressive's wager id, wager (integer
    cents) and stake reading, and each of its rounds by (progressive, ledger round id)."""

    wagers: dict[str, str] = field(default_factory=dict)
    wager_cents: dict[str, int] = field(default_factory=dict)
    stakes: dict[str, ProgressiveStake] = field(default_factory=dict)
    rounds: dict[tuple[str, str], FedRound] = field(default_factory=dict)

    def stake_back(self, name: str) -> int:
        """What an award of ``name`` returns of the stake besides the meter's share (cents)."""
        if self.stakes.get(name) is ProgressiveStake.RETURNED:
            return self.wager_cents.get(name, 0)
        return 0


def progressives_of(ledger: Ledger) -> Progressives:
    """Every progressive of ``ledger`` with its rounds, replayed from its events (meter, held
    and reserve changes in ledger order): a round's meters are those after its last
    ``contribution`` event."""
    out = Progressives()
    for name in ledger.names():
        defn = ledger.definition(name)
        out.wagers[name] = wager_of(defn)
        out.wager_cents[name] = defn.wager_cents
        out.stakes[name] = defn.stake
        meter: dict[MeterLevel, int] = {}
        held: dict[MeterLevel, int] = {}
        for e in ledger.history(name, significant=False):
            ev = e.event
            if ev.level is None:
                continue
            meter[ev.level] = meter.get(ev.level, 0) + ev.delta.meter
            held[ev.level] = held.get(ev.level, 0) + ev.delta.held
            if ev.kind is not EventKind.CONTRIBUTION or ev.round_id is None:
                continue
            before = out.rounds.get((name, ev.round_id))
            added = ev.delta.meter + ev.delta.reserve
            out.rounds[(name, ev.round_id)] = FedRound(
                {lv: (meter[lv] - held.get(lv, 0)) // MICROS_PER_CENT for lv in meter},
                (before.contribution_micros if before else 0) + added,
            )
    return out


@dataclass
class ProgressiveTally:
    """A row's progressive figures as the rounds are read: the progressives fed, the ledger
    rounds whose contribution is counted, contributions (micro-dollars), awards paid from the
    meter (cents), each level's ``Σ s_i × M_i / w_i`` (cents of meter, per the wager's unit) and
    the stakes of lines valued at the seed (stake → lines)."""

    names: set[str] = field(default_factory=set)
    fed: set[tuple[str, str]] = field(default_factory=set)
    contribution_micros: int = 0
    meter_paid_cents: int = 0
    meter_units: dict[MeterLevel, Fraction] = field(default_factory=dict)
    at_seed: Counter[int] = field(default_factory=Counter)

    def line(self, progs: Progressives, doc: Mapping[str, Any], line: Mapping[str, Any]) -> None:
        """Count ``line`` (a progressive wager's) of stored round ``doc``: the meters its round
        saw, or the seed for a round fed to no progressive that takes it."""
        stake = int(line["stake_cents"])
        if not stake:  # an envy bonus: no wager of its own
            return
        fed = [
            (str(f.get("progressive")), str(f.get("ledger_round")))
            for f in doc.get("progressives") or ()
            if progs.wagers.get(str(f.get("progressive"))) == line["bet"]
        ]
        sized = [f for f in fed if progs.wager_cents.get(f[0]) == stake] or fed[:1]
        seen = progs.rounds.get(sized[0]) if sized else None
        if seen is None:
            self.at_seed[stake] += 1
            return
        self.names.add(sized[0][0])
        w = progs.wager_cents[sized[0][0]]
        for level, cents in seen.meters_cents.items():
            self.meter_units[level] = self.meter_units.get(level, Fraction(0)) + Fraction(
                stake * cents, w
            )

    def round(self, progs: Progressives, fed: Mapping[str, Any], awards: Any) -> None:
        """Count progressive ``fed``'s round once: its contribution and its meter awards paid
        (``awards``: the ledger's award states by id, :class:`~croupier.service.paid.Book`)."""
        key = (str(fed.get("progressive")), str(fed.get("ledger_round")))
        if key in self.fed:
            return
        self.fed.add(key)
        self.names.add(key[0])
        seen = progs.rounds.get(key)
        self.contribution_micros += seen.contribution_micros if seen else 0
        back = progs.stake_back(key[0])
        for a in fed.get("awards") or ():
            if a.get("kind") != "meter":
                continue
            state = awards.get(int(a["award"]))
            status = state.status if state is not None else AwardStatus(a["status"])
            amount = state.amount_cents if state is not None else int(a["amount_cents"])
            if status is AwardStatus.PAID:
                self.meter_paid_cents += amount - back


@dataclass(frozen=True)
class TablePar:
    """A progressive paytable's par sheet as the hold report reads it: its meter return and
    the table's own per-unit figures (``edge`` = −fixed − increment rate)."""

    meter: MeterReturn
    edge: Fraction
    variance: Fraction
    third: Fraction


@cache
def table_par(wager: str, paytable_key: str, decks: int, stake: ProgressiveStake) -> TablePar:
    """The par of ``wager``'s progressive paytable ``paytable_key`` at ``decks`` decks under
    the ``stake`` reading, net of the progressive (module docstring); exact, cached."""
    w = get_wager(wager)
    mr = meter_return(w, w.paytable(paytable_key, decks), decks=decks, stake=stake)
    rows = mr.zero_meter_outcomes
    mean = sum((p * net for net, p in rows), Fraction(0))
    variance = sum((p * (net - mean) ** 2 for net, p in rows), Fraction(0))
    third = sum((p * (net - mean) ** 3 for net, p in rows), Fraction(0))
    return TablePar(mr, -mean - mr.total_increment_rate, variance, third)


def progressive_fields(
    par: TablePar, t: ProgressiveTally, handle: int, hold: int, pending: int
) -> tuple[int, dict[str, Any]]:
    """The table's hold net of the progressive (cents) and the row's progressive fields:
    ``progressive`` (the line: contributions, awards paid from the meter, pending, its net and
    theoretical), ``return_at_meters`` (the par sheet's return per unit at the meters seen,
    stake-weighted) and ``theoretical_with_progressive_cents`` (``−Σ s_i × return(M_i)``)."""
    mr = par.meter
    contributions = round(Fraction(t.contribution_micros, MICROS_PER_CENT))
    table_hold = hold + t.meter_paid_cents - contributions
    units = dict(t.meter_units)
    if mr.wager_cents and t.at_seed:
        table = get_wager(mr.wager).paytable(mr.paytable, mr.decks)
        assert table.progressive is not None  # a meter return's paytable has one
        for m in table.progressive.meters:
            seeds = sum(n * m.seed_for(s) for s, n in t.at_seed.items())
            units[m.level] = units.get(m.level, Fraction(0)) + seeds
    awards = sum((mr.slopes.get(lv, Fraction(0)) * u for lv, u in units.items()), Fraction(0))
    theoretical = mr.total_increment_rate * handle - awards
    whole = -mr.fixed * handle - awards
    line = {
        "progressives": sorted(t.names),
        "contributions_micros": t.contribution_micros,
        "contributions_cents": contributions,
        "contributions": format_money(contributions),
        "increment_rate": float(mr.total_increment_rate),
        "awards_paid_cents": t.meter_paid_cents,
        "awards_paid": format_money(t.meter_paid_cents),
        "pending_cents": pending,
        "pending": format_money(pending),
        "net_cents": contributions - t.meter_paid_cents,
        "net": format_money(contributions - t.meter_paid_cents),
        "theoretical_cents": round(theoretical),
        "theoretical": format_money(round(theoretical)),
        "lines_at_seed": sum(t.at_seed.values()),
    }
    fields: dict[str, Any] = {"progressive": line}
    if handle:
        ret = -whole / handle
        fields["return_at_meters"] = float(ret)
        fields["return_at_meters_exact"] = f"{ret.numerator}/{ret.denominator}"
    fields["theoretical_with_progressive_cents"] = round(whole)
    fields["theoretical_with_progressive"] = format_money(round(whole))
    return table_hold, fields
