"""``ProgressiveSystem.play_round``'s short locked transaction (croupier.progressive.play) writes
exactly what the step-by-step procedure writes, and leaves every case that is not the common one
to that procedure — on SQLite and on PostgreSQL.

The reference is the procedure itself, driven a step at a time on a second ledger
(accept → lock-out → chip count → settle): the same rounds give the same events (kind, level,
deltas, amounts, actor, role, detail), rounds, awards, settlements and levels, and ``verify``
passes on both.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.errors import (
    IdempotencyConflictError,
    LedgerIntegrityError,
    LedgerLookupError,
    LinkError,
    PaytableError,
    RoundStateError,
)
from croupier.progressive import Ledger, QualifyingHand, Role
from croupier.progressive import schema as t
from progressive_support import (
    BACKENDS,
    DEALER,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    play,
)

OUTCOMES = [
    "two-suited-match-aces-of-spades",
    "two-suited-match",
    "suited-match",
    "non-suited-match",
]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _ledger(backend: str, tmp_path: Path) -> Iterator[Ledger]:
    for url in new_db_url(backend, tmp_path):
        with Ledger(url) as ledger:
            add_staff(ledger)
            ledger.create_progressive(
                paytable_definition("633b.3", "1", 6, 500, "mtd"), tables=["T1", "T2"], by=SHIFT
            )
            yield ledger


@pytest.fixture
def fast(backend: str, tmp_path: Path) -> Iterator[Ledger]:
    yield from _ledger(backend, tmp_path)


@pytest.fixture
def steps(backend: str, tmp_path: Path) -> Iterator[Ledger]:
    yield from _ledger(backend, tmp_path)


def rounds(n: int) -> list[tuple[str, str, list[int], list[tuple[int, str]]]]:
    """``n`` rounds at two tables with a few winners each (share awards, odds lines)."""
    rng = random.Random(12)
    out = []
    for i in range(n):
        seats = sorted(rng.sample(range(1, 8), rng.randint(1, 5)))
        hands = [(p, rng.choice(OUTCOMES)) for p in seats if rng.random() < 0.35]
        out.append((f"r{i}", f"T{1 + i % 2}", seats, hands))
    return out


def dump(ledger: Ledger) -> dict[str, Any]:
    """Everything the ledger holds but the times, macs and staff (whose credential hashes are
    salted: they differ by construction)."""
    with ledger.engine.connect() as conn:
        events = [
            {k: v for k, v in r._mapping.items() if k not in ("created_at", "mac")}
            for r in conn.execute(sa.select(t.ledger_events).order_by(t.ledger_events.c.seq))
            if r.kind != "user"
        ]
        rows = {
            name: sorted(
                tuple((k, v) for k, v in r._mapping.items() if k != "created_at")
                for r in conn.execute(sa.select(table))
            )
            for name, table in (
                ("rounds", t.rounds),
                ("awards", t.awards),
                ("levels", t.meter_levels),
                ("settlements", t.settlements),
            )
        }
    return {"events": events, **rows}


def test_a_round_played_at_once_writes_what_the_steps_write(fast: Ledger, steps: Ledger) -> None:
    system = fast.system("mtd")
    for rid, table, seats, hands in rounds(40):
        got = system.play_round(
            rid,
            table,
            seats,
            [QualifyingHand(p, o) for p, o in hands],
            idempotency_key=f"{table}/{rid}",
            by=DEALER,
        )
        want = play(steps, "mtd", rid, table, seats, hands, key=f"{table}/{rid}")
        assert got == want
    a, b = dump(fast), dump(steps)
    assert a["events"] == b["events"]
    assert a == b
    assert len(a["awards"]) > 10  # the rounds did pay
    fast.audit()
    steps.audit()


def test_a_retry_replays_and_other_hands_conflict(fast: Ledger) -> None:
    system = fast.system("mtd")
    first = system.play_round(
        "r1", "T1", [1, 2], [QualifyingHand(2, "suited-match")], idempotency_key="k", by=DEALER
    )
    before = dump(fast)
    again = system.play_round(
        "r1", "T1", [1, 2], [QualifyingHand(2, "suited-match")], idempotency_key="k", by=DEALER
    )
    assert again.replayed and again.awards == first.awards
    with pytest.raises(IdempotencyConflictError):
        system.play_round("r1", "T1", [1, 2], [], idempotency_key="k", by=DEALER)
    assert dump(fast) == before


@pytest.mark.parametrize(
    ("table", "seats", "hands", "by", "error"),
    [
        ("T9", [1], [], DEALER, LinkError),
        ("T1", [1], [], "nobody", LedgerLookupError),
        ("T1", [1, 1], [], DEALER, RoundStateError),
        ("T1", [0], [], DEALER, RoundStateError),
        ("T1", [1], [(2, "suited-match")], DEALER, RoundStateError),
        ("T1", [1], [(1, "royal-flush")], DEALER, PaytableError),
    ],
)
def test_what_the_steps_refuse_is_refused_and_nothing_changes(
    fast: Ledger, table: str, seats: list[int], hands: list[tuple[int, str]], by: str, error: type
) -> None:
    before = dump(fast)
    with pytest.raises(error):
        fast.system("mtd").play_round(
            "r1",
            table,
            seats,
            [QualifyingHand(p, o) for p, o in hands],
            idempotency_key="k",
            by=by,
        )
    assert dump(fast) == before


def test_a_promoted_staff_row_is_refused_and_staff_added_later_are_seen(fast: Ledger) -> None:
    system = fast.system("mtd")
    system.play_round("r0", "T1", [1], [], idempotency_key="k0", by=DEALER)  # staff cached
    fast.add_user("dora", Role.DEALER, "dora-secret", by=SHIFT)
    s = system.play_round("r1", "T1", [1], [], idempotency_key="k1", by="dora")
    assert not s.replayed
    with fast.engine.begin() as conn:
        conn.execute(sa.text("UPDATE staff SET role = 'floorperson' WHERE name = 'dora'"))
    with pytest.raises(LedgerIntegrityError, match="staff store's entry for 'dora'"):
        system.play_round("r2", "T1", [1], [], idempotency_key="k2", by="dora")
    assert system.find_round("r2") is None


def test_a_committing_batch_whose_update_misses_commits_nothing(fast: Ledger) -> None:
    """The guard behind the levels' write: an UPDATE that must change one row and changes none
    fails the whole batch, commit included (on PostgreSQL the commit rides in the pipeline)."""
    from croupier.progressive.batch import Batch

    levels = t.meter_levels
    missing = sa.update(levels).where(levels.c.level == sa.bindparam("b_level")).values(hits=1)
    with (
        pytest.raises(LedgerIntegrityError, match="does not serialise writers"),
        fast.engine.begin() as conn,
    ):
        b = Batch(conn)
        b.add(sa.update(levels).values(hits=levels.c.hits + 7), {})
        b.add(missing, {"b_level": "no-such-level"}, rows=1)
        b.run(commit=True)
    assert {lv.hits for lv in fast.status("mtd").levels} == {0}


@pytest.mark.parametrize("stage", ["contributions", "levels", "before-commit"])
def test_a_crash_inside_a_played_round_leaves_the_ledger_as_before(
    fast: Ledger, stage: str
) -> None:
    class Crash(Exception):
        pass

    def hook(at: str) -> None:
        if at == stage:
            raise Crash(at)

    hands = [QualifyingHand(2, "two-suited-match")]
    with Ledger(fast.url, fault_hook=hook) as crashing:
        before = dump(fast)
        with pytest.raises(Crash):
            crashing.system("mtd").play_round(
                "r1", "T1", [1, 2], hands, idempotency_key="k", by=DEALER
            )
        assert dump(fast) == before
    s = fast.system("mtd").play_round("r1", "T1", [1, 2], hands, idempotency_key="k", by=DEALER)
    assert not s.replayed and len(s.awards) == 1
    fast.audit()


def test_a_pooled_connection_dropped_while_idle_is_replaced(
    fast: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL connections are pinged only after being idle (not three round trips per
    round): one the server dropped meanwhile is found dead at checkout and replaced."""
    if fast.dialect != "postgresql":
        pytest.skip("a server's connections")
    import croupier.progressive.store as store

    system = fast.system("mtd")
    system.play_round("r0", "T1", [1], [], idempotency_key="k0", by=DEALER)
    with fast.engine.connect() as conn:
        pid = conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
    other = sa.create_engine(fast.url)
    with other.begin() as conn:
        conn.execute(sa.text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    other.dispose()
    monkeypatch.setattr(store, "IDLE_PING_SECONDS", 0.0)
    s = system.play_round("r1", "T1", [1], [], idempotency_key="k1", by=DEALER)
    assert not s.replayed
    fast.audit()
