"""The analysis commands' ``--json`` output (``analyze``, ``strategy``) is an instance of its
model, the model gives it back unchanged, and it matches the schema file generated from it.
Each command only computes: it is run once a test process (``once=True``) for every test here
(and in tests/commands/test_json_schemas_analysis.py) that reads its output."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from croupier.operations.schemas.analysis import ParSheet
from croupier.operations.schemas.strategy import (
    FourCardPokerStrategy,
    GameAnalysis,
    Strategy,
    SwitchHandsStrategy,
)
from document_support import check_document

CASES: list[tuple[str, list[str]]] = [
    ("analyze", ["analyze", "match-the-dealer", "-p", "1", "-d", "6"]),
    ("analyze", ["analyze", "jackpot-party", "-p", "P10"]),
    ("analyze", ["analyze", "four-card-poker", "-p", "25-20-2"]),
    ("analyze", ["analyze", "banker", "-p", "commission", "-d", "8"]),
    ("analyze", ["analyze", "five-card-progressive"]),
    ("analyze-game", ["analyze", "switch-hands", "-d", "6"]),
    ("analyze-game", ["analyze", "blackjack-premium"]),
    ("strategy", ["strategy", "four-card-poker"]),
    ("strategy", ["strategy", "blackjack", "--decks", "1", "--strategy", "composition"]),
    ("strategy", ["strategy", "blackjack", "-d", "1", "--no-peek", "--double", "10-11"]),
    ("strategy", ["strategy", "switch-hands", "--decks", "6"]),
]


@pytest.mark.parametrize(("name", "args"), CASES, ids=[" ".join(a[:3]) for _, a in CASES])
def test_analysis_command_json_is_an_instance_of_its_model(name: str, args: list[str]) -> None:
    check_document(name, args, once=True)


def test_a_par_sheet_is_validated_by_the_model_itself() -> None:
    data = check_document("analyze", ["analyze", "jackpot-party", "-p", "P10"], once=True)
    sheet = ParSheet.model_validate(data)
    assert sheet.meter_analysis is not None and sheet.meter_analysis.reseed_funding == "reserve"
    assert sheet.hit_odds is not None and sheet.hit_odds[0].level == "Progressive"
    # the Banker's 19 to 20 is a net win of 0.95 a unit, a number
    banker = ParSheet.model_validate(
        check_document("analyze", ["analyze", "banker", "-p", "commission", "-d", "8"], once=True)
    )
    assert 0.95 in {o.net_win for o in banker.outcomes}


def test_a_game_analysis_is_validated_by_the_model_itself() -> None:
    data = check_document("analyze-game", ["analyze", "switch-hands", "-d", "6"], once=True)
    assert GameAnalysis.model_validate(data).figures[0].game == "switch-hands"


def test_each_game_strategy_is_told_apart_by_its_game() -> None:
    adapter: TypeAdapter[Strategy] = TypeAdapter(Strategy)
    fcp = adapter.validate_python(
        check_document("strategy", ["strategy", "four-card-poker"], once=True)
    )
    assert isinstance(fcp, FourCardPokerStrategy)
    assert fcp.with_the_face_up_card.by_face_up_rank[0].decisions.ace == "play-3x"
    premium = check_document("strategy", ["strategy", "switch-hands", "--premium"], once=True)
    model = SwitchHandsStrategy.model_validate(premium)
    assert model.game == "blackjack-premium"
