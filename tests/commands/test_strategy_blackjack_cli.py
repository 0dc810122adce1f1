"""CLI: `croupier strategy blackjack`, `croupier strategy switch-hands`, `croupier analyze
switch-hands` and `blackjack-premium` (58 Pa. Code § 633b.4)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from cli_support import run_main
from croupier.cli import app

runner = CliRunner()


def run(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_strategy_blackjack_json_and_table() -> None:
    # 1 deck, S17, late surrender, otherwise PA's defaults: Hoppe's exact figures (no cut card)
    # are -0.161 % for basic strategy, -0.205 % composition-dependent
    # (tests/blackjack_rules_reference.py, "1 deck, S17")
    args = ("strategy", "blackjack", "--decks", "1", "--s17", "--surrender")
    doc = json.loads(run(*args, "--json").stdout)
    assert doc["game"] == "blackjack" and doc["strategy"] == "basic"  # the default
    assert doc["house_edge"] * 100 == pytest.approx(-0.161, abs=0.002)
    assert doc["rule_set"]["late_surrender"] and doc["rule_set"]["dealer"] == "S17"
    rows = {r["hand"]: r for r in doc["chart"]}
    assert rows["8,8"]["actions"]["T"] == "split"
    assert rows["hard 11"]["actions"]["A"] == "double"  # one deck: double 11 against an ace
    cd = json.loads(run(*args, "--strategy", "composition", "--json").stdout)
    assert cd["strategy"] == "composition"
    assert cd["house_edge"] * 100 == pytest.approx(-0.205, abs=0.002)
    text = run(*args).stdout
    assert "hard 16" in text and "house edge -0.16" in text and "basic strategy" in text


def test_the_new_rules_reach_the_house_edge_and_the_chart() -> None:
    # 1 deck, S17, split to 2 hands, Blackjack paying 6 to 5, composition-dependent: Hoppe's
    # Play'n GO single deck is 1.263 % basic; a 6 to 5 Blackjack costs 0.3 × P(player
    # Blackjack, dealer none) against 3 to 2 — P = 2·4·16/(52·51) less the dealer's tens and
    # aces, about 0.0465, so about 1.4 points
    base = ("strategy", "blackjack", "-d", "1", "--split-hands", "2", "--strategy", "composition")
    three_two = json.loads(run(*base, "--json").stdout)["house_edge"]
    six_five = json.loads(run(*base, "--blackjack-pays", "6:5", "--json").stdout)
    assert six_five["rule_set"]["blackjack_pays"] == "6:5"
    assert 0.013 < six_five["house_edge"] - three_two < 0.0145
    # doubling on 10 and 11 only: no chart cell doubles a 9, or a soft hand
    ten = json.loads(run(*base, "--double", "10-11", "--json").stdout)
    for row in ten["chart"]:
        if row["kind"] == "soft" or row["hand"] == "hard 9":
            assert "double" not in row["actions"].values(), row["hand"]
    # without the peek there is no chart (its engine models the peek only), and it costs
    no_peek = json.loads(run(*base, "--no-peek", "--json").stdout)
    assert "chart" not in no_peek and not no_peek["rule_set"]["peek"]
    assert no_peek["house_edge"] > three_two
    assert "no chart without the peek" in run(*base, "--no-peek").stdout


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (("--blackjack-pays", "2:1"), "a Blackjack pays 3:2, 6:5, 1:1, not '2:1'"),
        (("--double", "8-11"), "doubling is on any, 9-11, 10-11, not '8-11'"),
        (("--strategy", "perfect"), "no strategy 'perfect': basic or composition"),
        (("--decks", "9"), "decks must be 1 to 8, not 9"),
        (("--split-hands", "2", "--resplit-aces"), "§ 633a.11"),
    ],
)
def test_bad_rules_are_one_line(option: tuple[str, ...], words: str) -> None:
    result = run_main(["strategy", "blackjack", *option])
    assert result.code == 2
    (line,) = result.error_lines()
    assert words in line


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
