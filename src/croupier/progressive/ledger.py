"""The durable ledger of the progressive table game system (58 Pa. Code § 605a.7, § 605a.8,
§ 633b.2(d)–(h), § 633b.3(d)–(h)).

A :class:`Ledger` is a database (SQLite file by default, PostgreSQL by URL) holding progressives,
their linked tables, staff with roles, and an append-only event log from which every meter is
replayed exactly (:meth:`Ledger.replay`, :meth:`Ledger.verify`). :meth:`Ledger.system` gives the
procedure for one progressive (:class:`ProgressiveSystem`): accept wagers until the lock-out,
verify the chips, settle a round in one transaction under an idempotency key, and validate
pending awards.

Concurrency: every write locks the progressive's row (``SELECT … FOR UPDATE`` on PostgreSQL;
SQLite transactions begin ``IMMEDIATE``, one writer at a time), so linked tables settling at
once are serialised and no increment is lost. A failure anywhere inside a write rolls the whole
transaction back: the ledger is as before the operation, never between.

>>> from croupier.paytables import builtin_paytables
>>> from croupier.progressive import Ledger, ProgressiveDefinition, QualifyingHand, Role
>>> ledger = Ledger("sqlite://")
>>> t = builtin_paytables().get("633b.3", "1", 6)
>>> _ = ledger.create_progressive(
...     ProgressiveDefinition.from_paytable(t, decks=6, wager_cents=500, name="mtd-5"),
...     tables=["BJ-1"])
>>> ledger.add_user("dana", Role.DEALER); ledger.add_user("flo", Role.FLOORPERSON)
>>> mtd = ledger.system("mtd-5")
>>> _ = mtd.accept_wagers("r1", "BJ-1", [1, 2], by="dana")
>>> mtd.lock_out("r1", by="dana"); mtd.verify_chips("r1", 2, by="dana")
<RoundStatus.VERIFIED: 'verified'>
>>> s = mtd.settle_round("r1", [QualifyingHand(2, "two-suited-match")],
...                      idempotency_key="BJ-1/r1", by="dana")
>>> [(a.position, a.amount_cents, a.status.value) for a in s.awards]
[(2, 50015, 'pending')]
>>> ledger.validate(s.awards[0].id, by="flo").status
<AwardStatus.PAID: 'paid'>
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import SQLAlchemyError

from croupier.errors import (
    AuthorizationError,
    IdempotencyConflictError,
    LedgerError,
    LedgerIntegrityError,
    LedgerLookupError,
    LinkError,
    LockoutError,
    RoundHeldError,
    RoundStateError,
)
from croupier.paytables import MeterLevel
from croupier.progressive import schema as t
from croupier.progressive.meters import (
    AwardDraft,
    Delta,
    EventDraft,
    LevelState,
    PendingAward,
    Replayer,
    StoredEvent,
    payment_events,
    plan_settlement,
    seed_states,
    void_delta,
)
from croupier.progressive.migrate import current_revision, head_revision, upgrade
from croupier.progressive.model import (
    MICROS_PER_CENT,
    AwardKind,
    AwardStatus,
    EventKind,
    ProgressiveDefinition,
    QualifyingHand,
    Role,
    RoundStatus,
)

FaultHook = Callable[[str], None]
"""Called with a stage name at points inside a write transaction (tests inject crashes here)."""

ENV_DB = "CROUPIER_DB"


def default_url() -> str:
    """The ledger's database when none is given: ``$CROUPIER_DB`` if set, else the SQLite file
    ``$XDG_DATA_HOME/croupier/progressive.sqlite3`` (``~/.local/share/croupier/…`` by default)."""
    env = os.environ.get(ENV_DB)
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'croupier' / 'progressive.sqlite3'}"


def database_url(text: str) -> str:
    """``text`` as a database URL: a URL (``sqlite:///…``, ``postgresql+psycopg://…``) as it is,
    a bare file path as the SQLite file it names.

    >>> database_url("sqlite:///x.db"), database_url("/var/lib/croupier/ledger.sqlite3")
    ('sqlite:///x.db', 'sqlite:////var/lib/croupier/ledger.sqlite3')
    """
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser()}"


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (or a bare SQLite file path, :func:`database_url`): SQLite with
    foreign keys, a busy timeout, WAL for files and ``BEGIN IMMEDIATE`` transactions; anything
    else as SQLAlchemy makes it."""
    u = sa.make_url(database_url(url))
    if u.get_backend_name() != "sqlite":
        return sa.create_engine(u, pool_pre_ping=True)
    memory = u.database in (None, "", ":memory:")
    if memory:
        engine = sa.create_engine(u, poolclass=sa.pool.StaticPool)
    else:
        assert u.database is not None
        path = Path(u.database).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        u = u.set(database=str(path))
        engine = sa.create_engine(u, connect_args={"timeout": 60})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=60000")
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# -- what the ledger returns ----------------------------------------------------------------


@dataclass(frozen=True)
class Award:
    """One payout recorded by the ledger. ``amount_cents`` is what the player is handed;
    ``meter_cents`` the part taken from a meter level (share awards)."""

    id: int
    progressive: str
    round_id: str
    table_id: str
    position: int
    outcome: str
    kind: AwardKind
    status: AwardStatus
    amount_cents: int
    meter_cents: int = 0
    level: MeterLevel | None = None
    share: Fraction | None = None
    source_position: int | None = None
    validated_by: str | None = None


@dataclass(frozen=True)
class Contribution:
    """What one round's wagers added to one level, in micro-dollars."""

    level: MeterLevel
    meter_micros: int
    reserve_micros: int


@dataclass(frozen=True)
class RoundSettlement:
    """The result of :meth:`ProgressiveSystem.settle_round`. ``replayed`` is True when the
    idempotency key had been settled already and nothing was changed."""

    progressive: str
    round_id: str
    table_id: str
    idempotency_key: str
    contributions: tuple[Contribution, ...]
    awards: tuple[Award, ...]
    replayed: bool = False

    @property
    def pending(self) -> tuple[Award, ...]:
        """The awards waiting for a floorperson's validation."""
        return tuple(a for a in self.awards if a.status is AwardStatus.PENDING)


@dataclass(frozen=True)
class RoundView:
    """A round as the ledger holds it."""

    progressive: str
    round_id: str
    table_id: str
    status: RoundStatus
    positions: tuple[int, ...]
    chips_counted: int | None


@dataclass(frozen=True)
class ProgressiveStatus:
    """A progressive's definition, linked tables, current levels and pending awards."""

    definition: ProgressiveDefinition
    tables: tuple[str, ...]
    levels: tuple[LevelState, ...]
    pending: tuple[Award, ...]


@dataclass(frozen=True)
class LedgerEvent:
    """One event of the log with the progressive it belongs to (``None`` for staff events)."""

    progressive: str | None
    event: StoredEvent
    created_at: datetime


@dataclass(frozen=True)
class StaffMember:
    """A user and the role the ledger knows them by."""

    name: str
    role: Role


# -- the ledger --------------------------------------------------------------------------------


class Ledger:
    """The progressive ledger in one database.

    ``url`` is a SQLAlchemy URL (``sqlite:///path``, ``sqlite://`` in memory,
    ``postgresql+psycopg://user@host/db``); by default :func:`default_url`. With ``migrate``
    (the default) the schema is created or upgraded on open; without it a database not at the
    package's revision is a :class:`~croupier.errors.LedgerIntegrityError`. ``fault_hook`` is
    called at named stages inside write transactions (for crash-injection tests).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        migrate: bool = True,
        fault_hook: FaultHook | None = None,
    ) -> None:
        self.url = database_url(url or default_url())
        try:
            self.engine = make_engine(self.url)
        except (SQLAlchemyError, ValueError, ImportError) as exc:
            raise LedgerError(f"cannot use database {self.display_url}: {exc}") from exc
        self.fault_hook = fault_hook
        self._defs: dict[str, tuple[int, ProgressiveDefinition]] = {}
        try:
            if migrate:
                upgrade(self.engine)
            else:
                with self.engine.connect() as conn:
                    at = current_revision(conn)
                if at != head_revision():
                    raise LedgerIntegrityError(
                        f"database {self.display_url} is at schema revision {at}, the package "
                        f"at {head_revision()}: open it with migration"
                    )
        except SQLAlchemyError as exc:
            raise LedgerError(f"cannot use database {self.display_url}: {exc}") from exc

    @property
    def display_url(self) -> str:
        """The database URL with any password hidden."""
        try:
            return sa.make_url(self.url).render_as_string(hide_password=True)
        except Exception:
            return repr(self.url)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    # -- transactions ----------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise LedgerError(f"the ledger database refused the operation: {exc}") from exc

    def _fault(self, stage: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(stage)

    def _definition(
        self, conn: Connection, name: str, *, lock: bool
    ) -> tuple[int, ProgressiveDefinition]:
        q = sa.select(t.progressives.c.id, t.progressives.c.definition).where(
            t.progressives.c.name == name
        )
        if lock:
            q = q.with_for_update()
        row = conn.execute(q).first()
        if row is None:
            known = ", ".join(self.names(conn)) or "none"
            raise LedgerLookupError(f"no progressive named {name!r} (progressives: {known})")
        cached = self._defs.get(name)
        if cached is None or cached[0] != row.id:
            cached = (row.id, ProgressiveDefinition.from_json(row.definition))
            self._defs[name] = cached
        return cached

    def names(self, conn: Connection | None = None) -> list[str]:
        """The names of every progressive, in creation order."""
        q = sa.select(t.progressives.c.name).order_by(t.progressives.c.id)
        if conn is not None:
            return list(conn.execute(q).scalars())
        with self.engine.connect() as c:
            return list(c.execute(q).scalars())

    def _user(self, conn: Connection, name: str, at_least: Role, section: str, what: str) -> Role:
        row = conn.execute(sa.select(t.staff.c.role).where(t.staff.c.name == name)).first()
        if row is None:
            raise LedgerLookupError(f"no user named {name!r}: add them with a role first")
        role = Role(row.role)
        if not role.at_least(at_least):
            raise AuthorizationError(
                f"{name} is a {role.value}; {what} needs a {at_least.value} or above",
                section=section,
            )
        return role

    def _append(
        self,
        conn: Connection,
        pid: int | None,
        drafts: Sequence[EventDraft],
        *,
        round_id: str | None = None,
        table_id: str | None = None,
        actor: str | None = None,
        role: Role | None = None,
        award_ids: Sequence[int] = (),
    ) -> None:
        if not drafts:
            return
        now = _now()
        rows = []
        for d in drafts:
            award_id = d.award
            if award_ids and award_id is not None:
                award_id = award_ids[award_id]
            rows.append(
                {
                    "progressive_id": pid,
                    "kind": d.kind.value,
                    "level": d.level.value if d.level is not None else None,
                    "round_id": round_id,
                    "table_id": table_id,
                    "position": d.position,
                    "award_id": award_id,
                    "meter_delta": d.delta.meter,
                    "reserve_delta": d.delta.reserve,
                    "held_delta": d.delta.held,
                    "wagered_delta": d.delta.wagered_cents,
                    "paid_delta": d.delta.paid_cents,
                    "hits_delta": d.delta.hits,
                    "amount_cents": d.amount_cents,
                    "actor": actor,
                    "actor_role": role.value if role is not None else None,
                    "detail": _dumps(d.detail),
                    "created_at": now,
                }
            )
        conn.execute(sa.insert(t.ledger_events), rows)

    def _levels(self, conn: Connection, pid: int) -> dict[MeterLevel, LevelState]:
        rows = conn.execute(
            sa.select(t.meter_levels)
            .where(t.meter_levels.c.progressive_id == pid)
            .order_by(t.meter_levels.c.ordinal)
        ).all()
        return {
            MeterLevel(r.level): LevelState(
                MeterLevel(r.level),
                r.meter_micros,
                r.reserve_micros,
                r.held_micros,
                r.wagered_cents,
                r.paid_cents,
                r.hits,
            )
            for r in rows
        }

    def _store_levels(
        self,
        conn: Connection,
        pid: int,
        before: Mapping[MeterLevel, LevelState],
        after: Mapping[MeterLevel, LevelState],
    ) -> None:
        c = t.meter_levels.c
        for level, s in after.items():
            old = before[level]
            if s == old:
                continue
            res = conn.execute(
                sa.update(t.meter_levels)
                .where(
                    c.progressive_id == pid,
                    c.level == level.value,
                    c.meter_micros == old.meter,
                    c.reserve_micros == old.reserve,
                    c.held_micros == old.held,
                    c.wagered_cents == old.wagered_cents,
                )
                .values(
                    meter_micros=s.meter,
                    reserve_micros=s.reserve,
                    held_micros=s.held,
                    wagered_cents=s.wagered_cents,
                    paid_cents=s.paid_cents,
                    hits=s.hits,
                )
            )
            if res.rowcount != 1:
                raise LedgerIntegrityError(
                    f"the {level.value} level changed under a locked write: the database does "
                    "not serialise writers"
                )

    # -- staff -----------------------------------------------------------------------------
    def add_user(self, name: str, role: Role, *, by: str | None = None) -> None:
        """Add a user with a role (recorded as a ``user`` event). ``by``, when given, must be a
        shift manager. Raises :class:`LedgerError` if the name is taken."""
        name = name.strip()
        if not name:
            raise LedgerError("a user needs a name")
        with self._tx() as conn:
            actor_role = None
            if by is not None:
                actor_role = self._user(conn, by, Role.SHIFT_MANAGER, "605a.7", "adding a user")
            exists = conn.execute(sa.select(t.staff.c.name).where(t.staff.c.name == name)).first()
            if exists is not None:
                raise LedgerError(f"user {name!r} exists already")
            conn.execute(sa.insert(t.staff).values(name=name, role=role.value, added_at=_now()))
            self._append(
                conn,
                None,
                [EventDraft(EventKind.USER, detail={"user": name, "role": role.value})],
                actor=by,
                role=actor_role,
            )

    def users(self) -> list[StaffMember]:
        """Every user, by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.staff).order_by(t.staff.c.name)).all()
        return [StaffMember(r.name, Role(r.role)) for r in rows]

    # -- progressives ----------------------------------------------------------------------
    def create_progressive(
        self,
        definition: ProgressiveDefinition,
        *,
        tables: Sequence[str] = (),
        by: str | None = None,
    ) -> ProgressiveStatus:
        """Create a progressive with its levels at their seeds (``seed`` events) and link
        ``tables`` to it. Raises :class:`LedgerError` if the name is taken."""
        with self._tx() as conn:
            role = None
            if by is not None:
                role = self._user(conn, by, Role.PIT_MANAGER, "605a.7", "creating a progressive")
            taken = conn.execute(
                sa.select(t.progressives.c.id).where(t.progressives.c.name == definition.name)
            ).first()
            if taken is not None:
                raise LedgerError(f"a progressive named {definition.name!r} exists already")
            pid = conn.execute(
                sa.insert(t.progressives)
                .values(
                    name=definition.name,
                    section=definition.section,
                    paytable=definition.paytable,
                    decks=definition.decks,
                    wager_cents=definition.wager_cents,
                    definition=definition.to_json(),
                    created_at=_now(),
                )
                .returning(t.progressives.c.id)
            ).scalar_one()
            drafts, states = seed_states(definition)
            conn.execute(
                sa.insert(t.meter_levels),
                [
                    {
                        "progressive_id": pid,
                        "level": s.level.value,
                        "ordinal": i,
                        "meter_micros": s.meter,
                        "reserve_micros": s.reserve,
                        "held_micros": s.held,
                        "wagered_cents": s.wagered_cents,
                        "paid_cents": s.paid_cents,
                        "hits": s.hits,
                    }
                    for i, s in enumerate(states.values())
                ],
            )
            self._append(
                conn,
                pid,
                [*drafts],
                actor=by,
                role=role,
            )
            for table in tables:
                self._link(conn, pid, definition, table, by, role)
        return self.status(definition.name)

    def _link(
        self,
        conn: Connection,
        pid: int,
        defn: ProgressiveDefinition,
        table: str,
        by: str | None,
        role: Role | None,
    ) -> None:
        table = table.strip()
        if not table:
            raise LinkError("a linked table needs an id", section="605a.8")
        exists = conn.execute(
            sa.select(t.linked_tables.c.table_id).where(
                t.linked_tables.c.progressive_id == pid, t.linked_tables.c.table_id == table
            )
        ).first()
        if exists is not None:
            raise LinkError(f"table {table} is linked to {defn.name!r} already", section="605a.8")
        conn.execute(
            sa.insert(t.linked_tables).values(progressive_id=pid, table_id=table, linked_at=_now())
        )
        self._append(conn, pid, [EventDraft(EventKind.LINK)], table_id=table, actor=by, role=role)

    def link_table(self, progressive: str, table: str, *, by: str | None = None) -> None:
        """Link a table to the progressive's meters (§ 605a.8): its rounds then contribute to and
        win from the same levels as every other linked table."""
        with self._tx() as conn:
            pid, defn = self._definition(conn, progressive, lock=True)
            role = None
            if by is not None:
                role = self._user(conn, by, Role.PIT_MANAGER, "605a.8", "linking a table")
            self._link(conn, pid, defn, table, by, role)

    def definition(self, progressive: str) -> ProgressiveDefinition:
        """The definition of ``progressive``."""
        with self.engine.connect() as conn:
            return self._definition(conn, progressive, lock=False)[1]

    def status(self, progressive: str) -> ProgressiveStatus:
        """Definition, linked tables, level states and pending awards of ``progressive``."""
        with self.engine.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            tables = tuple(
                conn.execute(
                    sa.select(t.linked_tables.c.table_id)
                    .where(t.linked_tables.c.progressive_id == pid)
                    .order_by(t.linked_tables.c.table_id)
                ).scalars()
            )
            levels = tuple(self._levels(conn, pid).values())
            pending = tuple(
                self._award_rows(conn, pid, AwardStatus.PENDING, progressive_name=defn.name)
            )
        return ProgressiveStatus(defn, tables, levels, pending)

    def system(self, progressive: str) -> ProgressiveSystem:
        """The procedure for one progressive (checks that it exists)."""
        self.definition(progressive)
        return ProgressiveSystem(self, progressive)

    # -- awards ----------------------------------------------------------------------------
    def _award_rows(
        self,
        conn: Connection,
        pid: int,
        status: AwardStatus | None,
        *,
        progressive_name: str,
        round_id: str | None = None,
    ) -> list[Award]:
        q = sa.select(t.awards).where(t.awards.c.progressive_id == pid)
        if status is not None:
            q = q.where(t.awards.c.status == status.value)
        if round_id is not None:
            q = q.where(t.awards.c.round_id == round_id)
        return [_award(r, progressive_name) for r in conn.execute(q.order_by(t.awards.c.id))]

    def awards(self, progressive: str, status: AwardStatus | None = None) -> list[Award]:
        """Every award of ``progressive`` (with ``status`` only, if given), oldest first."""
        with self.engine.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            return self._award_rows(conn, pid, status, progressive_name=defn.name)

    def award(self, award_id: int) -> Award:
        """The award with id ``award_id``."""
        with self.engine.connect() as conn:
            return self._award_by_id(conn, award_id)

    def _award_by_id(self, conn: Connection, award_id: int, lock: bool = False) -> Award:
        q = (
            sa.select(t.awards, t.progressives.c.name)
            .join(t.progressives, t.progressives.c.id == t.awards.c.progressive_id)
            .where(t.awards.c.id == award_id)
        )
        if lock:
            q = q.with_for_update(of=t.awards)
        row = conn.execute(q).first()
        if row is None:
            raise LedgerLookupError(f"no award {award_id}")
        return _award(row, row.name)

    def validate(self, award_id: int, *, by: str) -> Award:
        """Validate a pending share award and pay it (§ 633b.2(h)(3)–(4), § 633b.3(h)(3)–(4)).

        ``by`` must be a floorperson or above (:class:`~croupier.errors.AuthorizationError`
        otherwise). One transaction records the validation, the payment out of the level and —
        after a 100% award, when the progressive resets on validation — the reset to seed plus
        reserve. Odds and envy pays need no validation; validating one, or an award already paid
        or voided, is a :class:`~croupier.errors.RoundStateError`.
        """
        with self._tx() as conn:
            a = self._award_by_id(conn, award_id)
            pid, defn = self._definition(conn, a.progressive, lock=True)
            a = self._award_by_id(conn, award_id, lock=True)
            role = self._user(
                conn, by, Role.FLOORPERSON, defn.rule("(h)(3)"), "validating a progressive payout"
            )
            self._check_pending(a)
            assert a.level is not None and a.share is not None
            levels = self._levels(conn, pid)
            drafts, after = payment_events(
                defn,
                levels[a.level],
                PendingAward(a.id, a.level, a.share, a.meter_cents, a.amount_cents),
            )
            self._append(
                conn,
                pid,
                [EventDraft(EventKind.VALIDATION, a.level, award=a.id)],
                round_id=a.round_id,
                table_id=a.table_id,
                actor=by,
                role=role,
            )
            self._fault("validation")
            self._append(
                conn,
                pid,
                drafts,
                round_id=a.round_id,
                table_id=a.table_id,
                actor=by,
                role=role,
            )
            self._store_levels(conn, pid, levels, {a.level: after})
            conn.execute(
                sa.update(t.awards)
                .where(t.awards.c.id == a.id)
                .values(status=AwardStatus.PAID.value, validated_by=by)
            )
            self._fault("validation-commit")
        return self.award(award_id)

    def void_award(self, award_id: int, *, by: str, reason: str) -> Award:
        """Void a pending share award the floorperson found not to be a winning hand
        (§ 633b.2(h)(1)): its held amount is released to the meter (an ``adjustment`` event)."""
        if not reason.strip():
            raise LedgerError("voiding an award needs a reason")
        with self._tx() as conn:
            a = self._award_by_id(conn, award_id)
            pid, defn = self._definition(conn, a.progressive, lock=True)
            a = self._award_by_id(conn, award_id, lock=True)
            role = self._user(
                conn, by, Role.FLOORPERSON, defn.rule("(h)(3)"), "voiding a progressive payout"
            )
            self._check_pending(a)
            assert a.level is not None and a.share is not None
            levels = self._levels(conn, pid)
            d = void_delta(
                defn, PendingAward(a.id, a.level, a.share, a.meter_cents, a.amount_cents)
            )
            self._append(
                conn,
                pid,
                [
                    EventDraft(
                        EventKind.ADJUSTMENT,
                        a.level,
                        d,
                        award=a.id,
                        detail={"void_award": a.id, "reason": reason.strip()},
                    )
                ],
                round_id=a.round_id,
                table_id=a.table_id,
                actor=by,
                role=role,
            )
            self._store_levels(conn, pid, levels, {a.level: levels[a.level].apply(d)})
            conn.execute(
                sa.update(t.awards)
                .where(t.awards.c.id == a.id)
                .values(status=AwardStatus.VOIDED.value, validated_by=by)
            )
        return self.award(award_id)

    @staticmethod
    def _check_pending(a: Award) -> None:
        if a.kind is not AwardKind.METER:
            raise RoundStateError(
                f"award {a.id} is an {a.kind.value} pay, paid at settlement; only a share of a "
                "meter waits for validation"
            )
        if a.status is not AwardStatus.PENDING:
            raise RoundStateError(f"award {a.id} is {a.status.value} already")

    def adjust(
        self,
        progressive: str,
        level: MeterLevel,
        *,
        meter_cents: int = 0,
        reserve_cents: int = 0,
        by: str,
        reason: str,
    ) -> LevelState:
        """A manual correction of a level (§ 605a.7(a)(6): no unauthorised alteration): ``by``
        must be a pit manager or above and give a reason; the level may not go below what is
        held for pending awards, nor the reserve below zero."""
        if not reason.strip():
            raise LedgerError("an adjustment needs a reason")
        with self._tx() as conn:
            pid, defn = self._definition(conn, progressive, lock=True)
            defn.level(level)
            role = self._user(conn, by, Role.PIT_MANAGER, "605a.7(a)(6)", "adjusting a meter")
            levels = self._levels(conn, pid)
            d = Delta(meter=meter_cents * MICROS_PER_CENT, reserve=reserve_cents * MICROS_PER_CENT)
            after = levels[level].apply(d)
            if after.available < 0 or after.reserve < 0:
                raise LedgerError(
                    f"the adjustment would leave the {level.value} level below zero or below "
                    "what is held for pending awards"
                )
            self._append(
                conn,
                pid,
                [EventDraft(EventKind.ADJUSTMENT, level, d, detail={"reason": reason.strip()})],
                actor=by,
                role=role,
            )
            self._store_levels(conn, pid, levels, {level: after})
            return after

    # -- audit -----------------------------------------------------------------------------
    def history(
        self, progressive: str | None = None, limit: int | None = None
    ) -> list[LedgerEvent]:
        """Events in ledger order (of one progressive, or all); the last ``limit`` if given."""
        with self.engine.connect() as conn:
            e = t.ledger_events
            q = sa.select(e, t.progressives.c.name).outerjoin(
                t.progressives, t.progressives.c.id == e.c.progressive_id
            )
            if progressive is not None:
                pid, _ = self._definition(conn, progressive, lock=False)
                q = q.where(e.c.progressive_id == pid)
            rows: list[Any]
            if limit is not None:
                q = q.order_by(e.c.seq.desc()).limit(limit)
                rows = list(reversed(conn.execute(q).all()))
            else:
                rows = list(conn.execute(q.order_by(e.c.seq)).all())
        return [LedgerEvent(r.name, _stored(r), r.created_at) for r in rows]

    def _events(self, conn: Connection, pid: int) -> Iterator[StoredEvent]:
        e = t.ledger_events
        result = conn.execute(sa.select(e).where(e.c.progressive_id == pid).order_by(e.c.seq))
        for r in result:
            yield _stored(r)

    def replay(self, progressive: str) -> dict[MeterLevel, LevelState]:
        """Every level of ``progressive`` rebuilt from its events alone, each event checked
        against the definition (:class:`~croupier.progressive.meters.Replayer`)."""
        with self.engine.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            return Replayer(defn).run(self._events(conn, pid))

    def verify(self, progressive: str) -> dict[MeterLevel, LevelState]:
        """:meth:`replay`, and check that it equals the stored levels and award statuses;
        :class:`~croupier.errors.LedgerIntegrityError` naming the first difference."""
        with self.engine.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            replayer = Replayer(defn)
            replayed = replayer.run(self._events(conn, pid))
            stored = self._levels(conn, pid)
            stored_awards = {
                a.id: a.status
                for a in self._award_rows(conn, pid, None, progressive_name=defn.name)
                if a.kind is AwardKind.METER
            }
        for level, s in stored.items():
            if replayed.get(level) != s:
                raise LedgerIntegrityError(
                    f"progressive {progressive!r}, {level.value} level: stored {s}, "
                    f"the ledger replays to {replayed.get(level)}"
                )
        replayed_awards = {k: a.status for k, a in replayer.awards.items()}
        if replayed_awards != stored_awards:
            raise LedgerIntegrityError(
                f"progressive {progressive!r}: award statuses {stored_awards} differ from the "
                f"ledger's {replayed_awards}"
            )
        return replayed

    # -- rounds ----------------------------------------------------------------------------
    def _round(
        self, conn: Connection, pid: int, defn: ProgressiveDefinition, round_id: str
    ) -> RoundView | None:
        r = conn.execute(
            sa.select(t.rounds).where(
                t.rounds.c.progressive_id == pid, t.rounds.c.round_id == round_id
            )
        ).first()
        if r is None:
            return None
        return RoundView(
            defn.name,
            r.round_id,
            r.table_id,
            RoundStatus(r.status),
            tuple(json.loads(r.positions)),
            r.chips_counted,
        )

    def _set_round(
        self,
        conn: Connection,
        pid: int,
        round_id: str,
        status: RoundStatus,
        **values: Any,
    ) -> None:
        conn.execute(
            sa.update(t.rounds)
            .where(t.rounds.c.progressive_id == pid, t.rounds.c.round_id == round_id)
            .values(status=status.value, **values)
        )


def _award(r: Any, progressive: str) -> Award:
    return Award(
        id=r.id,
        progressive=progressive,
        round_id=r.round_id,
        table_id=r.table_id,
        position=r.position,
        outcome=r.outcome,
        kind=AwardKind(r.kind),
        status=AwardStatus(r.status),
        amount_cents=r.amount_cents,
        meter_cents=r.meter_cents,
        level=MeterLevel(r.level) if r.level is not None else None,
        share=Fraction(r.share) if r.share is not None else None,
        source_position=r.source_position if r.source_position != r.position else None,
        validated_by=r.validated_by,
    )


def _stored(r: Any) -> StoredEvent:
    return StoredEvent(
        seq=r.seq,
        kind=EventKind(r.kind),
        level=MeterLevel(r.level) if r.level is not None else None,
        delta=Delta(
            r.meter_delta,
            r.reserve_delta,
            r.held_delta,
            r.wagered_delta,
            r.paid_delta,
            r.hits_delta,
        ),
        round_id=r.round_id,
        table_id=r.table_id,
        position=r.position,
        award_id=r.award_id,
        amount_cents=r.amount_cents,
        actor=r.actor,
        actor_role=r.actor_role,
        detail=json.loads(r.detail),
    )


def _fingerprint(round_id: str, hands: Sequence[QualifyingHand]) -> str:
    data = {
        "round": round_id,
        "hands": sorted([h.position, h.outcome] for h in hands),
    }
    return hashlib.sha256(_dumps(data).encode()).hexdigest()


class ProgressiveSystem:
    """The progressive table game system of one progressive, as the table engine drives it
    (§ 633b.2(d)–(h), § 633b.3(d)–(h)).

    A round goes ``accept_wagers`` (until) → ``lock_out`` → ``verify_chips`` (count equals the
    wagers accepted, else *held*) → ``settle_round`` (one transaction, idempotent) → awards that
    are a share of a meter wait for :meth:`Ledger.validate`. Seats (positions) are numbered from
    the dealer's left; every operation names the user doing it (``by``), recorded in the ledger.
    """

    def __init__(self, ledger: Ledger, progressive: str) -> None:
        self.ledger = ledger
        self.name = progressive

    @property
    def definition(self) -> ProgressiveDefinition:
        """The progressive's definition."""
        return self.ledger.definition(self.name)

    def status(self) -> ProgressiveStatus:
        """The progressive's levels, tables and pending awards."""
        return self.ledger.status(self.name)

    def round(self, round_id: str) -> RoundView:
        """The round ``round_id`` (:class:`LedgerLookupError` if no wager was accepted in it)."""
        with self.ledger.engine.connect() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=False)
            r = self.ledger._round(conn, pid, defn, round_id)
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
        r = self.ledger._round(conn, pid, defn, round_id)
        if r is None:
            raise LedgerLookupError(f"progressive {self.name!r} has no round {round_id!r}")
        return r

    def accept_wagers(
        self, round_id: str, table: str, positions: Sequence[int], *, by: str
    ) -> RoundView:
        """Accept one progressive wager (of the definition's size) at each of ``positions``
        (§ 633b.2(d)(1)). Only before the lock-out (:class:`~croupier.errors.LockoutError`,
        § 633b.2(d)(2)); only at a table linked to the progressive (:class:`LinkError`, § 605a.8);
        a position holds one wager per round."""
        ps = list(positions)
        if not ps or any(not isinstance(p, int) or isinstance(p, bool) or p < 1 for p in ps):
            raise RoundStateError(f"positions must be seat numbers 1, 2, …, not {ps!r}")
        if len(set(ps)) != len(ps):
            raise RoundStateError(f"a position holds one progressive wager, got {ps!r}")
        with self.ledger._tx() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
            role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(d)(1)"), "accepting wagers")
            linked = conn.execute(
                sa.select(t.linked_tables.c.table_id).where(
                    t.linked_tables.c.progressive_id == pid, t.linked_tables.c.table_id == table
                )
            ).first()
            if linked is None:
                raise LinkError(
                    f"table {table} is not linked to progressive {self.name!r}", section="605a.8"
                )
            r = self.ledger._round(conn, pid, defn, round_id)
            if r is None:
                conn.execute(
                    sa.insert(t.rounds).values(
                        progressive_id=pid,
                        round_id=round_id,
                        table_id=table,
                        status=RoundStatus.OPEN.value,
                        positions=json.dumps(sorted(ps)),
                    )
                )
                accepted = sorted(ps)
            else:
                if r.table_id != table:
                    raise RoundStateError(
                        f"round {round_id!r} is at table {r.table_id}, not {table}"
                    )
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
                accepted = sorted({*r.positions, *ps})
                self.ledger._set_round(
                    conn, pid, round_id, RoundStatus.OPEN, positions=json.dumps(accepted)
                )
            self.ledger._append(
                conn,
                pid,
                [
                    EventDraft(
                        EventKind.ACCEPT,
                        detail={"positions": sorted(ps), "wager_cents": defn.wager_cents},
                    )
                ],
                round_id=round_id,
                table_id=table,
                actor=by,
                role=role,
            )
            return RoundView(self.name, round_id, table, RoundStatus.OPEN, tuple(accepted), None)

    def lock_out(self, round_id: str, *, by: str) -> None:
        """ "No more bets": the system recognises no further progressive wager in the round
        (§ 633b.2(d)(2), (f))."""
        with self.ledger._tx() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
            role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(d)(2)"), "the lock-out")
            r = self._round_for_update(conn, pid, defn, round_id)
            if r.status is not RoundStatus.OPEN:
                raise RoundStateError(f"round {round_id!r} is {r.status.value}, not open")
            self.ledger._set_round(conn, pid, round_id, RoundStatus.LOCKED)
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
        if not isinstance(chips, int) or chips < 0:
            raise RoundStateError(f"a chip count is a whole number, not {chips!r}")
        with self.ledger._tx() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
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
            self.ledger._set_round(conn, pid, round_id, status, chips_counted=chips)
            self.ledger._append(
                conn, pid, drafts, round_id=round_id, table_id=r.table_id, actor=by, role=role
            )
            return status

    def void_round(self, round_id: str, *, by: str, reason: str) -> None:
        """Void a round before settlement (e.g. held, and the discrepancy not resolved): its
        wagers are returned and nothing is contributed. A floorperson or above."""
        if not reason.strip():
            raise LedgerError("voiding a round needs a reason")
        with self.ledger._tx() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
            role = self.ledger._user(
                conn, by, Role.FLOORPERSON, defn.rule("(f)"), "voiding a round"
            )
            r = self._round_for_update(conn, pid, defn, round_id)
            if r.status in (RoundStatus.SETTLED, RoundStatus.VOIDED):
                raise RoundStateError(f"round {round_id!r} is {r.status.value} already")
            self.ledger._set_round(conn, pid, round_id, RoundStatus.VOIDED)
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
        :func:`~croupier.progressive.meters.plan_settlement`). Awards that are a share of a meter
        are pending validation. Retrying with the same ``idempotency_key`` and hands returns the
        first result (``replayed=True``) and changes nothing; the same key with other hands is an
        :class:`~croupier.errors.IdempotencyConflictError`. A held round raises
        :class:`~croupier.errors.RoundHeldError` (§ 633b.2(f)).
        """
        key = idempotency_key.strip()
        if not key:
            raise LedgerError("a settlement needs an idempotency key")
        fingerprint = _fingerprint(round_id, hands)
        with self.ledger._tx() as conn:
            pid, defn = self.ledger._definition(conn, self.name, lock=True)
            done = conn.execute(
                sa.select(t.settlements).where(t.settlements.c.idempotency_key == key)
            ).first()
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
                return _settlement_from_json(done.result, replayed=True)
            role = self.ledger._user(conn, by, Role.DEALER, defn.rule("(g)"), "settling a round")
            r = self._round_for_update(conn, pid, defn, round_id)
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
            before = self.ledger._levels(conn, pid)
            plan = plan_settlement(defn, before, r.positions, hands)

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
            award_ids = [
                self._insert_award(conn, pid, round_id, r.table_id, a) for a in plan.awards
            ]
            self.ledger._fault("award-rows")
            append(plan.events[n_contrib:], award_ids)
            self.ledger._fault("awards")
            self.ledger._store_levels(conn, pid, before, plan.states)
            self.ledger._set_round(conn, pid, round_id, RoundStatus.SETTLED)
            self.ledger._fault("levels")
            result = RoundSettlement(
                self.name,
                round_id,
                r.table_id,
                key,
                tuple(
                    Contribution(e.level, e.delta.meter, e.delta.reserve)
                    for e in plan.events[:n_contrib]
                    if e.level is not None
                ),
                tuple(
                    Award(
                        id=i,
                        progressive=self.name,
                        round_id=round_id,
                        table_id=r.table_id,
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
            conn.execute(
                sa.insert(t.settlements).values(
                    idempotency_key=key,
                    progressive_id=pid,
                    round_id=round_id,
                    fingerprint=fingerprint,
                    result=_settlement_to_json(result),
                    created_at=_now(),
                )
            )
            append(
                [
                    EventDraft(
                        EventKind.SETTLED,
                        detail={
                            "idempotency_key": key,
                            "hands": sorted([h.position, h.outcome] for h in hands),
                            "awards": award_ids,
                        },
                    )
                ]
            )
            self.ledger._fault("before-commit")
            return result

    @staticmethod
    def _insert_award(
        conn: Connection, pid: int, round_id: str, table_id: str, a: AwardDraft
    ) -> int:
        return int(
            conn.execute(
                sa.insert(t.awards)
                .values(
                    progressive_id=pid,
                    round_id=round_id,
                    table_id=table_id,
                    position=a.position,
                    outcome=a.outcome,
                    kind=a.kind.value,
                    status=a.status.value,
                    level=a.level.value if a.level is not None else None,
                    share=str(a.share) if a.share is not None else None,
                    amount_cents=a.amount_cents,
                    meter_cents=a.meter_cents,
                    source_position=(
                        a.source_position if a.source_position is not None else a.position
                    ),
                )
                .returning(t.awards.c.id)
            ).scalar_one()
        )


def _settlement_to_json(s: RoundSettlement) -> str:
    return _dumps(
        {
            "progressive": s.progressive,
            "round_id": s.round_id,
            "table_id": s.table_id,
            "idempotency_key": s.idempotency_key,
            "contributions": [
                [c.level.value, c.meter_micros, c.reserve_micros] for c in s.contributions
            ],
            "awards": [
                {
                    "id": a.id,
                    "position": a.position,
                    "outcome": a.outcome,
                    "kind": a.kind.value,
                    "status": a.status.value,
                    "amount_cents": a.amount_cents,
                    "meter_cents": a.meter_cents,
                    "level": a.level.value if a.level is not None else None,
                    "share": str(a.share) if a.share is not None else None,
                    "source_position": a.source_position,
                }
                for a in s.awards
            ],
        }
    )


def _settlement_from_json(text: str, *, replayed: bool) -> RoundSettlement:
    d = json.loads(text)
    return RoundSettlement(
        d["progressive"],
        d["round_id"],
        d["table_id"],
        d["idempotency_key"],
        tuple(Contribution(MeterLevel(c[0]), c[1], c[2]) for c in d["contributions"]),
        tuple(
            Award(
                id=a["id"],
                progressive=d["progressive"],
                round_id=d["round_id"],
                table_id=d["table_id"],
                position=a["position"],
                outcome=a["outcome"],
                kind=AwardKind(a["kind"]),
                status=AwardStatus(a["status"]),
                amount_cents=a["amount_cents"],
                meter_cents=a["meter_cents"],
                level=MeterLevel(a["level"]) if a["level"] is not None else None,
                share=Fraction(a["share"]) if a["share"] is not None else None,
                source_position=a["source_position"],
            )
            for a in d["awards"]
        ),
        replayed=replayed,
    )
