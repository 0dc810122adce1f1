"""Group commit for the ledger: rounds fed together settle in one transaction and one commit —
with the rows of other writers of the same database queued meanwhile (the service's).

A durable commit costs a sync of the database's log (SQLite WAL with ``synchronous=FULL``,
PostgreSQL's ``fsync``) — milliseconds on a busy disk — and, on SQLite, the file's one writer
lock; one commit per round caps a ledger at about a hundred rounds a second whatever the CPU.
Every writer of one database engine in this process — the :class:`Feeder` of its ledger and any
:class:`RowsWriter` (:class:`croupier.service.committer.Committer`) — queues on the engine's one
:class:`Lane`: what is queued while a batch is being written waits for it and is then written
together, in **one** transaction and one commit: the rounds of a progressive as one group
(:func:`~croupier.progressive.play.play_group`: one batch of reads locking the progressive's row
and the chain head, every round planned in memory in arrival order, one batch of writes), the
rows the rounds bring and the other writers' rows queued with the writes, and the commit with
them — on PostgreSQL the writes and the commit are one message, so a batch holds the ledger's
lock for two round trips however many rounds it holds, and the commit does not wait for the
disk under the lock: the locks go at once, and the lane waits for the flush
(:func:`~croupier.progressive.store.flush_barrier`) before anything of the batch is answered.
Nothing is answered before the commit holding it is on the disk.

Every ledger invariant is the one-round-at-a-time path's: each round makes the events and rows
that path makes, in the same transaction, from the state the rounds before it left:

* the HMAC chain: each round's events are chained after the previous round's head, held in the
  transaction's state (:data:`~croupier.progressive.core.TX_STATE`), in the order the rounds
  are written; the copy of the head outside the database is written after the commit;
* meter conservation: the group reads the levels once, under the lock, and each round is
  planned from the levels the rounds before it left; the levels are written once, from what was
  read to what the group left, with a compare-and-set UPDATE;
* idempotency per round and once per round: each round reads whether its round, key and table
  are known *in the transaction*, and a round whose round id or key an earlier round of the
  group has is left to the step-by-step procedure after the commit (its replay, or its
  conflict), so two requests for one round in a batch settle it once;
* anything that is not the common case (a round or key on the ledger already, a table not
  linked, a member unknown, a definition changed, a suspended progressive, a 100% hit of a
  share progressive) makes only reads, and that round is answered ``None``: its caller runs the
  step-by-step procedure in a transaction of its own, which raises its error or replays it;
* a failure of the batch (the database, a guard, a unique key of the rows taken, a crash) rolls
  back the whole batch: nothing of it is committed; each of its rounds is then answered ``None``
  and fed alone (a batch of one round raises the error itself), and the rows are written by
  their writer without the rounds (:meth:`RowsWriter.write_items`).

A round may bring rows of its own, made from its settlement (``after``, :meth:`Feeder.play`): the
service's stored round and its ``Idempotency-Key`` record, which then commit **with** the
ledger's rows — a crash leaves both or neither. They are queued with the rounds' writes; a
unique key of them taken (the round stored already, the key recorded by a concurrent request)
fails the batch like any other failure, and that round is answered ``None`` without an error,
its ``after`` rows unwritten: its caller decides step by step. A batch committed whose flush
cannot be confirmed (:class:`~croupier.progressive.store.UnconfirmedFlushError`) is answered
with that error, every round and row of it: it is committed, and the same request again
answers it.

One transaction locks one progressive (rounds of several progressives arriving together are
written progressive by progressive, the rows with the first): it locks the progressive's row
and then the chain head, the order every writer takes them, and inserts the rows last.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from croupier.progressive.batch import Batch
from croupier.progressive.core import TX_STATE, LedgerBase
from croupier.progressive.play import Prepared, play_group
from croupier.progressive.records import RoundSettlement
from croupier.progressive.store import FLUSH_LATER, UnconfirmedFlushError

After = Callable[[RoundSettlement], "RowsItem | None"]
"""Rows a round brings to its own transaction, made from its settlement (:meth:`Feeder.play`)."""


@dataclass
class _Job:
    """A round to settle, and the rows it brings (``after``)."""

    prepared: Prepared
    after: After | None = None
    result: RoundSettlement | None = None
    error: BaseException | None = None
    done: bool = False
    brought: RowsItem | None = None


@dataclass
class RowsItem:
    """Rows a :class:`RowsWriter` writes in a lane's batch: ``ok`` once committed."""

    rows: Any
    writer: RowsWriter
    ok: bool = False
    error: BaseException | None = None
    done: bool = False


class RowsWriter:
    """A writer of rows that shares its engine's :class:`Lane` with the ledger's rounds."""

    def add_rows(self, batch: Batch, items: Sequence[RowsItem]) -> None:
        """Queue the statements writing ``items``' rows on ``batch`` (the lane runs it, with the
        rounds' writes and the commit, in the batch's transaction; a failure fails the batch)."""
        raise NotImplementedError

    def pre_commit(self) -> None:
        """Called just before a commit holding this writer's rows (the tests' crash point)."""

    def write_items(self, items: Sequence[RowsItem]) -> None:
        """Write ``items`` in transactions of their own (no round with them), setting each one's
        ``ok`` or ``error``."""
        raise NotImplementedError


class Lane:
    """The group commit of one engine's writers in this process (module docstring)."""

    def __init__(self) -> None:
        self.ledger: LedgerBase | None = None
        self._queue: list[_Job | RowsItem] = []
        self._queue_lock = threading.Lock()
        self._writer = threading.Lock()  # one batch in flight per engine
        self.batches = 0
        """How many transactions with rounds the lane committed (for benchmarks and tests)."""
        self.rounds = 0
        """How many rounds those transactions settled."""
        self.shared = 0
        """How many of them committed rows of a :class:`RowsWriter` with the rounds."""

    @property
    def waiting(self) -> int:
        """How many writes wait for the batch in flight."""
        return len(self._queue)

    def submit(self, item: _Job | RowsItem) -> None:
        """Queue ``item`` and return once the batch holding it is committed (or failed)."""
        with self._queue_lock:
            self._queue.append(item)
        with self._writer:
            if not item.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._write(batch)

    def _write(self, batch: list[_Job | RowsItem]) -> None:
        groups: dict[int, list[_Job]] = {}
        items: list[RowsItem] = []
        for it in batch:
            if isinstance(it, _Job):
                groups.setdefault(it.prepared.pid, []).append(it)
            else:
                items.append(it)
        try:
            for jobs in groups.values():
                self._write_rounds(jobs, items)
                items = []
            if items:
                _write_alone(items)
        finally:
            for it in batch:
                it.done = True

    def _write_rounds(self, jobs: list[_Job], items: list[RowsItem]) -> None:
        assert self.ledger is not None  # a round is queued by its ledger's feeder
        brought: list[RowsItem] = []
        try:
            with self.ledger._tx() as conn:
                writes = Batch(conn)
                results = play_group(self.ledger, [job.prepared for job in jobs], conn, writes)
                for job, result in zip(jobs, results, strict=True):
                    job.result, job.brought = result, None
                    if result is not None and job.after is not None:
                        job.brought = job.after(result)
                        if job.brought is not None:
                            brought.append(job.brought)
                staged = [*brought, *items]
                for writer, mine in _by_writer(staged).items():
                    writer.add_rows(writes, mine)
                for writer in _by_writer(staged):
                    writer.pre_commit()
                if writes.items:
                    # the commit does not hold the ledger's lock through the disk's sync; the
                    # ledger's transaction waits for it before any of the batch is answered
                    later = conn.dialect.name == "postgresql"
                    conn.info[TX_STATE][FLUSH_LATER] = later
                    writes.run(commit=True, flush_later=later)
        except UnconfirmedFlushError as exc:  # committed, not answered: a retry replays it
            for job in jobs:
                job.error = exc
            for it in (*brought, *items):
                it.error = exc
            return
        except BaseException as exc:
            for job in jobs:
                job.result = None  # rolled back: nothing of the batch was committed
                job.brought = None
            if len(jobs) == 1 and not items and jobs[0].after is None:
                jobs[0].error = exc
            if items:
                _write_alone(items)
            return
        for it in (*brought, *items):
            it.ok = True
        self.batches += 1
        self.rounds += sum(job.result is not None for job in jobs)
        self.shared += bool(items)


def _by_writer(items: Sequence[RowsItem]) -> dict[RowsWriter, list[RowsItem]]:
    out: dict[RowsWriter, list[RowsItem]] = {}
    for it in items:
        out.setdefault(it.writer, []).append(it)
    return out


def _write_alone(items: Sequence[RowsItem]) -> None:
    try:
        for writer, mine in _by_writer(items).items():
            writer.write_items(mine)
    except BaseException as exc:  # pragma: no cover - write_items sets each item's error
        for it in items:
            if not it.ok and it.error is None:
                it.error = exc


_LANES: weakref.WeakKeyDictionary[Engine, Lane] = weakref.WeakKeyDictionary()
_MAKING = threading.RLock()


def lane_of(engine: Engine) -> Lane:
    """The lane of ``engine`` (one per engine object), made on first use."""
    with _MAKING:
        found = _LANES.get(engine)
        if found is None:
            found = _LANES[engine] = Lane()
        return found


class Feeder:
    """Feeds :class:`~croupier.progressive.play.Prepared` rounds to ``ledger`` through its
    engine's :class:`Lane` (module docstring); safe to call from many threads."""

    def __init__(self, ledger: LedgerBase) -> None:
        self.ledger = ledger
        self.lane = lane_of(ledger.engine)
        self.lane.ledger = ledger

    def play(self, prepared: Prepared, after: After | None = None) -> RoundSettlement | None:
        """Settle ``prepared`` with the rounds fed meanwhile, durably: its settlement, or
        ``None`` when it is not the common case or its batch failed (nothing of it written:
        feed it through the step-by-step procedure). A batch of one that fails raises — but
        for a failure with the rows ``after`` brought, which answers ``None``.

        ``after``, if given, is called with the settlement inside the round's transaction (the
        ledger's lock held: keep it short) and may return a :class:`RowsItem` to commit with
        it; once ``play`` returns a settlement, those rows are committed (``ok``)."""
        job = _Job(prepared, after)
        self.lane.submit(job)
        if job.error is not None:
            raise job.error
        return job.result


def feeder_of(ledger: LedgerBase) -> Feeder:
    """``ledger``'s feeder (one per ledger object), made on first use."""
    found: Feeder | None = ledger._feeder
    if found is None:
        with _MAKING:
            found = ledger._feeder
            if found is None:
                found = ledger._feeder = Feeder(ledger)
    return found


__all__ = ["After", "Feeder", "Lane", "RowsItem", "RowsWriter", "feeder_of", "lane_of"]
