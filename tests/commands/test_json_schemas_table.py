"""Every table and ledger command's ``--json`` output matches its JSON Schema under docs/schemas/,
and every example round file matches the round-file schema (the input ``croupier settle`` reads).

The schemas are the documented contract (draft 2020-12): money is an integer ``*_cents`` (or
``*_micros`` on a meter) beside its formatted string; a key the schema does not name fails."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.table.record import parse_record
from repo_paths import ROOT

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


# --------------------------------------------------------------------------- one output contract

SECTION = re.compile(r"^[0-9]{3}[a-z]\.[0-9]+(\([0-9a-z]+\))*$")
SIGNED = re.compile(r"^[+-]\$[0-9]{1,3}(,[0-9]{3})*(\.[0-9]{2})?$")


def _objects(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _objects(v)
    elif isinstance(node, list):
        for v in node:
            yield from _objects(v)


CONTRACT_COMMANDS = [
    ("settle", *map(str, ROUNDS)),
    ("hand", "perfect-pairs", "8s 8s", "-p", "A", "-d", "6"),
    ("hand", "banker", "Ks 4h 2d Qc 3h 3s", "-p", "commission", "-d", "8", "-a", "25.10"),
    ("baccarat", "-c", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=25", "--bet", "fortune-7=5"),
    (
        "four-card-poker",
        "9h 9c 9d Ks 2s",
        "Ah Ad 7c 7s 3d 4h",
        "--bet",
        "ante=5",
        "--bet",
        "play=15",
        "--bet",
        "aces-up=5",
    ),
    ("wagers",),
    ("axman", "8s 8d"),
    ("check", *map(str, SUBMISSIONS)),
]


@pytest.mark.parametrize("args", CONTRACT_COMMANDS, ids=lambda a: a[0])
def test_every_section_is_bare_with_its_citation_beside_and_every_result_signed(
    args: tuple[str, ...],
) -> None:
    """Issue 14: a rule is cited one way in every JSON output — ``"section": "633b.1(e)"`` and
    ``"citation": "58 Pa. Code § 633b.1(e)"`` — and a player's result (``win``, ``net``) carries
    its sign as in the settlement lines ("+$10"), beside its integer cents."""
    data = run_json(*args)
    seen = 0
    for obj in _objects(data):
        section = obj.get("section")
        if isinstance(section, str):
            seen += 1
            assert SECTION.match(section), (args[0], section)
            assert obj.get("citation") == f"58 Pa. Code § {section}", (args[0], obj)
        for key in ("win", "net"):
            if isinstance(obj.get(key), str):
                assert SIGNED.match(obj[key]), (args[0], key, obj[key])
                cents = obj[f"{key}_cents"]
                assert obj[key].startswith("-" if cents < 0 else "+")
    assert seen or args[0] == "check"


def test_the_banker_commission_drops_half_a_cent_and_says_so(tmp_path: Path) -> None:
    """§ 631a.12: Banker pays 19 to 20. $25.10 × 19/20 = 2,510 × 19 / 20 = 2,384.5 cents: the
    pay is rounded down to $23.84 and the half cent not paid is in the settlement, in the JSON
    line and under the table."""
    sub = ROOT / "examples" / "submissions" / "baccarat-8deck.toml"
    round_file = tmp_path / "banker.json"
    round_file.write_text(
        json.dumps(
            {
                "submission": str(sub),
                "steps": [
                    {"action": "bet", "seat": 2, "wager": "banker", "amount": "$25.10"},
                    {"action": "no-more-bets"},
                    # Player K+2 = 2 draws the 3h: 5; Banker 4+Q = 4 draws the 3s: 7 wins
                    {"action": "deal", "coup": "Ks 4h 2d Qc 3h 3s"},
                    {"action": "settle"},
                ],
            }
        ),
        "utf-8",
    )
    (doc,) = valid("settle", "settle", str(round_file))
    (line,) = doc["settlement"]["lines"]
    assert (line["win_cents"], line["win"]) == (2384, "+$23.84")
    assert line["rounding_dropped_cent_fraction"] == "1/2"
    assert (line["section"], line["citation"]) == ("631a.12", "58 Pa. Code § 631a.12")
    text = runner.invoke(app, ["settle", str(round_file)])
    assert text.exit_code == 0, text.output
    assert "+$23.84*" in text.stdout
    assert "seat 2 banker: the pay is rounded down to the cent; ½¢ is not paid." in text.stdout
    # a Banker win of $25 (a multiple of 20 cents) drops nothing: 2,500 × 19 / 20 = 2,375
    shown = run_json("baccarat", "-c", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=25")
    assert shown["wagers"][0]["win_cents"] == 2375
    assert shown["wagers"][0]["rounding_dropped_cent_fraction"] == "0/1"


def test_an_error_under_json_cites_its_section_both_ways(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """§ 633b.3(b): Match the Dealer is dealt from six or eight decks; two decks is refused, and
    the error object names the paragraph bare and as a citation."""
    from croupier.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["hand", "match-the-dealer", "7h 7c 7h", "-p", "1", "-d", "2", "--json"])
    assert exit_.value.code == 2
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, schema("error"))
    assert doc["error"]["section"] == "633b.3(b)"
    assert doc["error"]["citation"] == "58 Pa. Code § 633b.3(b)"
