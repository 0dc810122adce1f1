"""Issue 16: the ledger's write path on PostgreSQL — a batch of writes sent as one message of
statements bound on the client (:meth:`croupier.progressive.batch.Batch._simple`), and a batch of
rounds whose commit does not wait for the disk under the ledger's lock but is answered only once
a flush barrier has returned (:func:`croupier.progressive.store.flush_barrier`) — on SQLite and
PostgreSQL where the behaviour is shared.

What is written is compared with what was given (values a client-side binding could get wrong:
quotes, backslashes, percent signs, placeholders' text, non-ASCII, newlines, integers past 32
bits, times with a zone, NULL, booleans); the guard of a compare-and-set write fails the whole
batch, commit included; and a batch whose flush is not confirmed is answered with that error,
is committed all the same, and its retry answers the first settlement — nothing lost, nothing
doubled.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import croupier.progressive.core as core
import croupier.progressive.store as store
from croupier.errors import LedgerIntegrityError
from croupier.progressive import Ledger, QualifyingHand
from croupier.progressive.batch import Batch
from croupier.progressive.store import LedgerDatabaseError, UnconfirmedFlushError
from progressive_support import BACKENDS, DEALER, mtd_ledger, new_db_url

META = sa.MetaData()
ODD = sa.Table(
    "odd_values",
    META,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("big", sa.BigInteger, nullable=False),
    sa.Column("text", sa.Text, nullable=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("flag", sa.Boolean, nullable=False),
)
AT = datetime(2026, 12, 5, 16, 59, 30, 123456, tzinfo=UTC)
ROWS: list[dict[str, Any]] = [
    {"id": 1, "big": 2**40 + 7, "text": "it's", "at": AT, "flag": True},
    {"id": 2, "big": -(2**33), "text": "back\\slash \\x41", "at": None, "flag": False},
    {
        "id": 3,
        "big": 0,
        "text": "50% off %(big)s %s $1 ;",
        "at": AT + timedelta(days=1),
        "flag": True,
    },
    {"id": 4, "big": 5, "text": "K♦ naïve\nsecond line\t'' \"", "at": AT, "flag": False},
    {"id": 5, "big": 2**62, "text": None, "at": AT, "flag": True},
]


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sa.Engine]:
    for url in new_db_url(str(request.param), tmp_path):
        e = sa.create_engine(url)
        META.create_all(e)
        try:
            yield e
        finally:
            e.dispose()


def _stored(engine: sa.Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(ODD).order_by(ODD.c.id)).mappings().all()
    out = []
    for r in rows:
        d = dict(r)
        if d["at"] is not None and d["at"].tzinfo is None:  # SQLite keeps no zone
            d["at"] = d["at"].replace(tzinfo=UTC)
        out.append(d)
    return out


def test_a_batch_inside_a_transaction_writes_exactly_what_it_was_given(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        conn.execute(sa.select(sa.literal(1))).all()  # inside a transaction: one message
        b = Batch(conn)
        b.add(sa.insert(ODD), ROWS[:4])  # many rows: one INSERT of many VALUES
        b.add(sa.insert(ODD), ROWS[4])
        b.add(
            sa.update(ODD).where(ODD.c.id == sa.bindparam("b_id")).values(big=ODD.c.big + 1),
            {"b_id": 1},
            rows=1,
        )
        read = b.add(sa.select(ODD.c.id, ODD.c.text).order_by(ODD.c.id), {})
        got = b.run(commit=True)
    assert got[0] == 4 and got[1] == 1 and got[2] == 1
    assert got[read] == [{"id": r["id"], "text": r["text"]} for r in ROWS]
    expected = [dict(r) for r in ROWS]
    expected[0]["big"] += 1
    assert _stored(engine) == expected


def test_a_guard_that_misses_inside_a_transaction_commits_nothing(engine: sa.Engine) -> None:
    with pytest.raises(LedgerIntegrityError, match="does not serialise writers"):  # noqa: SIM117
        with engine.begin() as conn:
            conn.execute(sa.select(sa.literal(1))).all()
            b = Batch(conn)
            b.add(sa.insert(ODD), ROWS[:2])
            b.add(
                sa.update(ODD).where(ODD.c.id == sa.bindparam("b_id")).values(flag=True),
                {"b_id": 99},
                rows=1,
            )
            b.run(commit=True)
    assert _stored(engine) == []


@pytest.fixture(params=BACKENDS)
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    for url in new_db_url(str(request.param), tmp_path):
        with mtd_ledger(url) as led:
            yield led


def _feed(ledger: Ledger, rid: str) -> Any:
    return ledger.system("mtd-5").play_new_round(
        rid,
        "BJ-1",
        [1, 2],
        [QualifyingHand(2, "suited-match")],
        idempotency_key=f"mtd-5/{rid}",
        by=DEALER,
    )


def test_a_batch_is_answered_only_after_its_commit_reached_the_disk(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the barrier runs after the commit (the round is visible to another
    connection when it starts) and before the answer; on SQLite, whose commit syncs the file
    itself, there is none."""
    seen: list[bool] = []
    real = store.flush_barrier

    def barrier(engine: sa.Engine) -> None:
        with sa.create_engine(ledger.url).connect() as other:
            n = other.execute(sa.text("SELECT count(*) FROM rounds")).scalar_one()
        seen.append(n == 1)
        real(engine)

    monkeypatch.setattr(core, "flush_barrier", barrier)
    s = _feed(ledger, "r1")
    assert s is not None and len(s.awards) == 1
    assert seen == ([True] if ledger.dialect == "postgresql" else [])
    ledger.audit()


def test_a_flush_not_confirmed_answers_an_error_and_the_retry_replays(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    if ledger.dialect != "postgresql":
        pytest.skip("SQLite's commit syncs the file itself: no barrier")

    def failing(_engine: sa.Engine) -> None:
        raise LedgerDatabaseError("the ledger database refused the operation: connection lost")

    monkeypatch.setattr(core, "flush_barrier", failing)
    with pytest.raises(UnconfirmedFlushError, match="same request again answers it"):
        _feed(ledger, "r1")
    monkeypatch.undo()
    system = ledger.system("mtd-5")
    first = system.find_round("r1")
    assert first is not None  # committed all the same
    again = system.play_round(
        "r1",
        "BJ-1",
        [1, 2],
        [QualifyingHand(2, "suited-match")],
        idempotency_key="mtd-5/r1",
        by=DEALER,
    )
    assert again.replayed and len(again.awards) == 1
    wagered = sum(lv.wagered_cents for lv in ledger.status("mtd-5").levels)
    assert wagered == 2 * 500 * len(ledger.status("mtd-5").levels)  # contributed once
    ledger.audit()
