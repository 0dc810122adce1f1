"""Where the ledger lives: its database URL and engine, and the ledger key that chains its events.

* :func:`default_url`, :func:`database_url`, :func:`make_engine` — SQLite file by default
  (``$CROUPIER_DB`` or ``$XDG_DATA_HOME/croupier/progressive.sqlite3``), PostgreSQL by URL.
* The **ledger key** (32 random bytes, hex in a file readable by its owner only) keys the HMAC-SHA256
  chain over the events (:func:`event_mac`). It is kept *outside* the database, so someone who can
  edit the database cannot forge a chain. Where it lives is configuration
  (:func:`default_key_file`): ``$CROUPIER_LEDGER_KEY_FILE`` if set; else, for a SQLite file, the
  file beside it named ``<database>.key``; else (PostgreSQL)
  ``$XDG_DATA_HOME/croupier/keys/<digest of the URL>.key``. It is created with the ledger: when a
  ledger with no event is opened and the key file does not exist.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, event

from croupier.errors import LedgerError, LedgerKeyError
from croupier.names import normalize


class LedgerDatabaseError(LedgerError):
    """The ledger's database cannot be used or refused an operation for a reason of its own (it
    cannot be reached, a lock was not had in time): nothing was changed, and the same request
    may succeed when the database is back (the service answers 503). (Declared here, not in
    :mod:`croupier.errors`, whose source is part of every stored count's fingerprint.)"""


class DatabaseRefusedError(LedgerError):
    """The ledger's database refused an operation for a reason the same operation meets again:
    a value a column cannot hold (numeric overflow), a constraint broken other than a unique key
    (which a concurrent writer may have taken), a statement it cannot run. Nothing was changed;
    no retry cures it (the service answers 500, not 503: :func:`retry_cures` tells the two
    apart). Every value a client sends is checked against the columns before anything is
    written, so this is a fault of croupier's to report. (Declared here beside
    :class:`LedgerDatabaseError`.)"""


class LedgerFileError(LedgerError):
    """A file or folder the ledger keeps beside its database (the SQLite file's folder, its key,
    its chain head, its session locks) cannot be made or opened where the configuration puts it
    — a parent that is a file, a folder not writable, a read-only file system: the path and the
    system's reason in one line, nothing changed."""


def make_dirs(folder: Path, what: str) -> None:
    """Make ``folder`` and its parents (as ``mkdir -p``) for ``what``; a failure is a
    :class:`LedgerFileError` naming the folder and the system's reason."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = os_reason(exc)
        # the path unquoted: a quoted piece longer than errors.MAX_QUOTED is cut short, and a
        # path's tail is what says where
        raise LedgerFileError(f"cannot make the folder {folder} for {what}: {reason}") from None


def os_reason(exc: OSError) -> str:
    """The system's reason for ``exc`` in words a user acts on: a file where a folder must be
    said so."""
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return "a file, not a folder, is on that path"
    return exc.strerror or type(exc).__name__


class UnconfirmedFlushError(LedgerDatabaseError):
    """A transaction committed on PostgreSQL without waiting for its log to reach the disk
    (:data:`FLUSH_LATER`), whose flush could then not be confirmed: it is committed — the same
    request again answers it, nothing doubled — but was not answered, since a crash of the
    database server might still have lost it (the service answers 503)."""


ENV_DB = "CROUPIER_DB"
ENV_KEY_FILE = "CROUPIER_LEDGER_KEY_FILE"

EVENT_FIELDS = (
    "seq",
    "progressive_id",
    "kind",
    "level",
    "round_id",
    "table_id",
    "position",
    "award_id",
    "meter_delta",
    "reserve_delta",
    "held_delta",
    "wagered_delta",
    "paid_delta",
    "hits_delta",
    "amount_cents",
    "actor",
    "actor_role",
    "detail",
    "created_at",
)
"""The columns of ``ledger_events`` an event's mac covers (every column but the mac)."""


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share"))


def default_url() -> str:
    """The ledger's database when none is given: ``$CROUPIER_DB`` if set, else the SQLite file
    ``$XDG_DATA_HOME/croupier/progressive.sqlite3`` (``~/.local/share/croupier/…`` by default)."""
    env = os.environ.get(ENV_DB)
    if env:
        return env
    return f"sqlite:///{_data_home() / 'croupier' / 'progressive.sqlite3'}"


def database_url(text: str) -> str:
    """``text`` as a database URL: a URL (``sqlite:///…``, ``postgresql+psycopg://…``) as it is,
    a bare file path as the SQLite file it names.

    >>> database_url("sqlite:///x.db"), database_url("/var/lib/croupier/ledger.sqlite3")
    ('sqlite:///x.db', 'sqlite:////var/lib/croupier/ledger.sqlite3')
    """
    if "://" in text:
        scheme = text.split("://", 1)[0].split("+", 1)[0].lower()
        if scheme not in BACKENDS:
            raise LedgerDatabaseError(
                f"croupier's ledger runs on SQLite or PostgreSQL (sqlite:///path, "
                f"postgresql+psycopg://user@host/db), not {scheme[:20]!r}"
            )
        return text
    return f"sqlite:///{Path(text).expanduser()}"


BACKENDS = ("sqlite", "postgresql")
"""The database backends a ledger runs on (URL schemes, before any ``+driver``)."""


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite ledger URL (``None`` for memory or another backend)."""
    u = sa.make_url(database_url(url))
    if u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:"):
        return None
    return Path(u.database).expanduser()


def _sqlite_cursor(dbapi_conn: Any) -> Any:
    """A cursor on a new SQLite connection of the ledger, set as every one of them is: BEGIN
    issued by the engine (not the driver), foreign keys enforced, a busy wait of a minute."""
    dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=60000")
    return cur


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (or a bare SQLite file path, :func:`database_url`): SQLite with
    foreign keys, a busy timeout, WAL for files and ``BEGIN IMMEDIATE`` transactions, each taken
    after an exclusive ``flock`` on ``<file>.lock`` (fair queueing of writer processes; released
    once the commit or rollback has returned, :class:`FlockConnection`, and by the kernel when a
    process dies); anything else as SQLAlchemy makes it."""
    u = sa.make_url(database_url(url))
    if u.get_backend_name() != "sqlite":
        return _server_engine(u)
    path = sqlite_file(url)
    if path is None:
        engine = sa.create_engine(u, poolclass=sa.pool.StaticPool)
    else:
        make_dirs(path.parent, "the ledger's database")
        engine = sa.create_engine(
            u.set(database=str(path)), connect_args={"timeout": 60, "factory": FlockConnection}
        )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        cur = _sqlite_cursor(dbapi_conn)
        if path is not None:
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    lock_path = None if path is None else path.with_name(path.name + ".lock")

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # writers queue on a blocking inter-process lock (the kernel wakes them in turn)
        # instead of SQLite's busy polling, which lets a lucky writer in again and again
        raw = conn.connection.dbapi_connection
        if lock_path is not None and isinstance(raw, FlockConnection):
            raw.lock(lock_path)
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_conn: Any, _record: Any) -> None:
        if isinstance(dbapi_conn, FlockConnection):  # a connection returned mid-transaction
            dbapi_conn.unlock()

    return engine


def make_reader(engine: Engine) -> Engine:
    """An engine for the ledger's reads that take **no writer lock**, beside ``engine`` (a
    :func:`make_engine`): on a SQLite file an engine of its own on the same file, ``query_only``,
    whose transactions begin with a deferred ``BEGIN`` — no ``flock``, no ``BEGIN IMMEDIATE``:
    WAL gives each transaction one consistent snapshot of the committed log while a writer
    writes; on PostgreSQL the engine's pool with every transaction ``REPEATABLE READ READ
    ONLY`` (one snapshot, no row lock); in memory the engine itself (one connection). Reads that
    decide a write are made again under the lock by the writer; the caller disposes of the
    reader (:meth:`~croupier.progressive.core.LedgerBase.close`)."""
    if engine.dialect.name != "sqlite":
        return engine.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
    database = engine.url.database
    if database in (None, "", ":memory:"):
        return engine
    ro = sa.create_engine(engine.url, connect_args={"timeout": 60})

    @event.listens_for(ro, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        cur = _sqlite_cursor(dbapi_conn)
        cur.execute("PRAGMA query_only=ON")
        cur.close()

    @event.listens_for(ro, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")  # deferred: a read snapshot from the first SELECT

    return ro


_READS: dict[tuple[int, str], tuple[str, tuple[str, ...] | None, dict[str, Any]]] = {}
_READS_KEPT: list[sa.Select[Any]] = []  # the statements compiled: their ids stay theirs


def read_rows(
    engine: Engine, stmt: sa.Select[Any], params: Mapping[str, Any]
) -> list[tuple[Any, ...]]:
    """The rows of the SELECT ``stmt`` (module-level: compiled once per dialect and kept) with
    ``params``, read on the driver's own connection from ``engine``'s pool, outside any
    transaction — one statement is one snapshot: no BEGIN, no ROLLBACK, none of SQLAlchemy's
    connection and transaction (on SQLite ~0.3 ms of CPU a read through them, ~30 µs this way;
    on PostgreSQL one round trip instead of three). For the indexed reads every request a
    service serves makes. The values are the driver's, untyped by SQLAlchemy: select columns
    whose driver value is already the Python one (text, integers; a SQLite boolean is 0 or 1).
    A failure of the database is a :class:`LedgerDatabaseError`."""
    k = (id(stmt), engine.dialect.name)
    found = _READS.get(k)
    if found is None:
        compiled: Any = stmt.compile(dialect=engine.dialect)
        order = tuple(compiled.positiontup) if compiled.positional else None
        found = _READS[k] = (str(compiled), order, dict(compiled.params))
        _READS_KEPT.append(stmt)
    sql, order, defaults = found
    values: Any = {**defaults, **params}
    if order is not None:
        values = tuple(values[n] for n in order)
    try:
        raw = engine.raw_connection()
    except sa.exc.SQLAlchemyError as exc:
        raise database_failure(exc, "the ledger database refused the operation") from exc
    try:
        driver: Any = raw.driver_connection
        autocommit = engine.dialect.name == "postgresql"
        if autocommit:  # one round trip: no BEGIN before it, no ROLLBACK after
            driver.autocommit = True
        try:
            cur = raw.cursor()
            try:
                cur.execute(sql, values)
                return [tuple(r) for r in cur.fetchall()]
            finally:
                cur.close()
        except Exception as exc:
            raise database_failure(exc, "the ledger database refused the operation") from exc
        finally:
            if autocommit:
                driver.autocommit = False
    finally:
        raw.close()


class FlockConnection(sqlite3.Connection):
    """A SQLite connection holding the ledger file's writer lock (an exclusive ``flock`` on
    ``<file>.lock``) from its ``BEGIN IMMEDIATE`` until its COMMIT or ROLLBACK has *returned*:
    so the next writer, woken by the kernel in turn, finds SQLite's own lock free and never
    busy-polls for it while the commit is still being synced. The kernel releases the lock of a
    process that dies."""

    _lock_fd: int | None = None
    _locked: bool = False

    def lock(self, path: Path) -> None:
        """Wait for the writer lock of ``path`` and take it."""
        if self._lock_fd is None:
            self._lock_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        self._locked = True

    def unlock(self) -> None:
        """Release the writer lock (if held)."""
        if self._locked and self._lock_fd is not None:
            self._locked = False
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.unlock()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self.unlock()

    def close(self) -> None:
        self.unlock()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        super().close()


IDLE_PING_SECONDS = 10.0
"""A pooled server connection idle longer than this is checked (``SELECT 1``) before use."""


def _server_engine(u: sa.URL) -> Engine:
    """An engine for a database server whose pooled connections are checked before use only
    when they have been idle for :data:`IDLE_PING_SECONDS`: a ping on every checkout is three
    round trips per transaction, while a connection used a moment ago is known to be alive
    (one dropped meanwhile fails that one operation, which changes nothing, and is replaced)."""
    engine = sa.create_engine(u)

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
            dbapi_conn.rollback()
        except Exception as exc:  # any failure: the pool drops it and connects anew
            raise sa.exc.DisconnectionError(f"pooled connection is gone: {exc}") from exc

    return engine


_IDLE_SINCE = "croupier-idle-since"


def now() -> datetime:
    """The time an event is recorded (UTC)."""
    return datetime.now(UTC)


def dumps(data: Mapping[str, Any]) -> str:
    """Canonical JSON: sorted keys, no spaces (what the ledger stores and hashes)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# -- the ledger key and the chain ---------------------------------------------------------------


def default_key_file(url: str) -> Path | None:
    """Where the ledger key of the database ``url`` lives (see the module docstring); ``None``
    for an in-memory SQLite ledger, whose key lives as long as the :class:`Ledger` object."""
    env = os.environ.get(ENV_KEY_FILE)
    if env:
        return Path(env).expanduser()
    u = sa.make_url(database_url(url))
    if u.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        return None if path is None else path.with_name(path.name + ".key")
    digest = hashlib.sha256(u.render_as_string(hide_password=True).encode()).hexdigest()[:16]
    return _data_home() / "croupier" / "keys" / f"{digest}.key"


def read_key(path: Path) -> bytes | None:
    """The key in ``path``, or ``None`` when the file does not exist; a file that is not a key is
    a :class:`~croupier.errors.LedgerKeyError`."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerKeyError(f"cannot read the ledger key {path}: {exc}") from exc
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 32:
        raise LedgerKeyError(f"{path} is not a ledger key (64 hex digits)")
    return key


def create_key(path: Path) -> bytes:
    """Create a new random key in ``path`` (mode 0600), atomically; if another process created it
    first, its key."""
    make_dirs(path.parent, "the ledger's key")
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    key = read_key(path)
    assert key is not None
    return key


# -- the copy of the chain head outside the database ---------------------------------------


def head_file(key_file: Path) -> Path:
    """Where the copy of the chain head is kept: beside the ledger key, ``<key>.head``
    (``ledger.sqlite3.key`` → ``ledger.sqlite3.head``).

    The chain shows any event changed, inserted or removed — except the newest ones removed
    together with the head row (a database restored from an earlier backup, or truncated). After
    every commit that moved the head, the writer records the head's (seq, mac) here; ``verify``
    requires the log to hold that event with that mac. The copy may lag the database (a writer
    killed between its commit and this write; writers racing, the later commit's write landing
    first), never lead it: a lagging copy only narrows what is checked to the events before it.

    The file is made with the ledger (:data:`GENESIS`, before its first event is committed) and
    never again by a writer: a ledger with events whose copy is missing, or holds no readable
    record, is refused by writers and by ``verify`` alike (it may be the trace of a rollback
    whose head file was deleted), until ``croupier meters verify --accept-missing-head`` has
    verified the whole chain and made the file anew (:func:`create_head`).
    """
    return key_file.with_suffix(".head")


GENESIS = (0, "-")
"""The record of a head file made with its ledger, before any event: event 0, which every log
holds (``-`` stands for the empty mac the first event chains to)."""


def open_head(path: Path) -> int:
    """A file descriptor for reading and writing the copy of the head in ``path``, which exists
    (``FileNotFoundError`` otherwise: a copy that vanished is never made again by a write)."""
    return os.open(path, os.O_RDWR)


def create_head(path: Path, seq: int, mac: str) -> bool:
    """Make the copy of the head in ``path`` holding ``(seq, mac)``, atomically (written and
    fsynced under a temporary name, then linked to ``path``, the directory fsynced), mode 0600,
    unless a file is there already (``False``: it is left as it is)."""
    make_dirs(path.parent, "the ledger's chain head")
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(_head_record(seq, mac))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        fsync_dir(path.parent)
        return True
    finally:
        tmp.unlink(missing_ok=True)


def fsync_dir(path: Path) -> None:
    """Flush directory ``path``'s entries to the disk (a new name in it survives a crash); a
    file system that cannot is let be."""
    with contextlib.suppress(OSError):
        dfd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def _head_record(seq: int, mac: str) -> str:
    body = f"{seq:020d} {mac}"
    return f"{body} {hashlib.sha256(body.encode()).hexdigest()[:16]}\n"


def _parse_head(text: str) -> tuple[int, str] | None:
    parts = text.split()
    if len(parts) != 3 or not parts[0].isdigit() or _head_record(int(parts[0]), parts[1]) != text:
        return None
    return int(parts[0]), parts[1]


def held_head(fd: int) -> tuple[int, str] | None:
    """The (seq, mac) the copy open on ``fd`` records (``None``: none, or unreadable)."""
    try:
        return _parse_head(os.pread(fd, 256, 0).decode("ascii"))
    except (OSError, UnicodeDecodeError):
        return None


def keep_head(fd: int, seq: int, mac: str) -> None:
    """Record ``(seq, mac)`` as the head in the file open on ``fd``, unless it records a newer
    one already: one fixed-length record written in place (a ``pwrite`` — no new file, rename
    or fsync per round), with a checksum so that a record cut short reads as no copy, never as
    another head. A copy that cannot be written is left as it was: the operation it follows has
    committed, and ``verify`` shows the event the copy names."""
    held = held_head(fd)
    if held is not None and held[0] >= seq:
        return
    with contextlib.suppress(OSError):
        os.pwrite(fd, _head_record(seq, mac).encode("ascii"), 0)


def read_head(path: Path) -> tuple[int, str] | None:
    """The (seq, mac) recorded in ``path``, or ``None`` when there is no copy (or an unreadable
    one: a record whose checksum does not match)."""
    try:
        return _parse_head(path.read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError):
        return None


HALTED = "the controller is halted for an integrity fault: "
HALTED_MISSING = (
    f"{HALTED}the copy of the chain head beside the ledger key is missing or unreadable while "
    "the ledger holds events, so a rollback of its newest events could not be told; no login "
    "or write is taken. An operator must verify the ledger on the controller's host and, if "
    "it never had that copy, accept its absence explicitly there"
)
HALTED_AHEAD = (
    f"{HALTED}the copy of the chain head beside the ledger key names an event the database's "
    "log does not hold: its newest events were removed (rolled back, or restored from an "
    "earlier copy); no login or write is taken. An operator must investigate on the "
    "controller's host and record why before the ledger is written again"
)
"""What an HTTP client is told of a halt (:class:`~croupier.errors.LedgerHaltedError`): no
server path, the operator's remedy in generic words."""


def head_trouble(path: Path) -> str | None:
    """What is wrong with the copy of the head in ``path`` — ``"is missing"``, ``"holds no
    readable record"`` — or ``None`` when it holds one."""
    if read_head(path) is not None:
        return None
    return "holds no readable record" if path.exists() else "is missing"


def timestamp(dt: datetime) -> str:
    """An event's time as the chain covers it: UTC, microseconds, no zone (as both backends
    return what was stored)."""
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC).replace(tzinfo=None)
    return dt.isoformat(timespec="microseconds")


def event_mac(key: bytes, previous: str, row: Mapping[str, Any]) -> str:
    """HMAC-SHA256 under ``key`` of the previous event's mac and this event's
    :data:`EVENT_FIELDS` (canonical JSON), as 64 hex digits."""
    fields = {f: row[f] for f in EVENT_FIELDS}
    fields["created_at"] = timestamp(row["created_at"])
    message = previous.encode() + b"\n" + dumps(fields).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def definition_digest(definition_json: str) -> str:
    """SHA-256 of a progressive's stored definition (its seed events record it)."""
    return hashlib.sha256(definition_json.encode()).hexdigest()


TX_STATE = "croupier-tx"
"""``Connection.info`` key of a write transaction's state: the chain head, the events chained
but not yet inserted, the staff read from the log."""


def check_name(what: str, name: str) -> str:
    """``name`` as the name of ``what`` ("a staff member", "a progressive", "a table"): the one
    name rule of :func:`croupier.names.normalize` (stripped, NFC, at most
    :data:`~croupier.names.NAME_LIMIT` characters, no control, format or invisible character;
    :class:`~croupier.errors.NameRuleError` otherwise)."""
    return normalize(what, name)


_PG_RETRY_CLASSES = ("08", "40", "53", "57", "58")
"""SQLSTATE classes a retry can cure (PostgreSQL, Appendix A): connection exception, transaction
rollback (serialization failure 40001, deadlock 40P01 — not 40002, a constraint), insufficient
resources (disk full, out of memory, too many connections), operator intervention (shutdown,
statement timeout), system error (I/O)."""

_PG_RETRY_CODES = frozenset({"55P03", "55006", "23505"})
"""Other SQLSTATEs a retry can cure: a lock not available, an object in use, a unique key taken
(by a concurrent writer: the same request again finds its row, and answers accordingly)."""

_SQLITE_RETRY = frozenset({5, 6, 7, 9, 10, 13, 14, 15})
"""SQLite's primary result codes a retry can cure: BUSY, LOCKED (a lock not had in time), NOMEM,
INTERRUPT, IOERR, FULL (the disk), CANTOPEN, PROTOCOL."""

_SQLITE_UNIQUE = frozenset({1555, 2067})
"""SQLite's extended codes of a unique key taken: SQLITE_CONSTRAINT_PRIMARYKEY, _UNIQUE."""


def retry_cures(exc: BaseException) -> bool:
    """Whether the database failure ``exc`` (SQLAlchemy's, or the driver's, or one wrapping
    either) is one the same request may not meet again — the connection lost, a lock or a
    serialization failure, a resource exhausted, a unique key a concurrent writer took — rather
    than one it meets every time (a value a column cannot hold, another constraint, a statement
    the database refuses). The first is a 503 of the service, the second a 500.

    >>> retry_cures(sqlite3.OperationalError("database is locked"))
    True
    >>> retry_cures(sqlite3.DataError("integer overflow")), retry_cures(OverflowError("big"))
    (False, False)
    """
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, sa.exc.DBAPIError) and seen.connection_invalidated:
            return True
        if isinstance(seen, sa.exc.DisconnectionError | sa.exc.TimeoutError):
            return True  # the pool's: a connection lost, none free in time
        orig = getattr(seen, "orig", None)
        if isinstance(orig, BaseException) and orig is not seen:
            seen = orig
            continue
        state = getattr(seen, "sqlstate", None)  # psycopg's
        if isinstance(state, str) and len(state) == 5:
            return (state[:2] in _PG_RETRY_CLASSES and state != "40002") or state in _PG_RETRY_CODES
        code = getattr(seen, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF in _SQLITE_RETRY or code in _SQLITE_UNIQUE
        if type(seen).__name__ == "OperationalError":  # a driver's, with no code: a connection
            return True
        if type(seen).__module__.startswith(("psycopg", "sqlite3")):
            return False
        seen = seen.__cause__
    return False


def database_failure(exc: BaseException, what: str) -> LedgerError:
    """The error for database failure ``exc``: :class:`LedgerDatabaseError` (503: a retry may
    cure it) or :class:`DatabaseRefusedError` (500: it would fail the same way), its message
    ``what: `` and the driver's first line (:func:`db_error`)."""
    kind = LedgerDatabaseError if retry_cures(exc) else DatabaseRefusedError
    return kind(f"{what}: {db_error(exc)}")


def db_error(exc: BaseException) -> str:
    """What a database error says, for a one-line message: the driver's own first line (an
    SQLAlchemy error's text adds the statement, its parameters and a 'Background on this error
    at: https://sqlalche.me/…' link, none of which a user can act on)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    text = text.split("(Background on this error")[0].strip()
    return (text.splitlines() or [type(exc).__name__])[0]


FLUSH_LATER = "flush-later"
"""``TX_STATE`` key: the transaction commits on PostgreSQL without waiting for its log to be on
the disk (``SET LOCAL synchronous_commit TO OFF``), and its locks are released at once; the
ledger's transaction then waits for the flush (:func:`flush_barrier`) before it is answered."""

_BARRIER = sa.select(sa.func.txid_current())


def flush_barrier(engine: Engine) -> None:
    """Return once everything committed on ``engine``'s PostgreSQL server so far is on its
    disk: a transaction given an id (``txid_current()``) commits synchronously, and its commit
    waits for the log to be flushed up to its own record — after every commit before it,
    flushed with it (commits waiting at once share one flush). One round trip, outside any lock:
    a transaction committed with :data:`FLUSH_LATER` held its row locks for its statements
    only, not through the disk's sync, and is answered only after this returned."""
    read_rows(engine, _BARRIER, {})
