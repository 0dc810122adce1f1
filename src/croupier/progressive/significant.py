"""Significant events of the progressive controller, on the ledger.

GLI-13-derived controller rules — N.J.A.C. 13:69D-1.52 and NY 9 NYCRR 5320.8, as issue 15 cites
them; PA's § 605a.7 text is not in the seeds — have a progressive controller log what happens to
it beside its meters: its start-up self-check, a failure of its verification, a running
configuration that differs from the approved one, and its recovery after a crash. Each is a
``significant`` event in the ledger's chained log (:attr:`~croupier.progressive.EventKind.
SIGNIFICANT`), with the table id, a code (:class:`~croupier.progressive.SignificantCode`), the
time and the actor (a staff member, or none for the controller itself), its detail in the event.

Sessions and crashes. :meth:`Ledger.open <croupier.progressive.Ledger.open>` starts a *session*:
it takes an exclusive lock on a file of its own beside the ledger key (``<key>.sessions/<id>``),
checks the whole ledger (:meth:`~croupier.progressive.Ledger.audit`) and every progressive's
configuration, and records a ``startup-self-check`` naming the session; closing the ledger
records ``shutdown``. A session whose start-up has no shutdown and whose lock no process holds
any more ended in a crash (the operating system releases a killed process's lock): the next
:meth:`~croupier.progressive.Ledger.open` replays the log — every meter, award, round and
settlement rebuilt from the events and compared with the tables — and records a
``crash-recovery`` naming the crashed session and the exact state the replay reached (the last
event committed before the crash, each level's meters), which is the state before the crash:
a write transaction the crash interrupted left nothing (it rolled back).

Recording a significant event is itself a write; when the ledger refuses writes (no ledger key,
the chain head's copy ahead of the log) the event cannot be recorded and the check's own error
is what the caller sees.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

import croupier.progressive.schema as t
from croupier.errors import AuthorizationError, CroupierError, LedgerIntegrityError
from croupier.progressive.checkpoint import checkpoint_dir, write_to
from croupier.progressive.configuration import ConfigurationCheck, ledger_check
from croupier.progressive.meters import EventDraft, LevelState
from croupier.progressive.model import EventKind, Role, SignificantCode
from croupier.progressive.store import make_dirs

if TYPE_CHECKING:
    from croupier.paytables import MeterLevel
    from croupier.progressive.audit import AuditReport
    from croupier.progressive.core import LedgerBase


READER = Role.SHIFT_MANAGER
"""Who reads the significant events: a shift manager (or above), and an auditor, who reads
everything a shift manager reads (:meth:`Role.may_read <croupier.progressive.Role.may_read>`) —
the readers of the staff roster. The events are the controller's audit log: besides the
self-checks, recoveries and configuration mismatches they hold every failed login and lockout
with the member's name and the client's address, which NIST SP 800-53 AU-9(4) keeps to a subset
of privileged users (docs/interpretations.md, *Who reads the significant events*)."""

READER_SECTION = "605a.7"
"""The section a refused reader is cited: the system's internal controls (as the roster's)."""

READER_RULE = "NIST SP 800-53 AU-9(4)"
"""The control the choice of :data:`READER` follows (protection of audit information: access
by a subset of privileged users)."""

READING = "reading the significant events"


def check_reader(name: str, role: Role) -> None:
    """Refuse member ``name`` of ``role`` the significant events unless the role reads what a
    :data:`READER` reads (:class:`~croupier.errors.AuthorizationError` citing
    :data:`READER_SECTION` and :data:`READER_RULE`) — ``croupier meters events`` and ``GET
    /significant-events`` alike."""
    if not role.may_read(READER):
        only = " (a role that reads and changes nothing)" if role.read_only else ""
        raise AuthorizationError(
            f"{name} is {role.said}{only}; {READING} needs {READER.who_may(reading=True)}",
            section=READER_SECTION,
            also=READER_RULE,
        )


def record(
    ledger: LedgerBase,
    code: SignificantCode,
    *,
    progressive: str | None = None,
    table: str | None = None,
    actor: str | None = None,
    detail: Mapping[str, Any] | None = None,
) -> None:
    """Append one significant event (in a transaction of its own). ``actor`` is a staff member
    (their role is recorded with it) or ``None`` for the controller itself."""
    with ledger._tx() as conn:
        pid = None
        if progressive is not None:
            pid, _ = ledger._definition(conn, progressive, lock=False)
        role = ledger._member(conn, actor)[0] if actor is not None else None
        draft = EventDraft(EventKind.SIGNIFICANT, detail={"code": code.value, **(detail or {})})
        ledger._append(conn, pid, [draft], table_id=table, actor=actor, role=role)
        ledger._fault("significant")


def try_record(ledger: LedgerBase, code: SignificantCode, **kw: Any) -> bool:
    """:func:`record`, or ``False`` when the ledger refuses the write (see the module
    docstring): a failure being reported is not hidden by a second one."""
    try:
        record(ledger, code, **kw)
    except CroupierError:
        return False
    return True


def log_mismatch(
    ledger: LedgerBase,
    check: ConfigurationCheck,
    *,
    table: str | None = None,
    actor: str | None = None,
    once: bool = True,
) -> None:
    """Record a ``configuration-mismatch`` for ``check`` — with ``once``, only the first time
    this ledger object meets that mismatch (a table refused round after round logs it once)."""
    key = ("logged", check)
    if once and key in ledger._configuration:
        return
    if try_record(
        ledger,
        SignificantCode.CONFIGURATION_MISMATCH,
        progressive=check.progressive,
        table=table,
        actor=actor,
        detail=check.detail(),
    ):
        ledger._configuration[key] = True


def configuration_checks(ledger: LedgerBase) -> list[ConfigurationCheck]:
    """The configuration check of every progressive on the ledger."""
    return [ledger_check(ledger, ledger.definition(name)) for name in ledger.names()]


def levels_digest(levels: Mapping[MeterLevel, LevelState]) -> str:
    """SHA-256 of a progressive's replayed level states (every meter of every level), as
    canonical JSON: what a recovery records of the state it reached."""
    data = {
        lv.value: [s.meter, s.reserve, s.held, s.wagered_cents, s.paid_cents, s.hits]
        for lv, s in sorted(levels.items(), key=lambda kv: kv[0].value)
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# -- sessions --------------------------------------------------------------------------------
def sessions_dir(ledger: LedgerBase) -> Path | None:
    """Where the sessions' lock files live, beside the ledger key; ``None`` in memory."""
    kf = ledger.key_file
    return None if kf is None else kf.with_name(kf.name + ".sessions")


@dataclass(frozen=True)
class Session:
    """An open session of :meth:`~croupier.progressive.Ledger.open` (its id and lock)."""

    id: str
    fd: int | None


def _take_lock(path: Path) -> int | None:
    """An exclusive lock on ``path`` (created), or ``None`` when another process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def start_session(ledger: LedgerBase) -> Session:
    """A new session, its lock file taken (none in memory)."""
    sid = uuid.uuid4().hex
    d = sessions_dir(ledger)
    if d is None:
        return Session(sid, None)
    make_dirs(d, "the ledger's session locks")
    return Session(sid, _take_lock(d / sid))


def crashed_sessions(ledger: LedgerBase) -> list[tuple[str, int, Mapping[str, Any], int]]:
    """Sessions the log shows started and never closed or recovered, whose lock no process
    holds: (session id, seq of its start-up, its start-up's detail, the lock now held by this
    process until the recovery is recorded). A session without its lock file was recovered
    (or is being recovered) by another process: the file is made before the start-up is
    recorded and removed only after its shutdown or recovery."""
    d = sessions_dir(ledger)
    if d is None:
        return []
    started: dict[str, tuple[int, Mapping[str, Any]]] = {}
    ended: set[str] = set()
    e = t.ledger_events
    q = sa.select(e.c.seq, e.c.detail).where(e.c.kind == EventKind.SIGNIFICANT.value)
    with ledger.engine.connect() as conn:
        rows = conn.execute(q.order_by(e.c.seq)).all()
    for seq, text in rows:
        detail = json.loads(text)
        sid = detail.get("session")
        code = detail.get("code")
        if code == SignificantCode.STARTUP_SELF_CHECK.value and sid:
            started[str(sid)] = (int(seq), detail)
        elif code == SignificantCode.SHUTDOWN.value and sid:
            ended.add(str(sid))
        elif code == SignificantCode.CRASH_RECOVERY.value and detail.get("crashed_session"):
            ended.add(str(detail["crashed_session"]))
    out = []
    for sid, (seq, detail) in started.items():
        if sid in ended:
            continue
        path = d / sid
        if not path.exists():
            continue
        fd = _take_lock(path)
        if fd is None:
            continue  # a live process holds it: that session is running (or being recovered)
        if not path.exists():  # recovered and removed while the lock was taken
            os.close(fd)
            continue
        out.append((sid, seq, detail, fd))
    return out


def _release(ledger: LedgerBase, sid: str, fd: int) -> None:
    d = sessions_dir(ledger)
    if d is not None:
        with contextlib.suppress(OSError):
            (d / sid).unlink()
    os.close(fd)


def self_check(
    ledger: LedgerBase,
    report_of: Any,
    session: Session,
    *,
    table: str | None = None,
    actor: str | None = None,
) -> tuple[AuditReport, list[ConfigurationCheck]]:
    """The start-up self-check (see the module docstring). ``report_of`` is the ledger's
    :meth:`~croupier.progressive.Ledger.audit`. Records, in order: a ``verification-failure``
    (and a failed ``startup-self-check``, then raises) when the audit fails; a
    ``crash-recovery`` per crashed session; a ``configuration-mismatch`` per progressive whose
    running configuration differs; the ``startup-self-check``. Returns the audit's report and
    every progressive's configuration check."""
    crashed = crashed_sessions(ledger)
    base = {"session": session.id, "pid": os.getpid()}
    try:
        report: AuditReport = report_of()
    except LedgerIntegrityError as exc:
        for _sid, _, _, fd in crashed:  # not recovered: the replay does not hold
            os.close(fd)
        for code, said in (
            (SignificantCode.VERIFICATION_FAILURE, {"during": "start-up"}),
            (SignificantCode.STARTUP_SELF_CHECK, {"result": "failed"}),
        ):
            failed = {**base, **said, "error": str(exc)}
            try_record(ledger, code, table=table, actor=actor, detail=failed)
        raise
    head = ledger.event_count()
    for sid, seq, detail, fd in crashed:
        recorded = try_record(
            ledger,
            SignificantCode.CRASH_RECOVERY,
            table=table,
            actor=actor,
            detail={
                "crashed_session": sid,
                "crashed_pid": detail.get("pid"),
                "started_seq": seq,
                "replayed_events": report.events,
                "last_event_before": head,
                "kept_head": report.head_kept,
                "levels_sha256": {
                    name: levels_digest(levels) for name, levels in report.levels.items()
                },
                "result": "replayed exactly",
            },
        )
        if recorded:
            _release(ledger, sid, fd)
        else:
            os.close(fd)
    checks = configuration_checks(ledger)
    for c in checks:
        if not c.ok:
            log_mismatch(ledger, c, table=table, actor=actor, once=False)
            ledger._configuration[("logged", c)] = True
    bad = [c.progressive for c in checks if not c.ok]
    try_record(
        ledger,
        SignificantCode.STARTUP_SELF_CHECK,
        table=table,
        actor=actor,
        detail={
            **base,
            "result": "configuration-mismatch" if bad else "passed",
            "events": report.events,
            "chain_checked": report.chain_checked,
            "progressives": len(checks),
            "mismatched": bad,
            "crash_recoveries": [sid for sid, _, _, _ in crashed],
        },
    )
    return report, checks


# -- automatic checkpoints (croupier.progressive.checkpoint) ---------------------------------
SECURITY_PERIOD = 60.0
"""Seconds: after a security event (a failed login, a lockout: :data:`~croupier.progressive.
core.SECURITY_ANCHOR`) at most one automatic checkpoint per this period — a flood of failed
logins does not fill the location; the next money event's checkpoint covers them anyway."""


def write_automatic(ledger: LedgerBase, reason: str) -> Path | None:
    """Write an automatic checkpoint of ``ledger`` to ``$CROUPIER_CHECKPOINT_DIR``
    (:func:`~croupier.progressive.checkpoint.write_to`) after a commit that appended an event
    of :data:`~croupier.progressive.core.ANCHOR_KINDS` (``reason``: its kind; a security event
    at most once per :data:`SECURITY_PERIOD`); ``None`` when none is configured, or none was
    written. Never raises — the operation it follows has committed: a failure is recorded as a
    ``checkpoint-failure`` significant event (once, until one is written again), the first write
    after one as ``checkpoint-resumed``, followed by a checkpoint that covers it; a checkpoint
    already there that the log does not hold (a rollback or fork) as a ``checkpoint-conflict``
    (once per file and ledger object) and on stderr. Recording any of them does not start
    another checkpoint."""
    from croupier.progressive.core import SECURITY_ANCHOR

    where = checkpoint_dir()
    if where is None or ledger.key is None or ledger.checkpointing:
        return None
    if reason == SECURITY_ANCHOR:
        now = time.monotonic()
        last = ledger.security_anchored
        if last is not None and now - last < SECURITY_PERIOD:
            return None
        ledger.security_anchored = now
    ledger.checkpointing = True
    try:
        try:
            written = write_to(ledger.reader, ledger.key, where, reason)
        except (OSError, CroupierError, sa.exc.SQLAlchemyError) as exc:
            if not ledger.checkpoint_failing:
                ledger.checkpoint_failing = True
                said = (str(exc).strip() or type(exc).__name__).splitlines()[0][:300]
                detail = {"location": str(where), "after": reason, "error": said}
                try_record(ledger, SignificantCode.CHECKPOINT_FAILURE, detail=detail)
            return None
        _flag_conflicts(ledger, where, written.conflicts)
        path = written.path
        if ledger.checkpoint_failing:
            ledger.checkpoint_failing = False
            detail = {"location": str(where), "checkpoint": str(path)}
            if try_record(ledger, SignificantCode.CHECKPOINT_RESUMED, detail=detail):
                with contextlib.suppress(OSError, CroupierError, sa.exc.SQLAlchemyError):
                    path = write_to(ledger.reader, ledger.key, where, "significant").path
        return path
    finally:
        ledger.checkpointing = False


def _flag_conflicts(ledger: LedgerBase, where: Path, found: list[str]) -> None:
    """Tell stderr and record (once per line and ledger object) each checkpoint conflict."""
    for said in found:
        if said in ledger.checkpoint_conflicts:
            continue
        ledger.checkpoint_conflicts.add(said)
        print(f"croupier: ledger integrity: {said}", file=sys.stderr, flush=True)
        detail = {"location": str(where), "conflict": said[:500]}
        try_record(ledger, SignificantCode.CHECKPOINT_CONFLICT, detail=detail)


def end_session(ledger: LedgerBase, session: Session) -> None:
    """Record the session's ``shutdown`` and release its lock file."""
    closed = try_record(
        ledger, SignificantCode.SHUTDOWN, detail={"session": session.id, "pid": os.getpid()}
    )
    if session.fd is not None:
        if closed:
            _release(ledger, session.id, session.fd)
        else:  # the next start-up recovers it
            os.close(session.fd)
