"""``croupier simulate`` gives a simulation as evidence (issue 30): the chi-square test and the
confidence intervals on the terminal, the evidence in ``--json``, and ``--out DIR`` writing JSON
(what ``--json`` prints), CSV and HTML; SciPy imported only when a test is made."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

from cli_support import assert_one_error_line, run_main

ARGS = ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "5000", "-s", "3"]


def test_the_terminal_shows_the_test_the_intervals_and_the_run() -> None:
    run = run_main(ARGS)
    assert run.code == 0, run.err
    assert "Observed against expected" in run.out
    assert "chi-square goodness of fit" in run.out and "degrees of freedom" in run.out
    assert "confidence intervals 90%" in run.out and "99%" in run.out
    assert "seed entropy 3" in run.out and "croupier " in run.out


def test_json_holds_the_evidence_its_counts_those_of_the_sheet() -> None:
    doc = json.loads(run_main([*ARGS, "--json"]).out)
    ev = doc["evidence"]
    assert [o["observed"] for o in ev["outcomes"]] == [o["hits"] for o in doc["outcomes"]]
    assert sum(o["observed"] for o in ev["outcomes"]) == doc["rounds"] == 5000
    fit = ev["goodness_of_fit"]
    assert fit["degrees_of_freedom"] == len(fit["cells"]) - 1
    assert sum(c["observed"] for c in fit["cells"]) == 5000
    assert [c["confidence"] for c in ev["confidence_intervals"]] == [90, 95, 99]
    assert ev["run"]["seed_entropy"] == "3" and ev["run"]["rounds"] == 5000
    assert ev["z_score"] == doc["z_score"]


def test_out_writes_json_csv_and_html(tmp_path: Path) -> None:
    run = run_main([*ARGS, "--out", str(tmp_path)])
    assert run.code == 0, run.err
    stem = tmp_path / "perfect-pairs-A-6-decks-simulation"
    written = json.loads(stem.with_suffix(".json").read_text("utf-8"))
    assert written == json.loads(run_main([*ARGS, "--json"]).out)  # the same seed, the same run
    rows = list(csv.DictReader(io.StringIO(stem.with_suffix(".csv").read_text("utf-8"))))
    assert [r["outcome"] for r in rows] == [o["outcome"] for o in written["outcomes"]]
    page = stem.with_suffix(".html").read_text("utf-8")
    assert "<svg" in page and "Observed against expected" in page and "Confidence" in page
    assert "wrote " in run.err


def test_out_a_file_is_one_error_line(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("x")
    line = assert_one_error_line(run_main([*ARGS, "--out", str(target)]))
    assert "is a file" in line


def test_no_command_module_imports_scipy() -> None:
    """SciPy's statistics are imported only when a chi-square p-value is computed (start-up
    time; numba, under the kernels, imports the bare ``scipy`` package itself)."""
    probe = (
        "import sys\n"
        "import croupier.cli as c\n"
        "c.load_all_commands()\n"
        "import croupier.analysis.evidence\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert run.stdout.strip() == "False"


def test_the_terminal_names_the_pooled_outcomes_and_the_rule() -> None:
    """200 rounds of Perfect Pairs A at 6 decks (C(312, 2) = 48,516 pairs): a perfect pair is
    expected 200·780/48,516 = 3.2 times and a coloured pair 200·936/48,516 = 3.9 times, both
    below 5, together 7.1: pooled into one cell, which the line names."""
    run = run_main(["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "200", "-s", "3"])
    assert run.code == 0, run.err
    line = next(x for x in run.out.splitlines() if x.startswith("chi-square goodness of fit"))
    assert "(3 cells; pooled into one: Perfect Pair and Colored Pair" in line
    assert "expected fewer than 5 times" in line


def test_a_simulated_sheets_hit_odds_are_marked_seen() -> None:
    """A simulated Jackpot Party P1 sheet (counts set by hand: each royal flush once in 200,000
    rounds): its hit odds are the sample's, marked "seen" like its maximum win, on the terminal
    and in the HTML figures; an exact sheet's are not."""
    from croupier.analysis.lab_report import figures_html
    from croupier.analysis.parsheet import exact_parsheet, resolve
    from croupier.analysis.simulate import observed_sheet
    from croupier.commands.common import _sheet_summary
    from croupier.wagers import get_wager

    w = get_wager("jackpot-party")
    counts = (1, 1, 100, 77, 135, 101, 970, 2630, 5380, 10439, 180166)
    sim = observed_sheet(resolve(w, "P1", 6), counts, "simulation", "by hand")
    line = next(x for x in _sheet_summary(sim).splitlines() if x.startswith("hit odds"))
    assert line.startswith("hit odds, Progressive meter: 1 in 100,000, seen (")
    assert "Hit odds, Progressive meter (seen)" in "".join(figures_html(sim, None))
    exact = _sheet_summary(exact_parsheet(w, "P1", decks=6))
    assert "seen" not in next(x for x in exact.splitlines() if x.startswith("hit odds"))


def test_two_identical_rounds_say_there_is_no_interval() -> None:
    """Fortune 7 A, 2 rounds, seed 7: both rounds lose (the table shows 2 losses), so the
    standard error is 0; the terminal says plainly there is no interval instead of printing
    '0.0000% to 0.0000%', and the JSON's confidence_intervals is null (the model allows it)."""
    from croupier.operations.schemas.simulation import SimulatedParSheet

    args = ["simulate", "fortune-7", "-p", "A", "-d", "8", "-n", "2", "--seed", "7"]
    run = run_main(args)
    assert run.code == 0, run.err
    assert "0.0000% to 0.0000%" not in run.out
    assert "no confidence interval: every round gave the same result" in run.out
    doc = json.loads(run_main([*args, "--json"]).out)
    assert doc["evidence"]["standard_error"] == 0
    assert doc["evidence"]["confidence_intervals"] is None
    SimulatedParSheet.model_validate(doc)


def test_rounds_beyond_the_stated_limit_are_refused_in_one_line() -> None:
    """10^14 rounds (about a year of one core at a few million rounds a second) is refused
    before a round is dealt, the line naming the option and the limit, 10^12."""
    from croupier.analysis.simulate import MAX_SIMULATED_ROUNDS

    assert MAX_SIMULATED_ROUNDS == 10**12
    args = ["simulate", "fortune-7", "-p", "A", "-d", "8", "-s", "7"]
    line = assert_one_error_line(run_main([*args, "-n", "100000000000000"]))
    assert "--rounds" in line and "1,000,000,000,000" in line and "100,000,000,000,000" in line
