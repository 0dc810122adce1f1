"""Meter arithmetic: pure functions from a definition, level states and a round to ledger events.

Nothing here touches a database. :func:`~croupier.progressive.planning.plan_settlement` turns one
round's progressive wagers and qualifying hands into the events the ledger writes, in order (with
this module's arithmetic); :func:`payment_events` and
:func:`void_events` do the same for validating or voiding a pending award; :class:`Replayer` folds
stored events back into level states, re-deriving every amount it can from the definition and
refusing an event whose recorded amounts differ (:class:`~croupier.errors.LedgerIntegrityError`).

Rounding policy (docs/interpretations.md): meters are integer micro-dollars; a level's increment
from a wager is ``floor(W' × rate) − floor(W × rate)`` micro-dollars where ``W`` is everything
wagered into the level so far, so the sum of increments is always ``floor(total wagered × rate)``
and no fraction is lost (with the printed rates it is exact). Players are paid whole cents: a share
award is rounded *down* to the cent and the remainder stays on the meter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import floor
from typing import Any

from croupier.analysis.meters import ReseedFunding
from croupier.errors import LedgerIntegrityError, RoundStateError
from croupier.paytables import MeterLevel, OddsFor, OddsTo, Push
from croupier.progressive.model import (
    MICROS_PER_CENT,
    AwardKind,
    AwardStatus,
    EventKind,
    HitPolicy,
    LevelDefinition,
    LineRule,
    ProgressiveDefinition,
    QualifyingHand,
    ResetTiming,
    check_stored,
)

U = MICROS_PER_CENT


@dataclass(frozen=True)
class Delta:
    """What one event does to one level. Money in micro-dollars except ``paid_cents``."""

    meter: int = 0
    reserve: int = 0
    held: int = 0
    wagered_cents: int = 0
    paid_cents: int = 0
    hits: int = 0

    def is_zero(self) -> bool:
        """Whether the event leaves the level as it was."""
        return self == Delta()


@dataclass(frozen=True)
class LevelState:
    """One level's meters (§ 605a.7(a)): the value players see, the reserve funding the next
    reseed, the part of the meter held for awards pending validation, everything wagered into the
    level (the basis of exact increments), the cumulative progressive payouts (§ 605a.7(a)(4))
    and the number of share awards made. Money in micro-dollars except ``paid_cents``."""

    level: MeterLevel
    meter: int = 0
    reserve: int = 0
    held: int = 0
    wagered_cents: int = 0
    paid_cents: int = 0
    hits: int = 0

    @property
    def available(self) -> int:
        """The meter less what is held for pending awards: what a new share award is taken from."""
        return self.meter - self.held

    def apply(self, d: Delta) -> LevelState:
        """The state after ``d``; :class:`~croupier.errors.MeterLimitError` if a column would not
        hold it (:func:`~croupier.progressive.model.check_stored`)."""
        m, r, h = self.meter + d.meter, self.reserve + d.reserve, self.held + d.held
        w, p = self.wagered_cents + d.wagered_cents, self.paid_cents + d.paid_cents
        check_stored(self.level, m, r, h, w, p)
        return replace(self, meter=m, reserve=r, held=h, wagered_cents=w, paid_cents=p,
                       hits=self.hits + d.hits)  # fmt: skip


@dataclass(frozen=True)
class EventDraft:
    """An event about to be written. ``award`` indexes :attr:`SettlementPlan.awards` (or is the
    award id for validation and voiding); ``amount_cents`` is money handed to a player."""

    kind: EventKind
    level: MeterLevel | None = None
    delta: Delta = Delta()
    position: int | None = None
    award: int | None = None
    amount_cents: int | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)
    fixed_award: int | None = None
    """An award already on the ledger this event is about (a ``share`` re-split of an earlier
    round's pending award), when ``award`` cannot index the plan's awards."""


def shared_split(total_cents: int, members: int) -> list[int]:
    """A 100% award's locked value shared equally by ``members`` near-simultaneous hits, in hit
    order: each ``total // members``, the first hit keeping the cents that do not divide.

    >>> shared_split(500_151, 2)
    [250076, 250075]
    """
    each = total_cents // members
    return [total_cents - each * (members - 1)] + [each] * (members - 1)


@dataclass(frozen=True)
class GroupMember:
    """A pending 100% award of an open share group already on the ledger (:class:`HitPolicy`
    ``SHARE``): its id, founder's id, and its locked value from the meter."""

    award_id: int
    group: int
    meter_cents: int


@dataclass(frozen=True)
class AwardDraft:
    """One payout of a settlement, in settlement order.

    ``amount_cents`` is what the player is handed; ``meter_cents`` the part taken from a level
    (share awards only); ``source_position`` the qualifying hand that paid an envy bonus.
    """

    position: int
    outcome: str
    kind: AwardKind
    status: AwardStatus
    amount_cents: int
    level: MeterLevel | None = None
    share: Fraction | None = None
    meter_cents: int = 0
    source_position: int | None = None
    share_group: tuple[str, int] | None = None
    """Under :attr:`HitPolicy.SHARE`, a 100% award's group: its founder, ``("plan", index)``
    or ``("ledger", award id)`` (a founder names itself)."""


@dataclass(frozen=True)
class SettlementPlan:
    """Everything one round's settlement does: new level states, events and awards in order."""

    states: dict[MeterLevel, LevelState]
    events: tuple[EventDraft, ...]
    awards: tuple[AwardDraft, ...]


def increment(rate: Fraction, before_cents: int, wagered_cents: int) -> int:
    """Micro-dollars a level gains when ``wagered_cents`` more is wagered into it at ``rate``,
    after ``before_cents`` so far: ``floor((before + wagered)·rate) − floor(before·rate)``.

    >>> increment(Fraction(3, 80), 0, 500)   # 3.75% of $5 = 18.75 cents
    187500
    >>> increment(Fraction(1, 3), 0, 1), increment(Fraction(1, 3), 1, 1), increment(Fraction(1, 3), 2, 1)
    (3333, 3333, 3334)
    """
    return floor((before_cents + wagered_cents) * rate * U) - floor(before_cents * rate * U)


def contribution(lv: LevelDefinition, s: LevelState, wagered_cents: int) -> tuple[Delta, int]:
    """What ``wagered_cents`` more wagered into level ``s`` adds to it, and the part of the
    meter's increment that went to the reserve instead because the meter reached its limit
    (``lv.limit_cents``; the overflow, in micro-dollars).

    >>> from croupier.paytables import MeterLevel
    >>> lv = LevelDefinition(MeterLevel.PROGRESSIVE, 1000, Fraction(1, 10), limit_cents=1001)
    >>> d, over = contribution(lv, LevelState(MeterLevel.PROGRESSIVE, 1000 * U), 2000)
    >>> d.meter, d.reserve, over  # 10% of $20 is 200¢; 1¢ fits under the $10.01 limit
    (10000, 1990000, 1990000)
    """
    meter = increment(lv.primary_rate, s.wagered_cents, wagered_cents)
    reserve = increment(lv.secondary_rate, s.wagered_cents, wagered_cents)
    over = 0
    if lv.limit_cents is not None:
        over = min(meter, max(0, s.meter + meter - lv.limit_cents * U))
    d = Delta(meter=meter - over, reserve=reserve + over, wagered_cents=wagered_cents)
    return d, over


def share_award_cents(share: Fraction, available_micros: int) -> int:
    """A share award in whole cents: ``share`` of what is available, rounded down to the cent.

    >>> share_award_cents(Fraction(1, 10), 500_225 * 10_000)   # 10% of $5,002.25
    50022
    """
    return floor(share * available_micros / U)


def odds_return_cents(pays: OddsTo | OddsFor | Push, wager_cents: int) -> tuple[int, Fraction]:
    """What an odds line returns on ``wager_cents`` (stake included), rounded down to the cent,
    and the fraction of a cent rounding dropped."""
    gross = wager_cents * (1 + pays.net)
    paid = floor(gross)
    return paid, gross - paid


def check_hands(
    defn: ProgressiveDefinition, positions: Sequence[int], hands: Sequence[QualifyingHand]
) -> dict[int, LineRule]:
    """The line of each qualifying hand, by position: :class:`RoundStateError` for a hand at a
    position without the wager or two hands at one position, :class:`PaytableError` for an
    outcome the paytable does not have."""
    held = set(positions)
    lines: dict[int, LineRule] = {}
    for h in hands:
        if h.position not in held:
            raise RoundStateError(
                f"position {h.position} holds no {defn.name!r} progressive wager in this round"
            )
        if h.position in lines:
            raise RoundStateError(f"position {h.position} has two qualifying hands")
        lines[h.position] = defn.line(h.outcome)
    return lines


def settlement_order(positions: Iterable[int]) -> tuple[int, ...]:
    """Positions in the order the dealer settles them: from the player farthest to the dealer's
    right, counterclockwise (§ 633b.1(e), § 633c.12(e)). Seats are numbered from the dealer's left
    (first base, 1) to the dealer's right, so the order is by descending seat number.

    >>> settlement_order([1, 5, 3])
    (5, 3, 1)
    """
    return tuple(sorted(set(positions), reverse=True))


def reset_delta(defn: ProgressiveDefinition, s: LevelState) -> Delta:
    """Reset a level after a 100% award, by the definition's reseed funding; what is left on the
    meter (fractions of a cent, contributions made while the award was pending) stays, and the
    reserve is emptied into the meter.

    ``HOUSE``: the house adds a new seed, the whole reserve on top (meter += seed + reserve).
    ``RESERVE``: the reserve pays the reseed and the house only what it lacks
    (meter += max(seed, reserve), the house's part :func:`house_topup`).

    >>> from croupier.paytables import MeterLevel
    >>> from croupier.analysis.meters import ReseedFunding
    >>> lv = LevelDefinition(MeterLevel.PROGRESSIVE, 1000, Fraction(1, 10), Fraction(1, 20))
    >>> d = ProgressiveDefinition("p", "633b.3", "1", 6, 100, (lv,), ())
    >>> s = LevelState(MeterLevel.PROGRESSIVE, meter=7, reserve=300 * U)
    >>> reset_delta(d, s).meter, house_topup(d, s)      # $10 seed, $3 of reserve: $7 from the house
    (10000000, 7000000)
    >>> h = replace(d, reseed=ReseedFunding.HOUSE)
    >>> reset_delta(h, s).meter, house_topup(h, s)      # $10 new seed and the $3 on top
    (13000000, 10000000)
    """
    seed = defn.level(s.level).seed_cents * U
    if defn.reseed is ReseedFunding.RESERVE:
        return Delta(meter=max(seed, s.reserve), reserve=-s.reserve)
    return Delta(meter=seed + s.reserve, reserve=-s.reserve)


def house_topup(defn: ProgressiveDefinition, s: LevelState) -> int:
    """What the house puts into level ``s`` when it is reset (micro-dollars): the whole seed
    (``HOUSE``), or what the reserve lacks of it, ``max(0, seed − reserve)`` (``RESERVE``)."""
    seed = defn.level(s.level).seed_cents * U
    if defn.reseed is ReseedFunding.RESERVE:
        return max(0, seed - s.reserve)
    return seed


def reset_event(defn: ProgressiveDefinition, s: LevelState, award: int) -> EventDraft:
    """The RESET event of level ``s`` after 100% award ``award``. Under ``RESERVE`` its detail
    records the funding and the house's top-up; under ``HOUSE`` it records nothing (as every
    reset did before reseed funding was a field of the definition)."""
    detail: dict[str, Any] = {}
    if defn.reseed is ReseedFunding.RESERVE:
        detail = {
            "funding": defn.reseed.value,
            "reserve_micros": s.reserve,
            "house_micros": house_topup(defn, s),
        }
    return EventDraft(EventKind.RESET, s.level, reset_delta(defn, s), award=award, detail=detail)


@dataclass(frozen=True)
class PendingAward:
    """What paying or voiding a pending share award needs to know about it."""

    award_id: int
    level: MeterLevel
    share: Fraction
    meter_cents: int
    amount_cents: int


def payment_events(
    defn: ProgressiveDefinition, s: LevelState, award: PendingAward
) -> tuple[list[EventDraft], LevelState]:
    """The PAYMENT (and, after a 100% award, RESET) events once ``award`` is validated."""
    if defn.reset_timing is ResetTiming.ON_VALIDATION:
        micros = award.meter_cents * U
        d = Delta(meter=-micros, held=-micros, paid_cents=award.meter_cents)
    else:
        d = Delta(paid_cents=award.meter_cents)
    events = [
        EventDraft(
            EventKind.PAYMENT,
            award.level,
            d,
            award=award.award_id,
            amount_cents=award.amount_cents,
            detail={"meter_cents": award.meter_cents},
        )
    ]
    s = s.apply(d)
    if defn.reset_timing is ResetTiming.ON_VALIDATION and award.share == 1:
        ev = reset_event(defn, s, award.award_id)
        s = s.apply(ev.delta)
        events.append(ev)
    return events, s


def void_delta(defn: ProgressiveDefinition, award: PendingAward) -> Delta:
    """Voiding a pending share award: its held amount is released (on-validation), or returned to
    the meter it left (on-award; a reset already made stays)."""
    micros = award.meter_cents * U
    if defn.reset_timing is ResetTiming.ON_VALIDATION:
        return Delta(held=-micros, hits=-1)
    return Delta(meter=micros, hits=-1)


def seed_states(
    defn: ProgressiveDefinition,
) -> tuple[list[EventDraft], dict[MeterLevel, LevelState]]:
    """The SEED events of a new progressive and its levels at their seeds."""
    events = []
    states = {}
    for lv in defn.levels:
        d = Delta(meter=lv.seed_cents * U)
        events.append(EventDraft(EventKind.SEED, lv.level, d, detail={"seed_cents": lv.seed_cents}))
        states[lv.level] = LevelState(lv.level).apply(d)
    return events, states


@dataclass(frozen=True)
class StoredEvent:
    """An event as the ledger stores it (see :mod:`croupier.progressive.ledger`)."""

    seq: int
    kind: EventKind
    level: MeterLevel | None
    delta: Delta
    round_id: str | None = None
    table_id: str | None = None
    position: int | None = None
    award_id: int | None = None
    amount_cents: int | None = None
    actor: str | None = None
    actor_role: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class _ReplayAward:
    level: MeterLevel
    share: Fraction
    meter_cents: int
    amount_cents: int
    status: AwardStatus = AwardStatus.PENDING
    validated_by: str | None = None


class Replayer:
    """Folds a progressive's events, in ledger order, into its level states.

    Each event's recorded change is checked against what the definition makes of the state before
    it: contributions against the increment rates, share awards against the share of what was
    available, resets against the definition's reseed funding, payments and voids against the award. Manual
    adjustments are applied as recorded. A disagreement raises
    :class:`~croupier.errors.LedgerIntegrityError` naming the event.
    """

    def __init__(self, defn: ProgressiveDefinition) -> None:
        self.defn = defn
        self.states: dict[MeterLevel, LevelState] = {}
        self.awards: dict[int, _ReplayAward] = {}
        self.events = 0
        self.suspended = False
        self.first = defn
        # HitPolicy.SHARE: each level's open share group (award ids, founder first), and the
        # re-split values the ``share`` events after a joining hit must record
        self.groups: dict[MeterLevel, list[int]] = {}
        self.share_due: dict[int, int] = {}

    @classmethod
    def for_log(cls, current: ProgressiveDefinition, events: Sequence[StoredEvent]) -> Replayer:
        """A replayer starting from the definition the log starts with: the one the first
        ``reconfigure`` event changed (its ``before``), else ``current``."""
        for e in events:
            if e.kind is EventKind.RECONFIGURE:
                r = cls(ProgressiveDefinition.from_json(str(e.detail.get("before", ""))))
                return r
        return cls(current)

    def _fail(self, e: StoredEvent, what: str) -> LedgerIntegrityError:
        return LedgerIntegrityError(
            f"ledger event {e.seq} ({e.kind.value}) of progressive {self.defn.name!r}: {what}"
        )

    def _expect(self, e: StoredEvent, expected: Delta) -> None:
        if e.delta != expected:
            raise self._fail(e, f"recorded {e.delta}, the definition gives {expected}")

    def _state(self, e: StoredEvent) -> LevelState:
        if e.level is None or e.level not in self.states:
            raise self._fail(e, "names no seeded level")
        return self.states[e.level]

    def apply(self, e: StoredEvent) -> None:
        """Apply one event (raising on a disagreement)."""
        self.events += 1
        k = e.kind
        if k is EventKind.SEED:
            if e.level is None:
                raise self._fail(e, "names no level")
            lv = self.defn.level(e.level)
            self._expect(e, Delta(meter=lv.seed_cents * U))
            self.states[e.level] = LevelState(e.level).apply(e.delta)
            return
        if k is EventKind.CONTRIBUTION:
            self._contribution(e)
        elif k is EventKind.AWARD and e.detail.get("joins"):
            self._join(e, self._state(e))
        elif k is EventKind.SHARE:
            self._share(e)
            return
        elif k is EventKind.AWARD and e.detail.get("kind") == AwardKind.METER.value:
            self._meter_award(e)
        elif k is EventKind.RESET:
            s = self._state(e)
            self._expect(e, reset_delta(self.defn, s))
            funded = reset_event(self.defn, s, e.award_id or 0).detail
            if {k2: e.detail.get(k2) for k2 in funded} != funded:
                raise self._fail(
                    e, f"records the reseed's funding as {dict(e.detail)}, not {funded}"
                )
        elif k is EventKind.VALIDATION:
            self._award(e).validated_by = e.actor
            return
        elif k is EventKind.PAYMENT:
            self._payment(e)
        elif k in (EventKind.SUSPEND, EventKind.RESUME):
            if self.suspended == (k is EventKind.SUSPEND):
                raise self._fail(e, "suspends a suspended link or resumes one in play")
            self.suspended = k is EventKind.SUSPEND
        elif k is EventKind.RECONFIGURE:
            self._reconfigure(e)
        elif k is EventKind.ACCEPT and self.suspended:
            raise self._fail(e, "accepts a wager while the progressive is suspended")
        elif k is EventKind.ADJUSTMENT and e.detail.get("void_award") is not None:
            self._void(e)
        elif not e.delta.is_zero() and k is not EventKind.ADJUSTMENT:
            raise self._fail(e, "changes a meter, which this kind of event never does")
        if e.level is not None and not e.delta.is_zero():
            s = self._state(e).apply(e.delta)
            if s.available < 0 or s.reserve < 0 or s.held < 0:
                raise self._fail(e, "leaves a negative meter, reserve or held amount")
            self.states[s.level] = s

    def _contribution(self, e: StoredEvent) -> None:
        """A ``contribution`` event checked against the level's increment rate and limit."""
        s = self._state(e)
        lv = self.defn.level(s.level)
        wagered = int(e.detail.get("wagered_cents", 0))
        want, over = contribution(lv, s, wagered)
        self._expect(e, want)
        if int(e.detail.get("overflow_micros", 0)) != over:
            raise self._fail(
                e, f"records {e.detail.get('overflow_micros', 0)} µ$ over the limit, not {over}"
            )

    def _share(self, e: StoredEvent) -> None:
        """A ``share`` event: an earlier member's re-split of its share group."""
        a = self._award(e)
        due = self.share_due.pop(e.award_id or 0, None)
        if due is None or int(e.detail.get("meter_cents", -1)) != due:
            raise self._fail(e, f"re-splits award {e.award_id} to {e.detail.get('meter_cents')} "
                             f"cents; its share group gives {due}")  # fmt: skip
        if e.amount_cents != due + (a.amount_cents - a.meter_cents) or not e.delta.is_zero():
            raise self._fail(e, "records another amount or a meter change")
        a.amount_cents, a.meter_cents = e.amount_cents, due

    def _meter_award(self, e: StoredEvent) -> None:
        """An ``award`` of a share of a meter, checked against what was available; under
        :attr:`HitPolicy.SHARE` a 100% hit founds its level's share group."""
        s = self._state(e)
        share = Fraction(e.detail["share"])
        cents = share_award_cents(share, s.available)
        if int(e.detail["meter_cents"]) != cents:
            raise self._fail(
                e, f"awarded {e.detail['meter_cents']} cents, {share} of the meter is {cents}"
            )
        if self.defn.reset_timing is ResetTiming.ON_VALIDATION:
            self._expect(e, Delta(held=cents * U, hits=1))
        else:
            self._expect(e, Delta(meter=-cents * U, hits=1))
        if e.award_id is None or e.amount_cents is None:
            raise self._fail(e, "records no award id or amount")
        self.awards[e.award_id] = _ReplayAward(s.level, share, cents, e.amount_cents)
        if self.defn.hit_policy is HitPolicy.SHARE and share == 1:
            if self.groups.get(s.level):
                raise self._fail(e, "takes the meter while a share group is open (it joins)")
            self.groups[s.level] = [e.award_id]

    def _pending(self, e: StoredEvent, does: str) -> PendingAward:
        """The pending award event ``e`` pays or voids (``does``), refusing one already settled."""
        a = self._award(e)
        if a.status is not AwardStatus.PENDING:
            raise self._fail(e, f"{does} award {e.award_id}, which is {a.status.value}")
        return PendingAward(e.award_id or 0, a.level, a.share, a.meter_cents, a.amount_cents)

    def _payment(self, e: StoredEvent) -> None:
        """A ``payment`` of a validated pending award."""
        a = self._award(e)
        if a.validated_by is None:
            raise self._fail(e, f"pays award {e.award_id} that no one validated")
        pending = self._pending(e, "pays")
        expected, _ = payment_events(self.defn, self._state(e), pending)
        self._expect(e, expected[0].delta)
        a.status = AwardStatus.PAID
        self._close_group(e.award_id or 0)

    def _void(self, e: StoredEvent) -> None:
        """An ``adjustment`` voiding a pending award."""
        pending = self._pending(e, "voids")
        self._expect(e, void_delta(self.defn, pending))
        self._award(e).status = AwardStatus.VOIDED
        self._close_group(e.award_id or 0)

    def _reconfigure(self, e: StoredEvent) -> None:
        """A ``reconfigure`` of the suspended progressive: the definition in force changed, its
        levels kept."""
        if not self.suspended:
            raise self._fail(e, "reconfigures a progressive in play (suspend it first)")
        if e.detail.get("before") != self.defn.to_json():
            raise self._fail(e, "changes a definition other than the one in force")
        after = ProgressiveDefinition.from_json(str(e.detail.get("after", "")))
        if [lv.level for lv in after.levels] != [lv.level for lv in self.defn.levels]:
            raise self._fail(e, "changes the progressive's levels")
        self.defn = after

    def _join(self, e: StoredEvent, s: LevelState) -> None:
        """A 100% hit joining its level's open share group (:attr:`HitPolicy.SHARE`)."""
        group = self.groups.get(s.level)
        if self.defn.hit_policy is not HitPolicy.SHARE or not group:
            raise self._fail(e, "joins a share group, but none is open at its level")
        total = sum(self.awards[m].meter_cents for m in group)
        split = shared_split(total, len(group) + 1)
        if (
            int(e.detail.get("meter_cents", -1)) != split[-1]
            or e.detail.get("group_cents") != total
        ):
            raise self._fail(e, f"takes {e.detail.get('meter_cents')} cents of a share group of "
                             f"{total}; its equal part is {split[-1]}")  # fmt: skip
        self._expect(e, Delta(hits=1))
        if e.award_id is None or e.amount_cents is None:
            raise self._fail(e, "records no award id or amount")
        self.awards[e.award_id] = _ReplayAward(s.level, Fraction(1), split[-1], e.amount_cents)
        for m, cents in zip(group, split, strict=False):
            if self.awards[m].meter_cents != cents:
                self.share_due[m] = cents
        group.append(e.award_id)

    def _close_group(self, award_id: int) -> None:
        """A member paid or voided: its share group takes no more hits."""
        for level, group in list(self.groups.items()):
            if award_id in group:
                del self.groups[level]

    def _award(self, e: StoredEvent) -> _ReplayAward:
        if e.award_id is None or e.award_id not in self.awards:
            raise self._fail(e, f"names award {e.award_id}, which no earlier event made")
        return self.awards[e.award_id]

    def run(self, events: Iterable[StoredEvent]) -> dict[MeterLevel, LevelState]:
        """Apply every event; the final level states."""
        for e in events:
            self.apply(e)
        missing = [lv.level.value for lv in self.defn.levels if lv.level not in self.states]
        if missing:
            raise LedgerIntegrityError(
                f"progressive {self.defn.name!r}: no seed event for {', '.join(missing)}"
            )
        return dict(self.states)
