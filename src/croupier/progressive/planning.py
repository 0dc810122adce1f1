"""Planning one round's progressive settlement (:func:`plan_settlement`): pure functions from a
definition, level states and a round's qualifying hands to the events and awards the ledger
writes, in order — the meter arithmetic of :mod:`croupier.progressive.meters` applied to a round.
Nothing here touches a database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from croupier.errors import RoundStateError
from croupier.paytables import MeterLevel, MeterShare, NotAvailable, OddsFor, OddsTo, Push
from croupier.progressive.meters import (
    AwardDraft,
    Delta,
    EventDraft,
    GroupMember,
    LevelState,
    SettlementPlan,
    U,
    check_hands,
    contribution,
    odds_return_cents,
    reset_event,
    settlement_order,
    share_award_cents,
    shared_split,
)
from croupier.progressive.model import (
    AwardKind,
    AwardStatus,
    EnvyRule,
    EventKind,
    HitPolicy,
    LineRule,
    ProgressiveDefinition,
    QualifyingHand,
    ResetTiming,
)
from croupier.wagers.base import ProgressiveStake


def plan_settlement(
    defn: ProgressiveDefinition,
    states: Mapping[MeterLevel, LevelState],
    positions: Sequence[int],
    hands: Sequence[QualifyingHand],
    groups: Mapping[MeterLevel, Sequence[GroupMember]] | None = None,
) -> SettlementPlan:
    """The events of one round's settlement.

    1. Every accepted wager contributes to every level (:func:`increment`), before any award, so an
       award includes its own round's contributions.
    2. Positions are settled in :func:`settlement_order`. A position's own pay comes first: a share
       of a level is taken from what is *available* (meter less held), rounded down to the cent,
       so a later winner's share is of what earlier winners left; it is pending until validated
       (:class:`ResetTiming` says whether it leaves the meter now or then). Odds lines return stake
       plus win at once. Then the position's envy bonuses: a fixed amount for each qualifying hand
       with an envy amount held by *another* position (:class:`EnvyRule`).

    Under :attr:`HitPolicy.SHARE` a 100% hit of a level whose open share group (``groups``:
    pending 100% awards on the ledger; or an earlier hit of this round) exists joins it instead
    of taking the (reseeded) meter: the meter is not touched, the group's locked value is split
    again (:func:`shared_split`) and each earlier member's new amount is a ``share`` event.

    Raises :class:`RoundStateError` for a hand at a position without the wager, and
    :class:`PaytableError` for an outcome the paytable does not have.
    """
    if not positions:
        raise RoundStateError("a round with no progressive wager has nothing to settle")
    lines = check_hands(defn, positions, hands)
    cur = {lv.level: states[lv.level] for lv in defn.levels}
    plan = _Planning(defn, cur, [], [], _open_groups(defn, groups))
    plan.contribute(len(positions))
    order = settlement_order(positions)
    for p in order:
        line = lines.get(p)
        if line is not None and not isinstance(line.pays, NotAvailable):
            pays = line.pays
            if isinstance(pays, MeterShare):
                plan.meter_share(p, line.outcome, pays)
            else:
                plan.odds(p, line.outcome, pays)
        for src, envy_line in _envy_for(defn, p, order, lines):
            plan.envy(p, src, envy_line)
    return SettlementPlan(cur, tuple(plan.events), tuple(plan.awards))


def _open_groups(
    defn: ProgressiveDefinition, groups: Mapping[MeterLevel, Sequence[GroupMember]] | None
) -> dict[MeterLevel, _Group]:
    """The share groups open on the ledger when the round is planned (under
    :attr:`HitPolicy.SHARE` only)."""
    open_groups: dict[MeterLevel, _Group] = {}
    if defn.hit_policy is HitPolicy.SHARE:
        for level, members in (groups or {}).items():
            if members:
                ref = ("ledger", members[0].group)
                open_groups[level] = _Group(ref, [("ledger", m.award_id) for m in members],
                                            {m.award_id: m.meter_cents for m in members})  # fmt: skip
    return open_groups


@dataclass
class _Planning:
    """A round's settlement while it is planned: the levels (``cur``, updated in place), the
    events and awards so far, and the open share groups."""

    defn: ProgressiveDefinition
    cur: dict[MeterLevel, LevelState]
    events: list[EventDraft]
    awards: list[AwardDraft]
    open_groups: dict[MeterLevel, _Group]

    @property
    def stake_back(self) -> int:
        """The stake returned with an award (:attr:`ProgressiveStake.RETURNED`), else 0."""
        defn = self.defn
        return defn.wager_cents if defn.stake is ProgressiveStake.RETURNED else 0

    def contribute(self, n: int) -> None:
        """Step 1: the ``n`` wagers' contribution to every level."""
        wagered = n * self.defn.wager_cents
        for lv in self.defn.levels:
            s = self.cur[lv.level]
            d, over = contribution(lv, s, wagered)
            self.cur[lv.level] = s.apply(d)
            detail: dict[str, Any] = {"wagers": n, "wagered_cents": wagered}
            if over:
                detail["overflow_micros"] = over
            self.events.append(EventDraft(EventKind.CONTRIBUTION, lv.level, d, detail=detail))

    def meter_share(self, p: int, outcome: str, pays: MeterShare) -> None:
        """Position ``p``'s share of a meter: joining an open share group (a 100% hit under
        :attr:`HitPolicy.SHARE`), else taken from what is available, reset at once under
        :attr:`ResetTiming.ON_AWARD` (a 100% hit then founding a share group)."""
        defn, cur, awards, events = self.defn, self.cur, self.awards, self.events
        stake_back = self.stake_back
        group = self.open_groups.get(pays.level)
        if pays.share == 1 and group is not None:
            _join_group(p, outcome, pays.level, group, stake_back, awards, events)
            cur[pays.level] = cur[pays.level].apply(Delta(hits=1))
            return
        s = cur[pays.level]
        cents = share_award_cents(pays.share, s.available)
        draft = AwardDraft(p, outcome, AwardKind.METER, AwardStatus.PENDING, cents + stake_back,
                           pays.level, pays.share, cents)  # fmt: skip
        if defn.reset_timing is ResetTiming.ON_VALIDATION:
            d = Delta(held=cents * U, hits=1)
        else:
            d = Delta(meter=-cents * U, hits=1)
        cur[pays.level] = s.apply(d)
        awards.append(draft)
        events.append(EventDraft(EventKind.AWARD, pays.level, d, position=p,
                                 award=len(awards) - 1, amount_cents=draft.amount_cents,
                                 detail=_award_detail(draft, s.available)))  # fmt: skip
        if defn.reset_timing is ResetTiming.ON_AWARD and pays.share == 1:
            ev = reset_event(defn, cur[pays.level], len(awards) - 1)
            cur[pays.level] = cur[pays.level].apply(ev.delta)
            events.append(ev)
            if defn.hit_policy is HitPolicy.SHARE:  # this hit founds a share group
                me = ("plan", len(awards) - 1)
                awards[-1] = replace(awards[-1], share_group=me)
                self.open_groups[pays.level] = _Group(me, [])

    def odds(self, p: int, outcome: str, pays: OddsTo | OddsFor | Push) -> None:
        """Position ``p``'s odds line: stake plus win, paid at once."""
        amount, dropped = odds_return_cents(pays, self.defn.wager_cents)
        draft = AwardDraft(p, outcome, AwardKind.ODDS, AwardStatus.PAID, amount)
        self.awards.append(draft)
        detail = _award_detail(draft, None)
        if dropped:
            detail["rounding_dropped_cents"] = str(dropped)
        self.events.append(EventDraft(EventKind.AWARD, position=p, award=len(self.awards) - 1,
                                      amount_cents=amount, detail=detail))  # fmt: skip

    def envy(self, p: int, src: int, envy_line: LineRule) -> None:
        """Position ``p``'s envy bonus for the qualifying hand of position ``src``."""
        assert envy_line.envy_cents is not None
        draft = AwardDraft(p, envy_line.outcome, AwardKind.ENVY, AwardStatus.PAID,
                           envy_line.envy_cents, source_position=src)  # fmt: skip
        self.awards.append(draft)
        self.events.append(EventDraft(EventKind.ENVY, position=p, award=len(self.awards) - 1,
                                      amount_cents=draft.amount_cents,
                                      detail=_award_detail(draft, None)))  # fmt: skip


@dataclass
class _Group:
    """An open share group while a round is planned: its founder and members (``("ledger",
    award id)`` or ``("plan", index in the plan's awards)``), and the ledger members' values."""

    founder: tuple[str, int]
    members: list[tuple[str, int]]
    ledger_cents: dict[int, int] = field(default_factory=dict)


def _join_group(
    p: int,
    outcome: str,
    level: MeterLevel,
    g: _Group,
    stake_back: int,
    awards: list[AwardDraft],
    events: list[EventDraft],
) -> None:
    """A 100% hit joining share group ``g`` (see :func:`plan_settlement`)."""
    members = g.members if g.members else [g.founder]
    if not g.members:
        g.members = members

    def value(m: tuple[str, int]) -> int:
        return g.ledger_cents[m[1]] if m[0] == "ledger" else awards[m[1]].meter_cents

    total = sum(value(m) for m in members)
    split = shared_split(total, len(members) + 1)
    draft = AwardDraft(p, outcome, AwardKind.METER, AwardStatus.PENDING, split[-1] + stake_back,
                       level, Fraction(1), split[-1], share_group=g.founder)  # fmt: skip
    awards.append(draft)
    detail = _award_detail(draft, None)
    detail.update({"joins": True, "group_cents": total, "members": len(members) + 1})
    events.append(EventDraft(EventKind.AWARD, level, Delta(hits=1), position=p,
                             award=len(awards) - 1, amount_cents=draft.amount_cents,
                             detail=detail))  # fmt: skip
    for m, cents in zip(members, split, strict=False):
        if value(m) == cents:
            continue
        share_detail = {"meter_cents": cents, "was_cents": value(m), "group_cents": total}
        if m[0] == "ledger":
            g.ledger_cents[m[1]] = cents
            events.append(EventDraft(EventKind.SHARE, level, fixed_award=m[1],
                                     amount_cents=cents + stake_back, detail=share_detail))  # fmt: skip
        else:
            awards[m[1]] = replace(awards[m[1]], meter_cents=cents, amount_cents=cents + stake_back)
            events.append(EventDraft(EventKind.SHARE, level, award=m[1],
                                     amount_cents=cents + stake_back, detail=share_detail))  # fmt: skip
    members.append(("plan", len(awards) - 1))


def _envy_for(
    defn: ProgressiveDefinition, p: int, order: Sequence[int], lines: Mapping[int, LineRule]
) -> list[tuple[int, LineRule]]:
    others = [
        (q, lines[q])
        for q in order
        if q != p
        and q in lines
        and lines[q].envy_cents is not None
        and not isinstance(lines[q].pays, NotAvailable)
    ]
    if defn.envy_rule is EnvyRule.LARGEST and others:
        best = max(others, key=lambda qe: qe[1].envy_cents or 0)  # first of equals
        return [best]
    return others


def _award_detail(a: AwardDraft, available: int | None) -> dict[str, Any]:
    detail: dict[str, Any] = {"kind": a.kind.value, "outcome": a.outcome}
    if a.share is not None:
        detail["share"] = str(a.share)
        detail["meter_cents"] = a.meter_cents
    if available is not None:
        detail["available_micros"] = available
    if a.source_position is not None:
        detail["source_position"] = a.source_position
    return detail
