"""Every analysis and game command's ``--json`` output matches its JSON Schema in docs/schemas/,
and under ``--json`` an error is one JSON object (docs/schemas/error.schema.json). The commands
of :data:`CASES` only compute and print: each is run once a test process
(:func:`cli_support.run_main_once`), its output shared with the other tests that read it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cli_support import run_main, run_main_once
from repo_paths import ROOT

SCHEMAS = ROOT / "docs" / "schemas"

CASES: list[tuple[str, list[str]]] = [
    ("wagers", ["wagers"]),
    ("paytables", ["paytables", "633b.3"]),
    ("paytables", ["paytables", "jackpot-party", "-p", "P10"]),
    ("analyze", ["analyze", "match-the-dealer", "-p", "1", "-d", "6"]),
    ("analyze", ["analyze", "jackpot-party", "-p", "P10"]),
    ("analyze", ["analyze", "four-card-poker", "-p", "25-20-2"]),
    ("analyze-game", ["analyze", "switch-hands", "-d", "6"]),
    # the Banker's 19 to 20 pays a net 0.95: a number, not an integer (the schema said integer)
    ("analyze", ["analyze", "banker", "-p", "commission", "-d", "8"]),
    ("parsheet", ["parsheet", "--wager", "banker", "--wager", "match-the-dealer", "-d", "8"]),
    ("parsheet", ["parsheet", "--wager", "switch-hands", "-d", "6"]),
    ("simulate", ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "500", "-s", "3"]),
    ("hand", ["hand", "match-the-dealer", "7h 7c 7h", "-p", "1", "-d", "6"]),
    ("hand", ["hand", "perfect-pairs", "7h 8c", "-p", "A", "-d", "6"]),
    ("baccarat", ["baccarat", "-c", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=25"]),
    ("baccarat", ["baccarat", "-c", "Ks 4h 2d Qc 3h 3s"]),
    ("eor", ["eor", "perfect-pairs", "--paytable", "A", "--decks", "6"]),
    (
        "four-card-poker",
        [
            "four-card-poker",
            "9h 9c 9d Ks 2s",
            "Ah Kd 3c 4c 5s 7h",
            *("--bet", "ante=10", "--bet", "play=best", "--bet", "aces-up=5"),
        ],
    ),
    ("strategy", ["strategy", "four-card-poker"]),
    ("strategy", ["strategy", "blackjack", "--decks", "1", "--strategy", "composition"]),
    ("strategy", ["strategy", "blackjack", "-d", "1", "--no-peek", "--double", "10-11"]),
    ("strategy", ["strategy", "switch-hands", "--decks", "6"]),
]


def _validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _money_fields(doc: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every ``*_cents`` field of a JSON document, with its path."""
    found: list[tuple[str, Any]] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k.endswith("_cents") and not isinstance(v, dict | list):
                found.append((f"{path}.{k}", v))
            found += _money_fields(v, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found += _money_fields(v, f"{path}[{i}]")
    return found


@pytest.mark.parametrize(("schema", "args"), CASES, ids=[" ".join(a[:2]) for _, a in CASES])
def test_command_json_matches_its_schema(schema: str, args: list[str]) -> None:
    run = run_main_once(*args, "--json")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator(schema).iter_errors(doc)]
    assert errors == []
    # money is integer cents (or null where there is none), never float
    for where, value in _money_fields(doc):
        assert value is None or (isinstance(value, int) and not isinstance(value, bool)), where


def test_hand_json_gives_the_win_in_cents() -> None:
    # § 633b.1(f), Paytable A: a Perfect Pair pays 25 to 1, so $5 wins $125 and returns $130
    run = run_main(["hand", "perfect-pairs", "7h 7h", "-p", "A", "-d", "6", "-a", "5", "--json"])
    doc = json.loads(run.out)
    assert (doc["win_cents"], doc["win"], doc["amount_cents"]) == (12_500, "+$125", 500)
    assert doc["returned_cents"] == 13_000


@pytest.mark.parametrize(
    ("args", "kind", "section"),
    [
        (["hand", "perfect-pair", "7h 7c", "-p", "A"], "UnknownWagerError", None),
        (["analyze", "match-the-dealer", "-p", "1", "-d", "2"], "RulesError", "633b.3"),
        (["hand", "perfect-pairs", "--bogus"], "UsageError", None),
    ],
)
def test_json_error_is_one_object(args: list[str], kind: str, section: str | None) -> None:
    run = run_main([*args, "--json"])
    assert run.code == 2
    doc = json.loads(run.out)  # the whole of stdout is one JSON object
    assert list(_validator("error").iter_errors(doc)) == []
    assert doc["error"]["type"] == kind
    if section is None:
        assert doc["error"]["section"] is None
    else:
        assert doc["error"]["section"].startswith(section)
    assert run.error_lines() == [f"error: {doc['error']['message']}"]


def test_misspelt_wager_gets_did_you_mean() -> None:
    run = run_main(["hand", "perfect-pair", "7h 7c", "-p", "A"])
    assert "did you mean 'perfect-pairs'?" in run.err
