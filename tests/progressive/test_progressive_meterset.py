"""The § 605a.7(a) meter set of a progressive and its levels (``Ledger.meters``, shown by
``croupier meters``), on SQLite and on PostgreSQL, against amounts worked out by hand from
§ 633b.3 paytable 1 (six decks, $5 wager: seed $5,000, 15% to the meter, 6% to the reserve;
2 Suited Match 10% of the meter; 1 Suited Match 10 to 1)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from croupier.errors import InputError
from croupier.progressive import Ledger, LevelDefinition, Role
from progressive_support import (
    BACKENDS,
    DEALER,
    FLOOR,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    play,
)

U = 10_000  # micro-dollars per cent


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def ledger_with(url: str, limit_cents: int | None = None) -> Ledger:
    ledger = Ledger(url)
    add_staff(ledger)
    d = paytable_definition("633b.3", "1", 6, 500, "mtd")
    d = replace(d, levels=(replace(d.levels[0], limit_cents=limit_cents),))
    ledger.create_progressive(d, tables=["T1"], by=SHIFT)
    return ledger


def test_the_meters_of_a_level_and_of_the_table(db_url: str) -> None:
    with ledger_with(db_url) as ledger:
        # three $5 wagers: 3 × 75¢ to the meter, 3 × 30¢ to the reserve; seat 3's 1 Suited Match
        # is paid 10 to 1 by the table ($5 × 11); seat 2's 10% waits for validation
        s = play(
            ledger, "mtd", "r1", "T1", [1, 2, 3], [(3, "suited-match"), (2, "two-suited-match")]
        )
        (pending,) = s.pending
        (m,) = ledger.meters("mtd").levels
        assert (m.shown_micros, m.reserve_micros) == ((500_000 + 225) * U, 90 * U)
        assert m.held_micros == 50_022 * U  # 10% of $5,002.25, down to the cent
        assert (m.qualifying_wagers, m.hits, m.wins, m.paid_by_attendant_cents) == (3, 1, 0, 0)
        assert ledger.meters("mtd").paid_by_table_cents == 5_500
        assert ledger.meters("mtd").table_pays == 1
        ledger.validate(pending.id, by=FLOOR)
        meters = ledger.meters("mtd")
        (m,) = meters.levels
        assert (m.hits, m.wins) == (1, 1)
        assert m.paid_by_attendant_cents == m.cumulative_paid_cents == 50_022
        assert m.shown_micros == (500_225 - 50_022) * U and m.held_micros == 0
        assert (m.limit_cents, m.overflow_micros) == (None, 0)
        play(ledger, "mtd", "r2", "T1", [4], [])
        assert ledger.meters("mtd").levels[0].qualifying_wagers == 4
        ledger.audit()


def test_a_meter_at_its_limit_overflows_to_the_reserve(db_url: str) -> None:
    # limit $5,001: three wagers bring 225¢, 100¢ fit; 125¢ go to the reserve and the overflow
    with ledger_with(db_url, limit_cents=500_100) as ledger:
        play(ledger, "mtd", "r1", "T1", [1, 2, 3], [])
        (m,) = ledger.meters("mtd").levels
        assert m.shown_micros == 500_100 * U
        assert m.overflow_micros == 125 * U
        assert m.reserve_micros == (90 + 125) * U
        assert m.limit_cents == 500_100
        play(ledger, "mtd", "r2", "T1", [1], [])  # at the limit: all 75¢ overflow
        (m,) = ledger.meters("mtd").levels
        assert (m.shown_micros, m.overflow_micros) == (500_100 * U, 200 * U)
        # conservation: meter + reserve = seed + everything contributed (21% of $20)
        assert m.shown_micros + m.reserve_micros == (500_000 + 420) * U
        ledger.audit()  # the replay re-derives every overflow


def test_a_limit_below_the_seed_is_refused() -> None:
    with pytest.raises(InputError, match="at or above its seed"):
        LevelDefinition(paytable_definition("633b.3", "1", 6, 500).levels[0].level, 500_000,
                        paytable_definition("633b.3", "1", 6, 500).levels[0].primary_rate,
                        limit_cents=499_999)  # fmt: skip


def test_croupier_meters_shows_the_meter_set_and_create_takes_a_limit(tmp_path: Path) -> None:
    import json

    import jsonschema
    from typer.testing import CliRunner

    from croupier.cli import app
    from progressive_support import secret

    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    env = {"CROUPIER_PASSWORD": secret(SHIFT)}
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(app, list(args), env=env)
        assert result.exit_code == 0, result.output
        return result.stdout

    run("meters", "bootstrap", SHIFT, "--db", db)
    created = json.loads(
        run(
            "meters",
            "create",
            "-p",
            "633b.3:1",
            "-d",
            "6",
            "-a",
            "5",
            "--name",
            "mtd",
            "-t",
            "T1",
            "--limit",
            "5001",
            "--as",
            SHIFT,
            "--db",
            db,
            "--json",
        )
    )
    assert created["levels"][0]["limit_cents"] == 500_100
    with Ledger(db) as ledger:
        ledger.add_user(DEALER, Role.DEALER, secret(DEALER), by=SHIFT)
        play(ledger, "mtd", "r1", "T1", [1, 2, 3], [(3, "suited-match")])
    shown = json.loads(run("meters", "--db", db, "--json"))
    schema = json.loads(Path("docs/schemas/meters-status.schema.json").read_text())
    jsonschema.validate(shown, schema)
    (p,) = shown["progressives"]
    (lv,) = p["levels"]
    assert (lv["overflow_micros"], lv["qualifying_wagers"], p["paid_by_table_cents"]) == (
        125 * U,
        3,
        5_500,
    )
    text = run("meters", "--db", db)
    assert "Overflow" in text and "Paid by attendant" in text and "$5,001" in text
    result = runner.invoke(app, ["meters", "create", "-p", "633b.3:1", "-d", "6", "-a", "5",
                                 "--name", "m2", "--limit", "4000", "--as", SHIFT, "--db", db],
                           env=env)  # fmt: skip
    # the typed error main() turns into `error: …` and exit 2
    assert isinstance(result.exception, InputError)
    assert "at or above its seed" in str(result.exception)
