"""``croupier blackjack-round`` settles the whole dealt Blackjack round through the round
procedure (:class:`~croupier.table.round.TableRound`): the players' decisions, the Blackjack
wagers themselves (Chapter 633a), AxMan (§ 633c.12) and Jackpot Party (§ 633b.2) — into the same
settlement record as ``croupier settle`` gives for the same round as a round file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app, main

runner = CliRunner()


def run(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# dealer Q♠ 5♥ draws the K♦ and busts (25); seat 1 stands on K♦ 7♣ (17); seat 2 hits 9♠ 7♥ with
# the 2♦ and stands on 18
ARGS = (
    *("--dealer", "Qs 5h Kd", "--player", "Kd 7c", "--player", "9s 7h"),
    *("--bet", "1:blackjack=10", "--bet", "2:blackjack=25", "--bet", "1:axman=5"),
    *("--move", "1:stand", "--move", "2:hit:2d", "--move", "2:stand"),
)


def test_the_blackjack_wagers_are_settled_with_the_side_wagers() -> None:
    data = run("blackjack-round", *ARGS)
    lines = [(x["seat"], x["wager"], x["win_cents"]) for x in data["settlement"]["lines"]]
    # the dealer busts: each standing hand wins even money (§ 633a.7); AxMan after the round
    # (§ 633c.12(e)): K♦ wild with the K♦ drawn makes a pair of kings, jacks or better 5 to 1, ×2
    # for seat 1's own K♦ = +$50 on $5; settled from the dealer's right, AxMan first
    assert lines == [(1, "axman", 5000), (2, "blackjack", 2500), (1, "blackjack", 1000)]
    assert data["net_cents"] == 5000 + 2500 + 1000
    hit = [e for e in data["events"] if e["action"] == "hit"]
    assert [(e["seat"], e["section"]) for e in hit] == [(2, hit[0]["section"])] and hit


def test_the_same_record_as_settle_gives_for_the_round_file(tmp_path: Path) -> None:
    submission = {
        "game": "blackjack",
        "decks": 6,
        "dealer": "S17",
        "wagers": [
            {"wager": "blackjack", "min": "$10", "max": "$25"},
            {"wager": "axman", "paytable": "standard", "min": "$5", "max": "$5"},
        ],
    }
    steps = [
        {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
        {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$25"},
        {"action": "bet", "seat": 1, "wager": "axman", "amount": "$5"},
        {"action": "deal", "players": {"1": "Kd 7c", "2": "9s 7h"}, "dealer": "Qs 5h Kd"},
        {"action": "stand", "seat": 1},
        {"action": "hit", "seat": 2, "card": "2d"},
        {"action": "stand", "seat": 2},
    ]
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"submission": submission, "steps": steps}), "utf-8")
    (settled,) = run("settle", str(path))
    ours = run("blackjack-round", *ARGS)
    assert ours["settlement"] == settled["settlement"]
    assert ours["rules"] == "6 decks, dealer stands on soft 17"


def test_without_decisions_the_round_is_refused_naming_the_seat_and_its_decisions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["croupier", "blackjack-round", "--dealer", "Qs 5h Kd", "--player", "Kd 7c"]
    monkeypatch.setattr("sys.argv", [*argv, "--bet", "1:blackjack=10", "--bet", "1:axman=5"])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code != 0
    said = " ".join(capsys.readouterr().err.split())
    assert "seat 1's hand Kd 7c (17) is unplayed: double, hit or stand" in said
    assert "633a.7" in said


def test_with_base_game_external_the_blackjack_wagers_are_the_base_game_s() -> None:
    args = ["blackjack-round", "--dealer", "Qs 5h Kd", "--player", "Kd 7c"]
    args += ["--bet", "1:blackjack=10", "--bet", "1:axman=5", "--base-game", "external"]
    data = run(*args)
    assert data["base_game"] == "external"
    bj = [x for x in data["settlement"]["lines"] if x["wager"] == "blackjack"]
    assert [(x["settled_by_base_game"], x["win_cents"], x["returned_cents"]) for x in bj] == [
        (True, None, None)
    ]
    axman = [x["win_cents"] for x in data["settlement"]["lines"] if x["wager"] == "axman"]
    assert data["settlement"]["net_cents"] == sum(axman)  # the Blackjack wager is not counted
    shown = runner.invoke(app, args, terminal_width=200)
    assert "for the table's own system to settle" in " ".join(shown.stdout.split())


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--bet", "1:axman=5"], "seat 1: the axman wager needs the blackjack wager first"),
        (["--bet", "1:blackjack=10", "--move", "1:hti"], "did you mean 'hit'?"),
        (["--bet", "1:blackjack=10", "--move", "1:hit:Zz"], "Zz"),
    ],
)
def test_a_bad_round_is_one_error_line(
    args: list[str],
    needle: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["croupier", "blackjack-round", "--dealer", "Qs 5h Kd", "--player", "Kd 7c", *args]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], lines
