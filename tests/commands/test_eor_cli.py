"""``croupier eor``: one wager in detail, or the count-vulnerability table; both ``--json``
outputs against their schemas (docs/schemas/eor.schema.json, eor-table.schema.json)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cli_support import run_main
from repo_paths import ROOT

SCHEMAS = ROOT / "docs" / "schemas"


def _json(schema: str, *args: str) -> Any:
    run = run_main(["eor", *args, "--json"])
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    spec = json.loads((SCHEMAS / f"{schema}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(spec)
    errors = [e.message for e in Draft202012Validator(spec).iter_errors(doc)]
    assert not errors, errors
    return doc


def test_axman_detail_is_suit_aware_and_plays_shoes() -> None:
    doc = _json("eor", "axman", "-d", "6", "--shoes", "300", "--seed", "3")
    assert doc["suits_matter"] and doc["count"]["suit_aware"]
    assert len(doc["card_effects"]) == 52 and sum(doc["count"]["tags"].values()) == 0
    assert doc["count"]["tags"]["Kd"] < 0
    counter = doc["counter"]
    assert counter["shoes"] == 300 and counter["penetration"] == 0.75 and counter["seats"] == 3
    assert counter["trigger_true_count"] == doc["count"]["trigger_true_count"]
    assert 0 < counter["bet_frequency"] < 1
    assert doc["vulnerability"]["win_per_hour_cents"] == round(counter["win_per_hour"] * 2500)


def test_match_the_dealer_answers_without_a_traceback() -> None:
    doc = _json("eor", "match-the-dealer", "-p", "1", "-d", "6", "--shoes", "200")
    assert doc["count"] is None and "only the A♠ differs" in doc["no_count"]
    assert doc["vulnerability"]["verdict"] == "no card count tracks it"
    perfect = doc["vulnerability"]["perfect_play"]
    assert perfect["shoes"] == 200 and perfect["rounds"] > 200 * 15


@pytest.mark.parametrize("wager", ["aces-up", "five-card-hand-bonus", "ultimate-pairs"])
def test_one_deck_wagers_are_counted_but_reshuffled(wager: str) -> None:
    doc = _json("eor", wager)
    assert doc["decks"] == 1 and doc["count"] is not None
    assert doc["counter"] is None
    assert doc["vulnerability"]["verdict"] == "no count carries between rounds"


def test_the_table_lists_each_wager_asked_for() -> None:
    doc = _json(
        "eor-table",
        "perfect-pairs",
        "jackpot-party",
        "fortune-7",
        "four-card-poker",
        "--shoes",
        "300",
        "--unit",
        "10",
    )
    rows = {r["wager"]: r for r in doc["wagers"]}
    assert doc["unit_cents"] == 1000
    assert rows["perfect-pairs"]["verdict"] == "no card count tracks it"
    assert rows["jackpot-party"]["count"]["trigger_true_count"] >= 1
    assert rows["fortune-7"]["win_per_shoe"] is not None
    assert rows["four-card-poker"]["verdict"] == "not computed"
    assert "full deck" in rows["four-card-poker"]["no_count"]


def test_table_text_and_bad_options() -> None:
    run = run_main(["eor", "perfect-pairs", "ultimate-pairs", "--shoes", "0"])
    assert run.code == 0, run.err
    assert "Count vulnerability" in run.out and "ultimate-pairs" in run.out
    for args, needle in (
        (["perfect-pairs", "ultimate-pairs", "-p", "A"], "exactly one wager"),
        (["jackpot-party", "--penetration", "1.5"], "--penetration"),
        (["jackpot-party", "--unit", "0"], "--unit"),
    ):
        bad = run_main(["eor", *args])
        assert bad.code == 2 and bad.err.count("\n") <= 1 and needle in bad.err, bad.err
