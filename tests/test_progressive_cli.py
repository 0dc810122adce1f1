"""``croupier meters``: create from a paytable, show levels and pending awards, validate as a
floorperson, history, verify, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app, main
from croupier.progressive import Ledger, Role
from progressive_support import DEALER, FLOOR, play

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.sqlite3'}"


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def cli_json(*args: str) -> Any:
    return json.loads(cli(*args, "--json"))


def test_create_show_validate_history_and_verify(db: str) -> None:
    created = cli_json(
        "meters",
        "create",
        "--paytable",
        "633b.3:1",
        "--decks",
        "6",
        "--wager",
        "5",
        "--name",
        "mtd-5",
        "--table",
        "BJ-1",
        "--table",
        "BJ-2",
        "--db",
        db,
    )
    assert created["section"] == "58 Pa. Code § 633b.3"
    (lv,) = created["levels"]
    assert (lv["seed"], lv["meter"], lv["primary_rate"], lv["secondary_rate"]) == (
        "$5,000",
        "$5,000",
        "15%",
        "6%",
    )
    assert created["tables"] == ["BJ-1", "BJ-2"]
    cli("meters", "user", DEALER, "--role", "dealer", "--db", db)
    cli("meters", "user", FLOOR, "--role", "floorperson", "--db", db)

    with Ledger(db) as ledger:
        award = play(ledger, "mtd-5", "r1", "BJ-1", [1, 2], [(2, "two-suited-match")]).awards[0]

    shown = cli_json("meters", "--db", db)
    (prog,) = shown["progressives"]
    (lv,) = prog["levels"]
    # $5,000 + 2 × 75¢; 10% of it ($500.15) held for the pending award; reserve 2 × 30¢
    assert (lv["meter"], lv["held"], lv["available"], lv["reserve"]) == (
        "$5,001.50",
        "$500.15",
        "$4,501.35",
        "$0.60",
    )
    assert [(p["award"], p["amount"], p["status"]) for p in prog["pending"]] == [
        (award.id, "$500.15", "pending")
    ]
    table = cli("meters", "--db", db)
    assert "Pending validation" in table and "$500.15" in table

    paid = cli_json("meters", "validate", str(award.id), "--as", FLOOR, "--db", db)
    assert (paid["status"], paid["validated_by"], paid["amount"]) == ("paid", FLOOR, "$500.15")
    (lv,) = cli_json("meters", "--db", db)["progressives"][0]["levels"]
    assert (lv["meter"], lv["held"], lv["paid"]) == ("$4,501.35", "$0", "$500.15")

    history = cli_json("meters", "--history", "--db", db)["history"]
    kinds = [e["kind"] for e in history]
    assert kinds[:3] == ["seed", "link", "link"]
    assert kinds[-2:] == ["validation", "payment"]
    assert history[-1]["by"] == FLOOR and history[-1]["role"] == "floorperson"
    assert "payment" in cli("meters", "--history", "--limit", "3", "--db", db)

    verified = cli_json("meters", "verify", "--db", db)
    assert verified["verified"] == {"mtd-5": {"Progressive": "$4,501.35"}}
    assert "every level matches" in cli("meters", "verify", "--db", db)


def test_the_database_may_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_DB", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    cli("meters", "create", "-p", "633b.2:P17-A", "-d", "1", "-w", "5", "-n", "jp")
    levels = cli_json("meters")["progressives"][0]["levels"]
    assert [(lv["level"], lv["meter"]) for lv in levels] == [
        ("Mega", "$50,000"),
        ("Major", "$5,000"),
        ("Minor", "$500"),
    ]
    assert (tmp_path / "env.sqlite3").exists()


def test_the_default_database_is_a_per_user_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROUPIER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert "No progressive" in cli("meters")
    assert (tmp_path / "data" / "croupier" / "progressive.sqlite3").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["meters", "validate", "1", "--as", DEALER],
            "floorperson or above (58 Pa. Code § 633b.3(h)(3))",
        ),
        (["meters", "validate", "99", "--as", FLOOR], "no award 99"),
        (["meters", "create", "-p", "633b.3:1", "-d", "6", "-w", "2", "-n", "x"], "§ 633b.3"),
        (["meters", "create", "-p", "633b.3", "-d", "6", "-w", "5", "-n", "x"], "SECTION:PAYTABLE"),
        (["meters", "--name", "nope"], "no progressive named 'nope'"),
        (["meters", "user", "x", "--role", "croupier"], "unknown role"),
    ],
)
def test_errors_are_one_line_with_status_2(
    args: list[str],
    needle: str,
    db: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with Ledger(db) as ledger:
        ledger.add_user(DEALER, Role.DEALER)
        ledger.add_user(FLOOR, Role.FLOORPERSON)
        from progressive_support import paytable_definition

        ledger.create_progressive(paytable_definition("633b.3", "1", 6, 500, "mtd"), tables=["T"])
        play(ledger, "mtd", "r1", "T", [1], [(1, "two-suited-match")])
    monkeypatch.setattr("sys.argv", ["croupier", *args, "--db", db])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), captured.err
    assert needle in lines[0]
