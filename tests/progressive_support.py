"""Shared helpers of the progressive ledger tests: databases (SQLite files and real PostgreSQL
schemas), staff, and a round driven through the whole procedure.

PostgreSQL: ``$CROUPIER_TEST_PG_URL`` or ``postgresql+psycopg://postgres@127.0.0.1:5432/test``.
Each test gets its own schema (dropped afterwards). When no server answers, the PostgreSQL
variants are skipped with that reason; set ``CROUPIER_REQUIRE_PG=1`` to make that a failure.
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from croupier.paytables import MeterLevel, builtin_paytables
from croupier.progressive import (
    EnvyRule,
    Ledger,
    ProgressiveDefinition,
    QualifyingHand,
    ReseedFunding,
    ResetTiming,
    Role,
    RoundSettlement,
    RoundStatus,
    schema,
)
from croupier.progressive.staff import use_hasher

# argon2 at its lowest cost: the tests hash dozens of credentials (verification reads the
# parameters from each hash, so the production cost is unaffected)
use_hasher(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
# ledger keys of PostgreSQL test schemas live under $XDG_DATA_HOME: a directory of the test run's
# own (inherited by the writer processes), never the user's
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="croupier-test-data-")

PG_URL = os.environ.get("CROUPIER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", "postgresql"]

DEALER = "dana"
FLOOR = "flo"
PIT = "pat"
SHIFT = "sam"


def keyless(ledger: Ledger, tmp_path: Path) -> Ledger:
    """The same database opened where the ledger key is not."""
    return Ledger(ledger.url, key_file=tmp_path / "elsewhere" / "no.key")


def secret(name: str) -> str:
    """The test credential of staff member ``name``."""
    return f"{name}-secret"


@cache
def pg_unavailable() -> str | None:
    """Why PostgreSQL cannot be used, or ``None`` when it can."""
    try:
        engine = sa.create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        engine.dispose()
    except Exception as exc:  # any failure to connect means: skip, saying why
        return f"PostgreSQL at {PG_URL} is unreachable ({type(exc).__name__}: {exc})"
    return None


def require_pg() -> None:
    """Skip (or, with CROUPIER_REQUIRE_PG=1, fail) when PostgreSQL is unreachable."""
    why = pg_unavailable()
    if why is not None:
        if os.environ.get("CROUPIER_REQUIRE_PG") == "1":
            pytest.fail(why)
        pytest.skip(why)


def pg_schema_url(schema: str) -> str:
    """The PostgreSQL URL with ``schema`` first on the search path, its sessions committing
    without waiting for the server's WAL flush (``synchronous_commit=off``).

    A commit is still atomic, isolated and at once visible to every other session; only a crash
    of the PostgreSQL server itself could lose the last ones, and no test stops that server
    (the tests SIGKILL croupier's processes, whose commits the server holds either way). The
    wait for the flush was most of the wall time of the long ledger sessions."""
    sep = "&" if "?" in PG_URL else "?"
    options = f"-csearch_path={schema} -csynchronous_commit=off"
    return f"{PG_URL}{sep}options={quote(options)}"


def new_db_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of ``backend``; a PostgreSQL schema is dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / f'ledger-{uuid.uuid4().hex[:8]}.sqlite3'}"
        return
    require_pg()
    schema = f"croupier_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield pg_schema_url(schema)
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def paytable_definition(
    section: str,
    key: str,
    decks: int,
    wager_cents: int,
    name: str = "prog",
    *,
    reset_timing: ResetTiming = ResetTiming.ON_VALIDATION,
    envy_rule: EnvyRule = EnvyRule.EACH,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    submission_sha256: str | None = None,
) -> ProgressiveDefinition:
    """A definition from a built-in paytable."""
    return ProgressiveDefinition.from_paytable(
        builtin_paytables().get(section, key, decks),
        decks=decks,
        wager_cents=wager_cents,
        name=name,
        reset_timing=reset_timing,
        envy_rule=envy_rule,
        reseed=reseed,
        submission_sha256=submission_sha256,
    )


def add_staff(ledger: Ledger) -> None:
    """A shift manager (the bootstrap), then a dealer, a floorperson and a pit manager."""
    ledger.bootstrap(SHIFT, secret(SHIFT))
    ledger.add_user(DEALER, Role.DEALER, secret(DEALER), by=SHIFT)
    ledger.add_user(FLOOR, Role.FLOORPERSON, secret(FLOOR), by=SHIFT)
    ledger.add_user(PIT, Role.PIT_MANAGER, secret(PIT), by=SHIFT)


def mtd_ledger(url: str) -> Ledger:
    """A ledger with :func:`add_staff` and the $5 Match the Dealer progressive ``mtd-5``
    (§ 633b.3 paytable 1, 6 decks) linked to tables BJ-1 and BJ-2."""
    ledger = Ledger(url)
    add_staff(ledger)
    ledger.create_progressive(
        paytable_definition("633b.3", "1", 6, 500, "mtd-5"), tables=["BJ-1", "BJ-2"], by=SHIFT
    )
    return ledger


def play(
    ledger: Ledger,
    progressive: str,
    round_id: str,
    table: str,
    positions: Sequence[int],
    hands: Sequence[tuple[int, str]] = (),
    *,
    key: str | None = None,
) -> RoundSettlement:
    """Accept, lock out, count (agreeing) and settle one round."""
    system = ledger.system(progressive)
    system.accept_wagers(round_id, table, positions, by=DEALER)
    system.lock_out(round_id, by=DEALER)
    assert system.verify_chips(round_id, len(positions), by=DEALER) is RoundStatus.VERIFIED
    return system.settle_round(
        round_id,
        [QualifyingHand(p, o) for p, o in hands],
        idempotency_key=key or f"{table}/{round_id}",
        by=DEALER,
    )


def day_with_an_award(url: str) -> tuple[Ledger, datetime, int, int]:
    """A day with an award on ``mtd-5`` (:func:`mtd_ledger`; tests/progressive/
    test_progressive_liability.py works its figures by hand): before it, r0 at BJ-1 (1 wager);
    during it, r1 at BJ-1 (3 wagers), r2 at BJ-2 (2 wagers, seat 1's 100% award validated and
    paid), a pit manager's +$1 adjustment, r3 at BJ-1 (1 wager, seat 1's 10% award pending). The
    ledger, the instant the day starts, and the ids of the paid 100% award and the pending 10%
    one."""
    ledger = mtd_ledger(url)
    play(ledger, "mtd-5", "r0", "BJ-1", [1])
    time.sleep(0.01)
    start = datetime.now(UTC)
    time.sleep(0.01)
    play(ledger, "mtd-5", "r1", "BJ-1", [1, 2, 3])
    (big,) = play(
        ledger, "mtd-5", "r2", "BJ-2", [1, 2], [(1, "two-suited-match-aces-of-spades")]
    ).awards
    ledger.validate(big.id, by=FLOOR)
    ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, meter_cents=100, by=PIT, reason="meter fault")
    (small,) = play(ledger, "mtd-5", "r3", "BJ-1", [1], [(1, "two-suited-match")]).awards
    return ledger, start, big.id, small.id


TABLES = ["progressives", "staff", "linked_tables", "meter_levels", "rounds", "settlements",
          "awards", "ledger_events", "ledger_chain"]  # fmt: skip
"""The ledger's tables a backup holds (:func:`snapshot`), parents first."""


def without_append_only(ledger: Ledger) -> None:
    """What someone with the database's owner rights can do: take the trigger out of the way."""
    with ledger.engine.begin() as conn:
        if ledger.dialect == "sqlite":
            conn.execute(sa.text("DROP TRIGGER IF EXISTS ledger_events_no_update"))
            conn.execute(sa.text("DROP TRIGGER IF EXISTS ledger_events_no_delete"))
        else:
            conn.execute(
                sa.text("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_append_only")
            )


def snapshot(ledger: Ledger) -> dict[str, list[dict[str, object]]]:
    """Every row of the ledger's tables: a backup."""
    with ledger.engine.connect() as conn:
        return {
            name: [dict(r._mapping) for r in conn.execute(sa.select(schema.metadata.tables[name]))]
            for name in TABLES
        }


def restore(ledger: Ledger, backup: dict[str, list[dict[str, object]]]) -> None:
    """Put the backup back, as someone restoring the database from an earlier copy would."""
    without_append_only(ledger)
    tables = schema.metadata.tables
    with ledger.engine.begin() as conn:
        for name in reversed(TABLES):
            conn.execute(tables[name].delete())
        for name in TABLES:
            if backup[name]:
                conn.execute(tables[name].insert(), backup[name])
