"""The per-progressive procedure the table engine drives (58 Pa. Code § 633b.2(d)–(h),
§ 633b.3(d)–(h)): :class:`ProgressiveSystem` accepts wagers, locks out, counts the chips and
settles a round in one transaction under an idempotency key.

A settlement retried under its key is rebuilt from the round's events (never from an editable
row); the ``settled`` event records the key and the fingerprint of the request.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import (
    ConfigurationMismatchError,
    IdempotencyConflictError,
    InputError,
    LedgerIntegrityError,
    LedgerLookupError,
    LinkError,
    LockoutError,
    RoundHeldError,
    RoundStateError,
)
from croupier.names import checked_ledger_round_id
from croupier.paytables import MeterLevel
from croupier.progressive.configuration import (
    RECONFIGURATION_RULE,
    ledger_check,
    require_configuration,
)
from croupier.progressive.core import TX_STATE, LedgerBase
from croupier.progressive.feeder import After, feeder_of
from croupier.progressive.meters import (
    AwardDraft,
    EventDraft,
    GroupMember,
    SettlementPlan,
)
from croupier.progressive.model import (
    AwardKind,
    AwardStatus,
    EventKind,
    HitPolicy,
    ProgressiveDefinition,
    QualifyingHand,
    Role,
    RoundStatus,
)
from croupier.progressive.planning import plan_settlement
from croupier.progressive.play import (
    award_row,
    play,
    prepare,
    request_fingerprint,
    settlement_result,
)
from croupier.progressive.records import (
    Contribution,
    ProgressiveStatus,
    RoundSettlement,
    RoundView,
    replay_awards,
    settlement_to_json,
)
from croupier.progressive.significant import log_mismatch
from croupier.progressive.store import now

_ROUND = sa.select(t.rounds).where(
    t.rounds.c.progressive_id == sa.bindparam("b_pid"),
    t.rounds.c.round_id == sa.bindparam("b_rid"),
)
_LINKED = sa.select(t.linked_tables.c.table_id).where(
    t.linked_tables.c.progressive_id == sa.bindparam("b_pid"),
    t.linked_tables.c.table_id == sa.bindparam("b_table"),
)
_SUSPENDED = sa.select(t.progressives.c.suspended).where(
    t.progressives.c.id == sa.bindparam("b_pid")
)
_SETTLED = sa.select(t.settlements).where(t.settlements.c.idempotency_key == sa.bindparam("b_key"))
_NEXT_ID = sa.select(sa.func.coalesce(sa.func.max(t.awards.c.id), 0) + 1).scalar_subquery()
_NEXT_NUMBER = sa.select(sa.func.coalesce(sa.func.max(t.awards.c.number), 0) + 1).scalar_subquery()
_INSERT_AWARD = sa.insert(t.awards).values(id=_NEXT_ID).returning(t.awards.c.id)
_INSERT_METER_AWARD = (
    sa.insert(t.awards)
    .values(id=_NEXT_ID, number=_NEXT_NUMBER)
    .returning(t.awards.c.id, t.awards.c.number)
)
_INSERT_SETTLEMENT = sa.insert(t.settlements)


def _open_groups(conn: Connection, pid: int) -> dict[MeterLevel, list[GroupMember]]:
    """Each level's open share group (:attr:`HitPolicy.SHARE`): the members of its newest group,
    founder first, if every one of them is still pending; read under the progressive's lock."""
    a = t.awards.c
    newest = (
        sa.select(a.level, sa.func.max(a.share_group).label("g"))
        .where(a.progressive_id == pid, a.share_group.is_not(None))
        .group_by(a.level)
    ).subquery()
    rows = conn.execute(
        sa.select(a.id, a.level, a.share_group, a.status, a.meter_cents)
        .join(newest, sa.and_(newest.c.level == a.level, newest.c.g == a.share_group))
        .where(a.progressive_id == pid)
        .order_by(a.id)
    ).all()
    out: dict[MeterLevel, list[GroupMember]] = {}
    closed: set[MeterLevel] = set()
    for r in rows:
        level = MeterLevel(r.level)
        if r.status != AwardStatus.PENDING.value:
            closed.add(level)
        out.setdefault(level, []).append(GroupMember(r.id, r.share_group, r.meter_cents))
    return {lv: ms for lv, ms in out.items() if lv not in closed}


def _store_share_groups(conn: Connection, plan: SettlementPlan, award_ids: Sequence[int]) -> None:
    """Record each new 100% award's share group, and the new values of earlier rounds' awards
    a joining hit re-split (the ``share`` events say the same)."""
    for i, d in enumerate(plan.awards):
        if d.share_group is not None:
            where, ref = d.share_group
            group = award_ids[ref] if where == "plan" else ref
            conn.execute(
                sa.update(t.awards).where(t.awards.c.id == award_ids[i]).values(share_group=group)
            )
    for e in plan.events:
        if e.kind is EventKind.SHARE and e.fixed_award is not None:
            conn.execute(
                sa.update(t.awards)
                .where(t.awards.c.id == e.fixed_award)
                .values(amount_cents=e.amount_cents, meter_cents=int(e.detail["meter_cents"]))
            )


def _round_cache(conn: Connection) -> dict[tuple[int, str], RoundView] | None:
    st = conn.info.get(TX_STATE)
    return None if st is None else st.setdefault("rounds", {})


def _round(
    conn: Connection, pid: int, defn: ProgressiveDefinition, round_id: str
) -> RoundView | None:
    cache = _round_cache(conn)
    if cache is not None and (pid, round_id) in cache:
        return cache[(pid, round_id)]
    r = conn.execute(_ROUND, {"b_pid": pid, "b_rid": round_id}).first()
    if r is None:
        return None
    view = RoundView(
        defn.name,
        r.round_id,
        r.table_id,
        RoundStatus(r.status),
        tuple(json.loads(r.positions)),
        r.chips_counted,
        r.content,
    )
    if cache is not None:
        cache[(pid, round_id)] = view
    return view


def _set_round(
    conn: Connection, pid: int, round_id: str, status: RoundStatus, **values: Any
) -> None:
    """Change a round (read by :func:`_round` in this transaction); written at the commit."""
    cache = _round_cache(conn)
    assert cache is not None, "rounds change inside a write transaction"
    view = replace(cache[(pid, round_id)], status=status)
    if "positions" in values:
        view = replace(view, positions=tuple(json.loads(values["positions"])))
    if "chips_counted" in values:
        view = replace(view, chips_counted=values["chips_counted"])
    _put_round(conn, pid, view, new=False)


def _put_round(conn: Connection, pid: int, view: RoundView, *, new: bool) -> None:
    cache = _round_cache(conn)
    assert cache is not None
    cache[(pid, view.round_id)] = view
    dirty = conn.info[TX_STATE].setdefault("dirty_rounds", {})
    was_new = dirty.get((pid, view.round_id), (False, None))[0]
    dirty[(pid, view.round_id)] = (
        new or was_new,
        {
            "progressive_id": pid,
            "round_id": view.round_id,
            "table_id": view.table_id,
            "status": view.status.value,
            "positions": json.dumps(sorted(view.positions)),
            "chips_counted": view.chips_counted,
            "content": view.content,
        },
    )


class ProgressiveSystem:
    """The progressive table game system of one progressive, as the table engine drives it
    (§ 633b.2(d)–(h), § 633b.3(d)–(h)).

    A round goes ``accept_wagers`` (until) → ``lock_out`` → ``verify_chips`` (count equals the
    wagers accepted, else *held*) → ``settle_round`` (one transaction, idempotent) → awards that
    are a share of a meter wait for :meth:`Ledger.validate`; :meth:`play_round` does the four
    steps in one transaction. Seats (positions) are numbered from the dealer's left; every
    operation names the staff member doing it (``by``), recorded in the ledger. A
    ProgressiveSystem is used by one thread at a time (:meth:`Ledger.system` makes a new one).
    """

    def __init__(self, ledger: LedgerBase, progressive: str) -> None:
        self.ledger = ledger
        self.name = progressive
        self._open: tuple[Connection, int, ProgressiveDefinition] | None = None

    @contextmanager
    def _logging_refusal(self, table: str, by: str) -> Iterator[None]:
        """Record a ``configuration-mismatch`` significant event (once per ledger object) when
        play is refused for it — after the refused transaction has rolled back."""
        outer = self._open is None
        try:
            yield
        except ConfigurationMismatchError:
            cached = self.ledger._defs.get(self.name)
            if outer and cached is not None:
                check = ledger_check(self.ledger, cached[2])
                log_mismatch(self.ledger, check, table=table, actor=by)
            raise

    @contextmanager
    def _write(self) -> Iterator[tuple[Connection, int, ProgressiveDefinition]]:
        """A write transaction with the progressive's row locked — or, inside :meth:`play_round`,
        the one already open (so a whole round is one transaction)."""
        if self._open is not None:
            yield self._open
            return
        with self.ledger._tx() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
            self._open = (conn, pid, defn)
            try:
                yield self._open
            finally:
                self._open = None

    def play_round(
        self,
        round_id: str,
        table: str,
        positions: Sequence[int],
        hands: Sequence[QualifyingHand],
        *,
        idempotency_key: str,
        by: str,
        content: str | None = None,
    ) -> RoundSettlement:
        """A whole round in one transaction, as a table that has dealt it reports it: the wagers
        accepted at ``positions``, the lock-out, one value chip counted per wager, and the
        settlement of ``hands`` (:meth:`accept_wagers`, :meth:`lock_out`, :meth:`verify_chips`,
        :meth:`settle_round`: the same events, the same checks). A failure anywhere leaves the
        ledger as it was. ``idempotency_key`` already settled with the same request: the first
        settlement, ``replayed``. ``round_id`` follows the rule of
        :func:`croupier.names.checked_ledger_round_id` (:class:`~croupier.errors.NameRuleError`)."""
        checked_ledger_round_id(round_id)
        if self._open is not None:
            return self._play_steps(round_id, table, positions, hands, idempotency_key, by, content)
        with self._logging_refusal(table, by):
            return self._play_new(round_id, table, positions, hands, idempotency_key, by, content)

    def play_new_round(
        self,
        round_id: str,
        table: str,
        positions: Sequence[int],
        hands: Sequence[QualifyingHand],
        *,
        idempotency_key: str,
        by: str,
        content: str | None = None,
        after: After | None = None,
    ) -> RoundSettlement | None:
        """:meth:`play_round` for a round the ledger does not know yet, in the common case, with
        the rounds other threads feed meanwhile: one transaction and one commit for them all
        (:class:`~croupier.progressive.feeder.Feeder`). ``None`` — nothing written — when the
        round is not that case (on the ledger already, a refusal to explain, a definition this
        object has not read yet): call :meth:`play_round`, which decides it and says why.
        ``after``: rows the round brings to its transaction, made from its settlement
        (:meth:`Feeder.play <croupier.progressive.feeder.Feeder.play>`)."""
        checked_ledger_round_id(round_id)  # the round id rule (croupier.names): NameRuleError
        prepared = prepare(
            self.ledger,
            self.name,
            round_id,
            table,
            positions,
            hands,
            idempotency_key=idempotency_key,
            by=by,
            content=content,
        )
        if prepared is None or self._open is not None:
            return None
        return feeder_of(self.ledger).play(prepared, after)

    def _play_new(
        self,
        round_id: str,
        table: str,
        positions: Sequence[int],
        hands: Sequence[QualifyingHand],
        idempotency_key: str,
        by: str,
        content: str | None,
    ) -> RoundSettlement:
        prepared = prepare(
            self.ledger,
            self.name,
            round_id,
            table,
            positions,
            hands,
            idempotency_key=idempotency_key,
            by=by,
            content=content,
        )
        with self.ledger._tx() as conn:
            if prepared is not None:
                done = play(self.ledger, prepared, conn)
                if done is not None:
                    return done
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
            self._open = (conn, pid, defn)
            try:
                return self._play_steps(
                    round_id, table, positions, hands, idempotency_key, by, content
                )
            finally:
                self._open = None

    def _play_steps(
        self,
        round_id: str,
        table: str,
        positions: Sequence[int],
        hands: Sequence[QualifyingHand],
        idempotency_key: str,
        by: str,
        content: str | None,
    ) -> RoundSettlement:
        """:meth:`play_round` step by step (in the transaction :meth:`_write` holds open)."""
        with self._write() as (conn, pid, defn):
            if _round(conn, pid, defn, round_id) is None:
                self.accept_wagers(round_id, table, positions, by=by, content=content)
                self.lock_out(round_id, by=by)
                self.verify_chips(round_id, len(positions), by=by)
            return self.settle_round(round_id, hands, idempotency_key=idempotency_key, by=by)

    @property
    def definition(self) -> ProgressiveDefinition:
        """The progressive's definition."""
        return self.ledger.definition(self.name)

    def status(self) -> ProgressiveStatus:
        """The progressive's levels, tables and pending awards."""
        return self.ledger.status(self.name)

    def round(self, round_id: str) -> RoundView:
        """The round ``round_id`` (:class:`LedgerLookupError` if no wager was accepted in it);
        read without the writer lock."""
        with self.ledger.reader.connect() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=False)
            r = _round(conn, pid, defn, round_id)
        if r is None:
            raise LedgerLookupError(f"progressive {self.name!r} has no round {round_id!r}")
        return r

    def find_round(self, round_id: str) -> RoundView | None:
        """The round ``round_id``, or ``None``."""
        try:
            return self.round(round_id)
        except LedgerLookupError:
            return None

    def _round_for_update(
        self, conn: Connection, pid: int, defn: ProgressiveDefinition, round_id: str
    ) -> RoundView:
        r = _round(conn, pid, defn, round_id)
        if r is None:
            raise LedgerLookupError(f"progressive {self.name!r} has no round {round_id!r}")
        return r

    def accept_wagers(
        self,
        round_id: str,
        table: str,
        positions: Sequence[int],
        *,
        by: str,
        content: str | None = None,
    ) -> RoundView:
        """Accept one progressive wager (of the definition's size) at each of ``positions``
        (§ 633b.2(d)(1)). Only before the lock-out (:class:`~croupier.errors.LockoutError`,
        § 633b.2(d)(2)); only at a table linked to the progressive (:class:`LinkError`, § 605a.8);
        a position holds one wager per round. ``content`` is the SHA-256 of the whole round as the
        table dealt it (:func:`croupier.table.progressive.round_content`), kept with the round.
        A new round's id follows the rule of :func:`croupier.names.checked_ledger_round_id`
        (:class:`~croupier.errors.NameRuleError`)."""
        checked_ledger_round_id(round_id)
        ps = list(positions)
        if not ps or any(not isinstance(p, int) or isinstance(p, bool) or p < 1 for p in ps):
            raise RoundStateError(f"positions must be seat numbers 1, 2, …, not {ps!r}")
        if len(set(ps)) != len(ps):
            raise RoundStateError(f"a position holds one progressive wager, got {ps!r}")
        with self._logging_refusal(table, by), self._write() as (conn, pid, defn):
            role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(d)(1)"), "accepting wagers")
            self._check_accepting(conn, pid, defn, table)
            r = _round(conn, pid, defn, round_id)
            if r is None:
                _put_round(
                    conn,
                    pid,
                    RoundView(
                        self.name,
                        round_id,
                        table,
                        RoundStatus.OPEN,
                        tuple(sorted(ps)),
                        None,
                        content,
                    ),
                    new=True,
                )
                accepted = sorted(ps)
            else:
                _check_more_wagers(r, round_id, table, ps, defn)
                accepted = sorted({*r.positions, *ps})
                _set_round(conn, pid, round_id, RoundStatus.OPEN, positions=json.dumps(accepted))
            self.ledger._append(
                conn,
                pid,
                [
                    EventDraft(
                        EventKind.ACCEPT,
                        detail={
                            "positions": sorted(ps),
                            "wager_cents": defn.wager_cents,
                            **({"content": content} if content is not None else {}),
                        },
                    )
                ],
                round_id=round_id,
                table_id=table,
                actor=by,
                role=role,
            )
            return RoundView(
                self.name,
                round_id,
                table,
                RoundStatus.OPEN,
                tuple(accepted),
                None,
                content if r is None else r.content,
            )

    def _check_accepting(
        self, conn: Connection, pid: int, defn: ProgressiveDefinition, table: str
    ) -> None:
        """Refuse a wager while the progressive is suspended, its configuration not the
        approved one, or at a table not linked to it (§ 605a.8)."""
        if conn.execute(_SUSPENDED, {"b_pid": pid}).scalar_one():
            raise LinkError(
                f"progressive {self.name!r} is suspended (its reason: GET /progressives/"
                f"{self.name}, or croupier meters --history): no wager is accepted at its tables until "
                "it is resumed",
                section="605a.8",
                also=RECONFIGURATION_RULE,
            )
        require_configuration(self.ledger, defn)
        linked = conn.execute(_LINKED, {"b_pid": pid, "b_table": table}).first()
        if linked is None:
            raise LinkError(
                f"table {table} is not linked to progressive {self.name!r}", section="605a.8"
            )

    def lock_out(self, round_id: str, *, by: str) -> None:
        """ "No more bets": the system recognises no further progressive wager in the round
        (§ 633b.2(d)(2), (f))."""
        with self._write() as (conn, pid, defn):
            role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(d)(2)"), "the lock-out")
            r = self._round_for_update(conn, pid, defn, round_id)
            if r.status is not RoundStatus.OPEN:
                raise RoundStateError(f"round {round_id!r} is {r.status.value}, not open")
            _set_round(conn, pid, round_id, RoundStatus.LOCKED)
            self.ledger._append(
                conn,
                pid,
                [EventDraft(EventKind.LOCKOUT, detail={"wagers": len(r.positions)})],
                round_id=round_id,
                table_id=r.table_id,
                actor=by,
                role=role,
            )

    def verify_chips(self, round_id: str, chips: int, *, by: str) -> RoundStatus:
        """Record the count of value chips collected against the wagers the system accepted
        (§ 633b.2(f)): equal, the round is ``VERIFIED``; different, it is ``HELD`` and cannot be
        settled. A held round is recounted by a floorperson or above (internal controls) or
        voided (:meth:`void_round`). Returns the new status."""
        if type(chips) is not int or chips < 0:  # True is no count of one chip
            raise RoundStateError(f"a chip count is a whole number, not {chips!r}")
        with self._write() as (conn, pid, defn):
            r = self._round_for_update(conn, pid, defn, round_id)
            if r.status is RoundStatus.HELD:
                role = self.ledger._user(
                    conn, by, Role.FLOORPERSON, defn.rule("(f)"), "recounting a held round"
                )
            elif r.status is RoundStatus.LOCKED:
                role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(f)"), "the count")
            else:
                raise RoundStateError(
                    f"round {round_id!r} is {r.status.value}: the chips are counted after the "
                    f"lock-out (§ {defn.rule('(f)')})"
                )
            agrees = chips == len(r.positions)
            status = RoundStatus.VERIFIED if agrees else RoundStatus.HELD
            drafts = [
                EventDraft(
                    EventKind.CHIP_COUNT,
                    detail={"chips": chips, "wagers": len(r.positions), "agrees": agrees},
                )
            ]
            if not agrees:
                drafts.append(
                    EventDraft(
                        EventKind.HOLD,
                        detail={
                            "reason": f"{chips} value chips for {len(r.positions)} progressive "
                            "wagers accepted",
                            "section": defn.rule("(f)"),
                        },
                    )
                )
            _set_round(conn, pid, round_id, status, chips_counted=chips)
            self.ledger._append(
                conn, pid, drafts, round_id=round_id, table_id=r.table_id, actor=by, role=role
            )
            return status

    def void_round(self, round_id: str, *, by: str, reason: str) -> None:
        """Void a round before settlement (e.g. held, and the discrepancy not resolved): its
        wagers are returned and nothing is contributed. A floorperson or above."""
        if not reason.strip():
            raise InputError("voiding a round needs a reason")
        with self._write() as (conn, pid, defn):
            role = self.ledger._user(
                conn, by, Role.FLOORPERSON, defn.rule("(f)"), "voiding a round"
            )
            r = self._round_for_update(conn, pid, defn, round_id)
            if r.status in (RoundStatus.SETTLED, RoundStatus.VOIDED):
                raise RoundStateError(f"round {round_id!r} is {r.status.value} already")
            _set_round(conn, pid, round_id, RoundStatus.VOIDED)
            self.ledger._append(
                conn,
                pid,
                [EventDraft(EventKind.VOID_ROUND, detail={"reason": reason.strip()})],
                round_id=round_id,
                table_id=r.table_id,
                actor=by,
                role=role,
            )

    def settle_round(
        self,
        round_id: str,
        hands: Sequence[QualifyingHand],
        *,
        idempotency_key: str,
        by: str,
    ) -> RoundSettlement:
        """Settle a verified round's progressive wagers, in one transaction.

        ``hands`` are the qualifying hands (any position not listed lost). The round's wagers
        contribute to every level, then positions are paid in the regulated order (see
        :func:`~croupier.progressive.planning.plan_settlement`). Awards that are a share of a meter
        are pending validation. Retrying with the same ``idempotency_key`` and hands returns the
        first result (``replayed=True``) and changes nothing; the same key with other hands is an
        :class:`~croupier.errors.IdempotencyConflictError`. A held round raises
        :class:`~croupier.errors.RoundHeldError` (§ 633b.2(f)).
        """
        key = idempotency_key.strip()
        if not key:
            raise InputError("a settlement needs an idempotency key")
        fingerprint = request_fingerprint(round_id, hands)
        with self._write() as (conn, pid, defn):
            done = conn.execute(_SETTLED, {"b_key": key}).first()
            if done is not None:
                if (
                    done.progressive_id != pid
                    or done.round_id != round_id
                    or done.fingerprint != fingerprint
                ):
                    raise IdempotencyConflictError(
                        f"idempotency key {key!r} settled round {done.round_id!r} with other "
                        "hands; a retry must repeat the same request"
                    )
                return self._replayed(conn, pid, done.round_id, key)
            role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(g)"), "settling a round")
            r = self._round_for_update(conn, pid, defn, round_id)
            _check_settleable(r, round_id, defn)
            before = self.ledger._levels(conn, pid)
            groups = _open_groups(conn, pid) if defn.hit_policy is HitPolicy.SHARE else None
            plan = plan_settlement(defn, before, r.positions, hands, groups)

            table_id = r.table_id

            def append(drafts: Sequence[EventDraft], award_ids: Sequence[int] = ()) -> None:
                self.ledger._append(
                    conn,
                    pid,
                    drafts,
                    round_id=round_id,
                    table_id=table_id,
                    actor=by,
                    role=role,
                    award_ids=award_ids,
                )

            n_contrib = len(defn.levels)
            append(plan.events[:n_contrib])
            self.ledger._fault("contributions")
            made = [self._insert_award(conn, pid, round_id, r.table_id, a) for a in plan.awards]
            award_ids = [i for i, _ in made]
            self.ledger._fault("award-rows")
            _store_share_groups(conn, plan, award_ids)
            append(plan.events[n_contrib:], award_ids)
            self.ledger._fault("awards")
            self.ledger._store_levels(conn, pid, before, plan.states)
            _set_round(conn, pid, round_id, RoundStatus.SETTLED)
            self.ledger._fault("levels")
            result = settlement_result(
                self.name, round_id, r.table_id, key, plan, award_ids, n_contrib,
                [n for _, n in made],
            )  # fmt: skip
            conn.execute(
                _INSERT_SETTLEMENT,
                {
                    "idempotency_key": key,
                    "progressive_id": pid,
                    "round_id": round_id,
                    "fingerprint": fingerprint,
                    "result": settlement_to_json(result),
                    "created_at": now(),
                },
            )
            append(
                [
                    EventDraft(
                        EventKind.SETTLED,
                        detail={
                            "idempotency_key": key,
                            "fingerprint": fingerprint,
                            "hands": sorted([h.position, h.outcome] for h in hands),
                            "awards": award_ids,
                        },
                    )
                ]
            )
            self.ledger._fault("before-commit")
            return result

    def _replayed(self, conn: Connection, pid: int, round_id: str, key: str) -> RoundSettlement:
        """The settlement of ``round_id`` rebuilt from its events up to its ``settled`` event."""
        events = []
        for e in self.ledger._events(conn, pid, round_id=round_id):
            events.append(e)
            if e.kind is EventKind.SETTLED:
                break
        else:
            raise LedgerIntegrityError(
                f"progressive {self.name!r}: idempotency key {key!r} is recorded as settled but "
                f"round {round_id!r} has no settled event: run `croupier meters verify`"
            )
        table_id = events[-1].table_id or ""
        ids = [e.award_id for e in events if e.award_id is not None]
        numbers = {
            r.id: r.number
            for r in conn.execute(
                sa.select(t.awards.c.id, t.awards.c.number).where(
                    t.awards.c.id.in_(ids), t.awards.c.number.is_not(None)
                )
            )
        }
        awards = replay_awards(self.name, events, numbers)
        return RoundSettlement(
            self.name,
            round_id,
            table_id,
            key,
            tuple(
                Contribution(e.level, e.delta.meter, e.delta.reserve)
                for e in events
                if e.kind is EventKind.CONTRIBUTION and e.level is not None
            ),
            tuple(awards[i] for i in sorted(awards)),
            replayed=True,
        )

    @staticmethod
    def _insert_award(
        conn: Connection, pid: int, round_id: str, table_id: str, a: AwardDraft
    ) -> tuple[int, int | None]:
        """Insert an award row, its id the last one's + 1 and, a meter award, its number the
        last number's + 1 (writers hold the chain head, so both follow commit order; the fast
        path of :meth:`play_round` allocates them the same way); its id and number."""
        row = award_row(pid, round_id, table_id, a)
        if a.kind is not AwardKind.METER:
            return int(conn.execute(_INSERT_AWARD, row).scalar_one()), None
        made = conn.execute(_INSERT_METER_AWARD, row).one()
        return int(made.id), int(made.number)


def _check_more_wagers(
    r: RoundView, round_id: str, table: str, ps: Sequence[int], defn: ProgressiveDefinition
) -> None:
    """Refuse more wagers in round ``r``: at another table, after the lock-out (§ 633b.2(d)(2)),
    or at a position already holding one."""
    if r.table_id != table:
        raise RoundStateError(f"round {round_id!r} is at table {r.table_id}, not {table}")
    if r.status is not RoundStatus.OPEN:
        raise LockoutError(
            f"round {round_id!r} is locked out ({r.status.value}): no progressive "
            f'wager is accepted after "No more bets"',
            section=defn.rule("(d)(2)"),
        )
    again = sorted(set(ps) & set(r.positions))
    if again:
        raise RoundStateError(
            f"position(s) {', '.join(map(str, again))} already hold a progressive "
            f"wager in round {round_id!r}"
        )


def _check_settleable(r: RoundView, round_id: str, defn: ProgressiveDefinition) -> None:
    """Refuse to settle round ``r`` unless its chips were counted and verified: a held round
    (§ 633b.2(f)) or one not yet verified, settled or voided."""
    if r.status is RoundStatus.HELD:
        raise RoundHeldError(
            f"round {round_id!r} is held: {r.chips_counted} value chips for "
            f"{len(r.positions)} progressive wagers accepted",
            section=defn.rule("(f)"),
        )
    if r.status is not RoundStatus.VERIFIED:
        hint = {
            RoundStatus.OPEN: "lock out and count the chips first",
            RoundStatus.LOCKED: "count the chips first",
            RoundStatus.SETTLED: "it was settled under another idempotency key",
            RoundStatus.VOIDED: "it was voided",
        }.get(r.status, "")
        raise RoundStateError(
            f"round {round_id!r} is {r.status.value} and cannot be settled: {hint}"
        )
