"""A whole round in one short locked transaction: the fast path of
:meth:`ProgressiveSystem.play_round <croupier.progressive.rounds.ProgressiveSystem.play_round>`.

Four linked tables settle on one meter, so every round waits for the rounds before it to leave
the ledger's lock; the time a round holds it is what the others wait (issue 12: p99 ≤ 50 ms with
four writers). This module does everything that does not depend on the ledger's state *before*
the lock — checking the request, the fingerprint, the events of the acceptance, lock-out and
chip count — and under the lock only:

1. one :class:`~croupier.progressive.batch.Batch` (one round trip on PostgreSQL) that locks the
   progressive's row and the chain head, in the order every writer takes them, and reads the
   levels, whether the round, its idempotency key or its table are known, the acting member's
   staff row, the last award id and the last staff event;
2. the settlement planned (:func:`~croupier.progressive.meters.plan_settlement`) and every
   event chained (HMAC under the ledger key);
3. one batch writing the round, the awards, the levels (and the running totals the events move,
   :mod:`~croupier.progressive.totals`, in the same UPDATEs), the settlement, the events, the
   table's payouts if any and the head, and committing (on PostgreSQL in the same round trip:
   two round trips hold the lock).

The events, rows and checks are those of the step-by-step procedure (accept → lock-out → chip
count → settle): anything that is not the common case — a round or key already on the ledger,
a table not linked, a member unknown or whose staff row differs from the log, a definition
changed, a progressive suspended, a request the checks refuse — returns ``None`` and the caller
runs that procedure in the same transaction, which raises its errors or replays the settlement.

Staff are read from the log as always, but once per change: the log's staff are cached with the
``seq`` of the last event outside any progressive (staff events), read under the lock each round.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import CroupierError
from croupier.paytables import MeterLevel, MeterShare
from croupier.progressive.batch import Batch
from croupier.progressive.chain import chain_rows
from croupier.progressive.configuration import ledger_check
from croupier.progressive.core import STORE_LEVEL, TX_STATE, LedgerBase
from croupier.progressive.meters import (
    AwardDraft,
    EventDraft,
    LevelState,
    SettlementPlan,
    check_hands,
    plan_settlement,
)
from croupier.progressive.model import (
    EventKind,
    HitPolicy,
    ProgressiveDefinition,
    QualifyingHand,
    Role,
    RoundStatus,
)
from croupier.progressive.records import (
    Award,
    Contribution,
    RoundSettlement,
    settlement_to_json,
)
from croupier.progressive.store import dumps, now
from croupier.progressive.totals import (
    LEVEL_INCREMENTS,
    rows_totals,
    take_level_totals,
    totals_writes,
)

_LOCK_PROGRESSIVE = (
    sa.select(t.progressives.c.id, t.progressives.c.definition, t.progressives.c.suspended)
    .where(t.progressives.c.name == sa.bindparam("b_name"))
    .with_for_update()
)
_LOCK_HEAD = (
    sa.select(t.ledger_chain.c.head_seq, t.ledger_chain.c.head_mac)
    .where(t.ledger_chain.c.id == 1)
    .with_for_update()
)
_e = t.ledger_events.c
_STATE = (
    sa.select(
        t.meter_levels,
        sa.select(t.staff.c.role)
        .where(t.staff.c.name == sa.bindparam("b_by"))
        .scalar_subquery()
        .label("by_role"),
        sa.select(t.staff.c.credential)
        .where(t.staff.c.name == sa.bindparam("b_by"))
        .scalar_subquery()
        .label("by_credential"),
        sa.select(t.linked_tables.c.table_id)
        .where(
            t.linked_tables.c.progressive_id == sa.bindparam("b_pid"),
            t.linked_tables.c.table_id == sa.bindparam("b_table"),
        )
        .scalar_subquery()
        .label("linked"),
        sa.select(t.rounds.c.status)
        .where(
            t.rounds.c.progressive_id == sa.bindparam("b_pid"),
            t.rounds.c.round_id == sa.bindparam("b_rid"),
        )
        .scalar_subquery()
        .label("round_status"),
        sa.select(t.settlements.c.round_id)
        .where(t.settlements.c.idempotency_key == sa.bindparam("b_key"))
        .scalar_subquery()
        .label("settled"),
        sa.select(sa.func.max(t.awards.c.id)).scalar_subquery().label("last_award"),
        sa.select(sa.func.max(_e.seq))
        .where(_e.progressive_id.is_(None))
        .scalar_subquery()
        .label("staff_seq"),
    )
    .where(t.meter_levels.c.progressive_id == sa.bindparam("b_pid"))
    .order_by(t.meter_levels.c.ordinal)
)
_STORE_LEVEL_TOTALS = STORE_LEVEL.values(LEVEL_INCREMENTS)  # and the level's running totals
_INSERT_ROUND = sa.insert(t.rounds)
_INSERT_AWARDS = sa.insert(t.awards)
_INSERT_SETTLEMENT = sa.insert(t.settlements)
_INSERT_EVENTS = sa.insert(t.ledger_events)
_MOVE_HEAD = (
    sa.update(t.ledger_chain)
    .where(t.ledger_chain.c.id == 1)
    .values(head_seq=sa.bindparam("b_seq"), head_mac=sa.bindparam("b_mac"))
)


def request_fingerprint(round_id: str, hands: Sequence[QualifyingHand]) -> str:
    """SHA-256 of a settlement request (the round and its qualifying hands): a retry under the
    same idempotency key must repeat it."""
    data = {"round": round_id, "hands": sorted([h.position, h.outcome] for h in hands)}
    return hashlib.sha256(dumps(data).encode()).hexdigest()


def settlement_result(
    progressive: str,
    round_id: str,
    table_id: str,
    key: str,
    plan: SettlementPlan,
    award_ids: Sequence[int],
    n_contributions: int,
) -> RoundSettlement:
    """What a settlement returns: the contributions and the awards (with their ids) of ``plan``."""
    return RoundSettlement(
        progressive,
        round_id,
        table_id,
        key,
        tuple(
            Contribution(e.level, e.delta.meter, e.delta.reserve)
            for e in plan.events[:n_contributions]
            if e.level is not None
        ),
        tuple(
            Award(
                id=i,
                progressive=progressive,
                round_id=round_id,
                table_id=table_id,
                position=a.position,
                outcome=a.outcome,
                kind=a.kind,
                status=a.status,
                amount_cents=a.amount_cents,
                meter_cents=a.meter_cents,
                level=a.level,
                share=a.share,
                source_position=a.source_position,
            )
            for i, a in zip(award_ids, plan.awards, strict=True)
        ),
    )


def award_row(
    pid: int, round_id: str, table_id: str, a: AwardDraft, award_id: int | None = None
) -> dict[str, Any]:
    """The ``awards`` row of ``a`` (with its id when given)."""
    row: dict[str, Any] = {} if award_id is None else {"id": award_id}
    row.update(
        {
            "progressive_id": pid,
            "round_id": round_id,
            "table_id": table_id,
            "position": a.position,
            "outcome": a.outcome,
            "kind": a.kind.value,
            "status": a.status.value,
            "level": a.level.value if a.level is not None else None,
            "share": str(a.share) if a.share is not None else None,
            "amount_cents": a.amount_cents,
            "meter_cents": a.meter_cents,
            "source_position": a.source_position if a.source_position is not None else a.position,
            "validated_by": None,
        }
    )
    return row


def level_params(pid: int, old: LevelState, new: LevelState) -> dict[str, Any]:
    """The parameters of the guarded UPDATE moving a level from ``old`` to ``new``."""
    return {
        "b_pid": pid,
        "b_level": new.level.value,
        "b_meter": old.meter,
        "b_reserve": old.reserve,
        "b_held": old.held,
        "b_wagered": old.wagered_cents,
        "n_meter": new.meter,
        "n_reserve": new.reserve,
        "n_held": new.held,
        "n_wagered": new.wagered_cents,
        "n_paid": new.paid_cents,
        "n_hits": new.hits,
    }


@dataclass(frozen=True)
class Prepared:
    """A round request checked before the lock, with its state-independent events."""

    progressive: str
    pid: int
    definition_json: str
    definition: ProgressiveDefinition
    round_id: str
    table: str
    positions: tuple[int, ...]
    hands: tuple[QualifyingHand, ...]
    key: str
    fingerprint: str
    content: str | None
    by: str
    before: tuple[EventDraft, ...]


def prepare(
    ledger: LedgerBase,
    progressive: str,
    round_id: str,
    table: str,
    positions: Sequence[int],
    hands: Sequence[QualifyingHand],
    *,
    idempotency_key: str,
    by: str,
    content: str | None,
) -> Prepared | None:
    """The request checked without the database (``None``: let the step-by-step procedure
    decide, and raise its error)."""
    cached = ledger._defs.get(progressive)
    key = idempotency_key.strip() if isinstance(idempotency_key, str) else ""
    ps = list(positions)
    if (
        cached is None
        or not key
        or not ps
        or any(not isinstance(p, int) or isinstance(p, bool) or p < 1 for p in ps)
        or len(set(ps)) != len(ps)
    ):
        return None
    pid, text, defn = cached
    try:
        check_hands(defn, ps, hands)
    except CroupierError:
        return None
    accepted = sorted(ps)
    before = (
        EventDraft(
            EventKind.ACCEPT,
            detail={
                "positions": accepted,
                "wager_cents": defn.wager_cents,
                **({"content": content} if content is not None else {}),
            },
        ),
        EventDraft(EventKind.LOCKOUT, detail={"wagers": len(ps)}),
        EventDraft(
            EventKind.CHIP_COUNT, detail={"chips": len(ps), "wagers": len(ps), "agrees": True}
        ),
    )
    return Prepared(
        progressive,
        pid,
        text,
        defn,
        round_id,
        table,
        tuple(accepted),
        tuple(hands),
        key,
        request_fingerprint(round_id, hands),
        content,
        by,
        before,
    )


def _level(m: Mapping[str, Any]) -> LevelState:
    return LevelState(
        MeterLevel(m["level"]),
        m["meter_micros"],
        m["reserve_micros"],
        m["held_micros"],
        m["wagered_cents"],
        m["paid_cents"],
        m["hits"],
    )


def _full_hit(defn: ProgressiveDefinition, hands: Sequence[QualifyingHand]) -> bool:
    """Whether a hand is paid 100% of a level."""
    for h in hands:
        try:
            pays = defn.line(h.outcome).pays
        except CroupierError:
            return True  # the procedure says what is wrong with it
        if isinstance(pays, MeterShare) and pays.share == 1:
            return True
    return False


LOCKED = "locked-progressives"
"""``TX_STATE`` key: the progressives whose row this transaction locked and found playable
(id → the definition's JSON read under the lock), so a later round of a batch
(:mod:`croupier.progressive.feeder`) reads neither that row nor the chain head again."""


def play(
    ledger: LedgerBase, p: Prepared, conn: Connection, *, commit: bool = True
) -> RoundSettlement | None:
    """Settle the prepared round on ``conn`` (a write transaction of ``ledger``), or ``None``
    when it is not the common case (see the module docstring); then only reads were made.

    ``commit=False``: the writes are left in the transaction, which the caller commits (one
    commit for a batch of rounds, :mod:`croupier.progressive.feeder`); a later round of it finds
    the progressive's row and the chain head locked already and the head in the transaction's
    state, and reads only the levels and what is known of its round, key, table and member."""
    key = ledger._require_key()
    st = conn.info[TX_STATE]
    locked: dict[int, str] = st.setdefault(LOCKED, {})
    held = locked.get(p.pid) == p.definition_json and st.get("head") is not None
    reads = Batch(conn)
    if not held:
        reads.add(_LOCK_PROGRESSIVE, {"b_name": p.progressive})
        reads.add(_LOCK_HEAD, {})
    reads.add(
        _STATE,
        {
            "b_by": p.by,
            "b_pid": p.pid,
            "b_table": p.table,
            "b_rid": p.round_id,
            "b_key": p.key,
        },
    )
    got = reads.run()
    state = got[-1]
    assert isinstance(state, list)
    if held:
        head_seq, head_mac = st["head"]
    else:
        prog, head = got[0], got[1]
        assert isinstance(prog, list) and isinstance(head, list)
        if not prog or prog[0]["id"] != p.pid or prog[0]["definition"] != p.definition_json:
            return None
        if prog[0]["suspended"] or not ledger_check(ledger, p.definition).ok:
            return None  # the procedure refuses it, saying why
        if not head:
            return None
        head_seq, head_mac = int(head[0]["head_seq"]), str(head[0]["head_mac"])
        ledger._check_kept(head_seq)
    if p.definition.hit_policy is HitPolicy.SHARE and _full_hit(p.definition, p.hands):
        return None  # a 100% hit may join a share group: the procedure reads the groups
    if not state:
        return None
    s0 = state[0]
    if s0["round_status"] is not None or s0["settled"] is not None or s0["linked"] is None:
        return None
    entry = ledger._staff_at(conn, int(s0["staff_seq"] or 0)).get(p.by)
    if entry is None or s0["by_role"] != entry[0].value or s0["by_credential"] != entry[1]:
        return None
    role = entry[0]
    if not role.at_least(Role.DEALER):
        return None
    defn = p.definition
    levels = {MeterLevel(m["level"]): _level(m) for m in state}
    plan = plan_settlement(defn, levels, p.positions, p.hands)
    first = int(s0["last_award"] or 0) + 1
    award_ids = list(range(first, first + len(plan.awards)))
    n_contrib = len(defn.levels)
    result = settlement_result(
        p.progressive, p.round_id, p.table, p.key, plan, award_ids, n_contrib
    )
    settled = EventDraft(
        EventKind.SETTLED,
        detail={
            "idempotency_key": p.key,
            "fingerprint": p.fingerprint,
            "hands": sorted([h.position, h.outcome] for h in p.hands),
            "awards": award_ids,
        },
    )
    at = now()
    rows, seq, mac = chain_rows(
        key,
        head_seq,
        head_mac,
        p.pid,
        [*p.before, *plan.events, settled],
        round_id=p.round_id,
        table_id=p.table,
        actor=p.by,
        role=role,
        award_ids=award_ids,
        at=at,
    )
    # a crash (or a test's fault) at any stage before the write leaves nothing written; the
    # writes and the commit then go in one batch (one round trip on PostgreSQL)
    for stage in ("contributions", "award-rows", "awards", "levels", "before-commit"):
        ledger._fault(stage)
    writes = Batch(conn)
    writes.add(
        _INSERT_ROUND,
        {
            "progressive_id": p.pid,
            "round_id": p.round_id,
            "table_id": p.table,
            "status": RoundStatus.SETTLED.value,
            "positions": json.dumps(list(p.positions)),
            "chips_counted": len(p.positions),
            "content": p.content,
        },
    )
    writes.add(
        _INSERT_AWARDS,
        [
            award_row(p.pid, p.round_id, p.table, a, i)
            for i, a in zip(award_ids, plan.awards, strict=True)
        ],
    )
    moved = rows_totals(rows)  # the running totals the events move, most with their levels
    for lv, s in plan.states.items():
        if s != levels[lv]:
            params = level_params(p.pid, levels[lv], s) | take_level_totals(moved, p.pid, lv)
            writes.add(_STORE_LEVEL_TOTALS, params, rows=1)
    writes.add(
        _INSERT_SETTLEMENT,
        {
            "idempotency_key": p.key,
            "progressive_id": p.pid,
            "round_id": p.round_id,
            "fingerprint": p.fingerprint,
            "result": settlement_to_json(result),
            "created_at": at,
        },
    )
    writes.add(_INSERT_EVENTS, rows)
    for stmt, params in totals_writes(moved):  # the rest of them: the table's payouts
        writes.add(stmt, params, rows=1)
    writes.add(_MOVE_HEAD, {"b_seq": seq, "b_mac": mac})
    writes.run(commit=commit)
    st["head"] = [seq, mac]  # the copy kept outside the database follows it
    locked[p.pid] = p.definition_json
    return result
