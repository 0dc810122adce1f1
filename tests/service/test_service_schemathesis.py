"""Schemathesis against a live ``croupier serve``, driven by its own ``/openapi.json``: every
operation, on SQLite and on PostgreSQL, and not one failure of the checks.

Three runs of ``st run`` (the Schemathesis CLI) on each database:

- **as a shift manager** (the role that reaches every route; it may read the auditor's too) —
  a token fetched by Schemathesis from ``POST /token``, and fetched again when a
  ``POST /token/revoke`` of the run has revoked it — over every operation but ``POST /token``
  itself (its failed logins would lock the run's own address out of the re-login a revocation
  needs: NIST SP 800-63B § 5.2.2 throttling, tested elsewhere): first the examples, coverage
  and fuzzing phases, then the stateful phase on its own budget, which follows the document's
  links (:mod:`croupier.service.openapi_links`, and those Schemathesis infers) from one
  operation to the next — a table opened, then its steps; a round settled, then its award
  validated;
- **without a token**, every phase over every operation, ``POST /token`` included (each failed
  login a 401, then the lockout's 429).

Each with the checks of :data:`CHECKS`, bounded by examples per operation and time budgets
(:data:`FUZZ_SECONDS`, :data:`STATEFUL_SECONDS`, :data:`ANONYMOUS_SECONDS`: about two minutes
a database; the two databases run side by side under ``pytest -n 2``). Schemathesis's JSON
reports give the figures (``pytest -s`` prints them) and the failures; set
``CROUPIER_SCHEMATHESIS_SEED`` to replay a run's seed.

One narrow exception, documented in docs/interpretations.md ("Schemathesis against the
service"): ``POST /simulations`` may answer 503 when the server's job queue is full (a later
retry can succeed: the designed answer, in the OpenAPI document).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import uuid
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

from progressive_support import BACKENDS, SHIFT, secret
from service_support import (
    BLACKJACK_SUBMISSION,
    Server,
    keyed,
    pending_award,
    pp_round,
    serving,
)

pytestmark = pytest.mark.slow

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "response_headers_conformance",
    "negative_data_rejection",
    "missing_required_header",
    "unsupported_method",
    "allow_header_conformance",
    "use_after_free",
    "ensure_resource_availability",
    "ignored_auth",
)
"""The issue's four checks, and every other Schemathesis check but one: the declared response
headers (``Retry-After`` of a 429), a schema-invalid request refused, a required header's
absence refused (the ``Idempotency-Key``, 400), an undeclared method a 405 with ``Allow``, a
deleted resource gone and a created one there, a token required where the document says so.
Left out: ``positive_data_acceptance`` (a schema-valid request accepted) — the document's
schemas cannot say every rule (card text, a Rules Submission's rules, a paytable that exists),
so a schema-valid request is often a 422 that names the rule (docs/interpretations.md,
"Schemathesis against the service")."""

EXAMPLES = 25
"""Examples per operation (the fuzzing phase's ``--max-examples``)."""
FUZZ_SECONDS = 45
"""The shift manager's examples, coverage and fuzzing phases' budget (fuzzing repeats until it
is spent)."""
STATEFUL_SECONDS = 45
"""The shift manager's stateful phase's budget (it repeats until it is spent)."""
ANONYMOUS_SECONDS = 30
"""The run without a token's budget: its examples and coverage phases take about 17 s of it on
two busy cores with 59 operations (the Blackjack routes' many flags make the coverage phase
long), and the fuzzing phase must still get its turn at every operation."""

CONFIG = f"""
# Schemathesis's configuration for the shift manager's run (tests/service/test_service_schemathesis.py)
[auth.dynamic.openapi.OAuth2PasswordBearer]
path = "/token"
method = "post"
payload = {{ username = "{SHIFT}", password = "{secret(SHIFT)}" }}
payload_content_type = "application/x-www-form-urlencoded"
extract_selector = "/access_token"

[[operations]]
# a full job queue is a 503 TooManyJobs that a later retry can cure (documented in the
# OpenAPI document; docs/interpretations.md, "Schemathesis against the service")
include-path = "/simulations"
include-method = "POST"
checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "503"]
"""

ANONYMOUS_CONFIG = """
# Schemathesis's configuration for the run without a token: nothing but its cache's place
"""

PAGES = "pages"
"""The tag of the HTML pages, which no run fuzzes: they are for people (their own tests are in
tests/service/web), answer HTML that no schema describes, and a page that computes (an EOR
over many shoes) would spend a run's whole budget; the CSV and TOML exports are fuzzed."""

EVENTS = "events"
"""The tag of the live event streams, which no run fuzzes: a stream answers until the client or
the service ends it, so a fuzzed request would wait out its whole timeout every time; their
own tests (tests/service/test_event_stream.py) read them, their 401 and 422 problems too."""

SERVER_ENV = {"CROUPIER_JOB_QUEUE": "2"}
"""Simulation jobs the fuzzed server lets wait: few, so the jobs a run starts stay cheap (a
full queue is the documented 503)."""


def seed() -> int:
    """The run's seed: ``$CROUPIER_SCHEMATHESIS_SEED``, else a new one (printed with a failure)."""
    given = os.environ.get("CROUPIER_SCHEMATHESIS_SEED")
    return int(given) if given else random.randrange(2**31)


def st_run(
    srv: Server, tmp: Path, name: str, config: str, seconds: int, *args: str
) -> dict[str, Any]:
    """``st run`` over ``srv``'s document with :data:`CHECKS`; its JSON report."""
    where = tmp / name
    where.mkdir()
    (where / "schemathesis.toml").write_text(config + f'\n[cache]\ndirectory = "{where}/cache"\n')
    report = where / "report.json"
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    command = [
        st,
        "--config-file",
        str(where / "schemathesis.toml"),
        "--no-color",
        "run",
        f"{srv.base}/openapi.json",
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        str(EXAMPLES),
        "--max-time",
        str(seconds),
        "--workers",  # one: two threads' ast.parse race in CPython 3.11 (Hypothesis describing
        "1",  # a lambda: "SystemError: AST constructor recursion depth mismatch", a tool error)
        "--seed",
        str(seed()),
        "--generation-database",
        "none",
        "--request-timeout",
        "30",
        "--report",
        "json",
        "--report-json-path",
        str(report),
        "--exclude-tag",
        PAGES,
        "--exclude-tag",
        EVENTS,
        *args,
    ]
    done = subprocess.run(
        command, cwd=where, capture_output=True, text=True, timeout=seconds + 240, check=False
    )
    (where / "output.txt").write_text(done.stdout + done.stderr)
    assert report.exists(), f"no report: {done.stdout[-3000:]}{done.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(report.read_text())
    result["output"] = done.stdout
    return result


def outcome(run: dict[str, Any]) -> str:
    """What a failed run says: the seed, its failures and the end of its output."""
    return (
        f"seed {run['seed']} (CROUPIER_SCHEMATHESIS_SEED={run['seed']} replays it); failures "
        f"{json.dumps(run['failures'], indent=1)}; errors {json.dumps(run['errors'])}\n"
        + str(run["output"])[-6000:]
    )


def figures(run: dict[str, Any]) -> str:
    """A run's figures in one line (printed: ``pytest -s`` shows them)."""
    ops, cases = run["operations"], run["test_cases"]
    return (
        f"{ops['tested']} of {ops['total']} operations, {cases['generated']} test cases, "
        f"{len(run['failures'])} failures, {run['running_time']:.0f} s, seed {run['seed']}"
    )


def links(run: dict[str, Any]) -> str:
    """The stateful phase's scenarios and links covered, as its output says them."""
    said = re.findall(r"(Scenarios: +\d+|API Links: +\d+ covered / \d+ selected)", run["output"])
    return ", ".join(" ".join(part.split()) for part in said)


def seed_the_ledger(srv: Server) -> None:
    """Something to find: an open table, a settled round and a pending award (the stateful
    phase reaches them through ``GET /awards``, ``GET /tables`` and the links)."""
    with srv.client() as c:
        opened = c.post(
            "/tables",
            json={"table": "BJ-1", "submission": BLACKJACK_SUBMISSION},
            headers=keyed(srv.auth(SHIFT)),
        )
        assert opened.status_code == 201, opened.text
        settled = c.post(
            "/rounds/settle",
            params={"table": "BJ-2"},
            json=pp_round(f"r-{uuid.uuid4().hex[:6]}"),
            headers=keyed(srv.auth(SHIFT)),
        )
        assert settled.status_code == 201, settled.text
        pending_award(srv, c)


@pytest.mark.parametrize("backend", BACKENDS)
def test_schemathesis_finds_no_failure_in_any_operation(backend: str, tmp_path: Path) -> None:
    with serving(backend, tmp_path, SERVER_ENV) as srv:
        seed_the_ledger(srv)
        operations = len(
            [
                op
                for ops in httpx.get(f"{srv.base}/openapi.json").json()["paths"].values()
                for op in ops.values()
                if not {PAGES, EVENTS} & set(op.get("tags", ()))
            ]
        )
        manager = st_run(
            srv, tmp_path, "shift-manager", CONFIG, FUZZ_SECONDS,
            "--exclude-path", "/token", "--phases", "examples,coverage,fuzzing",
        )  # fmt: skip
        stateful = st_run(
            srv, tmp_path, "shift-manager-stateful", CONFIG, STATEFUL_SECONDS,
            "--exclude-path", "/token", "--phases", "stateful",
        )  # fmt: skip
        if stateful["failures"] or stateful["errors"]:
            # The stateful phase is not replayed by its seed alone (its scenarios follow the
            # server's state, which earlier phases left): a failure is shown in the warnings
            # summary with its seed and output, and the phase is run once more with a new seed;
            # a second failure fails the test (docs/interpretations.md, Schemathesis).
            warnings.warn(
                f"{backend}: stateful phase, first run: {outcome(stateful)}", stacklevel=1
            )
            stateful = st_run(
                srv, tmp_path, "shift-manager-stateful-again", CONFIG, STATEFUL_SECONDS,
                "--exclude-path", "/token", "--phases", "stateful",
            )  # fmt: skip
        anonymous = st_run(srv, tmp_path, "no-token", ANONYMOUS_CONFIG, ANONYMOUS_SECONDS)
        server_log = (tmp_path / "server.log").read_text()
    print(
        f"\n{backend}: as {SHIFT}: {figures(manager)}"
        f"\n{backend}: as {SHIFT}, stateful: {figures(stateful)}, {links(stateful)}"
        f"\n{backend}: no token: {figures(anonymous)}"
    )
    for run in (manager, stateful, anonymous):
        assert run["failures"] == [] and run["errors"] == [], outcome(run)
    # every operation tried: all but POST /token with the token, all of them without
    assert manager["operations"]["tested"] == operations - 1, outcome(manager)
    assert anonymous["operations"]["tested"] == operations, outcome(anonymous)
    assert stateful["phases"]["stateful"]["status"] == "success", outcome(stateful)
    assert "Traceback" not in server_log, server_log[-4000:]
