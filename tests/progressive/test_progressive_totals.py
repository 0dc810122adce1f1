"""The meters as the ledger keeps them (its level rows and running totals, migration 0008, read
in a few rows: ``Ledger.meters``, ``Ledger.snapshot``, ``GET /progressives/{name}``) are the
meters its log replays to (``Ledger.replay_meters``), after any sequence of what the ledger
does — rounds by the fast path, the step-by-step procedure and the group commit, held and voided
rounds, retried settlements, validations, voided awards, adjustments, suspensions,
reconfigurations, links — on SQLite and on PostgreSQL; ``verify`` recomputes every running total
and names one edited behind croupier's back; a ledger older than the totals gets them summed from
its log by the migration.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.errors import CroupierError, LedgerError, LedgerIntegrityError, LedgerLookupError
from croupier.paytables import MeterLevel, builtin_paytables
from croupier.progressive import (
    AwardStatus,
    HitPolicy,
    Ledger,
    ProgressiveDefinition,
    QualifyingHand,
    ResetTiming,
    RoundStatus,
)
from croupier.progressive.migrate import upgrade
from croupier.wagers import ProgressiveStake
from progressive_support import (
    BACKENDS,
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    add_staff,
    mtd_ledger,
    new_db_url,
    play,
    require_pg,
)

TABLES = ("T1", "T2", "T3")


def definitions() -> list[ProgressiveDefinition]:
    """Progressives exercising every running total: Match the Dealer with a limit a few wagers
    above its seed (overflow) and the stake returned on a share award (paid by an attendant ≠
    taken from the meter); Jackpot Party's four levels with envy bonuses, resets at the award and
    near-simultaneous 100% hits shared."""
    pt = builtin_paytables()
    mtd = ProgressiveDefinition.from_paytable(
        pt.get("633b.3", "1", 6), decks=6, wager_cents=500, name="mtd",
        stake=ProgressiveStake.RETURNED,
    )  # fmt: skip
    mtd = replace(mtd, levels=(replace(mtd.levels[0], limit_cents=500_600),))
    jp = ProgressiveDefinition.from_paytable(
        pt.get("633b.2", "P22-B", 1), decks=1, wager_cents=500, name="jp",
        reset_timing=ResetTiming.ON_AWARD, hit_policy=HitPolicy.SHARE,
    )  # fmt: skip
    return [mtd, jp]


def new_ledger(url: str) -> Ledger:
    ledger = Ledger(url)
    add_staff(ledger)
    for d in definitions():
        ledger.create_progressive(d, tables=TABLES[:2], by=SHIFT)
    return ledger


# an operation: (what, progressive index, a few small integers it reads as it needs)
Op = tuple[str, int, int, int, int]
KINDS = ("fast", "fast", "fast", "steps", "feeder", "held", "retry", "validate", "validate",
         "void", "adjust", "suspend", "resume", "reconfigure", "link")  # fmt: skip
ops = st.tuples(
    st.sampled_from(KINDS),
    st.integers(0, 1),
    st.integers(0, 2**16),
    st.integers(0, 2**16),
    st.integers(0, 2**16),
)


class Session:
    """Runs operations on a ledger; a refusal of the ledger (a round while suspended, a void of
    an award paid already, …) is part of the sequence, anything else is a failure."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.names = [d.name for d in definitions()]
        self.rounds = 0
        self.settled: list[tuple[str, str, list[QualifyingHand]]] = []

    def hands(self, name: str, positions: Sequence[int], a: int, b: int) -> list[QualifyingHand]:
        """Qualifying hands at some of ``positions``, the paytable's top lines often."""
        lines = [line.outcome for line in self.ledger.definition(name).lines]
        out = []
        for i, p in enumerate(positions):
            roll = (a >> (2 * i)) & 3
            if roll == 0:
                continue
            pick = (b >> (3 * i)) % len(lines) if roll == 1 else (b >> (3 * i)) % 3
            out.append(QualifyingHand(p, lines[pick]))
        return out

    def run(self, op: Op) -> None:
        try:
            self._run(op)
        except LedgerIntegrityError:
            raise
        except CroupierError:
            pass  # the ledger refused it, saying why; it must be as before

    def _run(self, op: Op) -> None:
        what, which, a, b, c = op
        name, led = self.names[which], self.ledger
        system = led.system(name)
        positions = sorted({1 + (a >> s) % 7 for s in (0, 3, 6)})
        table = TABLES[c % 3]  # T3 is linked by a "link" operation
        if what in ("fast", "steps", "feeder", "held"):
            self.rounds += 1
            rid, hands = f"r{self.rounds}", self.hands(name, positions, a, b)
            key = f"{name}/{rid}"
            if what == "fast":
                system.play_round(rid, table, positions, hands, idempotency_key=key, by=DEALER)
            elif what == "feeder":
                done = system.play_new_round(
                    rid, table, positions, hands, idempotency_key=key, by=DEALER
                )
                if done is None:  # not the common case: the procedure decides it
                    system.play_round(rid, table, positions, hands, idempotency_key=key, by=DEALER)
            else:
                system.accept_wagers(rid, table, positions, by=DEALER)
                system.lock_out(rid, by=DEALER)
                if what == "held":
                    held = system.verify_chips(rid, len(positions) + 1, by=DEALER)
                    assert held is RoundStatus.HELD
                    if c % 2:
                        system.void_round(rid, by=FLOOR, reason="chips short")
                        return
                system.verify_chips(rid, len(positions), by=FLOOR if what == "held" else DEALER)
                system.settle_round(rid, hands, idempotency_key=key, by=DEALER)
            self.settled.append((name, key, hands))
        elif what == "retry" and self.settled:
            n, key, hands = self.settled[c % len(self.settled)]
            rid = key.split("/", 1)[1]
            led.system(n).settle_round(rid, hands, idempotency_key=key, by=DEALER)
        elif what in ("validate", "void"):
            pending = [x for n in self.names for x in led.awards(n, AwardStatus.PENDING)]
            if pending:
                award = pending[c % len(pending)]
                if what == "validate":
                    led.validate(award.id, by=FLOOR if a % 2 else PIT)
                else:
                    led.void_award(award.id, by=FLOOR, reason="not a winning hand")
        elif what == "adjust":
            levels = led.definition(name).levels
            level = levels[c % len(levels)].level
            led.adjust(name, level, meter_cents=a % 2001 - 1000, reserve_cents=b % 501, by=PIT,
                       reason="meter test")  # fmt: skip
        elif what == "suspend":
            led.suspend(name, by=PIT, reason="reconfiguration")
        elif what == "resume":
            led.resume(name, by=PIT)
        elif what == "reconfigure":
            lv = led.definition(name).levels[c % len(led.definition(name).levels)]
            changes: dict[str, Any] = {}
            if a % 3 == 0:
                changes["seeds_cents"] = {lv.level: lv.seed_cents + 100 * (b % 50 + 1)}
            elif a % 3 == 1:
                rates = (Fraction(b % 20 + 1, 100), Fraction(b % 7 + 1, 100))
                changes["rates"] = {lv.level: rates}
            else:
                changes["limits_cents"] = {lv.level: lv.seed_cents + 100 * (b % 10 + 1)}
            in_play = not led.is_suspended(name)
            if in_play:  # suspended for the change, and back in play after it
                led.suspend(name, by=PIT, reason="reconfiguration")
            try:
                led.reconfigure(name, by=SHIFT, approval=f"CR-{a}", **changes)
            finally:
                if in_play:
                    led.resume(name, by=PIT)
        elif what == "link":
            led.link_table(name, TABLES[2], by=SHIFT)

    def check(self) -> None:
        """The meters as kept are the meters the log makes, for every progressive."""
        for name in self.names:
            replayed = self.ledger.replay_meters(name)
            assert self.ledger.meters(name) == replayed, name
            status, meters = self.ledger.snapshot(name)
            assert meters == replayed, name
            assert {s.level: s for s in status.levels} == self.ledger.replay(name), name
            every = self.ledger.awards(name)  # not through the pending awards' index
            assert status.pending == tuple(a for a in every if a.status is AwardStatus.PENDING)


def run_session(url: str, sequence: Sequence[Op]) -> None:
    with new_ledger(url) as ledger:
        session = Session(ledger)
        session.check()
        for op in sequence:
            session.run(op)
            session.check()
        ledger.audit()  # and verify, which compares every stored total with the log


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(ops, min_size=1, max_size=40))
def test_the_meters_as_kept_are_the_meters_the_log_replays_to_sqlite(sequence: list[Op]) -> None:
    with tempfile.TemporaryDirectory(prefix="croupier-totals-") as tmp:
        run_session(f"sqlite:///{Path(tmp) / 'ledger.sqlite3'}", sequence)


@pytest.mark.slow
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(ops, min_size=20, max_size=120))
def test_longer_sequences_keep_the_meters_the_log_replays_to_sqlite(sequence: list[Op]) -> None:
    with tempfile.TemporaryDirectory(prefix="croupier-totals-") as tmp:
        run_session(f"sqlite:///{Path(tmp) / 'ledger.sqlite3'}", sequence)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(ops, min_size=10, max_size=40))
def test_the_meters_as_kept_are_the_meters_the_log_replays_to_postgresql(
    sequence: list[Op],
) -> None:
    require_pg()
    with tempfile.TemporaryDirectory(prefix="croupier-totals-") as tmp:
        for url in new_db_url("postgresql", Path(tmp)):
            run_session(url, sequence)


def test_a_long_day_on_both_progressives_keeps_every_total(tmp_path: Path) -> None:
    """A fixed sequence long enough to overflow the limit, pay shares and share 100% hits."""
    sequence: list[Op] = []
    for i in range(120):
        kind = ("fast", "feeder", "steps", "validate", "fast", "held", "retry", "void")[i % 8]
        sequence.append((kind, i % 2, (i * 7919) % 65536, (i * 104729) % 65536, i))
    with new_ledger(f"sqlite:///{tmp_path / 'day.sqlite3'}") as ledger:
        session = Session(ledger)
        for op in sequence:
            session.run(op)
        session.check()
        mtd, jp = (ledger.meters(n) for n in session.names)
        assert mtd.levels[0].overflow_micros > 0 and mtd.levels[0].qualifying_wagers > 0
        assert jp.paid_by_table_cents > 0 and jp.table_pays > 0
        assert any(lv.wins for lv in (*mtd.levels, *jp.levels))
        ledger.audit()


# -- tampering with the running totals ------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


@pytest.fixture
def ledger(db_url: str) -> Iterator[Ledger]:
    """Match the Dealer after an odds pay, a 10% share validated, and a round with no hand."""
    with mtd_ledger(db_url) as led:
        play(led, "mtd-5", "r1", "BJ-1", [1, 2, 3], [(1, "suited-match")])
        (a,) = play(led, "mtd-5", "r2", "BJ-1", [1, 2], [(2, "two-suited-match")]).awards
        led.validate(a.id, by=FLOOR)
        play(led, "mtd-5", "r3", "BJ-2", [4], [])
        led.audit()  # untouched, it verifies
        yield led


def sql(ledger: Ledger, statement: str) -> None:
    with ledger.engine.begin() as conn:
        conn.execute(sa.text(statement))


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (
            "UPDATE meter_levels SET qualifying_wagers = qualifying_wagers + 10",
            r"Progressive level: qualifying wagers 16 stored, the log replays to 6",
        ),
        (
            "UPDATE meter_levels SET overflow_micros = 12500",  # µ$: 1.25¢
            r"overflow \$0\.0125 stored, the log replays to \$0$",
        ),
        (
            "UPDATE meter_levels SET paid_by_attendant_cents = 0",
            r"paid by an attendant \$0 stored, the log replays to \$500\.37",
        ),
        ("UPDATE meter_levels SET wins = 2", r"wins 2 stored, the log replays to 1"),
        (
            "UPDATE progressives SET paid_by_table_cents = paid_by_table_cents - 100",
            r"paid by the table \$54 stored, the log replays to \$55",
        ),
        ("UPDATE progressives SET table_pays = 0", r"table pays 0 stored, the log replays to 1"),
    ],
)
def test_a_running_total_edited_behind_croupiers_back_fails_verify(
    ledger: Ledger, edit: str, named: str
) -> None:
    kept = ledger.meters("mtd-5")
    assert kept == ledger.replay_meters("mtd-5")
    sql(ledger, edit)
    assert ledger.meters("mtd-5") != kept  # what the fast read shows is what the row holds
    with pytest.raises(LedgerIntegrityError, match=rf"'mtd-5', running totals: .*{named}"):
        ledger.audit()
    with pytest.raises(LedgerIntegrityError, match="running totals"):
        ledger.verify("mtd-5")
    assert ledger.replay_meters("mtd-5") == kept  # the log is the record


def refuse_moving_the_head(ledger: Ledger, refuse: bool) -> None:
    """A database that fails the last statement of every write — the chain head's UPDATE, after
    the events and the running totals are written — or, ``refuse=False``, no longer does."""
    if ledger.dialect == "sqlite":
        sql(ledger, "CREATE TRIGGER boom BEFORE UPDATE ON ledger_chain "
                    "BEGIN SELECT RAISE(ABORT, 'power cut'); END" if refuse
            else "DROP TRIGGER boom")  # fmt: skip
    elif refuse:
        sql(ledger, "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN RAISE EXCEPTION 'power cut'; END $$")  # fmt: skip
        sql(ledger, "CREATE TRIGGER boom BEFORE UPDATE ON ledger_chain "
                    "FOR EACH ROW EXECUTE FUNCTION boom()")  # fmt: skip
    else:
        sql(ledger, "DROP TRIGGER boom ON ledger_chain")
        sql(ledger, "DROP FUNCTION boom()")


def test_a_running_total_is_rolled_back_with_the_events_that_moved_it(db_url: str) -> None:
    """The totals are written in the events' transaction, before its last statement: when that
    fails, neither is kept — by the fast path, the step-by-step procedure and a validation."""
    with mtd_ledger(db_url) as led:
        play(led, "mtd-5", "r1", "BJ-1", [1, 2], [(1, "suited-match")])
        (a,) = play(led, "mtd-5", "r2", "BJ-1", [1], [(1, "two-suited-match")]).awards
        system = led.system("mtd-5")
        system.accept_wagers("r4", "BJ-1", [1, 2], by=DEALER)
        system.lock_out("r4", by=DEALER)
        system.verify_chips("r4", 2, by=DEALER)
        before = led.meters("mtd-5")
        refuse_moving_the_head(led, True)
        with pytest.raises(LedgerError, match="power cut"):
            system.play_round("r3", "BJ-1", [1], [QualifyingHand(1, "suited-match")],
                              idempotency_key="k3", by=DEALER)  # fmt: skip
        with pytest.raises(LedgerError, match="power cut"):
            system.settle_round("r4", [QualifyingHand(2, "suited-match")], idempotency_key="k4",
                                by=DEALER)  # fmt: skip
        with pytest.raises(LedgerError, match="power cut"):
            led.validate(a.id, by=FLOOR)
        assert led.meters("mtd-5") == before == led.replay_meters("mtd-5")
        refuse_moving_the_head(led, False)
        system.settle_round("r4", [QualifyingHand(2, "suited-match")], idempotency_key="k4",
                            by=DEALER)  # fmt: skip
        led.validate(a.id, by=FLOOR)
        (lv,) = led.meters("mtd-5").levels
        assert (lv.qualifying_wagers, lv.wins, led.meters("mtd-5").table_pays) == (5, 1, 2)
        led.audit()


# -- a ledger made before the running totals ------------------------------------------------


def test_the_migration_sums_the_totals_of_a_ledger_made_before_them(db_url: str) -> None:
    """Down to revision 0007 (no running totals) and up again: the totals are summed from the
    log, equal to the replay, and verify holds."""
    with mtd_ledger(db_url) as led:
        play(led, "mtd-5", "r1", "BJ-1", [1, 2, 3], [(1, "suited-match"), (3, "suited-match")])
        (a,) = play(led, "mtd-5", "r2", "BJ-1", [1, 2], [(2, "two-suited-match")]).awards
        led.validate(a.id, by=FLOOR)
        play(led, "mtd-5", "r3", "BJ-2", [4, 5], [(5, "non-suited-match")])
        kept = led.meters("mtd-5")
        assert kept == led.replay_meters("mtd-5")
    engine = sa.create_engine(db_url)
    from alembic import command

    from croupier.progressive.migrate import alembic_config

    cfg = alembic_config()
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0007")
        conn.commit()
    columns = {c["name"] for c in sa.inspect(engine).get_columns("meter_levels")}
    assert "qualifying_wagers" not in columns
    upgrade(engine)
    engine.dispose()
    with Ledger(db_url, migrate=False) as led:
        assert led.meters("mtd-5") == kept == led.replay_meters("mtd-5")
        (lv,) = kept.levels
        assert (lv.qualifying_wagers, lv.wins, kept.table_pays) == (7, 1, 3)
        led.audit()


def test_the_stored_meters_of_an_unknown_progressive_name_the_known_ones(
    ledger: Ledger,
) -> None:
    for read in (ledger.meters, ledger.snapshot, ledger.replay_meters):
        with pytest.raises(LedgerLookupError, match="progressives: mtd-5"):
            read("nope")


def test_levels_without_events_read_zero_totals(tmp_path: Path) -> None:
    """A progressive just created: every total zero, as the replay says."""
    with new_ledger(f"sqlite:///{tmp_path / 'new.sqlite3'}") as led:
        for d in definitions():
            m = led.meters(d.name)
            assert m == led.replay_meters(d.name)
            assert [lv.level for lv in m.levels] == [lv.level for lv in d.levels]
            assert all(lv.qualifying_wagers == lv.wins == 0 for lv in m.levels)
            assert m.levels[0].limit_cents == d.levels[0].limit_cents
        assert isinstance(m.levels[0].level, MeterLevel)


def test_the_pending_awards_are_read_through_their_index(ledger: Ledger) -> None:
    """The status's pending awards are one indexed read, not a scan of every award made (the
    query holds the partial index's predicate as a literal; on SQLite, its plan says so)."""
    if ledger.dialect != "sqlite":
        pytest.skip("PostgreSQL plans a table of a few rows as a scan, index or not")
    statements: list[str] = []

    def seen(_conn: Any, _cur: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    sa.event.listen(ledger.reader, "before_cursor_execute", seen)
    try:
        (a,) = play(ledger, "mtd-5", "r4", "BJ-1", [1], [(1, "two-suited-match")]).awards
        status, _ = ledger.snapshot("mtd-5")
    finally:
        sa.event.remove(ledger.reader, "before_cursor_execute", seen)
    assert [p.id for p in status.pending] == [a.id]
    (query,) = [q for q in statements if "FROM awards" in q]
    with ledger.reader.connect() as conn:
        plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {query}", (1,)).all()
    assert any("ix_awards_pending" in str(step) for step in plan), plan
