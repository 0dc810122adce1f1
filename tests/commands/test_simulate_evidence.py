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
