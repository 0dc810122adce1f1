"""Issue 16: the ledger's group commit (:mod:`croupier.progressive.feeder`) and its lock-free
reads, on SQLite and PostgreSQL.

Rounds queued while a batch is in flight are written in one transaction; each must come out as
the one-round-at-a-time path writes it — checked against a second ledger fed the same rounds one
by one in the same order (contributions and awards equal), the chain verified by replaying it
(:meth:`Ledger.audit`), the amount wagered counted by hand, a round twice in a batch settled
once, and a batch that fails leaving nothing of it written.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.progressive import (
    EventKind,
    Ledger,
    ProgressiveSystem,
    QualifyingHand,
    RoundSettlement,
)
from croupier.progressive.feeder import Feeder, feeder_of
from croupier.service import idempotency, store
from croupier.service.committer import Committer, Rows
from progressive_support import BACKENDS, DEALER, mtd_ledger, new_db_url

ROUNDS: list[tuple[str, str, tuple[int, ...], tuple[tuple[int, str], ...]]] = [
    ("BJ-1/r1", "BJ-1", (1, 2, 3), ((2, "suited-match"),)),
    ("BJ-2/r1", "BJ-2", (1, 4), ()),
    ("BJ-1/r2", "BJ-1", (2, 5), ((5, "non-suited-match"), (2, "suited-match"))),
    ("BJ-2/r2", "BJ-2", (3,), ((3, "two-suited-match"),)),
    ("BJ-1/r3", "BJ-1", (1, 2, 3, 4, 5), ()),
]


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def _feed(ledger: Ledger, i: int) -> RoundSettlement | None:
    rid, table, positions, hands = ROUNDS[i]
    return ledger.system("mtd-5").play_new_round(
        rid,
        table,
        positions,
        [QualifyingHand(p, o) for p, o in hands],
        idempotency_key=f"mtd-5/{rid}",
        by=DEALER,
        content=f"content-{rid}",
    )


def _in_one_batch(feeder: Feeder, calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` (each feeding one round) in threads while the feeder's writer is held, so
    they queue; release it: one of them writes the whole queue as one batch."""
    out: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            out[i] = calls[i]()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    with feeder.lane._writer:
        for th in threads:
            th.start()
        deadline = time.monotonic() + 30
        while len(feeder.lane._queue) < len(calls):
            assert time.monotonic() < deadline, "the rounds did not queue"
            time.sleep(0.005)
    for th in threads:
        th.join(60)
    assert not errors, errors
    return out


def _round_order(ledger: Ledger) -> list[str]:
    """The ledger's rounds in the order their events were chained (each round's events must be
    one contiguous run of the log)."""
    runs: list[str] = []
    for e in ledger.history("mtd-5"):
        rid = e.event.round_id
        if rid is None:
            continue
        if not runs or runs[-1] != rid:
            assert rid not in runs, f"round {rid}'s events are not contiguous in the chain"
            runs.append(rid)
    return runs


def test_rounds_queued_together_are_one_batch_written_as_one_by_one_would(db_url: str) -> None:
    with mtd_ledger(db_url) as ledger, mtd_ledger("sqlite://") as reference:
        ledger.definition("mtd-5")  # the object holds the definition: the common case
        feeder = feeder_of(ledger)
        before = feeder.lane.batches
        got = _in_one_batch(
            feeder, [functools.partial(_feed, ledger, i) for i in range(len(ROUNDS))]
        )
        assert feeder.lane.batches == before + 1 and feeder.lane.rounds == len(ROUNDS)
        assert all(r is not None for r in got)
        order = _round_order(ledger)
        assert sorted(order) == sorted(r[0] for r in ROUNDS)
        # the same rounds one at a time, in the order the batch chained them
        sequential: dict[str, RoundSettlement] = {}
        for rid in order:
            _, table, positions, hands = next(r for r in ROUNDS if r[0] == rid)
            sequential[rid] = reference.system("mtd-5").play_round(
                rid,
                table,
                positions,
                [QualifyingHand(p, o) for p, o in hands],
                idempotency_key=f"mtd-5/{rid}",
                by=DEALER,
            )
        for r in got:
            assert r is not None
            ref = sequential[r.round_id]
            assert r.contributions == ref.contributions
            assert [(a.position, a.outcome, a.amount_cents, a.status) for a in r.awards] == [
                (a.position, a.outcome, a.amount_cents, a.status) for a in ref.awards
            ]
        report = ledger.audit()  # the chain replayed: every mac and every level agrees
        assert report.chain_checked
        # every accepted wager ($5) counted once: 3 + 2 + 2 + 1 + 5 positions
        level = ledger.status("mtd-5").levels[0]
        assert level.wagered_cents == 13 * 500
        assert [lv.meter for lv in ledger.status("mtd-5").levels] == [
            lv.meter for lv in reference.status("mtd-5").levels
        ]


def test_one_round_twice_in_a_batch_is_settled_once(db_url: str) -> None:
    with mtd_ledger(db_url) as ledger:
        ledger.definition("mtd-5")
        got = _in_one_batch(feeder_of(ledger), [lambda: _feed(ledger, 0), lambda: _feed(ledger, 0)])
        # the first settles it; the second finds it in the transaction and is left to the
        # step-by-step procedure, which replays the first settlement
        assert sorted(r is None for r in got) == [False, True]
        settled = [e for e in ledger.history("mtd-5") if e.event.kind is EventKind.SETTLED]
        assert len(settled) == 1
        rid, table, positions, hands = ROUNDS[0]
        again = ledger.system("mtd-5").play_round(
            rid,
            table,
            positions,
            [QualifyingHand(p, o) for p, o in hands],
            idempotency_key=f"mtd-5/{rid}",
            by=DEALER,
        )
        assert again.replayed
        assert ledger.status("mtd-5").levels[0].wagered_cents == 3 * 500


class Failing(Exception):
    pass


def test_a_batch_that_fails_writes_nothing_and_its_rounds_are_fed_alone(db_url: str) -> None:
    seen: list[str] = []

    def hook(stage: str) -> None:
        if stage == "before-commit":
            seen.append(stage)
            if len(seen) == 2:  # the second round of the batch
                raise Failing("the disk is gone")

    with mtd_ledger(db_url) as ledger:
        ledger.definition("mtd-5")
        with ledger.engine.connect() as conn:
            count = conn.execute(sa.text("SELECT count(*) FROM ledger_events")).scalar_one()
        ledger.fault_hook = hook
        got = _in_one_batch(
            feeder_of(ledger), [functools.partial(_feed, ledger, i) for i in range(3)]
        )
        assert got == [None, None, None]  # rolled back: each is to be fed alone
        with ledger.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM ledger_events")).scalar_one() == count
        assert ledger.status("mtd-5").levels[0].wagered_cents == 0
        ledger.fault_hook = None
        alone = [_feed(ledger, i) for i in range(3)]
        assert all(r is not None for r in alone)
        assert ledger.audit().chain_checked
        assert ledger.status("mtd-5").levels[0].wagered_cents == (3 + 2 + 2) * 500


def test_a_batch_of_one_that_fails_raises(db_url: str) -> None:
    def hook(stage: str) -> None:
        if stage == "levels":
            raise Failing("the disk is gone")

    with mtd_ledger(db_url) as ledger:
        ledger.definition("mtd-5")
        ledger.fault_hook = hook
        with pytest.raises(Failing):
            _feed(ledger, 0)
        ledger.fault_hook = None
        assert ledger.system("mtd-5").find_round(ROUNDS[0][0]) is None


def test_a_definition_not_read_yet_is_left_to_the_procedure(db_url: str) -> None:
    with mtd_ledger(db_url) as setup:
        url = setup.url
    with Ledger(url) as ledger:
        assert ledger.known_definition("mtd-5") is None
        rid, table, positions, _ = ROUNDS[0]
        fed = ProgressiveSystem(ledger, "mtd-5").play_new_round(
            rid, table, positions, [], idempotency_key=f"mtd-5/{rid}", by=DEALER
        )
        assert fed is None  # nothing checked against it: nothing written
        assert ledger.system("mtd-5").find_round(ROUNDS[0][0]) is None


def _in_thread(fn: Callable[[], Any]) -> Any:
    out: list[Any] = []
    th = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    th.start()
    th.join(10)
    assert out, "the read waited for the writer"
    return out[0]


def test_reads_do_not_wait_for_a_writer(db_url: str) -> None:
    """A writer holds the ledger's lock (the SQLite file's flock and ``BEGIN IMMEDIATE``, the
    PostgreSQL rows locked) with a round written but not committed: the definition, a round and
    the status are read meanwhile, from the last commit."""
    with mtd_ledger(db_url) as ledger:
        system = ledger.system("mtd-5")
        rid, table, positions, _ = ROUNDS[1]
        with system._write():
            system.accept_wagers(rid, table, positions, by=DEALER)
            assert _in_thread(lambda: ledger.definition("mtd-5")).name == "mtd-5"
            assert _in_thread(lambda: system.find_round(rid)) is None  # not committed
            status = _in_thread(lambda: ledger.status("mtd-5"))
            assert status.levels[0].wagered_cents == 0
        assert system.round(rid).positions == positions


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    yield from new_db_url("postgresql", tmp_path)


def test_postgresql_reads_are_one_repeatable_read_snapshot(pg_url: str) -> None:
    with Ledger(pg_url) as ledger, ledger.reader.connect() as conn:
        assert conn.execute(sa.text("SHOW transaction_isolation")).scalar() == "repeatable read"
        assert conn.execute(sa.text("SHOW transaction_read_only")).scalar() == "on"


INSERT_KEY = sa.insert(store.idempotency)


def _key_rows(key: str) -> Rows:
    return [(INSERT_KEY, idempotency.row(key, "POST /x", "d" * 64, 201, "{}", DEALER))]


def _keys(ledger: Ledger) -> list[str]:
    with ledger.engine.connect() as conn:
        return sorted(conn.execute(sa.select(store.idempotency.c.key)).scalars())


def test_the_services_rows_queued_with_rounds_commit_in_their_transaction(db_url: str) -> None:
    with mtd_ledger(db_url) as ledger:
        store.upgrade(ledger.engine)
        ledger.definition("mtd-5")
        commits: list[int] = []
        committer = Committer(ledger.engine, lambda: commits.append(1))
        feeder = feeder_of(ledger)
        assert committer._lane is feeder.lane  # one queue per database engine
        before = feeder.lane.batches
        got = _in_one_batch(
            feeder,
            [
                functools.partial(_feed, ledger, 0),
                functools.partial(committer.write, _key_rows("a")),
                functools.partial(_feed, ledger, 1),
                functools.partial(committer.write, _key_rows("b")),
            ],
        )
        assert got[1] is True and got[3] is True
        assert got[0] is not None and got[2] is not None
        assert feeder.lane.batches == before + 1 and feeder.lane.shared == 1
        assert commits == [1]  # one commit for the two rounds and the two requests' rows
        assert _keys(ledger) == ["a", "b"]
        assert ledger.status("mtd-5").levels[0].wagered_cents == (3 + 2) * 500
        assert ledger.audit().chain_checked


def test_a_key_taken_in_a_shared_batch_leaves_the_rounds_to_be_fed_alone(db_url: str) -> None:
    with mtd_ledger(db_url) as ledger:
        store.upgrade(ledger.engine)
        ledger.definition("mtd-5")
        committer = Committer(ledger.engine)
        assert committer.write(_key_rows("taken")) is True
        feeder = feeder_of(ledger)
        got = _in_one_batch(
            feeder,
            [
                functools.partial(_feed, ledger, 0),
                functools.partial(committer.write, _key_rows("taken")),
                functools.partial(committer.write, _key_rows("c")),
            ],
        )
        # the batch rolled back whole: the round is to be fed alone, the rows went alone
        assert got == [None, False, True]
        assert _keys(ledger) == ["c", "taken"]
        assert ledger.system("mtd-5").find_round(ROUNDS[0][0]) is None
        assert _feed(ledger, 0) is not None
        assert ledger.audit().chain_checked
