"""``croupier serve`` imports the heavy analysis only when a route needs it (issue 33: start-up
time): the test suite starts a server about 85 times, and a vendor or CI restarts it often. The
exact Blackjack engine (numba's compiled kernels), the count analysis (numpy, the shoe
simulators), scipy and matplotlib are imported by the first request that uses them
(``GET /blackjack/…``, ``GET /eor/…``, a hold report's Blackjack row, a simulation job's own
process), never to import the application, build it, start it (the ledger's self-check) or
answer ``/health``. As the command line's guard (tests/commands/test_cli_lazy.py), in a fresh
interpreter, so that nothing this test process imported hides an import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("numba", "scipy", "matplotlib", "numpy", "croupier.analysis.blackjack_exact",
         "croupier.analysis.eor", "croupier.analysis.kernels")  # fmt: skip

PROBE = """
import sys
from fastapi.testclient import TestClient
from croupier.service.app import ServiceConfig, create_app

heavy = {heavy!r}
print("imported:", *sorted(m for m in heavy if m in sys.modules))
app = create_app(ServiceConfig(db=sys.argv[1]))
print("built:", *sorted(m for m in heavy if m in sys.modules))
with TestClient(app) as client:  # the lifespan: the ledger made, its self-check
    assert client.get("/health").status_code == 200
    print("serving:", *sorted(m for m in heavy if m in sys.modules))
    assert client.get("/eor/perfect-pairs", params={{"shoes": 0}}).status_code == 200
    print("after /eor:", *sorted(m for m in heavy if m in sys.modules))
"""


def test_starting_the_service_imports_no_heavy_analysis(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}  # the new ledger's key
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE.format(heavy=HEAVY),
            f"sqlite:///{tmp_path / 'ledger.sqlite3'}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines[:3] == ["imported:", "built:", "serving:"], run.stdout
    # the route that needs the count analysis imports it (the probe sees it work)
    assert "croupier.analysis.eor" in lines[3].split(), run.stdout
