"""A whole round in one short locked transaction: the fast path of
:meth:`ProgressiveSystem.play_round <croupier.progressive.rounds.ProgressiveSystem.play_round>`.

Four linked tables settle on one meter, so every round waits for the rounds before it to leave
the ledger's lock; the time a round holds it is what the others wait (issue 12: p99 ≤ 50 ms with
four writers). This module does everything that does not depend on the ledger's state *before*
the lock — checking the request, the fingerprint, the events of the acceptance, lock-out and
chip count — and under the lock only, for a group of rounds of one progressive
(:func:`play_group`; :func:`play` is a group of one):

1. one :class:`~croupier.progressive.batch.Batch` (one round trip on PostgreSQL) that locks the
   progressive's row and the chain head, in the order every writer takes them, and reads the
   levels and, per round, whether the round, its idempotency key or its table are known, the
   acting member's staff row, the last award id and the last staff event;
2. each round's settlement planned (:func:`~croupier.progressive.planning.plan_settlement`) from
   the levels the rounds before it left, and its events chained (HMAC under the ledger key);
3. one batch writing the rounds, the awards, the settlements, the events, the levels once (and
   the running totals the events move, :mod:`~croupier.progressive.totals`, in the same
   UPDATEs), the table's payouts if any and the head, and committing (on PostgreSQL one
   message: two round trips hold the lock, however many rounds the group holds; issue 16 —
   two server processes settling one progressive took turns at it with a round trip per
   statement, a p99 of 636 ms at 200 rounds a second).

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
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import CroupierError
from croupier.paytables import MeterLevel, MeterShare
from croupier.progressive.batch import Batch
from croupier.progressive.chain import chain_rows
from croupier.progressive.configuration import ledger_check
from croupier.progressive.core import STORE_LEVEL, TX_STATE, LedgerBase, mark_anchor
from croupier.progressive.meters import (
    AwardDraft,
    EventDraft,
    LevelState,
    SettlementPlan,
    check_hands,
)
from croupier.progressive.model import (
    AwardKind,
    EventKind,
    HitPolicy,
    ProgressiveDefinition,
    QualifyingHand,
    Role,
    RoundStatus,
)
from croupier.progressive.planning import plan_settlement
from croupier.progressive.records import (
    Award,
    Contribution,
    RoundSettlement,
    settlement_to_json,
)
from croupier.progressive.roster import LoggedMember
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


def _scalar(label: str, column: Any, *where: Any) -> Any:
    """``column`` of the one row ``where`` picks, as a labelled scalar subquery."""
    return sa.select(column).where(*where).scalar_subquery().label(label)


_STATE = (
    sa.select(
        t.meter_levels,
        _scalar("by_role", t.staff.c.role, t.staff.c.name == sa.bindparam("b_by")),
        _scalar("by_credential", t.staff.c.credential, t.staff.c.name == sa.bindparam("b_by")),
        _scalar(
            "linked",
            t.linked_tables.c.table_id,
            t.linked_tables.c.progressive_id == sa.bindparam("b_pid"),
            t.linked_tables.c.table_id == sa.bindparam("b_table"),
        ),
        _scalar(
            "round_status",
            t.rounds.c.status,
            t.rounds.c.progressive_id == sa.bindparam("b_pid"),
            t.rounds.c.round_id == sa.bindparam("b_rid"),
        ),
        _scalar(
            "settled",
            t.settlements.c.round_id,
            t.settlements.c.idempotency_key == sa.bindparam("b_key"),
        ),
        _scalar("last_award", sa.func.max(t.awards.c.id)),
        _scalar("last_number", sa.func.max(t.awards.c.number)),
        _scalar("staff_seq", sa.func.max(_e.seq), _e.progressive_id.is_(None)),
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
    numbers: Sequence[int | None] = (),
) -> RoundSettlement:
    """What a settlement returns: the contributions and the awards (with their ids and, meter
    awards, the ``numbers`` people are told, in the order of ``award_ids``) of ``plan``."""
    numbers = list(numbers) or [None] * len(award_ids)
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
                number=n,
            )
            for i, n, a in zip(award_ids, numbers, plan.awards, strict=True)
        ),
    )


def award_row(
    pid: int,
    round_id: str,
    table_id: str,
    a: AwardDraft,
    award_id: int | None = None,
    number: int | None = None,
) -> dict[str, Any]:
    """The ``awards`` row of ``a`` (with its id and number when given: else the INSERT makes
    them)."""
    row: dict[str, Any] = {} if award_id is None else {"id": award_id, "number": number}
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


def meter_numbers(awards: Sequence[AwardDraft], first: int) -> list[int | None]:
    """The numbers of ``awards`` (a settlement's, in order) when the next free one is
    ``first``: the meter awards numbered on from it, an odds or envy pay ``None``."""
    out: list[int | None] = []
    for a in awards:
        out.append(first if a.kind is AwardKind.METER else None)
        first += a.kind is AwardKind.METER
    return out


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

    ``commit=False``: the writes are left in the transaction, which the caller commits; a later
    round of it finds the progressive's row and the chain head locked already and the head in
    the transaction's state, and reads only the levels and what is known of its round, key,
    table and member."""
    writes = Batch(conn)
    (result,) = play_group(ledger, [p], conn, writes)
    if result is not None:
        writes.run(commit=commit)
    return result


def play_group(
    ledger: LedgerBase, ps: Sequence[Prepared], conn: Connection, writes: Batch
) -> list[RoundSettlement | None]:
    """Settle the prepared rounds ``ps``, all of **one** progressive, in this order, on ``conn``
    (a write transaction of ``ledger``): each its settlement, or ``None`` when it is not the
    common case (the module docstring; nothing of that round is written: its caller runs the
    step-by-step procedure after this transaction, which raises its error or replays it).

    One :class:`~croupier.progressive.batch.Batch` of reads — the progressive's row and the
    chain head locked, and per round its :data:`_STATE` — then every round planned in memory,
    each from the levels, the chain head and the award ids the rounds before it left, and its
    writes **queued** on ``writes``, which the caller runs (with whatever else the transaction
    holds, and its commit: on PostgreSQL one round trip): so a group of rounds holds the ledger's
    lock for two round trips, however many rounds it holds (:mod:`croupier.progressive.feeder`).
    A round whose round id or idempotency key an earlier round of the group has is ``None``: it
    is decided after this one commits (a replay or a conflict). The levels each progressive's
    rounds move are written once, from what the group found to what it left (a compare-and-set
    UPDATE), with the running totals of all its events; the chain head once.

    Raises what the database raises (the transaction is then the caller's to roll back)."""
    if not ps:
        return []
    p0 = ps[0]
    if any(p.pid != p0.pid for p in ps):
        raise ValueError("play_group: every round of a group is of one progressive")
    key = ledger._require_key()
    st = conn.info[TX_STATE]
    locked: dict[int, str] = st.setdefault(LOCKED, {})
    held = locked.get(p0.pid) == p0.definition_json and st.get("head") is not None
    got = _read_group(conn, ps, held)
    states = got[len(got) - len(ps) :]
    out: list[RoundSettlement | None] = [None] * len(ps)
    found_head = (p0.definition_json, *st["head"]) if held else _playable_head(ledger, ps, got)
    if found_head is None:
        return out  # the procedure refuses them, saying why
    playable, head_seq, head_mac = found_head
    first_state = next((s for s in states if s), None)
    if first_state is None:
        return out
    assert isinstance(first_state, list)
    found = {MeterLevel(m["level"]): _level(m) for m in first_state}
    levels = dict(found)
    next_award = int(first_state[0]["last_award"] or 0) + 1
    next_number = int(first_state[0]["last_number"] or 0) + 1
    staff = ledger._staff_at(conn, int(first_state[0]["staff_seq"] or 0))
    seen_rounds: set[str] = set()
    seen_keys: set[str] = set()
    events: list[dict[str, Any]] = []
    for i, (p, state) in enumerate(zip(ps, states, strict=True)):
        assert isinstance(state, list)
        if p.definition_json != playable or p.round_id in seen_rounds or p.key in seen_keys:
            continue
        role = _common_case_role(p, state, staff)
        if role is None:
            continue
        plan = plan_settlement(p.definition, levels, p.positions, p.hands)
        award_ids = list(range(next_award, next_award + len(plan.awards)))
        numbers = meter_numbers(plan.awards, next_number)
        result = settlement_result(
            p.progressive, p.round_id, p.table, p.key, plan, award_ids,
            len(p.definition.levels), numbers,
        )  # fmt: skip
        at = now()
        rows, head_seq, head_mac = _round_rows(
            key, (head_seq, head_mac), p, plan, award_ids, role, at
        )
        # a crash (or a test's fault) at any stage before the write leaves nothing written
        for stage in ("contributions", "award-rows", "awards", "levels", "before-commit"):
            ledger._fault(stage)
        _queue_round(writes, p, plan, list(zip(award_ids, numbers, strict=True)), result, at)
        events.extend(rows)
        levels.update(plan.states)
        next_award += len(plan.awards)
        next_number += sum(n is not None for n in numbers)
        seen_rounds.add(p.round_id)
        seen_keys.add(p.key)
        out[i] = result
    if not events:
        return out
    _queue_group(writes, p0.pid, found, levels, events, (head_seq, head_mac))
    st["head"] = [head_seq, head_mac]  # the copy kept outside the database follows it
    mark_anchor(st, (e["kind"] for e in events))
    locked[p0.pid] = playable
    return out


def _round_rows(
    key: bytes,
    head: tuple[int, str],
    p: Prepared,
    plan: SettlementPlan,
    award_ids: list[int],
    role: Role | None,
    at: datetime,
) -> tuple[list[dict[str, Any]], int, str]:
    """One round's chained event rows (its contributions and awards, then its settlement) after
    the chain ``head`` (sequence, MAC), and the new head."""
    settled = EventDraft(
        EventKind.SETTLED,
        detail={
            "idempotency_key": p.key,
            "fingerprint": p.fingerprint,
            "hands": sorted([h.position, h.outcome] for h in p.hands),
            "awards": award_ids,
        },
    )
    return chain_rows(
        key,
        head[0],
        head[1],
        p.pid,
        [*p.before, *plan.events, settled],
        round_id=p.round_id,
        table_id=p.table,
        actor=p.by,
        role=role,
        award_ids=award_ids,
        at=at,
    )


def _read_group(conn: Connection, ps: Sequence[Prepared], held: bool) -> list[Any]:
    """The group's one batch of reads: unless its transaction ``held`` them already, the
    progressive's row and the chain head, locked; then each round's :data:`_STATE`."""
    reads = Batch(conn)
    if not held:
        reads.add(_LOCK_PROGRESSIVE, {"b_name": ps[0].progressive})
        reads.add(_LOCK_HEAD, {})
    for p in ps:
        reads.add(
            _STATE,
            {"b_by": p.by, "b_pid": p.pid, "b_table": p.table, "b_rid": p.round_id, "b_key": p.key},
        )
    return reads.run()


def _playable_head(
    ledger: LedgerBase, ps: Sequence[Prepared], got: list[Any]
) -> tuple[str, int, str] | None:
    """From the group's reads of the progressive's row and the chain head (locked): the
    definition its rounds are played under and the chain head, or ``None`` when the procedure
    is to refuse them (no such progressive, suspended, a definition the ledger's check fails)."""
    p0 = ps[0]
    prog, head = got[0], got[1]
    assert isinstance(prog, list) and isinstance(head, list)
    if not prog or prog[0]["id"] != p0.pid or not head or prog[0]["suspended"]:
        return None
    playable = str(prog[0]["definition"])
    defn = next((p.definition for p in ps if p.definition_json == playable), None)
    if defn is None or not ledger_check(ledger, defn).ok:
        return None
    head_seq, head_mac = int(head[0]["head_seq"]), str(head[0]["head_mac"])
    ledger._check_kept(head_seq)
    return playable, head_seq, head_mac


def _common_case_role(
    p: Prepared, state: list[Any], staff: Mapping[str, LoggedMember]
) -> Role | None:
    """The role of the round's dealer when round ``p`` (its :data:`_STATE` rows ``state``) is the
    common case this module settles — open, unsettled, linked, no 100% hit in a share group,
    placed by a dealer or above whose role and credential are the ledger's — else ``None``."""
    if not state:
        return None
    if p.definition.hit_policy is HitPolicy.SHARE and _full_hit(p.definition, p.hands):
        return None  # a 100% hit may join a share group: the procedure reads the groups
    s0 = state[0]
    if s0["round_status"] is not None or s0["settled"] is not None or s0["linked"] is None:
        return None
    entry = staff.get(p.by)
    if entry is None or s0["by_role"] != entry[0].value or s0["by_credential"] != entry[1]:
        return None
    role = entry[0]
    return role if role.at_least(Role.DEALER) else None


def _queue_round(
    writes: Batch,
    p: Prepared,
    plan: SettlementPlan,
    award_ids: list[tuple[int, int | None]],
    result: RoundSettlement,
    at: datetime,
) -> None:
    """Queue round ``p``'s rows: the round, its awards (``award_ids``: each one's id and
    number) and its settlement."""
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
            award_row(p.pid, p.round_id, p.table, a, i, n)
            for (i, n), a in zip(award_ids, plan.awards, strict=True)
        ],
    )
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


def _queue_group(
    writes: Batch,
    pid: int,
    found: dict[MeterLevel, LevelState],
    levels: dict[MeterLevel, LevelState],
    events: list[dict[str, Any]],
    head: tuple[int, str],
) -> None:
    """Queue the group's writes after its rounds': each level it moved (compare-and-set from
    ``found`` to ``levels``, with its running totals), the events, the other running totals and
    the chain head."""
    moved = rows_totals(events)  # the running totals the events move, most with their levels
    for lv, s in levels.items():
        if s != found[lv]:
            params = level_params(pid, found[lv], s) | take_level_totals(moved, pid, lv)
            writes.add(_STORE_LEVEL_TOTALS, params, rows=1)
    writes.add(_INSERT_EVENTS, events)
    for stmt, params in totals_writes(moved):  # the rest of them: the table's payouts
        writes.add(stmt, params, rows=1)
    writes.add(_MOVE_HEAD, {"b_seq": head[0], "b_mac": head[1]})
