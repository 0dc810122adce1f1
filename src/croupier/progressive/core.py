"""The ledger's storage layer: a database, its ledger key, transactions, the chained event log,
the staff store and the progressives' definitions, levels and linked tables.

:class:`LedgerBase` is what :class:`~croupier.progressive.rounds.ProgressiveSystem` and
:class:`~croupier.progressive.ledger.Ledger` build on; use :class:`~croupier.progressive.Ledger`.

Staff (58 Pa. Code § 605a.7; § 633b.2(h)(3), § 633b.3(h)(3)): members, roles, credentials,
their lifecycle and logins are :class:`~croupier.progressive.staffing.StaffLedger`'s, which
:class:`LedgerBase` extends. Roles are read from the event log, and a staff row that differs from
it is refused, so editing a role in the database grants nothing.

The events form an HMAC-SHA256 chain under the ledger key (:mod:`croupier.progressive.store`):
each event's ``mac`` covers the previous event's mac and all of its own fields, and the
``ledger_chain`` row holds the head. Writers lock that row, so events are chained in commit order.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

import croupier.progressive.schema as t
from croupier.cards import decks_phrase
from croupier.errors import (
    LedgerHaltedError,
    LedgerIntegrityError,
    LedgerKeyError,
    LedgerLookupError,
    LinkError,
)
from croupier.names import check_id, check_new
from croupier.paytables import MeterLevel
from croupier.progressive.chain import chain_rows
from croupier.progressive.checkpoint import SECURITY_REASON
from croupier.progressive.login import LoginPolicy
from croupier.progressive.meters import EventDraft, LevelState, StoredEvent, seed_states
from croupier.progressive.migrate import current_revision, head_revision, upgrade
from croupier.progressive.model import AwardStatus, EventKind, ProgressiveDefinition, Role
from croupier.progressive.records import (
    Award,
    ProgressiveStatus,
    award_from_row,
    level_columns,
    level_from_row,
    stored_event,
)
from croupier.progressive.roster import Roster
from croupier.progressive.staffing import STAFF_SECTION, StaffLedger
from croupier.progressive.store import (
    FLUSH_LATER,
    GENESIS,
    HALTED_AHEAD,
    HALTED_MISSING,
    DatabaseRefusedError,
    LedgerDatabaseError,
    LedgerFileError,
    UnconfirmedFlushError,
    check_name,
    create_head,
    create_key,
    database_failure,
    database_url,
    db_error,
    default_key_file,
    default_url,
    definition_digest,
    flush_barrier,
    head_file,
    head_trouble,
    held_head,
    keep_head,
    make_engine,
    make_reader,
    now,
    open_head,
    os_reason,
    read_head,
    read_key,
    sqlite_file,
)
from croupier.progressive.store import TX_STATE as TX_STATE  # re-exported: play.py, rounds.py
from croupier.progressive.totals import write_totals
from croupier.units import format_money

ANCHOR = "anchor"
"""``TX_STATE`` key: why the transaction is followed by an automatic checkpoint (the first
event of :data:`ANCHOR_KINDS` it appended), :meth:`LedgerBase._anchor`."""

ANCHOR_KINDS = frozenset(
    {EventKind.SIGNIFICANT, EventKind.AWARD, EventKind.PAYMENT, EventKind.ADJUSTMENT}
)
"""The events after whose commit an automatic checkpoint is written: a significant event, an
award made or paid, a meter adjusted by hand (GLI-13's significant events include the hand-pay
of a progressive jackpot; docs/interpretations.md, *A rollback that cannot hide*)."""


_ANCHOR_VALUES = frozenset(k.value for k in ANCHOR_KINDS)

SECURITY_ANCHOR = SECURITY_REASON
"""The anchor ``reason`` of a transaction whose only significant events are security events
(:data:`SECURITY_CODES`): its automatic checkpoint is coalesced — at most one per
:data:`~croupier.progressive.significant.SECURITY_PERIOD` (docs/interpretations.md, *Write-once
automatic checkpoints*)."""

SECURITY_CODES = frozenset({"login-failure", "login-lockout"})
"""Significant events that are security events, not money or configuration ones."""


def anchor_kind(draft: EventDraft) -> str:
    """The kind :func:`mark_anchor` weighs for ``draft``: its kind's value, or
    :data:`SECURITY_ANCHOR` for a security significant event."""
    if draft.kind is EventKind.SIGNIFICANT and draft.detail.get("code") in SECURITY_CODES:
        return SECURITY_ANCHOR
    return draft.kind.value


def mark_anchor(st: dict[str, Any], kinds: Iterable[str]) -> None:
    """Note in a transaction's state ``st`` the first of ``kinds`` (event kinds' values, or
    :data:`SECURITY_ANCHOR`) that asks for an automatic checkpoint after the commit
    (:data:`ANCHOR`); any other anchor kind replaces a security one."""
    for k in kinds:
        if k in _ANCHOR_VALUES and st.get(ANCHOR) in (None, SECURITY_ANCHOR):
            st[ANCHOR] = k
            return
        if k == SECURITY_ANCHOR and ANCHOR not in st:
            st[ANCHOR] = k


FaultHook = Callable[[str], None]
"""Called with a stage name at points inside a write transaction (tests inject crashes here)."""


_DEFINITION = sa.select(t.progressives.c.id, t.progressives.c.definition).where(
    t.progressives.c.name == sa.bindparam("b_name")
)
_DEFINITION_LOCKED = _DEFINITION.with_for_update()
_HEAD_SEQ = sa.select(t.ledger_chain.c.head_seq).where(t.ledger_chain.c.id == 1)
_CHAIN_HEAD = (
    sa.select(t.ledger_chain.c.head_seq, t.ledger_chain.c.head_mac)
    .where(t.ledger_chain.c.id == 1)
    .with_for_update()
)
_MOVE_HEAD = (
    sa.update(t.ledger_chain)
    .where(t.ledger_chain.c.id == 1)
    .values(head_seq=sa.bindparam("b_seq"), head_mac=sa.bindparam("b_mac"))
)
_INSERT_EVENTS = sa.insert(t.ledger_events)
_INSERT_ROUND = sa.insert(t.rounds)
_UPDATE_ROUND = (
    sa.update(t.rounds)
    .where(
        t.rounds.c.progressive_id == sa.bindparam("b_progressive_id"),
        t.rounds.c.round_id == sa.bindparam("b_round_id"),
    )
    .values(
        {
            c: sa.bindparam(f"b_{c}")
            for c in ("table_id", "status", "positions", "chips_counted", "content")
        }
    )
)
_MEMBER = sa.select(t.staff.c.role, t.staff.c.credential).where(
    t.staff.c.name == sa.bindparam("b_name")
)
_LEVELS = (
    sa.select(t.meter_levels)
    .where(t.meter_levels.c.progressive_id == sa.bindparam("b_pid"))
    .order_by(t.meter_levels.c.ordinal)
)

_LV = t.meter_levels.c
STORE_LEVEL = (  # one level's row, compare-and-set on what the writer read (play.py too)
    sa.update(t.meter_levels)
    .where(
        _LV.progressive_id == sa.bindparam("b_pid"),
        _LV.level == sa.bindparam("b_level"),
        _LV.meter_micros == sa.bindparam("b_meter"),
        _LV.reserve_micros == sa.bindparam("b_reserve"),
        _LV.held_micros == sa.bindparam("b_held"),
        _LV.wagered_cents == sa.bindparam("b_wagered"),
    )
    .values(
        meter_micros=sa.bindparam("n_meter"),
        reserve_micros=sa.bindparam("n_reserve"),
        held_micros=sa.bindparam("n_held"),
        wagered_cents=sa.bindparam("n_wagered"),
        paid_cents=sa.bindparam("n_paid"),
        hits=sa.bindparam("n_hits"),
    )
)


class LedgerBase(StaffLedger):
    """The progressive ledger's database: see :class:`~croupier.progressive.Ledger`."""

    def __init__(
        self,
        url: str | None = None,
        *,
        migrate: bool = True,
        fault_hook: FaultHook | None = None,
        key_file: str | Path | None = None,
        key: bytes | None = None,
        create: bool = True,
        submission_sha256: str | None = None,
    ) -> None:
        self.url = database_url(url or default_url())
        path = sqlite_file(self.url)
        if not create and path is not None and not path.exists():
            raise LedgerLookupError(self._missing())
        try:
            self.engine = make_engine(self.url)
            # reads that take no writer lock (make_reader): definitions, rounds, status
            self.reader = make_reader(self.engine)
        except (SQLAlchemyError, ValueError, ImportError) as exc:
            raise LedgerDatabaseError(
                f"cannot use database {self.display_url}: {db_error(exc)}"
            ) from exc
        self.fault_hook = fault_hook
        self._defs: dict[str, tuple[int, str, ProgressiveDefinition]] = {}
        self._staff_cache: tuple[int, Roster] | None = None
        self.login_policy = LoginPolicy.from_env()
        self._head_fd: int | None = None
        self.checkpointing = False  # an automatic checkpoint is being written (checkpoint.py)
        self.checkpoint_failing = False  # the last one could not be: a fault not yet cleared
        self._halts_told: set[str] = set()  # halts told on stderr (_halt)
        self.tell_halts = False  # a halt told on stderr too: the service's (the CLI says it)
        self.checkpoint_conflicts: set[str] = set()  # conflicts recorded (significant.py)
        self.security_anchored: float | None = None  # monotonic time of the last security one
        # the Rules Submission this process runs under, and its configuration checks (cached)
        self.running_submission = submission_sha256
        self._configuration: dict[tuple[Any, ...], Any] = {}
        self._feeder: Any = None  # croupier.progressive.feeder.feeder_of makes it
        try:
            if not create:
                with self.engine.connect() as conn:
                    if current_revision(conn) is None:
                        raise LedgerLookupError(self._missing())
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
            self.key_file = Path(key_file) if key_file is not None else default_key_file(self.url)
            self.key = self._load_key(key)
        except SQLAlchemyError as exc:
            raise LedgerDatabaseError(
                f"cannot use database {self.display_url}: {db_error(exc)}"
            ) from exc
        except OSError as exc:  # the key's folder or file: where it is and why, in one line
            where = f" {exc.filename}" if exc.filename else ""  # unquoted: never cut short
            raise LedgerFileError(
                f"cannot use the ledger's files{where} (database {self.display_url}): "
                f"{os_reason(exc)}"
            ) from None

    def _missing(self) -> str:
        return (
            f"no ledger at {self.display_url}: give the --db of an existing ledger, or create one "
            "with `croupier meters bootstrap NAME`"
        )

    def _load_key(self, key: bytes | None) -> bytes | None:
        if key is not None:
            return key
        if self.key_file is None:  # an in-memory ledger: its key lives with this object
            return secrets.token_bytes(32)
        found = read_key(self.key_file)
        if found is None and self.event_count() == 0:
            return create_key(self.key_file)
        return found

    def _require_key(self) -> bytes:
        if self.key is None:
            raise LedgerKeyError(
                f"the ledger key {self.key_file} is missing: nothing is written without it "
                "(set CROUPIER_LEDGER_KEY_FILE to where it is kept)"
            )
        return self.key

    def event_count(self) -> int:
        """How many events the log holds."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(sa.select(sa.func.count()).select_from(t.ledger_events)).scalar_one()
            )

    @property
    def display_url(self) -> str:
        """The database URL with any password hidden."""
        try:
            return sa.make_url(self.url).render_as_string(hide_password=True)
        except Exception:
            return repr(self.url)

    def close(self) -> None:
        """Release the database connections (and the copy of the head's file)."""
        if self.reader.pool is not self.engine.pool:
            self.reader.dispose()
        self.engine.dispose()
        if self._head_fd is not None:
            os.close(self._head_fd)
            self._head_fd = None

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    # -- transactions ----------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        self._require_key()
        moved: list[Any] | None = None
        later = False
        anchor: str | None = None
        try:
            with self.engine.begin() as conn:
                conn.info[TX_STATE] = {}
                try:
                    yield conn
                    self._flush(conn)
                    moved = conn.info[TX_STATE].get("head")
                    later = bool(conn.info[TX_STATE].get(FLUSH_LATER))
                    anchor = conn.info[TX_STATE].get(ANCHOR)
                finally:
                    conn.info.pop(TX_STATE, None)
        except SQLAlchemyError as exc:  # a 503 when a retry may cure it, else a 500
            raise database_failure(exc, "the ledger database refused the operation") from exc
        except OverflowError as exc:  # a driver's: an integer its column cannot hold
            raise DatabaseRefusedError(f"the ledger database refused the operation: {exc}") from exc
        if later:  # committed without waiting for the disk: wait now, outside the locks
            try:
                flush_barrier(self.engine)
            except LedgerDatabaseError as exc:  # the head's copy is not moved past the unsure
                raise UnconfirmedFlushError(
                    "the ledger committed the operation but could not confirm it reached the "
                    f"database's disk ({exc}); the same request again answers it"
                ) from exc
        if moved is not None:
            fd = self._head_copy()
            if fd is not None:
                keep_head(fd, int(moved[0]), str(moved[1]))
            if anchor is not None:
                self._anchor(anchor)

    def _anchor(self, reason: str) -> None:
        """After a commit that appended an event of :data:`ANCHOR_KINDS` (``reason``: its
        kind): :class:`~croupier.progressive.Ledger` writes an automatic checkpoint
        (:func:`~croupier.progressive.significant.write_automatic`, which never raises)."""

    def _head_copy(self) -> int | None:
        """The open file of the copy of the chain head (opened again if it was replaced);
        ``None`` in memory, or when there is no file to open (a writer never makes it again:
        :meth:`_check_kept` refuses the next write)."""
        if self.head_file is None:
            return None
        fd = self._head_fd
        try:
            if fd is not None and os.fstat(fd).st_nlink == 0:
                os.close(fd)
                fd = self._head_fd = None
            if fd is None:
                fd = self._head_fd = open_head(self.head_file)
        except OSError:
            return None
        return fd

    def _check_kept(self, head_seq: int) -> None:
        """Refuse to write on a log that ends before the copy of its head kept outside the
        database: the newest events were removed together with the head (a rollback, or a
        restore from an earlier copy). Committed events are never lost otherwise — the copy is
        written only after the commit — so this is never a false alarm. A log with events whose
        copy is missing (or unreadable) is refused too (:meth:`head_trouble`): the copy is made
        with the ledger, before its first event (:data:`~croupier.progressive.store.GENESIS`),
        never by a later write, so that deleting it cannot hide a rollback."""
        if self.head_file is None:
            return
        if head_seq == 0 and not self.head_file.exists():
            create_head(self.head_file, *GENESIS)  # a new ledger: its copy, before any event
        fd = self._head_copy()
        kept = held_head(fd) if fd is not None else None
        halt = self._halt_for(kept, head_seq)
        if halt is not None:
            raise halt

    def _halt_for(self, kept: tuple[int, str] | None, head_seq: int) -> LedgerHaltedError | None:
        """The halt (:class:`~croupier.errors.LedgerHaltedError`; with :attr:`tell_halts`, told on
        stderr once) for the
        copy of the head ``kept`` (``None``: missing or unreadable) beside a log ending at
        ``head_seq``; ``None`` when they agree."""
        if kept is None and head_seq > 0:
            return self._halt(self._head_missing(), HALTED_MISSING)
        if kept is not None and kept[0] > head_seq:
            return self._halt(
                f"the copy of the chain head beside the ledger key names event {kept[0]}, but the "
                f"database's log ends at {head_seq}: its newest events were removed together "
                "with the head (rolled back or restored from an earlier copy); nothing is "
                f"written. If that restore was deliberate, record why, remove {self.head_file} "
                "and run `croupier meters verify --accept-missing-head`",
                HALTED_AHEAD,
            )
        return None

    def _halt(self, message: str, public: str) -> LedgerHaltedError:
        if self.tell_halts and message not in self._halts_told:  # stderr is the only record
            self._halts_told.add(message)
            print(f"croupier: ledger halted: {message}", file=sys.stderr, flush=True)
        return LedgerHaltedError(message, public)

    def halted(self) -> LedgerHaltedError | None:
        """The integrity fault the controller is halted for (its copy of the chain head
        missing, unreadable or ahead of the log: :meth:`_check_kept`), read now; ``None`` in
        memory, without the ledger key, or when the copy agrees with the log. The service
        refuses a login with it before the credential is looked at."""
        if self.head_file is None or self.key is None:
            return None
        kept = read_head(self.head_file)
        with self.engine.connect() as conn:
            row = conn.execute(_HEAD_SEQ).first()
        return self._halt_for(kept, int(row.head_seq) if row is not None else 0)

    def head_trouble(self) -> str | None:
        """What is wrong with the copy of the chain head kept beside the ledger key, as an
        error says it — ``None`` when it holds a record, when the ledger holds no event yet
        (its copy is made at its first write), in memory, or where the ledger key is not (the
        copy lives beside the key: an auditor's copy of the database has neither, and
        ``verify`` says the chain was not checked)."""
        path = self.head_file
        if path is None or self.key is None:
            return None
        trouble = head_trouble(path)
        if trouble is None or self.event_count() == 0:
            return None
        return self._head_missing(trouble)

    def _head_missing(self, trouble: str | None = None) -> str:
        what = trouble or (head_trouble(self.head_file) if self.head_file else None) or "is gone"
        return (
            f"the copy of the chain head {self.head_file} {what}, but the ledger holds events: "
            "deleting it would hide a rollback of the newest events (a restored backup); "
            "nothing is written and the ledger does not verify. If this ledger never had one, "
            "run `croupier meters verify "
            "--accept-missing-head`, which verifies the whole chain and makes it anew"
        )

    @property
    def head_file(self) -> Path | None:
        """Where the copy of the chain head is kept, beside the ledger key
        (:func:`~croupier.progressive.store.head_file`); ``None`` in memory."""
        return None if self.key_file is None else head_file(self.key_file)

    def kept_head(self) -> tuple[int, str] | None:
        """The copy of the chain head kept outside the database (seq, mac), or ``None`` when
        there is none."""
        return None if self.head_file is None else read_head(self.head_file)

    def _fault(self, stage: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(stage)

    def _definition(
        self, conn: Connection, name: str, *, lock: bool
    ) -> tuple[int, ProgressiveDefinition]:
        row = conn.execute(_DEFINITION_LOCKED if lock else _DEFINITION, {"b_name": name}).first()
        if row is None:
            known = ", ".join(self.names(conn)) or "none"
            raise LedgerLookupError(f"no progressive named {name!r} (progressives: {known})")
        cached = self._defs.get(name)
        if cached is None or cached[0] != row.id or cached[1] != row.definition:
            cached = (row.id, row.definition, ProgressiveDefinition.from_json(row.definition))
            self._defs[name] = cached
        return cached[0], cached[2]

    def known_definition(self, progressive: str) -> ProgressiveDefinition | None:
        """The definition of ``progressive`` as this object last read it, without a read (``None``
        if never read): what a write checks again under the lock before it relies on it."""
        cached = self._defs.get(progressive)
        return None if cached is None else cached[2]

    def tables(self, conn: Connection | None = None) -> list[str]:
        """Every table id linked to a progressive, sorted."""
        q = sa.select(t.linked_tables.c.table_id).distinct().order_by(t.linked_tables.c.table_id)
        if conn is not None:
            return list(conn.execute(q).scalars())
        with self.engine.connect() as c:
            return list(c.execute(q).scalars())

    def names(self, conn: Connection | None = None) -> list[str]:
        """The names of every progressive, in creation order."""
        q = sa.select(t.progressives.c.name).order_by(t.progressives.c.id)
        if conn is not None:
            return list(conn.execute(q).scalars())
        with self.engine.connect() as c:
            return list(c.execute(q).scalars())

    # -- the chained log -------------------------------------------------------------------
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
        key = self._require_key()
        st = conn.info[TX_STATE]  # writes happen inside _tx only
        head = st.get("head")
        if head is None:
            row = conn.execute(_CHAIN_HEAD).first()
            if row is None:
                raise LedgerIntegrityError("the ledger's chain head (ledger_chain) is missing")
            self._check_kept(int(row.head_seq))
            head = st["head"] = [int(row.head_seq), str(row.head_mac)]
        new, seq, mac = chain_rows(
            key,
            head[0],
            head[1],
            pid,
            drafts,
            round_id=round_id,
            table_id=table_id,
            actor=actor,
            role=role,
            award_ids=award_ids,
            at=now(),
        )
        st.setdefault("rows", []).extend(new)
        head[0], head[1] = seq, mac
        mark_anchor(st, (anchor_kind(d) for d in drafts))

    @staticmethod
    def _flush(conn: Connection) -> None:
        """Write the rounds and the events :meth:`_append` chained in this transaction, the
        running totals they move (:mod:`~croupier.progressive.totals`), and the chain head (once
        per transaction: the head row stays locked from the first append to the commit)."""
        st = conn.info.get(TX_STATE)
        if not st:
            return
        dirty = st.pop("dirty_rounds", {})
        for new, row in dirty.values():  # rounds changed in this transaction, once each
            if new:
                conn.execute(_INSERT_ROUND, row)
            else:
                conn.execute(_UPDATE_ROUND, {f"b_{k}": v for k, v in row.items()})
        if not st.get("rows"):
            return
        conn.execute(_INSERT_EVENTS, st["rows"])
        write_totals(conn, st["rows"])  # the running totals move with the events that make them
        st["rows"] = []
        seq, mac = st["head"]
        conn.execute(_MOVE_HEAD, {"b_seq": seq, "b_mac": mac})

    def _events(
        self, conn: Connection, pid: int, *, round_id: str | None = None
    ) -> Iterator[StoredEvent]:
        self._flush(conn)
        e = t.ledger_events
        q = sa.select(e).where(e.c.progressive_id == pid)
        if round_id is not None:
            q = q.where(e.c.round_id == round_id)
        for r in conn.execute(q.order_by(e.c.seq)):
            yield stored_event(r)

    # -- levels ----------------------------------------------------------------------------
    def _levels(self, conn: Connection, pid: int) -> dict[MeterLevel, LevelState]:
        rows = conn.execute(_LEVELS, {"b_pid": pid}).all()
        return {MeterLevel(r.level): level_from_row(r) for r in rows}

    def _store_levels(
        self,
        conn: Connection,
        pid: int,
        before: Mapping[MeterLevel, LevelState],
        after: Mapping[MeterLevel, LevelState],
    ) -> None:
        for level, s in after.items():
            old = before[level]
            if s == old:
                continue
            res = conn.execute(
                STORE_LEVEL,
                {
                    "b_pid": pid,
                    "b_level": level.value,
                    "b_meter": old.meter,
                    "b_reserve": old.reserve,
                    "b_held": old.held,
                    "b_wagered": old.wagered_cents,
                    "n_meter": s.meter,
                    "n_reserve": s.reserve,
                    "n_held": s.held,
                    "n_wagered": s.wagered_cents,
                    "n_paid": s.paid_cents,
                    "n_hits": s.hits,
                },
            )
            if res.rowcount != 1:
                raise LedgerIntegrityError(
                    f"the {level.value} level changed under a locked write: the database does "
                    "not serialise writers"
                )

    # -- progressives ----------------------------------------------------------------------
    def _create(
        self, conn: Connection, definition: ProgressiveDefinition, tables: Sequence[str], by: str
    ) -> None:
        role = self._user(conn, by, Role.SHIFT_MANAGER, STAFF_SECTION, "creating a progressive")
        check_id("a progressive", definition.name, self.names(conn))
        stored = definition.to_json()
        pid = conn.execute(
            sa.insert(t.progressives)
            .values(
                name=definition.name,
                section=definition.section,
                paytable=definition.paytable,
                decks=definition.decks,
                wager_cents=definition.wager_cents,
                definition=stored,
                created_at=now(),
                reseed_funding=definition.reseed.value,
            )
            .returning(t.progressives.c.id)
        ).scalar_one()
        drafts, states = seed_states(definition)
        conn.execute(
            sa.insert(t.meter_levels),
            [
                {"progressive_id": pid, "level": s.level.value, "ordinal": i, **level_columns(s)}
                for i, s in enumerate(states.values())
            ],
        )
        digest = definition_digest(stored)
        drafts = [
            EventDraft(d.kind, d.level, d.delta, detail={**d.detail, "definition": digest})
            for d in drafts
        ]
        self._append(conn, pid, drafts, actor=by, role=role)
        for table in tables:
            self._link(conn, pid, definition, table, by, role)

    def _link(
        self,
        conn: Connection,
        pid: int,
        defn: ProgressiveDefinition,
        table: str,
        by: str,
        role: Role,
    ) -> None:
        table = table.strip()
        if not table:
            raise LinkError("a linked table needs an id", section="605a.8")
        table = check_name("a table", table)
        check_new("a table", table, [x for x in self.tables(conn) if x != table])
        exists = conn.execute(
            sa.select(t.linked_tables.c.table_id).where(
                t.linked_tables.c.progressive_id == pid, t.linked_tables.c.table_id == table
            )
        ).first()
        if exists is not None:
            raise LinkError(f"table {table} is linked to {defn.name!r} already", section="605a.8")
        p = t.progressives
        twin = conn.execute(
            sa.select(p.c.name)
            .join(t.linked_tables, t.linked_tables.c.progressive_id == p.c.id)
            .where(
                t.linked_tables.c.table_id == table,
                p.c.section == defn.section,
                p.c.paytable == defn.paytable,
                p.c.decks == defn.decks,
                p.c.wager_cents == defn.wager_cents,
            )
        ).first()
        if twin is not None:  # one wager would feed two meters and win twice
            raise LinkError(
                f"table {table} is linked to {twin.name!r} already, a progressive of the same "
                f"wager (§ {defn.section} paytable {defn.paytable}, {decks_phrase(defn.decks)}, "
                f"{format_money(defn.wager_cents)}): a wager feeds one progressive's meters",
                section="605a.8",
            )
        conn.execute(
            sa.insert(t.linked_tables).values(progressive_id=pid, table_id=table, linked_at=now())
        )
        self._append(conn, pid, [EventDraft(EventKind.LINK)], table_id=table, actor=by, role=role)

    def link_table(self, progressive: str, table: str, *, by: str) -> None:
        """Link a table to the progressive's meters (§ 605a.8): its rounds then contribute to and
        win from the same levels as every other linked table. ``by`` is a shift manager."""
        with self._tx() as conn:
            pid, defn = self._definition(conn, progressive, lock=True)
            role = self._user(conn, by, Role.SHIFT_MANAGER, "605a.8", "linking a table")
            self._link(conn, pid, defn, table, by, role)

    def definition(self, progressive: str) -> ProgressiveDefinition:
        """The definition of ``progressive`` (read without the writer lock)."""
        with self.reader.connect() as conn:
            return self._definition(conn, progressive, lock=False)[1]

    def status(self, progressive: str) -> ProgressiveStatus:
        """Definition, linked tables, level states and pending awards of ``progressive`` (one
        snapshot, read without the writer lock)."""
        with self.reader.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            return self._status(conn, pid, defn, self._levels(conn, pid))

    def _status(
        self,
        conn: Connection,
        pid: int,
        defn: ProgressiveDefinition,
        levels: Mapping[MeterLevel, LevelState],
    ) -> ProgressiveStatus:
        """The status of progressive ``pid`` with ``levels`` read on ``conn``."""
        tables = tuple(
            conn.execute(
                sa.select(t.linked_tables.c.table_id)
                .where(t.linked_tables.c.progressive_id == pid)
                .order_by(t.linked_tables.c.table_id)
            ).scalars()
        )
        pending = tuple(
            self._award_rows(conn, pid, AwardStatus.PENDING, progressive_name=defn.name)
        )
        return ProgressiveStatus(defn, tables, tuple(levels.values()), pending)

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
        if status is AwardStatus.PENDING:
            q = q.where(t.PENDING_AWARD)  # the partial index's predicate: a few rows, indexed
        elif status is not None:
            q = q.where(t.awards.c.status == status.value)
        if round_id is not None:
            q = q.where(t.awards.c.round_id == round_id)
        return [
            award_from_row(r, progressive_name) for r in conn.execute(q.order_by(t.awards.c.id))
        ]

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
        if not 1 <= award_id <= t.MAX_INT:  # no award has it (the column holds no more)
            raise LedgerLookupError(f"no award {award_id}")
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
        return award_from_row(row, row.name)
