"""Every table and ledger command's ``--json`` output matches its JSON Schema under docs/schemas/,
and every example round file matches the round-file schema (the input ``croupier settle`` reads).

The schemas are the documented contract (draft 2020-12): money is an integer ``*_cents`` (or
``*_micros`` on a meter) beside its formatted string; a key the schema does not name fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.table.record import parse_record

ROOT = Path(__file__).parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
ROUNDS = sorted((ROOT / "examples" / "rounds").glob("*.json"))
SUBMISSIONS = sorted((ROOT / "examples" / "submissions").glob("*.toml"))
ENV = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}
runner = CliRunner()


def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def run_json(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def valid(name: str, *args: str) -> Any:
    data = run_json(*args)
    jsonschema.validate(data, schema(name), cls=jsonschema.Draft202012Validator)
    return data


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.name)
def test_every_example_round_file_matches_the_round_file_schema(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    jsonschema.validate(data, schema("round-file"), cls=jsonschema.Draft202012Validator)
    parse_record(data, str(path))  # and the reader accepts it


def test_the_round_file_schema_refuses_what_the_reader_refuses() -> None:
    bad = {"submission": "x.toml", "steps": [{"action": "bet", "seta": 1}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema("round-file"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"steps": []}, schema("round-file"))


def test_the_record_docstring_example_is_valid_json_of_the_schema() -> None:
    import croupier.table.record as record

    doc = record.__doc__ or ""
    start = doc.index("{")
    end = doc.index("\n    }\n", start) + 6
    example = json.loads(doc[start:end])
    jsonschema.validate(example, schema("round-file"))


def test_table_commands_match_their_schemas() -> None:
    checked = valid("check", "check", *map(str, SUBMISSIONS))
    assert set(checked) == {str(p) for p in SUBMISSIONS}
    settled = valid("settle", "settle", *map(str, ROUNDS))
    assert len(settled) == len(ROUNDS)
    # money is integer cents: the round's net is the sum of its lines' wins
    for r in settled:
        lines = [x for x in r["settlement"]["lines"] if not x["settled_by_base_game"]]
        assert r["settlement"]["net_cents"] == sum(x["win_cents"] for x in lines)
    sub = str(ROOT / "examples" / "submissions" / "blackjack-6deck.toml")
    assert len(valid("play", "play", "--submission", sub, "--seed", "3", "--rounds", "2")) == 2


def test_blackjack_commands_match_their_schemas() -> None:
    dealer = valid("dealer", "dealer", "--decks", "1")
    # exact and float agree; 1 deck, dealer 6 busts 0.420823 (Wizard of Odds, Appendix 2B)
    from fractions import Fraction

    assert abs(float(Fraction(dealer["upcards_exact"]["6"]["bust"])) - 0.420823) < 1e-6
    valid("axman", "axman", "Kd Kd", "--upcard", "Qs")
    rnd = valid(
        "blackjack-round",
        "blackjack-round",
        *("--dealer", "Ad Kd", "--player", "Qd Jd", "--player", "9s 9h"),
        *("--bet", "1:blackjack=10", "--bet", "2:blackjack=10"),
        *("--bet", "1:jackpot-party=5", "--bet", "2:jackpot-party=5", "--bet", "1:axman=5"),
        *("--paytable", "jackpot-party=P10"),
    )
    seat2 = [x for x in rnd["settlement"]["lines"] if x["seat"] == 2]
    # seat 2's pair pays 10 to 1 on $5; its envy bonus for seat 1's royal flush is $3,000 (P10)
    jp = {x["kind"]: x["win_cents"] for x in seat2 if x["wager"] == "jackpot-party"}
    assert jp == {"wager": 5000, "envy-bonus": 300_000}


def test_ledger_commands_match_their_schemas(tmp_path: Path) -> None:
    db = ("--db", f"sqlite:///{tmp_path / 'schemas.sqlite3'}")
    valid("meters-bootstrap", "meters", "bootstrap", "sam", *db)
    created = valid(
        "meters-create",
        *("meters", "create", "--paytable", "match-the-dealer:1", "--decks", "6"),
        *("--amount", "5", "--name", "mtd-5", "--table", "BJ-1", "--as", "sam", *db),
    )
    assert created["wager_cents"] == 500 and created["levels"][0]["seed_cents"] == 500_000
    valid("meters-link", "meters", "link", "mtd-5", "BJ-2", "--as", "sam", *db)
    for name, role in (("dana", "dealer"), ("flo", "floorperson"), ("pat", "pit-manager")):
        valid("meters-user", "meters", "user", name, "--role", role, "--as", "sam", *db)
    assert valid("meters-login", "meters", "login", "--as", "flo", *db)["role"] == "floorperson"
    award_round = ROOT / "examples" / "rounds" / "match-the-dealer-award.json"
    for rid in ("r1", "r2"):
        copy = tmp_path / f"{rid}.json"
        data = json.loads(award_round.read_text("utf-8"))
        data["submission"] = str(award_round.parent / data["submission"])
        copy.write_text(json.dumps(data), "utf-8")
        valid("settle", "settle", str(copy), "--progressive", "mtd-5", "--table", "BJ-1",
              "--as", "dana", *db)  # fmt: skip
    status = valid("meters-status", "meters", *db, "--history")
    pending = [a["award"] for a in status["progressives"][0]["pending"]]
    assert len(pending) >= 2, status
    shown = runner.invoke(app, ["meters", *db], env=ENV).stdout
    assert "Pending validation (§ 633b.3(h)(3))" in shown and "633b.2" not in shown
    valid("meters-validate", "meters", "validate", str(pending[0]), "--as", "flo", *db)
    valid("meters-void", "meters", "void", str(pending[1]), "--as", "flo", "--reason", "misdeal",
          *db)  # fmt: skip
    valid("meters-adjust", "meters", "adjust", "mtd-5", "--level", "Progressive", "--meter",
          "1", "--reason", "test", "--as", "pat", *db)  # fmt: skip
    verified = valid("meters-verify", "meters", "verify", *db)
    assert verified["chain_checked"] is True
