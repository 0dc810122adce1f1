"""Parameters change only by a recorded reconfiguration of a suspended link (NY 9 NYCRR
5321.18(b)(4), N.J.A.C. 13:69E-1.39C), on SQLite and PostgreSQL: play is refused while
suspended, the event records who, when, old and new values and the approval, the meters are not
moved, the new rates apply from the next wager, and verify replays across the change."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.errors import AuthorizationError, LedgerIntegrityError, LinkError, RoundStateError
from croupier.paytables import MeterLevel
from croupier.progressive import EventKind, Ledger, QualifyingHand
from progressive_support import BACKENDS, DEALER, FLOOR, PIT, SHIFT, mtd_ledger, new_db_url, play

P = MeterLevel.PROGRESSIVE
U = 10_000


@pytest.fixture(params=BACKENDS)
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    for url in new_db_url(request.param, tmp_path):
        with mtd_ledger(url) as led:
            yield led


def test_a_reconfiguration_needs_a_suspended_link_and_records_what_changed(
    ledger: Ledger,
) -> None:
    play(ledger, "mtd-5", "r1", "BJ-1", [1, 2], [])  # 2 × 75¢ at 15%
    with pytest.raises(RoundStateError, match="suspend it first"):
        ledger.reconfigure("mtd-5", by=SHIFT, approval="CR-1", seeds_cents={P: 600_000})
    with pytest.raises(AuthorizationError):
        ledger.suspend("mtd-5", by=FLOOR, reason="new seed")
    ledger.suspend("mtd-5", by=PIT, reason="new seed and rate")
    assert ledger.is_suspended("mtd-5")
    system = ledger.system("mtd-5")
    with pytest.raises(LinkError, match="suspended"):
        system.play_round("r2", "BJ-1", [1], [], idempotency_key="k2", by=DEALER)
    with pytest.raises(LinkError, match="suspended"):
        system.accept_wagers("r2", "BJ-2", [1], by=DEALER)
    with pytest.raises(AuthorizationError):
        ledger.reconfigure("mtd-5", by=PIT, approval="CR-1", seeds_cents={P: 600_000})
    with pytest.raises(Exception, match="approval"):
        ledger.reconfigure("mtd-5", by=SHIFT, approval=" ", seeds_cents={P: 600_000})
    before = ledger.status("mtd-5").levels[0]
    after = ledger.reconfigure(
        "mtd-5",
        by=SHIFT,
        approval="CR-1 (PGCB letter 2026-11-30)",
        seeds_cents={P: 600_000},
        rates={P: (Fraction(1, 5), Fraction(3, 50))},
    )
    assert after.levels[0].seed_cents == 600_000
    assert ledger.status("mtd-5").levels[0] == before  # nothing moved
    (ev,) = [e.event for e in ledger.history("mtd-5") if e.event.kind is EventKind.RECONFIGURE]
    assert ev.actor == SHIFT and ev.detail["approval"].startswith("CR-1")
    assert ev.detail["changes"] == {
        "Progressive": {"seed_cents": [500_000, 600_000], "primary_rate": ["3/20", "1/5"]}
    }
    ledger.resume("mtd-5", by=PIT)
    # the new rate from the next wager: 20% of $5 = $1 on the meter, 6% = 30¢ on the reserve
    s = system.play_round("r2", "BJ-1", [1], [], idempotency_key="k2", by=DEALER)
    assert s.contributions[0].meter_micros == 100 * U
    (lv,) = ledger.status("mtd-5").levels
    assert lv.meter == (500_000 + 150 + 100) * U
    # the 100% award resets to the new seed
    (a,) = system.play_round(
        "r3", "BJ-1", [1], [QualifyingHand(1, "two-suited-match-aces-of-spades")],
        idempotency_key="k3", by=DEALER,
    ).awards  # fmt: skip
    ledger.validate(a.id, by=FLOOR)
    (lv,) = ledger.status("mtd-5").levels
    # the new $6,000 seed: the reserve (60¢ + 30¢ + 30¢) pays $1.20 of it, the house the rest
    assert (lv.meter, lv.reserve) == (600_000 * U, 0)
    (reset,) = [e.event for e in ledger.history("mtd-5") if e.event.kind is EventKind.RESET]
    assert reset.detail["house_micros"] == (600_000 - 120) * U
    report = ledger.audit()
    assert report.levels["mtd-5"][P] == lv


def test_a_definition_edited_behind_the_log_fails_verify(ledger: Ledger) -> None:
    ledger.suspend("mtd-5", by=PIT, reason="limit")
    ledger.reconfigure("mtd-5", by=SHIFT, approval="CR-2", limits_cents={P: 700_000})
    ledger.resume("mtd-5", by=PIT)
    ledger.audit()
    with ledger.engine.begin() as conn:
        conn.execute(sa.text("UPDATE progressives SET suspended = true"))
    with pytest.raises(LedgerIntegrityError, match="suspended in the table, not in the log"):
        ledger.audit()
    with ledger.engine.begin() as conn:
        conn.execute(sa.text("UPDATE progressives SET suspended = false"))
        text = conn.execute(sa.text("SELECT definition FROM progressives")).scalar_one()
        conn.execute(
            sa.text("UPDATE progressives SET definition = :d"),
            {"d": text.replace('"limit_cents":700000', '"limit_cents":800000')},
        )
    with pytest.raises(LedgerIntegrityError, match="reconfigurations leave in force"):
        ledger.audit()


def test_the_commands_suspend_reconfigure_and_resume(tmp_path: Path) -> None:
    import json

    import jsonschema
    from typer.testing import CliRunner

    from croupier.cli import app
    from progressive_support import secret

    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    mtd_ledger(url).close()
    runner = CliRunner()

    def run(who: str, *args: str) -> object:
        result = runner.invoke(
            app, ["meters", *args, "--as", who, "--db", url, "--json"],
            env={"CROUPIER_PASSWORD": secret(who)},
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    def schema(name: str) -> dict[str, object]:
        return json.loads(Path(f"docs/schemas/{name}.schema.json").read_text())  # type: ignore[no-any-return]

    jsonschema.validate(
        run(PIT, "suspend", "mtd-5", "--reason", "new rate"), schema("meters-suspend")
    )
    done = run(SHIFT, "reconfigure", "mtd-5", "--approval", "CR-7", "--rate", "20%", "--seed", "6000",
               "--limit", "7500")  # fmt: skip
    jsonschema.validate(done, schema("meters-reconfigure"))
    assert done["changes"] == {  # type: ignore[index]
        "Progressive": {
            "seed_cents": [500_000, 600_000],
            "primary_rate": ["3/20", "1/5"],
            "limit_cents": [None, 750_000],
        }
    }
    jsonschema.validate(run(PIT, "resume", "mtd-5"), schema("meters-suspend"))
    with Ledger(url) as ledger:
        assert not ledger.is_suspended("mtd-5")
        assert ledger.definition("mtd-5").levels[0].limit_cents == 750_000
        ledger.audit()
