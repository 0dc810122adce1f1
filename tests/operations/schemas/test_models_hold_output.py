"""The models are not loose descriptions: the JSON the commands write is read by its model
(unknown keys refused) and written back by it unchanged — the same keys, a key absent where the
command leaves it out, the same values of the same JSON types."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli_support import run_main
from croupier.operations.schemas import analysis, eor, problems, reading, rounds, simulation
from model_support import held
from repo_paths import ROOT

ROUNDS = sorted((ROOT / "examples" / "rounds").glob("*.json"))

CASES: list[tuple[Any, list[str]]] = [
    (reading.WagerList, ["wagers"]),
    (reading.PaytableList, ["paytables", "633b.3"]),
    (reading.PaytableList, ["paytables", "jackpot-party", "-p", "P10"]),
    (analysis.ParSheet, ["analyze", "jackpot-party", "-p", "P10"]),
    (analysis.ParSheet, ["analyze", "banker", "-p", "commission", "-d", "8"]),
    (analysis.ParSheetFile, ["parsheet", "--wager", "switch-hands", "-d", "6"]),
    (analysis.ParSheetFile, ["parsheet", "--wager", "jackpot-party", "-d", "1"]),
    (analysis.ParSheetSummaryFile, ["parsheet", "--summary", "--wager", "match-the-dealer"]),
    (
        simulation.SimulatedParSheet,
        ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "500", "-s", "3"],
    ),
    (eor.EorDetail, ["eor", "perfect-pairs", "--paytable", "A", "--decks", "6"]),
    (problems.CommandError, ["analyze", "match-the-dealer", "-p", "1", "-d", "2"]),
    (rounds.SettledRounds, ["settle", *map(str, ROUNDS)]),
]


@pytest.mark.parametrize(("model", "args"), CASES, ids=[" ".join(a[:2]) for _, a in CASES])
def test_each_command_json_is_read_and_written_back_by_its_model(
    model: Any, args: list[str]
) -> None:
    run = run_main([*args, "--json"])
    held(model, json.loads(run.out))


def test_a_line_settled_by_the_base_game_has_null_money_in_the_model() -> None:
    line = rounds.SettledRound.model_validate(
        json.loads(run_main(["settle", str(ROUNDS[0]), "--json"]).out)[0]
    ).settlement.lines[0]
    assert line.settled_by_base_game is (line.win_cents is None)


def test_a_key_the_model_does_not_name_is_refused() -> None:
    doc = json.loads(run_main(["wagers", "--json"]).out)
    doc["wagers"][0]["extra"] = 1
    with pytest.raises(ValueError, match="extra"):
        reading.WagerList.model_validate(doc)
