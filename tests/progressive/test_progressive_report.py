"""``croupier meters report``: the reconciliation of a progressive's levels over a period, on
SQLite and PostgreSQL, against amounts worked out by hand (§ 633b.3 paytable 1, six decks, $5:
seed $5,000, 15% to the meter, 6% to the reserve, 2 Suited Match 10% of the meter)."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.paytables import MeterLevel
from croupier.progressive import Ledger, ReseedFunding
from progressive_support import (
    BACKENDS,
    FLOOR,
    PIT,
    SHIFT,
    add_staff,
    mtd_ledger,
    new_db_url,
    paytable_definition,
    play,
    secret,
)

U = 10_000
READER = {"CROUPIER_PASSWORD": secret(PIT)}


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def two_periods(url: str) -> tuple[Ledger, datetime]:
    """Period 1: created, three wagers, a 10% award validated and paid. Period 2: one wager,
    an adjustment of +$1. Returns the ledger and the instant between them."""
    ledger = mtd_ledger(url)
    (a,) = play(ledger, "mtd-5", "r1", "BJ-1", [1, 2, 3], [(2, "two-suited-match")]).pending
    ledger.validate(a.id, by=FLOOR)
    time.sleep(0.01)
    mid = datetime.now(UTC)
    time.sleep(0.01)
    play(ledger, "mtd-5", "r2", "BJ-2", [1], [])
    ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, meter_cents=100, by=PIT, reason="meter fault")
    return ledger, mid


def test_each_period_balances_and_the_second_opens_where_the_first_closed(db_url: str) -> None:
    ledger, mid = two_periods(db_url)
    with ledger:
        award = (500_000 + 225) // 10  # 10% of $5,002.25, down to the cent
        (p1,) = ledger.reconcile("mtd-5", None, mid).levels
        assert (p1.opening_micros, p1.resets_micros, p1.contributions_micros) == (
            0,
            500_000 * U,
            225 * U,
        )
        assert p1.awards_micros == award * U and p1.paid_by_attendant_cents == award
        assert p1.closing_micros == (500_225 - award) * U
        assert (p1.opening_reserve_micros, p1.closing_reserve_micros) == (0, 90 * U)
        assert p1.balanced and p1.wagers == 3
        (p2,) = ledger.reconcile("mtd-5", mid, None).levels
        assert p2.opening_micros == p1.closing_micros
        assert (p2.contributions_micros, p2.adjustments_micros, p2.awards_micros) == (
            75 * U,
            100 * U,
            0,
        )
        assert p2.closing_micros == p1.closing_micros + 175 * U
        assert (p2.opening_reserve_micros, p2.closing_reserve_micros) == (90 * U, 120 * U)
        assert p2.balanced
        whole = ledger.reconcile("mtd-5")
        assert whole.balanced and whole.levels[0].closing_micros == p2.closing_micros
        assert whole.levels[0].closing_micros == ledger.status("mtd-5").levels[0].meter


def test_the_report_as_json_csv_html_and_text(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    ledger, mid = two_periods(url)
    ledger.close()
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(
            app, ["meters", "report", "--db", url, "--as", PIT, *args], env=READER
        )
        assert result.exit_code == 0, result.output
        return result.stdout

    data = json.loads(run("--from", mid.isoformat(), "--json"))
    schema = json.loads(Path("docs/schemas/meters-report.schema.json").read_text())
    jsonschema.validate(data, schema)
    (p,) = data["progressives"]
    assert p["balanced"] and p["levels"][0]["adjustments_micros"] == 100 * U
    rows = list(csv.DictReader(io.StringIO(run("--format", "csv"))))
    assert [r["level"] for r in rows] == ["Progressive"] and rows[0]["balanced"] == "True"
    page = run("--format", "html")
    assert page.startswith("<!doctype html>") and "<td>Progressive</td>" in page
    assert "yes" in run("--to", mid.isoformat())
    bad = runner.invoke(
        app, ["meters", "report", "--db", url, "--as", PIT, "--from", "yesterday"], env=READER
    )
    assert "is not an ISO 8601 date or time" in str(bad.exception)


@pytest.mark.parametrize(
    ("reseed", "meter_reset", "house"),
    [
        # $5,001.50 paid; the 60¢ reserve pays 60¢ of the $5,000 reseed, the house $4,999.40
        (ReseedFunding.RESERVE, 500_000, 499_940),
        # a new $5,000 seed from the house, the 60¢ reserve on top of it
        (ReseedFunding.HOUSE, 500_060, 500_000),
    ],
)
def test_a_reset_is_reconciled_with_the_house_s_part(
    db_url: str, reseed: ReseedFunding, meter_reset: int, house: int
) -> None:
    with Ledger(db_url) as ledger:
        add_staff(ledger)
        d = paytable_definition("633b.3", "1", 6, 500, "mtd", reseed=reseed)
        ledger.create_progressive(d, tables=["T"], by=SHIFT)
        (a,) = play(
            ledger, "mtd", "r1", "T", [1, 2], [(1, "two-suited-match-aces-of-spades")]
        ).awards
        ledger.validate(a.id, by=FLOOR)
        (lv,) = ledger.reconcile("mtd").levels
        # the seed at creation and the reset; two $5 wagers: 150¢ meter, 60¢ reserve
        assert lv.resets_micros == (500_000 + meter_reset) * U
        assert (lv.reserve_contributions_micros, lv.reserve_resets_micros) == (60 * U, -60 * U)
        assert lv.awards_micros == 500_150 * U and lv.contributions_micros == 150 * U
        assert lv.house_micros == (500_000 + house) * U
        assert lv.closing_micros == meter_reset * U and lv.balanced
