"""`croupier settle --progressive`: a settled round's progressive wagers reach the ledger once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()
ROUND = Path(__file__).parent.parent / "examples" / "rounds" / "blackjack.json"


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args), env=ENV)
    assert result.exit_code == 0, result.output
    return result.stdout


# every staff member of these ledgers shares one test credential
ENV = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}


def levels(db: str) -> dict[str, Any]:
    data = json.loads(cli("meters", "--db", db, "--json"))
    return {p["name"]: p["levels"][0] for p in data["progressives"]}


def test_settle_feeds_both_progressives_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    cli("meters", "bootstrap", "sam", "--db", db)
    cli("meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-w", "5", "-n", "mtd-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    cli("meters", "create", "--db", db, "-p", "633b.2:P1", "-d", "6", "-w", "5", "-n", "jp-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    cli("meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam")
    args = ["settle", str(ROUND), "--db", db, "--table", "BJ-1", "--as", "dana",
            "--progressive", "mtd-5", "--progressive", "jp-5"]  # fmt: skip
    cli(*args)
    cli(*args)  # settled again: the idempotency key makes it a no-op
    got = levels(db)
    # one $5 Match the Dealer wager (seat 3): 15% to the meter, 6% to the reserve (§ 633b.3(j));
    # one $5 Jackpot Party wager (seat 1): P1's 16% and 3.75% (§ 633b.2(i)); neither hand won
    assert got["mtd-5"]["meter"] == "$5,000.75"
    assert got["jp-5"]["meter"] == "$50,000.80"
    assert cli("meters", "verify", "--db", db).count("every level matches the ledger") == 2


def test_settle_with_a_progressive_needs_the_table_and_the_dealer(tmp_path: Path) -> None:
    result = runner.invoke(app, ["settle", str(ROUND), "--progressive", "mtd-5"])
    assert result.exit_code != 0
    assert "--table" in str(result.exception)
