"""``croupier meters liability | contributions | slip`` and ``croupier meters report`` on the
command line (tests/service/test_liability_routes.py: the same over HTTP), for the day with an
award of ``progressive_support.day_with_an_award`` (its figures worked by hand in
tests/progressive/test_progressive_liability.py): who may read them, and what they print."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from progressive_support import DEALER, FLOOR, PIT, day_with_an_award, secret

runner = CliRunner()


@pytest.fixture(scope="module")
def ledger_day(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, datetime, int, int]:
    url = f"sqlite:///{tmp_path_factory.mktemp('liability') / 'day.sqlite3'}"
    ledger, start, big, small = day_with_an_award(url)
    ledger.close()
    return url, start, big, small


def run(who: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(
        app, ["meters", *args, "--as", who], env={"CROUPIER_PASSWORD": secret(who)}
    )
    return result.exit_code, result.stdout if result.exit_code == 0 else str(result.exception)


def test_the_liability_of_the_day_as_json_csv_html_and_text(
    ledger_day: tuple[str, datetime, int, int],
) -> None:
    url, start, _, small = ledger_day
    period = ("--db", url, "--from", start.isoformat())
    code, text = run(PIT, "liability", *period, "--json")
    assert code == 0, text
    data = json.loads(text)
    (p,) = data["progressives"]
    (lv,) = p["levels"]
    # $5,001.05 owed when the day opened, $5,002.05 when it closed (worked by hand)
    assert (lv["opening_liability"], lv["closing_liability"]) == ("$5,001.05", "$5,002.05")
    assert (lv["awards_paid"], lv["reseeds"], lv["adjustments"]) == ("$5,004.50", "$4,998.20", "$1")
    assert data["balanced"] and data["reconciled"]
    assert [a["award"] for a in p["pending"]] == [small]
    code, text = run(PIT, "liability", *period, "--format", "csv")
    (row,) = csv.DictReader(io.StringIO(text))
    assert row["closing_liability_micros"] == str(500_205 * 10_000) and row["reconciled"] == "True"
    code, text = run(PIT, "liability", *period, "--format", "html")
    assert text.startswith("<!doctype html>") and "$5,002.05" in text
    code, text = run(PIT, "liability", "--db", url, "--at", start.isoformat())
    assert code == 0 and "$5,001.05" in text and "reconciled: yes" in text


def test_contributions_by_table(ledger_day: tuple[str, datetime, int, int]) -> None:
    url, start, _, _ = ledger_day
    code, text = run(PIT, "contributions", "--db", url, "--from", start.isoformat(), "--json")
    assert code == 0, text
    tables = {t["table"]: t for t in json.loads(text)["tables"]}
    assert (tables["BJ-1"]["handle"], tables["BJ-1"]["contributions"]) == ("$20", "$4.20")
    assert (tables["BJ-2"]["handle"], tables["BJ-2"]["contributions"]) == ("$10", "$2.10")


def test_the_slip_prints_the_amount_in_words_and_its_ledger_macs(
    ledger_day: tuple[str, datetime, int, int],
) -> None:
    url, _, big, _ = ledger_day
    code, text = run(FLOOR, "slip", str(big), "--db", url, "--json")
    assert code == 0, text
    slip = json.loads(text)
    assert (slip["amount"], slip["amount_words"]) == (
        "$5,004.50",
        "Five thousand four dollars and fifty cents",
    )
    assert (slip["table"], slip["position"], slip["round"]) == ("BJ-2", 1, "r2")
    assert slip["validated_by"] == slip["paid_by"] == FLOOR
    assert [e["kind"] for e in slip["ledger"]] == ["award", "validation", "payment", "reset"]
    assert all(len(e["mac"]) == 64 for e in slip["ledger"])
    code, page = run(FLOOR, "slip", str(big), "--db", url, "--format", "html")
    assert "Witness: ____" in page and slip["ledger"][0]["mac"] in page


@pytest.mark.parametrize("command", ["liability", "contributions", "report"])
def test_a_dealer_reads_no_money_report(
    ledger_day: tuple[str, datetime, int, int], command: str
) -> None:
    url = ledger_day[0]
    code, said = run(DEALER, command, "--db", url)
    assert code != 0 and "needs a pit-manager or above, accounting or an auditor" in said


def test_a_dealer_prints_no_slip(ledger_day: tuple[str, datetime, int, int]) -> None:
    url, _, big, _ = ledger_day
    code, said = run(DEALER, "slip", str(big), "--db", url)
    assert code != 0 and "needs a floorperson or above" in said


def test_an_empty_ledger_owes_nothing(tmp_path: Path) -> None:
    from progressive_support import mtd_ledger

    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    mtd_ledger(url).close()
    code, text = run(PIT, "liability", "--db", url, "--json")
    assert code == 0, text
    (p,) = json.loads(text)["progressives"]
    # just created: the $5,000 seed is owed, all of it the house's
    assert (p["opening"], p["closing"], p["levels"][0]["reseeds"]) == ("$0", "$5,000", "$5,000")
