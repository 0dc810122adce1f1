"""Group commit for the ledger: rounds fed together settle in one transaction and one commit.

A durable commit costs a sync of the database's log (SQLite WAL with ``synchronous=FULL``,
PostgreSQL's ``fsync``) — milliseconds on a busy disk — and, on SQLite, the file's one writer
lock; one commit per round caps a ledger at about a hundred rounds a second whatever the CPU.
:class:`Feeder` does for the ledger what :mod:`croupier.service.committer` does for the service's
rows: rounds whose requests are ready while another batch is being written wait for it and are
then written together — each round as :func:`~croupier.progressive.play.play` writes it alone,
one after another in arrival order inside **one** transaction that locks the progressive's row
and the chain head once, and one commit. Nothing is answered before the commit holding it has
returned.

Every ledger invariant is the one-round-at-a-time path's, since each round is that path's
statements in the same transaction:

* the HMAC chain: each round's events are chained after the previous round's head, held in the
  transaction's state (:data:`~croupier.progressive.core.TX_STATE`), in the order the rounds
  are written; the copy of the head outside the database is written after the commit;
* meter conservation: each round reads the levels the rounds before it left (its own
  ``SELECT`` in the transaction) and moves them with a compare-and-set UPDATE;
* idempotency per round and once per round: each round reads whether its round, key and table
  are known *in the transaction*, so two requests for one round in a batch settle it once;
* anything that is not the common case (a round or key on the ledger already, a table not
  linked, a member unknown, a definition changed, a suspended progressive, a 100% hit of a
  share progressive) makes only reads, and that round is answered ``None``: its caller runs the
  step-by-step procedure in a transaction of its own, which raises its error or replays it;
* a failure of the batch (the database, a guard, a crash) rolls back the whole batch: nothing
  of it is committed, and each of its rounds is then answered ``None`` and fed alone (a batch
  of one raises the error itself).

One batch per progressive at a time (rounds of several progressives arriving together are
written progressive by progressive): a transaction locks one progressive's row and then the
chain head, the order every writer takes them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from croupier.progressive.core import LedgerBase
from croupier.progressive.play import Prepared, play
from croupier.progressive.records import RoundSettlement


@dataclass
class _Job:
    prepared: Prepared
    result: RoundSettlement | None = None
    error: BaseException | None = None
    done: bool = False


class Feeder:
    """Feeds :class:`~croupier.progressive.play.Prepared` rounds to ``ledger`` in shared
    transactions (module docstring); safe to call from many threads."""

    def __init__(self, ledger: LedgerBase) -> None:
        self.ledger = ledger
        self._queue: list[_Job] = []
        self._queue_lock = threading.Lock()
        self._writer = threading.Lock()  # one batch in flight per ledger object
        self.batches = 0
        """How many transactions the feeder committed (for benchmarks and tests)."""
        self.rounds = 0
        """How many rounds those transactions settled."""

    def play(self, prepared: Prepared) -> RoundSettlement | None:
        """Settle ``prepared`` with the rounds fed meanwhile, durably: its settlement, or
        ``None`` when it is not the common case or its batch failed (nothing of it written:
        feed it through the step-by-step procedure). A batch of one that fails raises."""
        job = _Job(prepared)
        with self._queue_lock:
            self._queue.append(job)
        with self._writer:
            if not job.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._write(batch)
        if job.error is not None:
            raise job.error
        return job.result

    def _write(self, batch: list[_Job]) -> None:
        groups: dict[int, list[_Job]] = {}
        for job in batch:
            groups.setdefault(job.prepared.pid, []).append(job)
        try:
            for jobs in groups.values():
                self._write_group(jobs)
        finally:
            for job in batch:
                job.done = True

    def _write_group(self, jobs: list[_Job]) -> None:
        try:
            with self.ledger._tx() as conn:
                for job in jobs:
                    job.result = play(self.ledger, job.prepared, conn, commit=False)
        except BaseException as exc:
            for job in jobs:
                job.result = None  # rolled back: nothing of the batch was committed
            if len(jobs) == 1:
                jobs[0].error = exc
            return
        self.batches += 1
        self.rounds += sum(job.result is not None for job in jobs)


_MAKING = threading.Lock()


def feeder_of(ledger: LedgerBase) -> Feeder:
    """``ledger``'s feeder (one per ledger object), made on first use."""
    found: Feeder | None = ledger._feeder
    if found is None:
        with _MAKING:
            found = ledger._feeder
            if found is None:
                found = ledger._feeder = Feeder(ledger)
    return found


__all__ = ["Feeder", "feeder_of"]
