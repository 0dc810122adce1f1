"""The Baccarat commands: exact counts through ``analyze``, a dealt coup, ``eor`` and
``simulate-shoes``; errors are one line with status 2.

Counts asserted are the published 8-deck figures (see tests/analysis/test_baccarat_exact.py for sources).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.analysis import exact_parsheet
from croupier.analysis.report import parsheets_html
from croupier.cli import app, main
from croupier.wagers import all_wagers, get_wager
from croupier.wagers.baccarat import baccarat_wagers

runner = CliRunner()
TOTAL_8 = 4_998_398_275_503_360


def run_json(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("wager", "paytable", "wins"),
    [
        ("fortune-7", "A", 112_633_011_329_024),
        ("golden-8", "B", 172_660_763_262_976),
        ("player", "standard", 2_230_518_282_592_256),
        ("tie", "9-to-1", 475_627_426_473_216),
    ],
)
def test_analyze_reports_the_published_integer_counts(wager: str, paytable: str, wins: int) -> None:
    data = run_json("analyze", wager, "--paytable", paytable, "--decks", "8")
    assert data["outcomes"][0]["combinations"] == wins
    assert data["total_combinations"] == TOTAL_8
    assert "six-card convention" in data["counting"]


def test_analyze_banker_sums_to_the_published_banker_wins() -> None:
    data = run_json("analyze", "banker", "-p", "commission", "-d", "8")
    assert sum(o["combinations"] for o in data["outcomes"][:3]) == 2_292_252_566_437_888


def test_baccarat_settles_a_dealt_coup() -> None:
    data = run_json(
        "baccarat", "--cards", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=10", "--bet", "fortune-7=5"
    )
    assert data["player"] == {
        "cards": ["Ks", "2d", "3h"],
        "total": 5,
        "natural": False,
        "drew": "3h",
    }
    assert data["banker"]["total"] == 7 and data["banker"]["drew"] == "3s"
    assert data["result"] == "banker"
    by_wager = {w["wager"]: w for w in data["wagers"]}
    assert by_wager["banker"]["win"] == "+$9.50"
    assert by_wager["fortune-7"]["win"] == "+$200"
    assert data["net"] == "+$209.50"
    assert (by_wager["banker"]["win_cents"], data["net_cents"]) == (950, 20_950)


def test_baccarat_without_bets_shows_every_wager() -> None:
    data = run_json("baccarat", "--cards", "3h 4c 4d 3s", "--paytable", "five-treasures=B")
    outcomes = {w["wager"]: w["pays"] for w in data["wagers"]}
    assert outcomes["blazing-7s"] == "50 to 1" and outcomes["cover-all"] == "6 to 1"
    assert outcomes["player"] == "push" and outcomes["tie"] == "8 to 1"
    nine = run_json("baccarat", "--cards", "3h 4c 4d 3s", "-p", "tie=9-to-1", "-p", "banker=ez")
    assert {w["wager"]: w["pays"] for w in nine["wagers"]}["tie"] == "9 to 1"


def test_eor_json() -> None:
    data = run_json("eor", "fortune-7", "-p", "A", "-d", "8", "--shoes", "300", "--seed", "2")
    ranks = [e["rank"] for e in data["effects"]]
    assert ranks == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    assert sum(data["count"]["tags"].values()) == 0
    assert data["count"]["trigger_true_count"] >= data["count"]["threshold_true_count"]
    assert data["shoes"]["shoes"] == 300 and data["shoes"]["cut_card"] == 14
    assert 0 < data["shoes"]["bet_frequency"] < 1


def test_eor_of_a_wager_the_count_never_turns_positive_skips_the_shoes() -> None:
    data = run_json("eor", "tie", "-p", "8-to-1", "-d", "8", "--shoes", "100", "--trigger", "90")
    assert data["shoes"]["bets"] == 0


def test_simulate_shoes_json() -> None:
    data = run_json("simulate-shoes", "--shoes", "300", "--seed", "4")
    rows = {(r["wager"], r["paytable"]) for r in data["wagers"]}
    assert ("cover-all", "B") in rows and ("banker", "ez") in rows and len(rows) == 16
    assert all(r["coups"] > 300 * 70 for r in data["wagers"])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["baccarat", "--cards", "Th 2c Jd As"], "§ 631a.11"),
        (["baccarat", "--cards", "3h 4c 4d 3s", "--bet", "cover-all=5"], "§ 631c.3(c)"),
        (["baccarat", "--cards", "3h 4c 4d 3s", "--bet", "banker"], "WAGER=DOLLARS"),
        (["baccarat", "--cards", "3h 4c 4d 3s", "-p", "banker=8-to-1"], "not for the Banker"),
        (["baccarat", "--cards", "3h 4c 4d 3s", "-p", "banekr=ez"], "did you mean 'banker'?"),
        (["baccarat", "--cards", "3h 4c 4d 3s", "-p", "banker"], "WAGER=ID"),
        (["analyze", "banker", "-p", "standard", "-d", "8"], "not for the Banker"),
    ],
)
def test_errors_are_one_line_with_status_2(
    args: list[str],
    needle: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("sys.argv", ["croupier", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert needle in lines[0]


def test_parsheet_covers_every_baccarat_offering() -> None:
    ids = {w.id for w in all_wagers()}
    offerings = [o for w in baccarat_wagers() for o in w.offerings()]
    assert {w.id for w in baccarat_wagers()} <= ids  # `croupier parsheet` walks all_wagers()
    # Player 1, Banker 3, Tie 2 paytables and 5 Treasures 5 wagers × A, B, each for 1–8 decks
    assert len(offerings) == (1 + 3 + 2 + 5 * 2) * 8


def test_report_has_an_effect_of_removal_section_for_baccarat_wagers() -> None:
    fortune = get_wager("fortune-7")
    sheets = [exact_parsheet(fortune, key, decks=8) for key in "AB"]
    page = parsheets_html(sheets)
    assert "Effect of removal and counting, 8-deck shoe" in page
    # the contribution chart, the effect-of-removal chart and each sheet's return band
    assert page.count("<svg") == 4
    pairs = [exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)]
    # every wager has the section now (issue 18); Perfect Pairs' says why no count tracks it
    assert "effect of removal is exactly 0" in parsheets_html(pairs)
