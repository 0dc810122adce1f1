"""Linked tables writing one meter at once (§ 605a.8), on PostgreSQL and SQLite: a settlement
waits for another's lock instead of losing its increment, and four writer processes killed with
SIGKILL mid-transaction, again and again, leave every round applied exactly once."""

from __future__ import annotations

import multiprocessing
import multiprocessing.process
import random
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from croupier.paytables import MeterLevel
from croupier.progressive import (
    AwardKind,
    AwardStatus,
    EventKind,
    Ledger,
    QualifyingHand,
    ReseedFunding,
    RoundStatus,
    SignificantCode,
)
from croupier.progressive.meters import StoredEvent
from progressive_support import (
    BACKENDS,
    DEALER,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
)
from progressive_worker import NEW_LIMIT_CENTS, hands_for
from progressive_worker import main as worker_main

U = 10_000


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def test_a_second_settlement_waits_for_the_first_and_both_increments_land(db_url: str) -> None:
    """Session A settles table T1 and stops inside its transaction; session B settles table T2
    on the same meter meanwhile. B must wait for A's lock, then add to A's result."""
    inside, release = threading.Event(), threading.Event()

    def hold(stage: str) -> None:
        if stage == "levels":
            inside.set()
            assert release.wait(30)

    with Ledger(db_url) as setup:
        add_staff(setup)
        setup.create_progressive(
            paytable_definition("633b.3", "1", 6, 500, "linked"), tables=["T1", "T2"], by=SHIFT
        )
        for table, rid, seats in (("T1", "a", [1, 2]), ("T2", "b", [1, 2, 3])):
            s = setup.system("linked")
            s.accept_wagers(rid, table, seats, by=DEALER)
            s.lock_out(rid, by=DEALER)
            s.verify_chips(rid, len(seats), by=DEALER)
    a_ledger = Ledger(db_url, fault_hook=hold)
    b_ledger = Ledger(db_url)
    errors: list[BaseException] = []
    done_b = threading.Event()

    def settle(ledger: Ledger, rid: str, done: threading.Event | None) -> None:
        try:
            ledger.system("linked").settle_round(
                rid, [QualifyingHand(1, "two-suited-match")], idempotency_key=rid, by=DEALER
            )
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            if done is not None:
                done.set()

    ta = threading.Thread(target=settle, args=(a_ledger, "a", None))
    ta.start()
    assert inside.wait(30)
    tb = threading.Thread(target=settle, args=(b_ledger, "b", done_b))
    tb.start()
    time.sleep(0.5)
    assert not done_b.is_set(), "B settled while A held the meter"
    release.set()
    ta.join(30)
    tb.join(30)
    assert not errors, errors
    with Ledger(db_url) as ledger:
        awards = {a.round_id: a.amount_cents for a in ledger.awards("linked")}
        # A first: 10% of $5,000 + 2 × 75¢; then B on what A left + 3 × 75¢
        a_award = (500_000 + 150) // 10
        b_award = (500_000 + 150 + 225 - a_award) // 10
        assert awards == {"a": a_award, "b": b_award}
        (lv,) = ledger.status("linked").levels
        assert (lv.meter, lv.reserve) == ((500_000 + 375) * U, 150 * U)
        ledger.verify("linked")
    a_ledger.close()
    b_ledger.close()


def run_killed_workers(
    url: str,
    tables: list[str],
    rounds: int,
    seats: int,
    kill_p: float,
    timeout: float,
    controls: bool = False,
) -> int:
    """Run one writer process per table until each finishes, restarting every one SIGKILLed;
    each worker's first run kills itself at a random point. Returns the number of kills.

    The workers are forked (no second import of croupier), each opening its own connections."""
    rng = random.Random(605)
    ctx = multiprocessing.get_context("fork")

    def start(table: str, first: bool) -> multiprocessing.process.BaseProcess:
        kill_at = rng.randint(2, 4 * rounds) if first else 0
        args = [url, "linked", table, str(rounds), str(seats), str(kill_at), str(kill_p)]
        args.append("1" if controls else "0")
        p = ctx.Process(target=worker_main, args=(args,))
        p.start()
        return p

    procs = {t: start(t, True) for t in tables}
    kills = 0
    deadline = time.monotonic() + timeout
    while procs:
        if time.monotonic() > deadline:
            for p in procs.values():
                p.kill()
            pytest.fail(f"workers still running after {timeout} s ({kills} kills so far)")
        for table, p in list(procs.items()):
            if p.is_alive():
                continue
            p.join()
            if p.exitcode == 0:
                del procs[table]
            elif p.exitcode == -signal.SIGKILL:
                kills += 1
                procs[table] = start(table, False)
            else:
                pytest.fail(f"worker {table} failed with exit code {p.exitcode}")
        time.sleep(0.02)
    return kills


def check_controls(history: list[StoredEvent]) -> None:
    """With the workers' controls: one suspension, one reconfiguration, one resumption, whatever
    was killed on the way; every session the log shows started was shut down or, killed,
    recovered exactly once by a later start-up."""
    kinds = [e.kind for e in history]
    assert kinds.count(EventKind.SUSPEND) == kinds.count(EventKind.RESUME) == 1
    assert kinds.count(EventKind.RECONFIGURE) == 1
    assert kinds.index(EventKind.SUSPEND) < kinds.index(EventKind.RECONFIGURE)
    assert kinds.index(EventKind.RECONFIGURE) < kinds.index(EventKind.RESUME)
    sig = [e.detail for e in history if e.kind is EventKind.SIGNIFICANT]
    started = [d["session"] for d in sig if d["code"] == SignificantCode.STARTUP_SELF_CHECK.value]
    closed = [d["session"] for d in sig if d["code"] == SignificantCode.SHUTDOWN.value]
    recovered = [
        d["crashed_session"] for d in sig if d["code"] == SignificantCode.CRASH_RECOVERY.value
    ]
    assert len(started) >= 4 and recovered, "no session was killed after its start-up"
    assert sorted(closed + recovered) == sorted(started)
    assert all(d["result"] == "replayed exactly" for d in sig if "crashed_session" in d)


def check_linked_meter(url: str, tables: list[str], rounds: int, seats: int) -> None:
    """Every round settled once, every award made once and paid once, and the meter equal to
    seed + contributions − awards (+ a seed and the reserve per reset)."""
    with Ledger(url) as ledger:
        system = ledger.system("linked")
        defn = system.definition
        (lvd,) = defn.levels
        expected = set()
        resets = 0
        for table in tables:
            for i in range(rounds):
                rid = f"{table}-{i}"
                assert system.round(rid).status is RoundStatus.SETTLED
                for h in hands_for(table, i, seats):
                    kind = "odds" if h.outcome in ("suited-match", "non-suited-match") else "meter"
                    expected.add((rid, h.position, kind, h.outcome))
                    resets += h.outcome == "two-suited-match-aces-of-spades"
        awards = ledger.awards("linked")
        got = [(a.round_id, a.position, a.kind.value, a.outcome) for a in awards]
        assert sorted(got) == sorted(expected), "an award was lost or made twice"
        assert all(a.status is AwardStatus.PAID for a in awards)
        history = [e.event for e in ledger.history("linked")]
        settled = [e.round_id or "" for e in history if e.kind is EventKind.SETTLED]
        assert sorted(settled) == sorted(f"{t}-{i}" for t in tables for i in range(rounds))
        payments = [e.award_id or 0 for e in history if e.kind is EventKind.PAYMENT]
        meter_awards = [a.id for a in awards if a.kind is AwardKind.METER]
        assert sorted(payments) == sorted(meter_awards), "an award was paid twice or not at all"

        (lv,) = ledger.status("linked").levels
        wagered = len(tables) * rounds * seats * defn.wager_cents
        primary = wagered * lvd.primary_rate * U
        secondary = wagered * lvd.secondary_rate * U
        paid = sum(a.meter_cents for a in awards if a.kind is AwardKind.METER)
        assert primary.denominator == secondary.denominator == 1
        seeds = lvd.seed_cents * U * (1 + resets)
        house = sum(
            int(e.detail["house_micros"]) if "house_micros" in e.detail else lvd.seed_cents * U
            for e in history
            if e.kind is EventKind.RESET
        )
        if defn.reseed is ReseedFunding.HOUSE:
            # every reset a new seed from the house, the reserve on top: nothing else changes
            # meter + reserve but the increments and the awards
            assert house == lvd.seed_cents * U * resets
            assert lv.meter + lv.reserve == seeds + int(primary + secondary) - paid * U
        else:
            # the reserve (6% of at most $120 wagered: $7.20) is short of the $1,000 seed at
            # every reset, so it is all consumed and the house tops it up: the meter holds the
            # seeds and the primary increments less the awards, and the reserve consumed plus
            # the house's top-ups make up the reseeds
            assert secondary < lvd.seed_cents * U
            assert lv.meter == seeds + int(primary) - paid * U
            assert house + int(secondary) - lv.reserve == lvd.seed_cents * U * resets
        assert lv.held == 0 and lv.paid_cents == paid and lv.wagered_cents == wagered
        assert ledger.verify("linked")[MeterLevel.PROGRESSIVE] == lv


def killed_writers(
    url: str,
    rounds: int,
    kill_p: float,
    timeout: float,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    controls: bool = False,
) -> int:
    tables = ["T1", "T2", "T3", "T4"]
    seats = 3
    with Ledger(url) as ledger:
        add_staff(ledger)
        d = replace(paytable_definition("633b.3", "1", 6, 100, "linked"), reseed=reseed)
        ledger.create_progressive(d, tables=tables, by=SHIFT)
    kills = run_killed_workers(url, tables, rounds, seats, kill_p, timeout, controls)
    assert kills >= len(tables)
    check_linked_meter(url, tables, rounds, seats)
    if controls:
        with Ledger(url) as ledger:
            check_controls([e.event for e in ledger.history()])
            # the limit the reconfiguration set is the one in force
            assert ledger.definition("linked").levels[0].limit_cents == NEW_LIMIT_CENTS
    return kills


@pytest.mark.parametrize("reseed", list(ReseedFunding))
def test_four_writers_killed_mid_settlement_leave_every_round_applied_once(
    db_url: str, reseed: ReseedFunding
) -> None:
    # each worker is killed once at a random point of its run, then at random (1% of the
    # points inside a transaction); the slow test below runs much longer
    assert killed_writers(db_url, rounds=10, kill_p=0.01, timeout=120, reseed=reseed) >= 4


@pytest.mark.slow  # four processes, each auditing the ledger at every start: ~5 s each
def test_writers_killed_mid_suspension_reconfiguration_and_significant_events(
    db_url: str,
) -> None:
    # the controllers open the ledger with their self-check and T1 suspends, reconfigures and
    # resumes the link; each worker is killed once at a random point of its run (its start-up,
    # a significant event, the suspension, the reconfiguration, a settlement, a reset …)
    assert killed_writers(db_url, rounds=6, kill_p=0.01, timeout=120, controls=True) >= 4


@pytest.mark.slow
def test_writers_with_controls_killed_again_and_again_over_a_long_run(db_url: str) -> None:
    kills = killed_writers(db_url, rounds=60, kill_p=0.03, timeout=1200, controls=True)
    print(f"{kills} controller processes killed with SIGKILL mid-transaction")
    assert kills >= 8


@pytest.mark.slow
def test_four_writers_killed_again_and_again_over_a_long_run(db_url: str) -> None:
    # each worker dies once for certain, then at 3% of its transaction points: about 15 more
    # deaths expected over 80 rounds on four tables (fewer than 4 more: Poisson tail < 1e-4)
    kills = killed_writers(db_url, rounds=80, kill_p=0.03, timeout=1200)
    print(f"{kills} writer processes killed with SIGKILL mid-transaction")
    assert kills >= 8
