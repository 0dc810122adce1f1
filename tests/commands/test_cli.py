"""The ``croupier`` command line: JSON shapes, files written, and one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
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
    assert rows["perfect-pairs"]["section"] == "633b.1"
    assert rows["perfect-pairs"]["citation"] == "58 Pa. Code § 633b.1"
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


def _foundation_sheets(sheets: list[Any]) -> list[Any]:
    return [
        s for s in sheets if s["wager"] in ("perfect-pairs", "match-the-dealer", "ultimate-pairs")
    ]


def test_parsheet_json_covers_every_offering() -> None:
    data = run_json("parsheet")
    sheets = _foundation_sheets(data["parsheets"])
    assert len(sheets) == EXPECTED_SHEETS


def test_parsheet_out_writes_json_csv_and_html(tmp_path: Path) -> None:
    result = runner.invoke(app, ["parsheet", "--summary", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "parsheets.json").read_text(encoding="utf-8"))
    assert len(_foundation_sheets(data["parsheets"])) == EXPECTED_SHEETS
    wagers = {s["wager"] for s in data["parsheets"]}
    csv_lines = (tmp_path / "parsheets.csv").read_text(encoding="utf-8").splitlines()
    foundation_rows = [
        line
        for line in csv_lines
        if line.split(",")[0] in ("perfect-pairs", "match-the-dealer", "ultimate-pairs")
    ]
    # one row per outcome: PP 4 rows × 10, MTD 7 × 20, UP 9 × 5
    assert len(foundation_rows) == 4 * 10 + 7 * 20 + 9 * 5
    # § 633b.4 changes the game: whole-game figures for 6 and 8 decks, each kind of player
    games = data["games"]
    assert [g["decks"] for g in games] == [6, 8]
    for g in games:
        kinds = [(f["game"], f["player"], f["tie_blackjack_pays_1_to_2"]) for f in g["figures"]]
        assert kinds == [
            ("switch-hands", "switch-hands ante", False),
            ("switch-hands", "switch-hands ante", True),
            ("blackjack-premium", "switch-hands ante", True),
            ("blackjack-premium", "plain blackjack (no ante)", True),
        ]
        # the Ante is 1/5 of the Blackjack wager (§ 633b.4(c)): per total wagered = per wager / 1.2
        for f in g["figures"]:
            ratio = 1 + f["ante_per_blackjack_wager"]
            assert (
                abs(f["house_edge_per_total_wagered"] * ratio - f["house_edge_per_blackjack_wager"])
                < 1e-12
            )
    page = (tmp_path / "parsheets.html").read_text(encoding="utf-8")
    assert "Keep (K) or switch (W), 6 decks" in page
    # the contents, a section per wager, and one for § 633b.4
    assert page.count("<h2>") == 1 + len(wagers) + 1
    assert page.count("<svg") >= len(wagers)  # with at least one chart each


def test_hand_settles_in_dollars() -> None:
    data = run_json("hand", "perfect-pairs", "8s 8s", "-p", "A", "-d", "6", "--amount", "10")
    assert data["outcome"] == "perfect-pair"
    assert data["win"] == "+$250" and data["returned"] == "$260"


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
        (["analyze", "perfect-pairs", "-p", "A"], "give the deck count"),
        (["hand", "perfect-pairs", "Ah Zz", "-p", "A", "-d", "6"], "'Zz'"),
        (["hand", "perfect-pairs", "As As", "-p", "A", "-d", "1"], "cannot deal As"),
        (["hand", "match-the-dealer", "As Ks Qs", "-p", "1", "-d", "6", "-a", "2"], "§ 633b.3"),
        (["analyze", "match-the-dealer", "-p", "1", "-d", "6", "--meter", "lots"], "--meter"),
        # usage errors are one line too
        (["analyze", "perfect-pairs", "--decks", "six", "-p", "A"], "--decks"),
        (["simulate", "perfect-pairs", "-p", "A", "-d", "8", "--seed", "-1"], "--seed"),
        (["analyze", "perfect-pairs", "-d", "8"], "--paytable"),
        # text from the user is printed as given, not read as styling markup
        (["analyze", "perfect-pairs", "-p", "[/foo]", "-d", "6"], "'[/foo]'"),
        # a meter stands above $0 (below its seed after a share award: docs/interpretations.md)
        (["analyze", "match-the-dealer", "-p", "4", "-d", "8", "--meter", "0"], "--meter"),
        (
            ["hand", "match-the-dealer", "7h 7h 7h", "-p", "4", "-d", "6", "--meter", "-5"],
            "--meter",
        ),
        (["analyze", "perfect-pairs", "-p", "A", "-d", "8", "--meter", "7500"], "does not apply"),
        (["hand", "perfect-pairs", "Ah Ad", "-p", "A", "-d", "6", "--amount", "inf"], "--amount"),
        (["paytables", "633b.9"], "no section or wager '633b.9'"),
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


def test_parsheet_out_refuses_a_file(tmp_path: Path) -> None:
    target = tmp_path / "afile"
    target.write_text("keep me", encoding="utf-8")
    result = runner.invoke(app, ["parsheet", "--summary", "--out", str(target)])
    assert result.exit_code != 0
    assert target.read_text(encoding="utf-8") == "keep me"


def test_hand_names_the_groups_it_read() -> None:
    data = run_json("hand", "match-the-dealer", "7h 7c 7h", "-p", "4", "-d", "8", "-a", "5")
    assert data["reads"] == {"player's two cards": ["7h", "7c"], "dealer's upcard": ["7h"]}
    # § 633b.3(a)(3): one suited and one non-suited match, paytable 4 (eight decks) 75 to 1
    assert data["outcome"] == "non-suited-and-suited-match" and data["win"] == "+$375"


def _house_file(tmp_path: Path, perfect: str) -> Path:
    f = tmp_path / "house.toml"
    f.write_text(
        'section = "633b.1"\ntitle = "house"\ncitation = "operator proposal"\n'
        '[[paytables]]\nid = "H2"\ndecks = [8]\nlines = [\n'
        f'{{ outcome = "perfect-pair", label = "Perfect Pair", pays = "{perfect}" }},\n'
        '{ outcome = "colored-pair", label = "Colored Pair", pays = "12 to 1" },\n'
        '{ outcome = "mixed-pair", label = "Mixed Pair", pays = "6 to 1" },\n]\n',
        encoding="utf-8",
    )
    return f


def test_user_paytable_is_marked_as_not_from_the_regulation(tmp_path: Path) -> None:
    f = _house_file(tmp_path, "25 to 1")
    data = run_json("analyze", "perfect-pairs", "-p", "H2", "-d", "8", "-f", str(f))
    assert data["paytable_in_regulation"] is False
    assert data["paytable_citation"] == "operator proposal"
    builtin = run_json("analyze", "perfect-pairs", "-p", "A", "-d", "8")
    assert builtin["paytable_in_regulation"] is True
    assert builtin["paytable_citation"] == "58 Pa. Code § 633b.1(f)"


def test_a_push_is_not_a_hit(tmp_path: Path) -> None:
    f = _house_file(tmp_path, "push")
    data = run_json("analyze", "perfect-pairs", "-p", "H2", "-d", "8", "-f", str(f))
    # 8 decks: 1,664 colored + 3,328 mixed pairs win of C(416, 2) = 86,320 hands; the 1,456
    # perfect pairs push and are not hits
    assert data["exact"]["hit_frequency"] == str(Fraction(1664 + 3328, 86320))
    # expected return: (12·1664 + 6·3328 − (86320 − 1456 − 1664 − 3328)) / 86320
    expected = Fraction(12 * 1664 + 6 * 3328 - (86320 - 1456 - 1664 - 3328), 86320)
    assert data["exact"]["expected_return"] == f"{expected.numerator}/{expected.denominator}"


def test_user_paytable_with_an_unknown_outcome_names_it(tmp_path: Path) -> None:
    f = _house_file(tmp_path, "25 to 1")
    f.write_text(
        f.read_text(encoding="utf-8").replace('"mixed-pair"', '"mixd-pair"'), encoding="utf-8"
    )
    result = runner.invoke(app, ["analyze", "perfect-pairs", "-p", "H2", "-d", "8", "-f", str(f)])
    assert result.exit_code != 0
    assert "mixd-pair" in str(result.exception)


def test_a_share_of_the_meter_shown_without_a_meter_says_it_is_valued_at_the_seed() -> None:
    """Issue 12 (one truth on the screen): without a ledger or a --meter, a share-of-meter pay is
    the seed's share — 10% of $5,000 (1,000 × the $5 wager, § 633b.3(j)) less the $5 stake is
    +$495 — and the output says the meter decides the pay; with --meter 6000 it is 10% of $6,000."""
    args = ["hand", "match-the-dealer", "7h 7h 7h", "-p", "1", "-d", "6", "-a", "5"]
    seed = runner.invoke(app, args)
    assert seed.exit_code == 0, seed.output
    assert "+$495" in seed.stdout and "the progressive meter decides the pay" in seed.stdout
    metered = runner.invoke(app, [*args, "--meter", "6000"])
    assert metered.exit_code == 0, metered.output
    assert "+$595" in metered.stdout and "decides the pay" not in metered.stdout
    bj_args = ["blackjack-round", "--dealer", "Ad Kd", "--player", "Qd Jd", "--decks", "6"]
    bj = runner.invoke(
        app,
        [
            *bj_args,
            *("--bet", "1:blackjack=10", "--bet", "1:jackpot-party=5"),
            *("--paytable", "jackpot-party=P10"),
        ],
    )
    assert bj.exit_code == 0, bj.output
    assert "the progressive meter decides the pay" in " ".join(bj.stdout.split())


@pytest.mark.parametrize(("paytable", "warned"), [("10", True), ("1", False)])
def test_analyze_warns_when_the_long_run_return_is_above_the_wager(
    paytable: str, warned: bool
) -> None:
    """Match the Dealer at six decks puts 21% of each wager back on the meters (15% + 6%,
    § 633b.3(j)) while resets are house money: paytable 10's house edge at the seed (about 8.5%)
    is far below that, so the player has the long-run edge; paytable 1's (about 28.4%) is above it."""
    result = runner.invoke(app, ["analyze", "match-the-dealer", "-p", paytable, "-d", "6"])
    assert result.exit_code == 0, result.output
    assert ("WARNING: in the long run" in result.stdout) is warned
