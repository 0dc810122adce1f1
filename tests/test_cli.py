"""The ``croupier`` command line: JSON shapes, files written, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app, main

runner = CliRunner()

# Offerings of the three wagers of the foundation issue, counted from the regulation:
# Perfect Pairs A, B × 1/2/4/6/8 decks (10), Match the Dealer 1–10 × 6 and × 8 decks (20),
# Ultimate Pairs A–E × 1 deck (5).
EXPECTED_SHEETS = 10 + 20 + 5


def run_json(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_wagers_json_lists_the_three_wagers_with_sections() -> None:
    data = run_json("wagers")
    rows = {w["wager"]: w for w in data["wagers"]}
    assert rows["perfect-pairs"]["section"] == "58 Pa. Code § 633b.1"
    assert rows["match-the-dealer"]["decks"] == [6, 8]
    assert [p["paytable"] for p in rows["ultimate-pairs"]["paytables"]] == list("ABCDE")


def test_analyze_json_has_the_documented_fields() -> None:
    data = run_json("analyze", "perfect-pairs", "--paytable", "A", "--decks", "8")
    for key in (
        "wager",
        "section",
        "paytable",
        "decks",
        "method",
        "outcomes",
        "expected_return",
        "house_edge",
        "hit_frequency",
        "standard_deviation",
    ):
        assert key in data
    assert data["method"] == "exact"
    outcomes = data["outcomes"]
    assert isinstance(outcomes, list)
    first = outcomes[0]
    assert {"outcome", "pays", "combinations", "probability", "return"} <= set(first)
    # published: 1,456 perfect pairs of C(416, 2) = 86,320 hands, house edge 4.0964%
    assert first["combinations"] == 1456
    assert data["total_combinations"] == 86320
    assert round(float(data["house_edge"]) * 100, 4) == 4.0964


def test_analyze_meter_option_values_the_progressive() -> None:
    seed = run_json("analyze", "match-the-dealer", "-p", "1", "-d", "6")
    rich = run_json("analyze", "match-the-dealer", "-p", "1", "-d", "6", "--meter", "5000")
    # a $5,000 meter on the default $1 wager is worth 5,000 units instead of the 1,000-unit seed
    top_seed = seed["outcomes"][0]
    top_rich = rich["outcomes"][0]
    assert top_seed["net_win"] == 999 and top_rich["net_win"] == 4999
    assert rich["house_edge"] < seed["house_edge"]


def test_simulate_json_has_rounds_and_standard_error() -> None:
    data = run_json("simulate", "ultimate-pairs", "-p", "B", "--rounds", "20000", "--seed", "3")
    assert data["method"] == "simulation"
    assert data["rounds"] == 20000
    assert float(data["standard_error"]) > 0
    assert "combinations" not in data["outcomes"][0]


def test_parsheet_json_covers_every_offering() -> None:
    data = run_json("parsheet")
    sheets = data["parsheets"]
    assert isinstance(sheets, list) and len(sheets) == EXPECTED_SHEETS


def test_parsheet_out_writes_json_csv_and_html(tmp_path: Path) -> None:
    result = runner.invoke(app, ["parsheet", "--summary", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "parsheets.json").read_text(encoding="utf-8"))
    assert len(data["parsheets"]) == EXPECTED_SHEETS
    csv_lines = (tmp_path / "parsheets.csv").read_text(encoding="utf-8").splitlines()
    # one row per outcome: PP 4 rows × 10, MTD 7 × 20, UP 9 × 5, plus the header
    assert len(csv_lines) == 1 + 4 * 10 + 7 * 20 + 9 * 5
    page = (tmp_path / "parsheets.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3  # one chart per wager


def test_hand_settles_in_dollars() -> None:
    data = run_json("hand", "perfect-pairs", "8s 8s", "-p", "A", "-d", "6", "--amount", "10")
    assert data["outcome"] == "perfect-pair"
    assert data["win"] == "$250" and data["returned"] == "$260"


def test_paytables_show_a_section_not_yet_implemented_as_a_wager() -> None:
    data = run_json("paytables", "633b.2", "--paytable", "P17-A")
    (table,) = data["paytables"]
    assert table["lines"][0]["pays"] == "100% Mega"
    assert table["lines"][0]["envy"] == "$3,000"


def test_user_paytable_file(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text(
        'section = "633b.1"\ntitle = "house"\ncitation = "proposal"\n'
        '[[paytables]]\nid = "H1"\ndecks = [8]\nlines = [\n'
        '{ outcome = "perfect-pair", label = "Perfect Pair", pays = "25 to 1" },\n'
        '{ outcome = "colored-pair", label = "Colored Pair", pays = "12 to 1" },\n'
        '{ outcome = "mixed-pair", label = "Mixed Pair", pays = "6 to 1" },\n]\n',
        encoding="utf-8",
    )
    data = run_json("analyze", "perfect-pairs", "-p", "H1", "-d", "8", "--paytable-file", str(f))
    # the same pays as paytable A: the published 4.0964% at 8 decks
    assert round(float(data["house_edge"]) * 100, 4) == 4.0964


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["analyze", "no-such-wager", "-p", "A"], "no wager 'no-such-wager'"),
        (["analyze", "match-the-dealer", "-p", "4", "-d", "2"], "§ 633b.3(b)"),
        (["analyze", "perfect-pairs", "-p", "Z", "-d", "8"], "no paytable 'Z'"),
        (["analyze", "perfect-pairs", "-p", "A"], "say which"),
        (["hand", "perfect-pairs", "Ah Zz", "-p", "A", "-d", "6"], "'Zz'"),
        (["hand", "perfect-pairs", "As As", "-p", "A", "-d", "1"], "cannot deal As"),
        (["hand", "match-the-dealer", "As Ks Qs", "-p", "1", "-d", "6", "-a", "2"], "§ 633b.3"),
        (["analyze", "match-the-dealer", "-p", "1", "-d", "6", "--meter", "lots"], "--meter"),
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
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert needle in lines[0]
    assert "Traceback" not in captured.err
