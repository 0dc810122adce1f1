"""The Four Card Poker progressives on the ledger (§ 641a.7(d)(4), (5); § 605a.7): created with
`croupier meters create --paytable WAGER:ID` like Match the Dealer and Jackpot Party, fed by
`croupier settle --progressive`, on SQLite and on the PostgreSQL server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli_support import assert_one_error_line, run_main
from croupier.cli import app
from progressive_support import BACKENDS, new_db_url
from repo_paths import ROOT

runner = CliRunner()
ROUND = ROOT / "examples" / "rounds" / "four-card-progressive-award.json"
ENV = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args), env=ENV)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(params=BACKENDS)
def ledger_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def floor(db: str) -> None:
    cli("meters", "bootstrap", "sam", "--db", db)
    # by wager id, and by section (§ 641a.7 has two progressive wagers: the paytable tells them)
    cli("meters", "create", "--db", db, "-p", "five-card-progressive:example-five-card-progressive",
        "-d", "1", "-a", "1", "--name", "fcp5", "--table", "4CP-1", "--as", "sam")  # fmt: skip
    cli("meters", "create", "--db", db, "-p", "641a.7:example-four-card-progressive",
        "-d", "1", "-a", "1", "--name", "fcp4", "--table", "4CP-1", "--as", "sam")  # fmt: skip
    cli("meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam")


def status(db: str) -> dict[str, Any]:
    data = json.loads(cli("meters", "--db", db, "--json"))
    return {p["name"]: p for p in data["progressives"]}


def test_four_card_poker_round_feeds_both_progressives_once(ledger_db: str) -> None:
    floor(ledger_db)
    args = ["settle", str(ROUND), "--db", ledger_db, "--table", "4CP-1", "--as", "dana",
            "--progressive", "fcp5", "--progressive", "fcp4"]  # fmt: skip
    cli(*args)
    cli(*args)  # the same round again: nothing changes
    got = status(ledger_db)
    five, four = got["fcp5"], got["fcp4"]
    # two $1 five-card wagers (seats 1 and 2) at 15%: $0.30 on the $25,000 seed; seat 1's royal
    # flush takes 100% of it, held pending a floorperson's validation
    lv = five["levels"][0]
    assert lv["meter_micros"] == 25_000_300_000 and lv["hits"] == 1 and lv["wagered_cents"] == 200
    (award,) = five["pending"]
    assert (award["position"], award["outcome"], award["amount_cents"]) == (
        1,
        "royal-flush",
        25_000_30,
    )
    # one $1 four-card wager (seat 1): its straight flush is a fixed pay, not a hit
    lv = four["levels"][0]
    assert lv["meter_micros"] == 500_150_000 and lv["hits"] == 0 and four["pending"] == []
    assert cli("meters", "verify", "--db", ledger_db).count("every level matches the ledger") == 2


def test_the_ledger_pays_the_meter_on_the_round(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    floor(db)
    args = ["settle", str(ROUND), "--db", db, "--table", "4CP-1", "--as", "dana",
            "--progressive", "fcp5", "--json"]  # fmt: skip
    out = json.loads(cli(*args))
    (royal,) = [
        e
        for e in out[0]["events"]
        if e["action"] == "settlement" and e["wager"] == "five-card-progressive" and e["seat"] == 1
    ]
    assert royal["returned_cents"] == 25_000_30  # the live meter, not the seed
    assert "pending validation" in royal["pays"]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("641a.7:example-bad-beat", "no progressive paytable 'example-bad-beat'"),
        ("aces-up:pa-casino", "is not a progressive wager"),
        ("four-card-progresive:example-four-card-progressive", "did you mean"),
    ],
)
def test_create_refuses_what_is_not_a_progressive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str, says: str
) -> None:
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    cli("meters", "bootstrap", "sam", "--db", db)
    monkeypatch.setenv("CROUPIER_PASSWORD", ENV["CROUPIER_PASSWORD"])
    run = run_main(["meters", "create", "--db", db, "-p", spec, "-d", "1", "-a", "1",
                    "--name", "x", "--as", "sam"])  # fmt: skip
    assert says in assert_one_error_line(run)
    assert status(db) == {}  # nothing created


def test_the_settlement_lines_say_what_the_ledger_paid(tmp_path: Path) -> None:
    """`settle --json`: the round's settlement block (lines and net) carries the ledger's amounts,
    as its events do — it used to keep the table's seed value for a meter award."""
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    floor(db)
    args = ["settle", str(ROUND), "--db", db, "--table", "4CP-1", "--as", "dana",
            "--progressive", "fcp5", "--json"]  # fmt: skip
    (r,) = json.loads(cli(*args))
    (line,) = [
        x
        for x in r["settlement"]["lines"]
        if x["wager"] == "five-card-progressive" and x["seat"] == 1
    ]
    assert line["returned_cents"] == 25_000_30 and line["win_cents"] == 25_000_30 - 100
    assert r["settlement"]["net_cents"] == r["net_cents"]
    assert "pending validation" in line["pays"]
