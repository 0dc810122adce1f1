"""The ledger's staff store: members, roles, credentials, their lifecycle and logins.

Staff (58 Pa. Code § 605a.7; § 633b.2(h)(3), § 633b.3(h)(3)). Every member has a credential (a
password or PIN) kept only as an argon2id hash (:mod:`croupier.progressive.staff`), in the
``staff`` table *and* in the staff event that set it. :meth:`StaffLedger.bootstrap` creates the
first shift manager, once, on a ledger with no staff; after that a shift manager adds members,
removes them, changes their role or sets a new credential (:meth:`~StaffLedger.add_user`,
:meth:`~StaffLedger.remove_user`, :meth:`~StaffLedger.set_role`,
:meth:`~StaffLedger.change_credential`), and any member changes their own credential with the
old one or logs out (:meth:`~StaffLedger.logout`) — each a staff event naming the actor
(:mod:`croupier.progressive.roster`). Roles are read from the event log, and a staff row that
differs from it is refused, so editing a role in the database grants nothing.

:meth:`StaffLedger.authenticate` checks a name and credential, throttled per member and per
client address (:mod:`croupier.progressive.login`), and returns the :class:`StaffMember` a
command — or a service issuing tokens from this store — acts as. :meth:`StaffLedger.staff_now`
gives the staff as the log has them with one indexed read (a service checks every token
against it: a removal, a role or credential change or a logout refuses the tokens issued before).

Names follow the one rule of :mod:`croupier.names`; a new member's name may not read as any name
the staff ever had (a removed member's included: history names one person by it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

import croupier.progressive.login as login
import croupier.progressive.schema as t
from croupier.errors import (
    AuthenticationError,
    AuthorizationError,
    CroupierError,
    LedgerError,
    LedgerHaltedError,
    LedgerIntegrityError,
    LedgerLookupError,
)
from croupier.names import check_new, login_name
from croupier.progressive.chain import stored_detail
from croupier.progressive.meters import EventDraft
from croupier.progressive.model import EventKind, Role
from croupier.progressive.records import StaffMember
from croupier.progressive.roster import STAFF_KINDS, LoggedMember, Roster
from croupier.progressive.staff import check_credential, hash_credential
from croupier.progressive.store import TX_STATE, check_name, now, read_rows

STAFF_SECTION = "605a.7"
"""Adding and changing staff, creating a progressive: the system's internal controls."""

_MEMBER = sa.select(t.staff.c.role, t.staff.c.credential).where(
    t.staff.c.name == sa.bindparam("b_name")
)
_e = t.ledger_events.c
_STAFF_EVENTS = (
    sa.select(_e.seq, _e.kind, _e.detail)
    .where(_e.progressive_id.is_(None), _e.kind.in_([k.value for k in STAFF_KINDS]))
    .order_by(_e.seq)
)
STAFF_SEQ = sa.select(sa.func.max(_e.seq)).where(_e.progressive_id.is_(None))
"""The newest event outside any progressive (every staff event is one): one read of the
partial index ``ix_ledger_events_staff_seq`` (migration 0006)."""

_LOCK_HEAD = sa.select(t.ledger_chain.c.head_seq).where(t.ledger_chain.c.id == 1).with_for_update()

_DUMMY: list[str] = []


def _dummy_hash() -> str:
    """A hash to check an unknown name's credential against, so that a login costs the same
    whether the name is a member's or not (an unknown name is not told apart by its speed)."""
    if not _DUMMY:
        _DUMMY.append(hash_credential("not any member's credential"))
    return _DUMMY[0]


class StaffLedger:
    """The staff half of :class:`~croupier.progressive.core.LedgerBase` (see the module
    docstring); use :class:`~croupier.progressive.Ledger`."""

    engine: Engine
    reader: Engine
    login_policy: login.LoginPolicy
    key: bytes | None
    _staff_cache: tuple[int, Roster] | None = None

    # provided by LedgerBase
    def _tx(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

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
        raise NotImplementedError

    @staticmethod
    def _flush(conn: Connection) -> None:
        raise NotImplementedError

    def halted(self) -> LedgerHaltedError | None:
        raise NotImplementedError

    # -- the staff as the log makes them ---------------------------------------------------
    @classmethod
    def _roster(cls, conn: Connection) -> Roster:
        """Every member as the staff events made them (read once per write transaction)."""
        st = conn.info.get(TX_STATE)
        if st is not None and "staff" in st:
            cached: Roster = st["staff"]
            return cached
        cls._flush(conn)
        roster = Roster()
        for seq, kind, detail in conn.execute(_STAFF_EVENTS):
            roster.apply(int(seq), EventKind(kind), stored_detail(detail))
        if st is not None:
            st["staff"] = roster
        return roster

    @classmethod
    def _staff_log(cls, conn: Connection) -> dict[str, LoggedMember]:
        """Every member the log has: name → (role, credential hash, since)."""
        return cls._roster(conn).members

    def _roster_at(self, conn: Connection, seq: int) -> Roster:
        cached = self._staff_cache
        if cached is None or cached[0] != seq:
            cached = self._staff_cache = (seq, self._roster(conn))
        return cached[1]

    def _staff_at(self, conn: Connection, seq: int) -> dict[str, LoggedMember]:
        """The staff as the log makes them (:meth:`_staff_log`), when ``seq`` is the last event
        outside any progressive (every staff event is one): read again only when it moved."""
        return self._roster_at(conn, seq).members

    def staff_now(self) -> dict[str, LoggedMember]:
        """The members as the log has them now: one indexed read (the newest event outside any
        progressive, :data:`STAFF_SEQ`), the staff events read again only when it moved. The
        read goes to the driver's own connection from the readers' pool, outside any transaction
        (no BEGIN, no ROLLBACK: one round trip, ~10 µs of CPU on SQLite, ~0.1 ms on PostgreSQL,
        where SQLAlchemy's connection and transaction would cost three times that): every
        request a service serves makes it (:mod:`croupier.service.auth`)."""
        seq = self._staff_seq_now()
        cached = self._staff_cache
        if cached is not None and cached[0] == seq:
            return cached[1].members
        with self.reader.connect() as conn:
            return self._staff_at(conn, seq)

    def _staff_seq_now(self) -> int:
        rows = read_rows(self.reader, STAFF_SEQ, {})
        return int(rows[0][0] or 0) if rows else 0

    def _member(self, conn: Connection, name: str, roster: Roster | None = None) -> LoggedMember:
        """``name`` as the log has them, if their staff row agrees (``roster``: the log as read
        already)."""
        st = conn.info.get(TX_STATE)
        checked = st.setdefault("members", {}) if st is not None else {}
        if name in checked:
            return checked[name]  # type: ignore[no-any-return]
        roster = roster or self._roster(conn)
        entry = roster.members.get(name)
        if entry is None:
            if name in roster.removed:
                raise AuthenticationError(
                    f"{name!r} was removed from the staff: they no longer log in or act"
                )
            raise LedgerLookupError(f"no staff member named {name!r}: a shift manager adds them")
        row = conn.execute(_MEMBER, {"b_name": name}).first()
        if row is None or row.role != entry.role.value or row.credential != entry.credential:
            raise LedgerIntegrityError(
                f"the staff store's entry for {name!r} differs from the ledger's events "
                "(edited behind croupier's back?): run `croupier meters verify`"
            )
        checked[name] = entry
        return entry

    def _user(self, conn: Connection, name: str, at_least: Role, section: str, what: str) -> Role:
        """The role of ``name`` (from the log), if it is ``at_least`` or above."""
        role = self._member(conn, name).role
        if not role.at_least(at_least):
            only = " (a role that reads and changes nothing)" if role.read_only else ""
            raise AuthorizationError(
                f"{name} is {role.said}{only}; {what} needs {at_least.who_may()}",
                section=section,
            )
        return role

    def check_role(self, name: str, at_least: Role, section: str, what: str) -> Role:
        """The role the log gives ``name``, if it is ``at_least`` or above
        (:class:`~croupier.errors.AuthorizationError` citing ``section`` otherwise) — the check
        each operation makes in its transaction, for a caller that must know before it acts
        (the service, before it answers a stored response again). Read without the writer
        lock."""
        with self.reader.connect() as conn:
            return self._user(conn, name, at_least, section, what)

    # -- logins ----------------------------------------------------------------------------
    def authenticate(
        self, name: str, secret: str, *, client: str | None = None, known: bool = False
    ) -> StaffMember:
        """The staff member ``name`` if ``secret`` is their credential;
        :class:`~croupier.errors.AuthenticationError` otherwise (an unknown name, a removed
        member and a wrong credential read the same, and cost the same). The name is taken as
        :func:`croupier.names.login_name` makes it (NFC). Throttled
        (:mod:`croupier.progressive.login`): a member locked out, or a paced ``client`` address
        whose next turn has not come, is refused before the credential is looked at
        (:class:`~croupier.errors.LoginLockedError`); each failure is recorded. A controller
        halted for an integrity fault (:meth:`halted`: it could record no failure) refuses
        every login first (:class:`~croupier.errors.LedgerHaltedError`). ``known``: the
        caller recognised a terminal ``name`` logged in from before (the service: the terminal
        mark of their earlier login), which the address's pacing does not hold back — the member's own
        lockout still does. The member's role is the one the event log gives them."""
        name = login_name(name)
        halt = self.halted()  # before the credential: the same answer for right and wrong
        if halt is not None:
            raise halt
        unknown = login.name_key(name, self.key)  # the count of the name were it no member's
        keys = [login.member_key(name), unknown] + ([login.client_key(client)] if client else [])
        at = time.time()
        policy = self.login_policy
        with self.engine.connect() as conn:
            found = login.rows(conn, keys)
        login.refuse_if_locked(found, at, name, client if not known else None, policy, unknown)
        if client and not known:  # a paced address: this attempt takes its turn, or is refused
            login.take_turn(self.engine, found.get(login.client_key(client)), client, at, policy)
        with self.engine.connect() as conn:
            seq = conn.execute(STAFF_SEQ).scalar()
            roster = self._roster_at(conn, int(seq or 0))
            entry = roster.members.get(name)
            ok = check_credential(entry.credential if entry else _dummy_hash(), secret)
            if ok and entry is not None:
                entry = self._member(conn, name, roster)
        if ok and entry is not None:
            if login.member_key(name) in found or unknown in found:
                with self.engine.begin() as conn:
                    login.clear_member(conn, name, unknown)
            return StaffMember(name, entry.role, entry.since)
        # counted as of now, after the credential's check (an argon2 hash: up to a second on
        # a loaded machine), so a pace or a lockout runs from the answer, not from the asking
        self._failed(name, entry is not None, client, time.time(), paced=not known, unknown=unknown)
        raise AuthenticationError(
            f"{name!r} and that credential are not a staff member of the ledger"
        )

    def _failed(
        self,
        name: str,
        member: bool,
        client: str | None,
        at: float,
        *,
        paced: bool = True,
        unknown: str | None = None,
    ) -> None:
        """Record a failed login (and raise the lockout it starts); without the ledger key
        nothing can be recorded and the failure is what the caller sees."""
        try:
            with self._tx() as conn:
                # the chain head locked first, as every writer takes it: failures counted by
                # several processes at once are counted one after the other, none lost
                conn.execute(_LOCK_HEAD).first()
                locked = login.record_failure(
                    lambda c, drafts: self._append(c, None, drafts),
                    conn,
                    name=name,
                    member=member,
                    client=client,
                    now=at,
                    policy=self.login_policy,
                    paced=paced,
                    unknown=unknown,
                )
        except LedgerIntegrityError:
            raise
        except CroupierError:
            return
        if locked is not None:
            raise locked

    # -- the staff lifecycle ---------------------------------------------------------------
    def bootstrap(self, name: str, secret: str) -> StaffMember:
        """Create the first shift manager, once, on a ledger that has no staff
        (:class:`~croupier.errors.AuthenticationError` otherwise); they then add everyone
        else (:meth:`add_user`)."""
        name = check_name("a staff member", name)
        credential = hash_credential(secret)
        with self._tx() as conn:
            if self._roster(conn).names() or conn.execute(sa.select(t.staff.c.name)).first():
                raise AuthenticationError(
                    "the ledger has staff already: the bootstrap is once, on an empty ledger; a "
                    "shift manager adds staff (`croupier meters user`)"
                )
            self._insert_member(conn, name, Role.SHIFT_MANAGER, credential, name, bootstrap=True)
        return StaffMember(name, Role.SHIFT_MANAGER)

    def _shift_manager(self, by: str, what: str) -> None:
        """Refuse ``by`` unless a shift manager — before anything they typed is looked at."""
        with self.engine.connect() as conn:
            self._user(conn, by, Role.SHIFT_MANAGER, STAFF_SECTION, what)

    def add_user(self, name: str, role: Role, secret: str, *, by: str) -> StaffMember:
        """Add a staff member with a role and credential (a ``user`` event naming ``by``, who
        must be a shift manager, § 605a.7). Raises :class:`~croupier.errors.AuthorizationError`
        when ``by`` is not (before the credential is looked at),
        :class:`~croupier.errors.ConfusableNameError` if the name is, or reads as, one the
        staff ever had, :class:`~croupier.errors.AuthenticationError` for a credential too
        short."""
        name = check_name("a staff member", name)
        self._shift_manager(by, "adding staff")
        credential = hash_credential(secret)
        with self._tx() as conn:
            self._user(conn, by, Role.SHIFT_MANAGER, STAFF_SECTION, "adding staff")
            name = check_new("a staff member", name, self._roster(conn).names())
            self._insert_member(conn, name, role, credential, by)
        return StaffMember(name, role)

    def _insert_member(
        self,
        conn: Connection,
        name: str,
        role: Role,
        credential: str,
        by: str,
        *,
        bootstrap: bool = False,
    ) -> None:
        conn.execute(
            sa.insert(t.staff).values(
                name=name, role=role.value, added_at=now(), credential=credential
            )
        )
        # failures counted while the name was no member's are not the new member's
        login.clear_member(conn, name, login.name_key(login_name(name), self.key))
        detail: dict[str, Any] = {"user": name, "role": role.value, "credential": credential}
        if bootstrap:
            detail["bootstrap"] = True
        self._append(
            conn,
            None,
            [EventDraft(EventKind.USER, detail=detail)],
            actor=by,
            role=Role.SHIFT_MANAGER,
        )
        conn.info[TX_STATE].pop("staff", None)  # the next read sees the new member

    def _change(
        self, conn: Connection, kind: EventKind, name: str, by: str, as_: Role, **detail: Any
    ) -> None:
        """Append the staff event ``kind`` about ``name`` by ``by`` (as ``role``) and bring the
        staff row to what the log then says (deleted for a removal)."""
        self._append(
            conn, None, [EventDraft(kind, detail={"user": name, **detail})], actor=by, role=as_
        )
        st = conn.info[TX_STATE]
        st.pop("staff", None)
        st.pop("members", None)
        s = t.staff
        if kind is EventKind.USER_REMOVED:
            conn.execute(sa.delete(s).where(s.c.name == name))
        elif kind is EventKind.USER_ROLE:
            conn.execute(sa.update(s).where(s.c.name == name).values(role=detail["role"]))
        elif kind is EventKind.USER_CREDENTIAL:
            conn.execute(
                sa.update(s).where(s.c.name == name).values(credential=detail["credential"])
            )
            login.clear_member(conn, name)  # a new credential ends a lockout

    def _other(self, conn: Connection, name: str, by: str, what: str) -> tuple[Role, Role]:
        """``by``'s role (a shift manager's) and the role of the member ``name`` (both checked
        against their staff rows)."""
        by_role = self._user(conn, by, Role.SHIFT_MANAGER, STAFF_SECTION, what)
        return by_role, self._member(conn, name).role

    def _keep_a_shift_manager(self, conn: Connection, name: str, action: str) -> None:
        """Refuse ``action`` (``"removing 'sam'"``, ``"making 'sam' a pit-manager"``) on the
        ledger's only shift manager ``name``."""
        if self._roster(conn).shift_managers() == [name]:
            raise LedgerError(
                f"{action} would leave the ledger without a shift manager ({name!r} is the only "
                "one, and a shift manager manages staff): add or promote another first"
            )

    def remove_user(self, name: str, *, by: str) -> None:
        """Remove a member (a ``user-removed`` event naming ``by``, a shift manager, § 605a.7):
        they no longer log in or act, every token issued to them is refused; the history still
        names them, and their name is never given to another member. The last shift manager is
        not removed."""
        name = login_name(name)
        self._shift_manager(by, "removing staff")
        with self._tx() as conn:
            self._other(conn, name, by, "removing staff")
            self._keep_a_shift_manager(conn, name, f"removing {name!r}")
            self._change(conn, EventKind.USER_REMOVED, name, by, self._member(conn, by).role)

    def set_role(self, name: str, role: Role, *, by: str) -> StaffMember:
        """Change a member's role (a ``user-role`` event naming ``by``, a shift manager,
        § 605a.7, with the role before); every token issued to them before is refused."""
        name = login_name(name)
        self._shift_manager(by, "changing a role")
        with self._tx() as conn:
            by_role, before = self._other(conn, name, by, "changing a role")
            if before is role:
                raise LedgerError(f"{name!r} is {role.said} already")
            if before is Role.SHIFT_MANAGER:
                moving = "moving" if role is Role.ACCOUNTING else "making"
                to = "to accounting" if role is Role.ACCOUNTING else role.said
                self._keep_a_shift_manager(conn, name, f"{moving} {name!r} {to}")
            self._change(
                conn, EventKind.USER_ROLE, name, by, by_role, role=role.value, before=before.value
            )
        return StaffMember(name, role)

    def change_credential(
        self,
        name: str,
        new_secret: str,
        *,
        by: str,
        old_secret: str | None = None,
        client: str | None = None,
    ) -> None:
        """Set a member's credential (a ``user-credential`` event with the new hash): their own,
        ``by`` being ``name``, with the old one (``old_secret``, checked as a login is: throttled
        and recorded when wrong); anyone's, ``by`` being a shift manager. Every token issued to
        the member before is refused, and a lockout of the member ends."""
        name = login_name(name)
        own = by == name
        if own:
            if old_secret is None:
                raise AuthenticationError(
                    f"changing {name!r}'s own credential needs the old one as well"
                )
            self.authenticate(name, old_secret, client=client)
        else:
            self._shift_manager(by, "setting another member's credential")
        credential = hash_credential(new_secret)
        with self._tx() as conn:
            if own:
                role = self._member(conn, by).role
            else:
                role, _ = self._other(conn, name, by, "setting another member's credential")
            self._change(
                conn, EventKind.USER_CREDENTIAL, name, by, role, credential=credential, own=own
            )

    def logout(self, name: str) -> None:
        """End every session of ``name`` (a ``logout`` event by them): every token issued to
        them before is refused."""
        with self._tx() as conn:
            role = self._member(conn, name).role
            self._change(conn, EventKind.LOGOUT, name, name, role)

    def users(self) -> list[StaffMember]:
        """Every staff member, by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.staff).order_by(t.staff.c.name)).all()
        return [StaffMember(r.name, Role(r.role)) for r in rows]

    def removed_users(self) -> list[str]:
        """The names of the members removed, in the order they were."""
        with self.engine.connect() as conn:
            return list(self._roster(conn).removed)


__all__ = ["STAFF_SECTION", "STAFF_SEQ", "StaffLedger"]
