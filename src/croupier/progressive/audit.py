"""The audit behind ``croupier meters verify``: the whole ledger replayed from its event log and
compared with every table derived from it.

:func:`audit` checks, in this order, and raises :class:`~croupier.errors.LedgerIntegrityError`
naming the first thing that does not hold:

1. **The chain.** Events are numbered 1, 2, … without a gap, each carries a mac, and (with the
   ledger key) each mac is the HMAC-SHA256 of the previous mac and the event's fields; the chain
   head matches the last event. Without the key the macs cannot be recomputed: everything else is
   still checked and the report says so (:attr:`AuditReport.chain_checked`). The copy of the head
   kept outside the database (:func:`~croupier.progressive.store.head_file`) names an event the
   log holds with that mac — else the newest events were removed together with the head (a
   ledger with events must have that copy: :meth:`~croupier.progressive.Ledger.audit`). Each
   checkpoint given (:mod:`~croupier.progressive.checkpoint`: a signed head kept off the box)
   is this ledger's, signed with its key, and names an event the log holds with that mac —
   else the log was rolled back past it or forked (:class:`~croupier.errors.CheckpointError`).
2. **Who did it.** The first ``user`` event is the bootstrap of a shift manager by themself; every
   later staff event (:mod:`~croupier.progressive.roster`: a member added, removed, their role or
   credential changed) is by a shift manager, but a member's change of their own credential and
   their logout, which are by themself; a removed member acts no more. Every other event names
   a staff member whose role, as the log gives it at that point, is the role the event records
   and is the one its kind requires (:data:`REQUIRED`): a validation or payment by a floorperson or above
   (§ 633b.2(h)(3), § 633b.3(h)(3)), a manual adjustment by a pit manager or above
   (§ 605a.7(a)(6)), a progressive created or a table linked by a shift manager (§ 605a.7,
   § 605a.8).
3. **Derived tables.** The staff and roles, linked tables, rounds (status, seats, chip count,
   content hash), settlements (exactly one ``settled`` event per settled round, its key and
   fingerprint), awards (every field, and status), meter levels (:class:`Replayer`) and the
   running totals of § 605a.7(a) (qualifying wagers, overflow, attendant and table payouts,
   wins: :mod:`~croupier.progressive.totals`) rebuilt from the events equal what the tables
   hold; the definition each progressive's seed events recorded is the one stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import LedgerIntegrityError, LedgerKeyError
from croupier.paytables import MeterLevel
from croupier.progressive.checkpoint import Checkpoint
from croupier.progressive.checkpoint import check as check_checkpoints
from croupier.progressive.meters import LevelState, Replayer, StoredEvent
from croupier.progressive.meterset import Totals
from croupier.progressive.model import (
    MICROS_PER_CENT,
    VOID_RULE,
    EventKind,
    ProgressiveDefinition,
    Role,
    RoundStatus,
    format_micros,
)
from croupier.progressive.records import (
    Contribution,
    RoundSettlement,
    award_from_row,
    award_numbers,
    level_from_row,
    replay_awards,
    settlement_to_json,
    stored_event,
)
from croupier.progressive.roster import (
    SELF_KINDS,
    STAFF_KINDS,
    LoggedMember,
    Roster,
    StaffLogError,
)
from croupier.progressive.store import definition_digest, event_mac
from croupier.progressive.totals import stored_totals, totals_difference

REQUIRED: Mapping[EventKind, tuple[Role, str]] = {
    EventKind.SEED: (Role.SHIFT_MANAGER, "605a.7"),
    EventKind.LINK: (Role.SHIFT_MANAGER, "605a.8"),
    EventKind.ACCEPT: (Role.DEALER, "(d)(1)"),
    EventKind.LOCKOUT: (Role.DEALER, "(d)(2)"),
    EventKind.CHIP_COUNT: (Role.DEALER, "(f)"),
    EventKind.HOLD: (Role.DEALER, "(f)"),
    EventKind.VOID_ROUND: (Role.FLOORPERSON, "(f)"),
    EventKind.CONTRIBUTION: (Role.DEALER, "(g)"),
    EventKind.AWARD: (Role.DEALER, "(g)"),
    EventKind.ENVY: (Role.DEALER, "(g)"),
    EventKind.SETTLED: (Role.DEALER, "(g)"),
    EventKind.VALIDATION: (Role.FLOORPERSON, "(h)(3)"),
    EventKind.PAYMENT: (Role.FLOORPERSON, "(h)(3)"),
    EventKind.RESET: (Role.DEALER, "(g)"),
    EventKind.ADJUSTMENT: (Role.PIT_MANAGER, "605a.7(a)(6)"),
    EventKind.USER: (Role.SHIFT_MANAGER, "605a.7"),
    EventKind.SUSPEND: (Role.PIT_MANAGER, "605a.7"),
    EventKind.RESUME: (Role.PIT_MANAGER, "605a.7"),
    EventKind.RECONFIGURE: (Role.SHIFT_MANAGER, "605a.7"),
    EventKind.SIGNIFICANT: (Role.DEALER, "605a.7"),
    EventKind.SHARE: (Role.DEALER, "(g)"),
}
"""The least role each kind of event needs, with its rule (a subsection of the progressive's
own section where it starts with ``(``). Exceptions, by context: a recount of a held round and
a void of a pending award need a floorperson; a reset made at a validation needs a floorperson;
a significant event the controller records itself names no one."""


@dataclass(frozen=True)
class AuditReport:
    """What :func:`audit` found: ``events`` checked, whether the chain's macs were recomputed
    (``False`` without the ledger key), and every progressive's levels as replayed."""

    events: int
    chain_checked: bool
    levels: dict[str, dict[MeterLevel, LevelState]] = field(default_factory=dict)
    head_kept: int | None = None
    """The event the copy of the chain head kept outside the database names (``None``: no
    copy); the log holds it with its mac, and everything after it is newer than the copy."""
    head_mac: str = ""
    """The mac of the last event (``""``: none)."""
    head_recreated: str | None = None
    """The copy of the chain head :meth:`~croupier.progressive.Ledger.verify_all` made anew
    (``accept_missing_head``), or ``None``."""


@dataclass
class _Round:
    table: str
    positions: set[int]
    status: RoundStatus
    content: str | None
    chips: int | None = None
    settled: int = 0


def _fail(e: StoredEvent | None, what: str) -> LedgerIntegrityError:
    where = f"ledger event {e.seq} ({e.kind.value}): " if e is not None else ""
    return LedgerIntegrityError(f"{where}{what}")


def _check_chain(rows: list[Any], key: bytes | None, head: Any) -> None:
    previous = ""
    for n, r in enumerate(rows, start=1):
        if r.seq != n:
            raise LedgerIntegrityError(
                f"ledger event {n} is missing (the log goes on at {r.seq}): events were deleted"
            )
        if not r.mac:
            raise LedgerIntegrityError(f"ledger event {r.seq} ({r.kind}) carries no mac")
        if key is not None and event_mac(key, previous, r._mapping) != r.mac:
            raise LedgerIntegrityError(
                f"ledger event {r.seq} ({r.kind}) does not match its mac under the ledger key: "
                "it (or the one before it) was changed, inserted or replaced behind croupier's back"
            )
        previous = r.mac
    last_seq = rows[-1].seq if rows else 0
    if head is None or head.head_seq != last_seq or head.head_mac != previous:
        raise LedgerIntegrityError(
            f"the chain head does not name the last event ({last_seq}): events were removed "
            "from the end of the log or the head was edited"
        )


def _rule(defn: ProgressiveDefinition | None, rule: str) -> str:
    if rule.startswith("(") and defn is not None:
        return defn.rule(rule)
    return rule


def _check_actors(
    events: list[StoredEvent], defs: Mapping[int, ProgressiveDefinition], pids: list[int | None]
) -> dict[str, LoggedMember]:
    roster = Roster()
    staff = roster.members  # the roster folds its events into this very dict
    held: set[tuple[int | None, str | None]] = set()
    validated: set[int] = set()
    for e, pid in zip(events, pids, strict=True):
        d = e.detail
        if e.kind in STAFF_KINDS:
            user = d.get("user")
            if e.kind is EventKind.USER and not roster.names():
                role = Role(d.get("role"))
                if not (d.get("bootstrap") and e.actor == user and role is Role.SHIFT_MANAGER):
                    raise _fail(e, "the first staff member is not a shift manager's bootstrap")
            elif e.kind in SELF_KINDS and e.actor == user:
                _actor_ok(e, staff, None, "605a.7")  # their own credential, their own logout
            elif e.kind is EventKind.LOGOUT:
                raise _fail(e, f"logs {user!r} out, but is by {e.actor!r}: a logout is one's own")
            else:
                _actor_ok(e, staff, Role.SHIFT_MANAGER, "605a.7")
            try:
                roster.apply(e.seq, e.kind, d)
            except StaffLogError as exc:
                raise _fail(e, str(exc)) from None
            continue
        if e.kind is EventKind.SIGNIFICANT and e.actor is None and e.actor_role is None:
            continue  # recorded by the controller itself (a start-up, a failed check)
        defn = defs.get(pid) if pid is not None else None
        least: Role | None
        least, rule = REQUIRED[e.kind]
        rk = (pid, e.round_id)
        if e.kind is EventKind.SIGNIFICANT:
            least = None  # any member (an auditor's verification that failed included)
        if e.kind is EventKind.CHIP_COUNT:
            if rk in held:
                least = Role.FLOORPERSON
            if d.get("agrees"):
                held.discard(rk)
            else:
                held.add(rk)
        elif e.kind is EventKind.ADJUSTMENT and d.get("void_award") is not None:
            least, rule = Role.FLOORPERSON, VOID_RULE  # a hand found not a winning one
        elif e.kind is EventKind.VALIDATION and e.award_id is not None:
            validated.add(e.award_id)
        elif e.kind is EventKind.RESET and e.award_id in validated:
            least, rule = Role.FLOORPERSON, "(h)(3)"
        _actor_ok(e, staff, least, _rule(defn, rule))
    return staff


def _actor_ok(
    e: StoredEvent, staff: Mapping[str, LoggedMember], least: Role | None, rule: str
) -> None:
    """``e``'s actor is a member at that point, recorded in the role the log gives them, and
    that role is ``least`` or above (``None``: any role)."""
    if e.actor is None or e.actor not in staff:
        raise _fail(e, f"is by {e.actor!r}, who is no staff member at that point")
    role = staff[e.actor].role
    if e.actor_role != role.value:
        raise _fail(
            e,
            f"records {e.actor} as {e.actor_role!r}, but the log makes them {role.value!r} "
            f"({e.actor} is {role.said})",
        )
    if least is not None and not role.at_least(least):
        raise _fail(
            e,
            f"is by {e.actor}, {role.said}; it needs {least.who_may()} (58 Pa. Code § {rule})",
        )


def _replay_rounds(
    events: list[StoredEvent], pids: list[int | None]
) -> tuple[dict[tuple[int, str], _Round], dict[str, tuple[int, str, str | None]]]:
    rounds: dict[tuple[int, str], _Round] = {}
    settlements: dict[str, tuple[int, str, str | None]] = {}
    for e, pid in zip(events, pids, strict=True):
        if pid is None or e.round_id is None:
            continue
        k, d = e.kind, e.detail
        key = (pid, e.round_id)
        r = rounds.get(key)
        if k is EventKind.ACCEPT:
            ps = {int(p) for p in d.get("positions", [])}
            if r is None:
                rounds[key] = _Round(e.table_id or "", ps, RoundStatus.OPEN, d.get("content"))
            else:
                r.positions |= ps
            continue
        if r is None:
            if k in (EventKind.LOCKOUT, EventKind.CHIP_COUNT, EventKind.SETTLED):
                raise _fail(e, f"round {e.round_id!r} has no accepted wagers before it")
            continue
        if k is EventKind.LOCKOUT:
            r.status = RoundStatus.LOCKED
        elif k is EventKind.CHIP_COUNT:
            r.chips = int(d.get("chips", -1))
            r.status = RoundStatus.VERIFIED if d.get("agrees") else RoundStatus.HELD
        elif k is EventKind.VOID_ROUND:
            r.status = RoundStatus.VOIDED
        elif k is EventKind.SETTLED:
            r.settled += 1
            if r.settled > 1:
                raise _fail(e, f"round {e.round_id!r} is settled a second time")
            r.status = RoundStatus.SETTLED
            settlements[str(d.get("idempotency_key"))] = (pid, e.round_id, d.get("fingerprint"))
    return rounds, settlements


def _check_results(
    conn: Connection,
    events: list[StoredEvent],
    pids: list[int | None],
    defs: Mapping[int, ProgressiveDefinition],
) -> None:
    """Each stored settlement's ``result`` (the answer recorded for its idempotency key) is the
    settlement its round's events make up to their ``settled`` event: contributions and awards
    as they stood then."""
    by_round: dict[tuple[int, str], list[StoredEvent]] = {}
    done: set[tuple[int, str]] = set()
    for e, pid in zip(events, pids, strict=True):
        if pid is None or e.round_id is None or (pid, e.round_id) in done:
            continue
        by_round.setdefault((pid, e.round_id), []).append(e)
        if e.kind is EventKind.SETTLED:
            done.add((pid, e.round_id))
    for s in conn.execute(sa.select(t.settlements)):
        mine = by_round.get((s.progressive_id, s.round_id), [])
        defn = defs.get(s.progressive_id)
        if defn is None or not mine:
            continue  # the settlements check above names a settlement without its events
        awards = replay_awards(defn.name, mine)
        made = RoundSettlement(
            defn.name,
            s.round_id,
            mine[-1].table_id or "",
            s.idempotency_key,
            tuple(
                Contribution(e.level, e.delta.meter, e.delta.reserve)
                for e in mine
                if e.kind is EventKind.CONTRIBUTION and e.level is not None
            ),
            tuple(awards[i] for i in sorted(awards)),
        )
        if settlement_to_json(made) != s.result:
            raise _fail(
                None,
                f"settlement {s.idempotency_key}: its recorded result differs from the one its "
                "round's events make",
            )


def audit(
    conn: Connection,
    key: bytes | None,
    kept: tuple[int, str] | None = None,
    checkpoints: Sequence[Checkpoint] = (),
) -> AuditReport:
    """Check the whole ledger on ``conn`` (see the module docstring); ``key`` is the ledger key,
    or ``None`` to check everything but the macs; ``kept`` the copy of the chain head kept
    outside the database (seq, mac), which the log must hold; ``checkpoints`` signed heads kept
    elsewhere (:mod:`~croupier.progressive.checkpoint`), each of which must be this ledger's,
    signed with ``key``, and held by the log (:class:`~croupier.errors.CheckpointError`)."""
    rows = list(conn.execute(sa.select(t.ledger_events).order_by(t.ledger_events.c.seq)))
    head = conn.execute(sa.select(t.ledger_chain).where(t.ledger_chain.c.id == 1)).first()
    _check_chain(rows, key, head)
    _check_head(rows, key, kept, checkpoints)
    events = [stored_event(r) for r in rows]
    pids: list[int | None] = [r.progressive_id for r in rows]
    progs = conn.execute(sa.select(t.progressives).order_by(t.progressives.c.id)).all()
    defs = {p.id: ProgressiveDefinition.from_json(p.definition) for p in progs}

    _check_staff_and_links(conn, events, pids, defs)
    _check_rounds(conn, events, pids)
    _check_results(conn, events, pids, defs)
    numbers = award_numbers(events)
    _check_numbers(conn, numbers)

    report = AuditReport(
        len(events),
        key is not None,
        head_kept=kept[0] if kept else None,
        head_mac=rows[-1].mac if rows else "",
    )
    for p in progs:
        report.levels[p.name] = _check_progressive(conn, p, defs[p.id], events, pids, numbers)
    return report


def _check_head(
    rows: Sequence[Any],
    key: bytes | None,
    kept: tuple[int, str] | None,
    checkpoints: Sequence[Checkpoint],
) -> None:
    """The signed checkpoints and the copy of the chain head kept outside the database: each
    must be held by the log ``rows``."""
    if checkpoints:
        if key is None:
            raise LedgerKeyError(
                "a checkpoint is checked with the ledger key, which is not here: give the "
                "ledger's key file (CROUPIER_LEDGER_KEY_FILE)"
            )
        macs = [r.mac for r in rows]
        check_checkpoints(checkpoints, key, macs, macs[0] if macs else None)
    if kept is not None and kept[0] > 0:  # event 0 (a copy made before any event): every log
        seq, mac = kept
        if seq > len(rows) or rows[seq - 1].mac != mac:
            raise LedgerIntegrityError(
                f"the copy of the chain head kept beside the ledger key names event {seq}, which "
                "the log does not hold (with that mac): the newest events were removed together "
                "with the chain head (the database rolled back or restored from an earlier copy)"
            )


def _check_staff_and_links(
    conn: Connection,
    events: list[StoredEvent],
    pids: list[int | None],
    defs: Mapping[int, ProgressiveDefinition],
) -> None:
    """The staff store and the linked tables are what the log makes them."""
    staff = {n: (m.role, m.credential) for n, m in _check_actors(events, defs, pids).items()}
    stored_staff = {r.name: (Role(r.role), r.credential) for r in conn.execute(sa.select(t.staff))}
    if stored_staff != staff:
        names = sorted(n for n in {*staff, *stored_staff} if staff.get(n) != stored_staff.get(n))
        raise _fail(None, f"the staff store differs from the log for {', '.join(names)}")

    links = {
        (pid, e.table_id) for e, pid in zip(events, pids, strict=True) if e.kind is EventKind.LINK
    }
    stored_links = {
        (r.progressive_id, r.table_id) for r in conn.execute(sa.select(t.linked_tables))
    }
    if links != stored_links:
        raise _fail(
            None, f"linked tables {sorted(map(str, stored_links ^ links))} differ from the log"
        )


def _check_rounds(conn: Connection, events: list[StoredEvent], pids: list[int | None]) -> None:
    """The rounds and settlements tables are what the log makes them."""
    rounds, settlements = _replay_rounds(events, pids)
    for r in conn.execute(sa.select(t.rounds)):
        key_ = (r.progressive_id, r.round_id)
        got = rounds.pop(key_, None)
        stored = (r.table_id, set(_positions(r.positions)), r.status, r.content, r.chips_counted)
        if got is None or stored != (
            got.table,
            got.positions,
            got.status.value,
            got.content,
            got.chips,
        ):
            raise _fail(None, f"round {r.round_id!r}: the rounds table differs from the log")
    if rounds:
        (_pid, rid), *_ = rounds
        raise _fail(None, f"round {rid!r} of the log is missing from the rounds table")
    stored_settlements = {
        s.idempotency_key: (s.progressive_id, s.round_id, s.fingerprint)
        for s in conn.execute(sa.select(t.settlements))
    }
    if stored_settlements != settlements:
        bad = sorted(
            k
            for k in {*settlements, *stored_settlements}
            if settlements.get(k) != stored_settlements.get(k)
        )
        raise _fail(None, f"settlement(s) {', '.join(bad)} differ from the log's settled events")


def _check_progressive(
    conn: Connection,
    p: Any,
    defn: ProgressiveDefinition,
    events: list[StoredEvent],
    pids: list[int | None],
    numbers: Mapping[int, int],
) -> dict[MeterLevel, LevelState]:
    """One progressive (its row ``p``) replayed from its events: its seeded and stored
    definitions, suspension, levels, running totals and awards (with their ``numbers``,
    :func:`award_numbers`) checked against the log; the level states the log leaves."""
    mine = [e for e, pid in zip(events, pids, strict=True) if pid == p.id]
    replayer = Replayer.for_log(defn, mine)
    digest = definition_digest(replayer.defn.to_json())
    for e in mine:
        if e.kind is EventKind.SEED and e.detail.get("definition") != digest:
            raise _fail(e, f"progressive {p.name!r}: its stored definition is not the seeded one")
    levels = replayer.run(mine)
    if replayer.defn.to_json() != p.definition:
        raise _fail(
            None,
            f"progressive {p.name!r}: its stored definition is not the one the log's "
            "reconfigurations leave in force",
        )
    if bool(p.suspended) != replayer.suspended:
        raise _fail(None, f"progressive {p.name!r}: suspended in the table, not in the log")
    level_rows = conn.execute(
        sa.select(t.meter_levels).where(t.meter_levels.c.progressive_id == p.id)
    ).all()
    for r in level_rows:
        s = level_from_row(r)
        if levels.get(s.level) != s:
            raise _fail(
                None,
                f"progressive {p.name!r}, {s.level.value} level: "
                f"{_level_difference(s, levels.get(s.level))}",
            )
    differs = totals_difference(replayer.defn, stored_totals(level_rows, p), Totals.of_events(mine))
    if differs is not None:
        raise _fail(None, f"progressive {p.name!r}, running totals: {differs}")
    awards = replay_awards(p.name, mine, numbers)
    for r in conn.execute(sa.select(t.awards).where(t.awards.c.progressive_id == p.id)):
        a = award_from_row(r, p.name)
        if awards.pop(a.id, None) != a:
            raise _fail(None, f"progressive {p.name!r}: award {a.id} differs from the log")
    if awards:
        raise _fail(None, f"progressive {p.name!r}: award {min(awards)} of the log has no row")
    return levels


def _check_numbers(conn: Connection, numbers: Mapping[int, int]) -> None:
    """The awards' numbers are the log's (:func:`award_numbers`): the meter awards numbered
    1, 2, … in id order without a gap, an odds or envy pay none."""
    rows = conn.execute(sa.select(t.awards.c.id, t.awards.c.number).order_by(t.awards.c.id)).all()
    for r in rows:
        if r.number != numbers.get(r.id):
            told = "none" if numbers.get(r.id) is None else numbers[r.id]
            raise _fail(
                None,
                f"award {r.id}: number {r.number} stored, the log numbers it {told} (meter "
                "awards are numbered 1, 2, … in id order)",
            )


def _positions(text: str) -> list[int]:
    return [int(p) for p in json.loads(text)]


_MONEY_FIELDS = ("meter", "reserve", "held")


def _level_difference(stored: LevelState, replayed: LevelState | None) -> str:
    """What differs between a level's stored row and its replay, in words and dollars: "meter
    $4,502.20 stored, the log replays to $4,503.60"."""
    if replayed is None:
        return "a stored level the log never seeded"
    parts = []
    for name in ("meter", "reserve", "held", "wagered_cents", "paid_cents", "hits"):
        a, b = getattr(stored, name), getattr(replayed, name)
        if a == b:
            continue
        if name in _MONEY_FIELDS:
            a_text, b_text = format_micros(a), format_micros(b)
        elif name.endswith("_cents"):
            a_text, b_text = format_micros(a * MICROS_PER_CENT), format_micros(b * MICROS_PER_CENT)
        else:
            a_text, b_text = str(a), str(b)
        label = name.removesuffix("_cents").replace("_", " ")
        parts.append(f"{label} {a_text} stored, the log replays to {b_text}")
    return "; ".join(parts) or "the stored row differs from the log"
