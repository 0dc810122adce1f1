"""The durable ledger of the progressive table game system (58 Pa. Code § 605a.7, § 605a.8,
§ 633b.2(d)–(h), § 633b.3(d)–(h)).

A :class:`Ledger` is a database (SQLite file by default, PostgreSQL by URL) holding progressives,
their linked tables, authenticated staff with roles, and an append-only, HMAC-chained event log
from which every meter, award, round and settlement is replayed exactly (:meth:`Ledger.replay`,
:meth:`Ledger.audit`). :meth:`Ledger.system` gives the procedure for one progressive
(:class:`~croupier.progressive.rounds.ProgressiveSystem`): accept wagers until the lock-out,
verify the chips, settle a round in one transaction under an idempotency key, and validate
pending awards — every payment taken from the award's event, never from an editable row.

The modules: :mod:`~croupier.progressive.store` (database, engine, ledger key, the chain's mac),
:mod:`~croupier.progressive.core` (transactions, the chained log, staff, progressives),
:mod:`~croupier.progressive.records` (what the ledger returns),
:mod:`~croupier.progressive.rounds` (the round procedure), :mod:`~croupier.progressive.audit`
(the audit) and :mod:`~croupier.progressive.verifying` (verify, checkpoints).

Concurrency: every write locks the progressive's row and the chain head (``SELECT … FOR UPDATE``
on PostgreSQL; SQLite transactions begin ``IMMEDIATE``, one writer at a time), so linked tables
settling at once are serialised and no increment is lost. A failure anywhere inside a write rolls
the whole transaction back: the ledger is as before the operation, never between.

Callers name the acting staff member ``by`` after authenticating them
(:meth:`Ledger.authenticate`; the ``croupier`` commands ask for the credential): the ledger
checks the member's role, from its log, against the rule of each operation.

>>> from croupier.paytables import builtin_paytables
>>> from croupier.progressive import Ledger, ProgressiveDefinition, QualifyingHand, Role
>>> ledger = Ledger("sqlite://")
>>> ledger.bootstrap("sam", "sam's passphrase")
StaffMember(name='sam', role=<Role.SHIFT_MANAGER: 'shift-manager'>)
>>> t = builtin_paytables().get("633b.3", "1", 6)
>>> _ = ledger.create_progressive(
...     ProgressiveDefinition.from_paytable(t, decks=6, wager_cents=500, name="mtd-5"),
...     tables=["BJ-1"], by="sam")
>>> _ = ledger.add_user("dana", Role.DEALER, "4711", by="sam")
>>> _ = ledger.add_user("flo", Role.FLOORPERSON, "flo's pin", by="sam")
>>> flo = ledger.authenticate("flo", "flo's pin")
>>> mtd = ledger.system("mtd-5")
>>> _ = mtd.accept_wagers("r1", "BJ-1", [1, 2], by="dana")
>>> mtd.lock_out("r1", by="dana"); mtd.verify_chips("r1", 2, by="dana")
<RoundStatus.VERIFIED: 'verified'>
>>> s = mtd.settle_round("r1", [QualifyingHand(2, "two-suited-match")],
...                      idempotency_key="BJ-1/r1", by="dana")
>>> [(a.position, a.amount_cents, a.status.value) for a in s.awards]
[(2, 50015, 'pending')]
>>> ledger.validate(s.awards[0].id, by=flo.name).status
<AwardStatus.PAID: 'paid'>
>>> ledger.audit().chain_checked
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import (
    AmountLimitError,
    AuthorizationError,
    InputError,
    LedgerError,
    LedgerIntegrityError,
    RoundStateError,
    cite,
)
from croupier.paytables import MeterLevel
from croupier.progressive.audit import AuditReport
from croupier.progressive.configuration import (
    CONFIGURATION_RULE,
    RECONFIGURATION_RULE,
    ConfigurationCheck,
    ledger_check,
)
from croupier.progressive.core import FaultHook
from croupier.progressive.meters import (
    Delta,
    EventDraft,
    LevelState,
    PendingAward,
    Replayer,
    payment_events,
    void_delta,
)
from croupier.progressive.meterset import ProgressiveMeters, meter_set, stored_meter_set
from croupier.progressive.model import (
    AWARD_RULES,
    MICROS_PER_CENT,
    VOID_RULE,
    VOIDING,
    AwardKind,
    AwardStatus,
    EventKind,
    ProgressiveDefinition,
    Role,
    format_micros,
)
from croupier.progressive.records import (
    Award,
    LedgerEvent,
    ProgressiveStatus,
    replay_awards,
    stored_event,
)
from croupier.progressive.report import Reconciliation, reconcile
from croupier.progressive.rounds import ProgressiveSystem
from croupier.progressive.significant import (
    Session,
    end_session,
    self_check,
    start_session,
)
from croupier.progressive.store import default_url, read_rows
from croupier.progressive.totals import read_levels, read_meter_set
from croupier.progressive.verifying import VerifyingLedger
from croupier.units import MAX_CENTS, format_money

__all__ = ["FaultHook", "Ledger", "check_adjusted", "default_url"]

ADJUSTMENT_RULE = "605a.7(a)(6)"
"""The rule of a manual adjustment of a meter: no alteration but an authorised one."""


def check_adjusted(level: MeterLevel, after: LevelState, d: Delta | None = None) -> None:
    """Refuse an adjustment ``d`` that would leave ``level`` at ``after``, saying which condition
    it breaks: the meter or the reserve raised above croupier's money maximum
    (:data:`~croupier.units.MAX_CENTS`: an :class:`AmountLimitError` naming it, 422 over HTTP —
    a person sets no amount above it; growth by increments may pass it, and an adjustment
    that lowers a meter so grown is always taken); the meter not above $0, the meter below what
    it holds for pending awards, the reserve below $0 — a :class:`LedgerError` (a conflict with
    what the ledger holds, 409 over HTTP). Both cite the adjustment's rule, § 605a.7(a)(6)."""
    top = MAX_CENTS * MICROS_PER_CENT
    raised = [
        f"the {level.value} {what} at {format_micros(value)}"
        for what, value, by in (
            ("meter", after.meter, d.meter if d else 0),
            ("reserve", after.reserve, d.reserve if d else 0),
        )
        if by > 0 and value > top
    ]
    if raised:
        exc = AmountLimitError(
            cite(
                f"the adjustment would leave {' and '.join(raised)}, over croupier's limit "
                f"({format_money(MAX_CENTS)}, the largest amount a person sets; a meter only "
                "grows past it by increments)",
                ADJUSTMENT_RULE,
            ),
            format_money(MAX_CENTS),
        )
        exc.section = ADJUSTMENT_RULE
        raise exc
    broken = []
    if after.meter <= 0:
        broken.append(f"the {level.value} meter at {format_micros(after.meter)}, not above $0")
    elif after.available < 0:
        broken.append(
            f"the {level.value} meter at {format_micros(after.meter)}, below the "
            f"{format_micros(after.held)} it holds for pending awards"
        )
    if after.reserve < 0:
        broken.append(f"the {level.value} reserve at {format_micros(after.reserve)}, below $0")
    if broken:
        raise LedgerError(
            f"the adjustment would leave {' and '.join(broken)}", section=ADJUSTMENT_RULE
        )


_LINKED = (
    sa.select(t.progressives.c.id, t.progressives.c.name, t.progressives.c.definition)
    .add_columns(t.progressives.c.suspended)
    .join(t.linked_tables, t.linked_tables.c.progressive_id == t.progressives.c.id)
    .where(t.linked_tables.c.table_id == sa.bindparam("b_table"))
    .order_by(t.progressives.c.id)
)
"""A table's linked progressives (:meth:`Ledger.linked_progressives`), built once: read for every
round the service settles."""


def _award_id(award_id: object) -> None:
    """Refuse an award id that is not a whole number (``True`` would be award 1)."""
    if type(award_id) is not int:
        raise InputError(f"an award id is a whole number, not {award_id!r}")


Decided = Callable[[Connection, Award], None]
"""What a caller writes with a decision on an award (:meth:`Ledger.validate`,
:meth:`Ledger.void_award`), in the ledger's transaction, given the award as decided: the
service's record of the request's ``Idempotency-Key`` and its answer, so that the decision and
the record commit together — a crash leaves both or neither."""


class Ledger(VerifyingLedger):
    """The progressive ledger in one database.

    ``url`` is a SQLAlchemy URL (``sqlite:///path``, ``sqlite://`` in memory,
    ``postgresql+psycopg://user@host/db``) or a SQLite file path; by default
    :func:`~croupier.progressive.store.default_url`. With ``migrate`` (the default) the schema is
    created or upgraded on open; without it a database not at the package's revision is a
    :class:`~croupier.errors.LedgerIntegrityError`. ``key_file`` (or ``key``) is the ledger key
    chaining the events; by default :func:`~croupier.progressive.store.default_key_file`, created
    with the ledger. ``fault_hook`` is called at named stages inside write transactions (for
    crash-injection tests).
    """

    _session: Session | None = None
    startup: tuple[AuditReport, list[ConfigurationCheck]] | None = None
    """What :meth:`open`'s self-check found (``None`` for a ledger opened without it)."""

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        submission_sha256: str | None = None,
        table: str | None = None,
        actor: str | None = None,
        **kwargs: Any,
    ) -> Ledger:
        """Open the ledger for play, as a controller starts up: a session of its own, the
        start-up self-check — the whole ledger verified (:meth:`audit`), every progressive's
        running configuration compared with its approved digests (``submission_sha256``: the
        digest of the Rules Submission this process runs under), a crashed earlier session
        recovered — each recorded as a significant event
        (:mod:`~croupier.progressive.significant`). A ledger that fails verification is not
        opened (:class:`~croupier.errors.LedgerIntegrityError`, after it is recorded); a
        progressive whose configuration differs is opened but refuses play
        (:class:`~croupier.errors.ConfigurationMismatchError`). :meth:`close` records the
        session's shutdown. ``kwargs`` are those of :class:`Ledger`."""
        ledger = cls(url, submission_sha256=submission_sha256, **kwargs)
        session = start_session(ledger)
        try:
            ledger.startup = self_check(ledger, ledger.audit, session, table=table, actor=actor)
        except BaseException:
            end_session(ledger, session)
            ledger.close()
            raise
        ledger._session = session
        return ledger

    def close(self) -> None:
        """Record the shutdown of a session :meth:`open` started, then release the database."""
        session, self._session = self._session, None
        if session is not None:
            end_session(self, session)
        super().close()

    def check_configuration(self, progressive: str) -> ConfigurationCheck:
        """The approved and running configuration digests of ``progressive``
        (:mod:`~croupier.progressive.configuration`)."""
        return ledger_check(self, self.definition(progressive))

    def create_progressive(
        self,
        definition: ProgressiveDefinition,
        *,
        tables: Sequence[str] = (),
        by: str,
    ) -> ProgressiveStatus:
        """Create a progressive with its levels at their seeds (``seed`` events) and link
        ``tables`` to it; ``by`` is a shift manager. Raises :class:`LedgerError` if the name is
        taken."""
        with self._tx() as conn:
            self._create(conn, definition, tables, by)
        return self.status(definition.name)

    def system(self, progressive: str) -> ProgressiveSystem:
        """The procedure for one progressive (checks that it exists). Its configuration check is
        made here, once per process (the running paytable's digest), not in its first round."""
        ledger_check(self, self.definition(progressive))
        return ProgressiveSystem(self, progressive)

    # -- awards ----------------------------------------------------------------------------
    def _logged_award(self, conn: Connection, pid: int, progressive: str, award_id: int) -> Award:
        """The award as its events made it: what is paid, whatever its row says (its number
        aside: the row's, which ``verify`` holds to the log's ids and kinds)."""
        self._flush(conn)
        e = t.ledger_events
        rows = conn.execute(
            sa.select(e)
            .where(e.c.award_id == award_id, e.c.progressive_id == pid)
            .order_by(e.c.seq)
        )
        events = [stored_event(r) for r in rows]
        number = conn.execute(
            sa.select(t.awards.c.number).where(t.awards.c.id == award_id)
        ).scalar()
        numbers = {award_id: int(number)} if number is not None else {}
        a = replay_awards(progressive, events, numbers).get(award_id)
        if a is None:
            raise LedgerIntegrityError(
                f"award {award_id} has a row but no award event: run `croupier meters verify`"
            )
        return a

    def validate(self, award_id: int, *, by: str, after: Decided | None = None) -> Award:
        """Validate a pending share award and pay it (§ 633b.2(h)(3)–(4), § 633b.3(h)(3)–(4)).

        ``by`` must be a floorperson or above (:class:`~croupier.errors.AuthorizationError`
        otherwise). One transaction records the validation, the payment out of the level and —
        after a 100% award, when the progressive resets on validation — the reset, funded as the
        definition's reseed funding says. Odds and envy pays need no validation; validating one,
        or an award already paid or voided, is a :class:`~croupier.errors.RoundStateError`.
        ``after`` (:data:`Decided`) writes its own rows in the same transaction.
        """
        _award_id(award_id)
        with self._tx() as conn:
            pid, defn, a, role = self._pending(
                conn, award_id, by, "(h)(3)", "validating a progressive payout"
            )
            assert a.level is not None and a.share is not None
            levels = self._levels(conn, pid)
            drafts, paid = payment_events(
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
            self._store_levels(conn, pid, levels, {a.level: paid})
            return self._decided(conn, pid, a, AwardStatus.PAID, by, after, "validation-commit")

    def void_award(
        self, award_id: int, *, by: str, reason: str, after: Decided | None = None
    ) -> Award:
        """Void a pending share award the floorperson found not to be a winning hand
        (§ 633b.2(h)(1)): its held amount is released to the meter (an ``adjustment`` event).
        A floorperson or above voids it, as one validates it (the regulation says who validates,
        (h)(3), not who voids); a dealer is refused citing the paragraph a void answers to,
        (h)(1) (:data:`VOID_RULE`). ``after`` as :meth:`validate`'s."""
        _award_id(award_id)
        if not reason.strip():
            raise InputError("voiding an award needs a reason")
        with self._tx() as conn:
            pid, defn, a, role = self._pending(conn, award_id, by, VOID_RULE, VOIDING)
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
            self._fault("void")
            self._store_levels(conn, pid, levels, {a.level: levels[a.level].apply(d)})
            return self._decided(conn, pid, a, AwardStatus.VOIDED, by, after, "void-commit")

    def _pending(
        self, conn: Connection, award_id: int, by: str, paragraph: str, what: str
    ) -> tuple[int, ProgressiveDefinition, Award, Role]:
        """The pending award ``award_id`` (its progressive's row locked, then its own) as the log
        makes it, for ``by`` to decide as ``paragraph`` says (``what``: the refusal's words):
        ``(pid, definition, award, by's role)``; :meth:`validate` and :meth:`void_award`."""
        self._may_decide(conn, by, paragraph, what)
        a = self._award_by_id(conn, award_id)
        pid, defn = self._definition(conn, a.progressive, lock=True)
        self._award_by_id(conn, award_id, lock=True)
        a = self._logged_award(conn, pid, a.progressive, award_id)
        role = self._user(conn, by, Role.FLOORPERSON, defn.rule(paragraph), what)
        self._check_pending(a)
        return pid, defn, a, role

    def _decided(
        self,
        conn: Connection,
        pid: int,
        a: Award,
        status: AwardStatus,
        by: str,
        after: Decided | None,
        fault: str,
    ) -> Award:
        """Mark the award ``a`` ``status`` by ``by`` and read it back as the log makes it; then
        ``after``'s rows and the fault point ``fault`` before the commit."""
        conn.execute(
            sa.update(t.awards)
            .where(t.awards.c.id == a.id)
            .values(status=status.value, validated_by=by)
        )
        done = self._logged_award(conn, pid, a.progressive, a.id)
        if after is not None:
            after(conn, done)
        self._fault(fault)
        return done

    def _may_decide(self, conn: Connection, by: str, paragraph: str, what: str) -> None:
        """Refuse ``by`` before the award is looked up unless a floorperson or above may decide
        awards (:data:`~croupier.progressive.model.AWARD_RULES` cited: the award's own
        progressive is not known yet), so a member who may not decide one learns nothing of
        which award ids exist — the same answer for an award that exists and one that does
        not, in the CLI as over HTTP (docs/interpretations.md, *What a role can learn*)."""
        section, also = AWARD_RULES[paragraph]
        try:
            self._user(conn, by, Role.FLOORPERSON, section, what)
        except AuthorizationError as exc:
            raise AuthorizationError(exc.reason, section=section, also=also) from None

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
        (authenticated) must be a pit manager or above and give a reason; the level may not go below what is
        held for pending awards, nor the reserve below zero. Each amount is at most croupier's
        limit either way (:class:`~croupier.errors.AmountLimitError`), and the level's meters
        within their columns (:class:`~croupier.errors.MeterLimitError`)."""
        if not reason.strip():
            raise InputError("an adjustment needs a reason")
        for what, cents in (("meter", meter_cents), ("reserve", reserve_cents)):
            if abs(cents) > MAX_CENTS:  # croupier's one limit on an amount (units.MAX_CENTS)
                top = format_money(MAX_CENTS)
                raise AmountLimitError(
                    f"an adjustment of the {what} by {format_money(cents)} is over croupier's "
                    f"limit ({top} either way)",
                    top,
                )
        with self._tx() as conn:
            pid, defn = self._definition(conn, progressive, lock=True)
            defn.level(level)
            role = self._user(conn, by, Role.PIT_MANAGER, "605a.7(a)(6)", "adjusting a meter")
            levels = self._levels(conn, pid)
            d = Delta(meter=meter_cents * MICROS_PER_CENT, reserve=reserve_cents * MICROS_PER_CENT)
            after = levels[level].apply(d)
            check_adjusted(level, after, d)
            self._append(
                conn,
                pid,
                [EventDraft(EventKind.ADJUSTMENT, level, d, detail={"reason": reason.strip()})],
                actor=by,
                role=role,
            )
            self._store_levels(conn, pid, levels, {level: after})
            return after

    # -- reconfiguration (NY 9 NYCRR 5321.18(b)(4), N.J.A.C. 13:69E-1.39C) ------------------
    def _set_suspended(
        self, progressive: str, suspended: bool, by: str, detail: dict[str, Any]
    ) -> None:
        with self._tx() as conn:
            pid, _ = self._definition(conn, progressive, lock=True)
            what = "suspending a progressive" if suspended else "resuming a progressive"
            role = self._user(conn, by, Role.PIT_MANAGER, "605a.7", what)
            now_suspended = bool(
                conn.execute(
                    sa.select(t.progressives.c.suspended).where(t.progressives.c.id == pid)
                ).scalar_one()
            )
            if now_suspended == suspended:
                state = "suspended" if suspended else "in play"
                raise RoundStateError(f"progressive {progressive!r} is {state} already")
            kind = EventKind.SUSPEND if suspended else EventKind.RESUME
            self._append(conn, pid, [EventDraft(kind, detail=detail)], actor=by, role=role)
            self._fault(kind.value)
            conn.execute(
                sa.update(t.progressives)
                .where(t.progressives.c.id == pid)
                .values(suspended=suspended)
            )
            self._fault(f"{kind.value}-commit")

    def suspend(self, progressive: str, *, by: str, reason: str) -> None:
        """Take the progressive's link out of play before a reconfiguration: no wager is
        accepted at any of its tables until :meth:`resume` (a pit manager or above; a
        ``suspend`` event with the reason)."""
        if not reason.strip():
            raise InputError("suspending a progressive needs a reason")
        self._set_suspended(progressive, True, by, {"reason": reason.strip()})

    def resume(self, progressive: str, *, by: str) -> None:
        """Put a suspended progressive back in play (a pit manager or above; a ``resume``
        event)."""
        self._set_suspended(progressive, False, by, {})

    def is_suspended(self, progressive: str) -> bool:
        """Whether the progressive is suspended (no play)."""
        with self.engine.connect() as conn:
            pid, _ = self._definition(conn, progressive, lock=False)
            return bool(
                conn.execute(
                    sa.select(t.progressives.c.suspended).where(t.progressives.c.id == pid)
                ).scalar_one()
            )

    def suspension(self, progressive: str) -> LedgerEvent | None:
        """The ``suspend`` event that took the progressive out of play (who, when, the
        reason in its ``detail``), or ``None`` when it is in play — two indexed reads."""
        with self.reader.connect() as conn:
            pid, _ = self._definition(conn, progressive, lock=False)
            p, e = t.progressives, t.ledger_events
            if not conn.execute(sa.select(p.c.suspended).where(p.c.id == pid)).scalar_one():
                return None
            row = conn.execute(
                sa.select(e)
                .where(e.c.progressive_id == pid, e.c.kind == EventKind.SUSPEND.value)
                .order_by(e.c.seq.desc())
                .limit(1)
            ).first()
        return None if row is None else LedgerEvent(progressive, stored_event(row), row.created_at)

    def linked_progressives(self, table: str) -> list[tuple[ProgressiveDefinition, bool]]:
        """Every progressive linked to ``table`` (§ 605a.8), oldest first, each with whether it
        is suspended — one read, without the writer lock (a link is never removed; the ledger
        checks the link and the suspension again under its lock when a round is fed)."""
        found = []
        for pid, name, definition, suspended in read_rows(self.reader, _LINKED, {"b_table": table}):
            cached = self._defs.get(name)
            if cached is None or cached[0] != pid or cached[1] != definition:
                cached = (pid, definition, ProgressiveDefinition.from_json(definition))
                self._defs[name] = cached
            found.append((cached[2], bool(suspended)))
        return found

    def reconfigure(
        self,
        progressive: str,
        *,
        by: str,
        approval: str,
        seeds_cents: Mapping[MeterLevel, int] | None = None,
        rates: Mapping[MeterLevel, tuple[Fraction, Fraction]] | None = None,
        limits_cents: Mapping[MeterLevel, int | None] | None = None,
        suspend_with: str = "`croupier meters suspend`",
    ) -> ProgressiveDefinition:
        """Change a suspended progressive's parameters — levels' seed/reset amount, primary and
        secondary increment rates, limit — by a recorded reconfiguration (NY 9 NYCRR
        5321.18(b)(4), N.J.A.C. 13:69E-1.39C): ``by`` is a shift manager, ``approval`` the
        reference of the approval (a change ticket, a regulator's letter); one ``reconfigure``
        event records who, when, the old and new definitions and the approval. The meters are
        not moved: a new seed applies from the next reset, a new rate from the next wager, a new
        limit to the next contribution. A progressive in play is refused
        (:class:`~croupier.errors.RoundStateError`: suspend it first, ``suspend_with`` — the
        CLI's command, or the service's route)."""
        if not approval.strip():
            raise InputError("a reconfiguration needs the reference of its approval")
        with self._tx() as conn:
            pid, defn = self._definition(conn, progressive, lock=True)
            role = self._user(conn, by, Role.SHIFT_MANAGER, "605a.7", "reconfiguring a progressive")
            suspended = conn.execute(
                sa.select(t.progressives.c.suspended).where(t.progressives.c.id == pid)
            ).scalar_one()
            if not suspended:
                raise RoundStateError(
                    f"progressive {progressive!r} is in play: suspend it first ({suspend_with}); "
                    "a parameter changes only by a reconfiguration of a suspended link",
                    section=CONFIGURATION_RULE,
                    also=RECONFIGURATION_RULE,
                )
            for given in (seeds_cents, rates, limits_cents):
                for named in given or {}:
                    defn.level(named)
            levels = []
            changes: dict[str, dict[str, list[Any]]] = {}
            for lv in defn.levels:
                new = replace(
                    lv,
                    seed_cents=(seeds_cents or {}).get(lv.level, lv.seed_cents),
                    primary_rate=(rates or {}).get(lv.level, (lv.primary_rate, None))[0],
                    secondary_rate=(rates or {}).get(lv.level, (None, lv.secondary_rate))[1],
                    limit_cents=(limits_cents or {}).get(lv.level, lv.limit_cents),
                )
                for f in ("seed_cents", "primary_rate", "secondary_rate", "limit_cents"):
                    old_v, new_v = getattr(lv, f), getattr(new, f)
                    if old_v != new_v:
                        shown = [str(v) if isinstance(v, Fraction) else v for v in (old_v, new_v)]
                        changes.setdefault(lv.level.value, {})[f] = shown
                levels.append(new)
            if not changes:
                raise LedgerError("the reconfiguration changes nothing")
            after = replace(defn, levels=tuple(levels))
            self._append(
                conn,
                pid,
                [
                    EventDraft(
                        EventKind.RECONFIGURE,
                        detail={
                            "before": defn.to_json(),
                            "after": after.to_json(),
                            "approval": approval.strip(),
                            "changes": changes,
                        },
                    )
                ],
                actor=by,
                role=role,
            )
            self._fault("reconfigure")
            conn.execute(
                sa.update(t.progressives)
                .where(t.progressives.c.id == pid)
                .values(definition=after.to_json())
            )
            self._fault("reconfigure-commit")
            return after

    # -- audit -----------------------------------------------------------------------------
    def history(
        self, progressive: str | None = None, limit: int | None = None, *, significant: bool = True
    ) -> list[LedgerEvent]:
        """Events in ledger order (of one progressive, or all); the last ``limit`` if given.
        ``significant=False`` leaves the significant events out: they name members and client
        addresses, and only a shift manager or an auditor reads them
        (:data:`~croupier.progressive.significant.READER`), so the views open to other roles —
        ``croupier meters --history``, ``GET /progressives/{name}/history`` — ask without."""
        with self.engine.connect() as conn:
            e = t.ledger_events
            q = sa.select(e, t.progressives.c.name).outerjoin(
                t.progressives, t.progressives.c.id == e.c.progressive_id
            )
            if progressive is not None:
                pid, _ = self._definition(conn, progressive, lock=False)
                q = q.where(e.c.progressive_id == pid)
            if not significant:
                q = q.where(e.c.kind != EventKind.SIGNIFICANT.value)
            rows: list[Any]
            if limit is not None:
                q = q.order_by(e.c.seq.desc()).limit(limit)
                rows = list(reversed(conn.execute(q).all()))
            else:
                rows = list(conn.execute(q.order_by(e.c.seq)).all())
        return [LedgerEvent(r.name, stored_event(r), r.created_at) for r in rows]

    def replay(self, progressive: str) -> dict[MeterLevel, LevelState]:
        """Every level of ``progressive`` rebuilt from its events alone, each event checked
        against the definition (:class:`~croupier.progressive.meters.Replayer`)."""
        with self.engine.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            events = list(self._events(conn, pid))
            return Replayer.for_log(defn, events).run(events)

    def meters(self, progressive: str) -> ProgressiveMeters:
        """The § 605a.7(a) meters of ``progressive`` as the ledger keeps them: its level rows
        and running totals (:mod:`~croupier.progressive.totals`), a few indexed reads however
        long the log, read without the writer lock. :meth:`replay_meters` makes them from the log
        instead; ``verify`` checks the two agree. :class:`~croupier.errors.LedgerLookupError` for
        an unknown name."""
        with self.reader.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            return read_meter_set(conn, pid, defn)

    def snapshot(self, progressive: str) -> tuple[ProgressiveStatus, ProgressiveMeters]:
        """:meth:`status` and :meth:`meters` of ``progressive`` from one read snapshot (the
        level rows read once: the status's levels are the meters' own), what ``croupier meters``
        and ``GET /progressives/{name}`` show; read without the writer lock, in a few indexed
        reads however long the log. :class:`~croupier.errors.LedgerLookupError` for an unknown
        name."""
        with self.reader.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            states, totals = read_levels(conn, pid)
            return self._status(conn, pid, defn, states), stored_meter_set(defn, states, totals)

    def replay_meters(self, progressive: str) -> ProgressiveMeters:
        """The § 605a.7(a) meters of ``progressive`` replayed from its events alone, each event
        checked against the definition (:func:`~croupier.progressive.meterset.meter_set`): the
        audit's view, whose cost grows with the log; :meth:`meters` reads the same figures as
        kept. :class:`~croupier.errors.LedgerIntegrityError` for an event the definition does not
        make."""
        with self.engine.connect() as conn:
            pid, defn = self._definition(conn, progressive, lock=False)
            events = list(self._events(conn, pid))
        return meter_set(defn, Replayer.for_log(defn, events).run(events), events)

    def reconcile(
        self, progressive: str, start: datetime | None = None, end: datetime | None = None
    ) -> Reconciliation:
        """The reconciliation of ``progressive`` over ``[start, end)``
        (:func:`~croupier.progressive.report.reconcile`)."""
        events = [(e.event, e.created_at) for e in self.history(progressive)]
        return reconcile(self.definition(progressive), events, start, end)
