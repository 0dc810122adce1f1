"""Issue 16: PostgreSQL with a progressive slowed as the log grew (p50 94 → 254 ms over 30 s).

Every round's locked read asks for the newest event outside any progressive (``max(seq) WHERE
progressive_id IS NULL``, the staff cache's check). On the statistics of a young log — mostly
staff events, as when the service starts — PostgreSQL planned it as a backward scan of the
primary key filtering out every progressive event since the last staff one: a read that grew
with each round, under the ledger's lock. Migration 0006's partial index makes it one entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.progressive import QualifyingHand
from progressive_support import DEALER, mtd_ledger, new_db_url

STAFF_SEQ = "SELECT max(seq) FROM ledger_events WHERE progressive_id IS NULL"


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    yield from new_db_url("postgresql", tmp_path)


def test_the_newest_staff_event_is_one_index_entry_however_long_the_log(pg_url: str) -> None:
    with mtd_ledger(pg_url) as ledger:
        with ledger.engine.begin() as conn:
            # the statistics of the young log (staff events), kept while the rounds come
            conn.execute(sa.text("ANALYZE ledger_events"))
            conn.execute(sa.text("ALTER TABLE ledger_events SET (autovacuum_enabled = false)"))
        system = ledger.system("mtd-5")
        for i in range(150):
            system.play_round(
                f"r{i}",
                "BJ-1",
                [1, 2],
                [QualifyingHand(1, "suited-match")] if i % 7 == 0 else [],
                idempotency_key=f"k{i}",
                by=DEALER,
            )
        with ledger.engine.connect() as conn:
            plan = "\n".join(
                r[0] for r in conn.execute(sa.text(f"EXPLAIN (ANALYZE, COSTS OFF) {STAFF_SEQ}"))
            )
            newest = conn.execute(sa.text(STAFF_SEQ)).scalar_one()
            events = conn.execute(sa.text("SELECT count(*) FROM ledger_events")).scalar_one()
    assert events > 150 * 5  # the log grew by the rounds' events
    assert "ix_ledger_events_staff_seq" in plan, plan
    assert "Rows Removed by Filter" not in plan, plan  # no progressive event read to skip it
    # the index answers what a scan of the whole log answers
    assert newest == max(ledger_history_without_progressive(pg_url))


def ledger_history_without_progressive(url: str) -> list[int]:
    """The seq of every event outside any progressive, read without the index (a scan)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SET enable_indexscan = off"))
            conn.execute(sa.text("SET enable_bitmapscan = off"))
            conn.execute(sa.text("SET enable_indexonlyscan = off"))
            return list(
                conn.execute(
                    sa.text("SELECT seq FROM ledger_events WHERE progressive_id IS NULL")
                ).scalars()
            )
    finally:
        engine.dispose()
