"""``croupier --version`` is answered before the command line is imported (issue 14: start-up)."""

from __future__ import annotations

import subprocess
import sys

import croupier

PROBE = """
import sys
from croupier.__main__ import main
sys.argv = ["croupier", "--version"]
try:
    main()
except SystemExit as exc:
    assert exc.code == 0
heavy = sorted(m for m in ("typer", "rich", "numpy", "pydantic", "sqlalchemy", "croupier.cli")
               if m in sys.modules)
print("imported:", *heavy)
"""


def test_version_imports_nothing_heavy() -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.splitlines() == [f"croupier {croupier.__version__}", "imported:"]


def test_python_m_croupier_runs_the_command_line() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "croupier", "wagers", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert '"perfect-pairs"' in run.stdout
