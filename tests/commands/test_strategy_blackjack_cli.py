"""CLI: `croupier strategy blackjack`, `croupier strategy switch-hands`, `croupier analyze
switch-hands` and `blackjack-premium` (58 Pa. Code § 633b.4)."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()


def run(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_strategy_blackjack_json_and_table() -> None:
    doc = json.loads(run("strategy", "blackjack", "--decks", "6", "--s17", "--json").stdout)
    assert doc["game"] == "blackjack"
    rows = {r["hand"]: r for r in doc["chart"]}
    assert rows["hard 11"]["actions"]["A"] == "hit"  # 6 decks, S17: hit 11 against an ace
    assert rows["8,8"]["actions"]["T"] == "split"
    assert 0.003 < doc["house_edge"] < 0.006
    text = run("strategy", "blackjack", "--decks", "6", "--s17").stdout
    assert "hard 16" in text and "house edge" in text


def test_strategy_blackjack_refuses_unknown_options() -> None:
    result = runner.invoke(app, ["strategy", "blackjack", "--bogus"])
    assert result.exit_code != 0
    result = runner.invoke(app, ["strategy", "four-card-poker", "--decks", "6"])
    assert result.exit_code != 0


def test_analyze_switch_hands_and_premium_json() -> None:
    doc = json.loads(run("analyze", "switch-hands", "--decks", "6", "--json").stdout)
    assert doc["game"] == "switch-hands" and "strategy" in doc
    no_tie, tie = doc["figures"]
    assert not no_tie["tie_blackjack_pays_1_to_2"] and tie["tie_blackjack_pays_1_to_2"]
    for f in doc["figures"]:
        assert f["ante_per_blackjack_wager"] == 0.2
        assert f["house_edge_per_total_wagered"] * 1.2 == f["house_edge_per_blackjack_wager"]
    prem = json.loads(run("analyze", "blackjack-premium", "--decks", "6", "--json").stdout)
    ante, plain = prem["figures"]
    assert ante["ante_per_blackjack_wager"] == 0.2 and plain["ante_per_blackjack_wager"] == 0
    text = run("analyze", "switch-hands", "--decks", "6").stdout
    assert "Switch Hands" in text and "House edge" in text


def test_switch_decision_chart() -> None:
    text = run("strategy", "switch-hands", "--decks", "6").stdout
    assert "T,6" in text and "W" in text
