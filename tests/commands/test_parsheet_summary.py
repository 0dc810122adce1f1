"""`croupier parsheet --wager W --decks N --summary`: the filters, and the manager's columns."""

from __future__ import annotations

import json

from cli_support import run_main


def test_parsheet_filters_by_wager_and_decks_and_flags_returns_above_100() -> None:
    run = run_main(["parsheet", "--summary", "--wager", "match-the-dealer", "--decks", "8"])
    assert run.code == 0, run.err
    rows = [line for line in run.out.splitlines() if line.startswith("│ match-the-dealer")]
    # § 633b.3 prints paytables 1-10 for eight decks; nothing else passes the filter
    assert [r.split("│")[3].strip() for r in rows] == [str(k) for k in range(1, 11)]
    assert all(r.split("│")[4].strip() == "8" for r in rows)
    assert "Switch Hands" not in run.out and "│ perfect-pairs" not in run.out
    # the house edge at the seed is the one `analyze` gives for the same sheet
    first = json.loads(
        run_main(["analyze", "match-the-dealer", "-p", "1", "-d", "8", "--json"]).out
    )
    assert rows[0].split("│")[5].strip() == f"{first['house_edge']:.4%}"
    # every paytable whose long-run return column is above 100% is named in the warning line
    above = [r.split("│")[3].strip() for r in rows if float(r.split("│")[6].strip(" ⚠%")) > 100]
    assert above  # under the current reading (docs/interpretations.md)
    (warning,) = [line for line in run.out.splitlines() if line.startswith("WARNING")]
    for key in above:
        assert f"match-the-dealer {key} (8 decks)" in warning


def test_parsheet_unknown_wager_gets_did_you_mean() -> None:
    run = run_main(["parsheet", "--summary", "--wager", "match-the-deler"])
    assert run.code == 2 and "did you mean 'match-the-dealer'?" in run.err
