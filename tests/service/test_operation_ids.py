"""Every operation of the OpenAPI document has its own explicit ``operationId`` and one tag, from
:mod:`croupier.service.operation_ids`: a client generated from ``/openapi.json`` names its methods
by them, so the list is pinned here — a vendor's ``client.settle_round`` must not become
``settle_round_rounds_settle_post``, or vanish, without a new API version."""

from __future__ import annotations

import re
from typing import Any

import pytest

from croupier.service.app import ServiceConfig, create_app
from croupier.service.operation_ids import OPERATIONS, TAGS

PINNED = [
    ("GET /", "showExplorer"),
    ("GET /awards", "listAwards"),
    ("POST /awards/{award_id}/validate", "validateAward"),
    ("POST /awards/{award_id}/void", "voidAward"),
    ("GET /awards/{award_id}/slip", "getAwardSlip"),
    ("GET /blackjack", "showBlackjackCalculator"),
    ("GET /blackjack/effects", "getBlackjackRuleEffects"),
    ("GET /blackjack/house-edge", "getBlackjackHouseEdge"),
    ("GET /checkpoint", "getCheckpoint"),
    ("GET /compare", "showComparison"),
    ("GET /compare.csv", "exportComparisonCsv"),
    ("GET /contributions", "getContributions"),
    ("GET /dealer", "showDealer"),
    ("GET /designer", "showDesigner"),
    ("GET /designer/paytable.toml", "exportPaytableToml"),
    ("GET /eor", "showCountAnalysis"),
    ("GET /events", "streamEvents"),
    ("GET /events/display", "streamDisplay"),
    ("GET /eor/{wager}", "getCountAnalysis"),
    ("GET /health", "getHealth"),
    ("GET /hold-report", "getHoldReport"),
    ("GET /liability", "getLiability"),
    ("GET /parsheet.csv", "exportParsheetCsv"),
    ("GET /parsheets/{wager}", "getParsheet"),
    ("GET /paytables", "listPaytables"),
    ("GET /pit", "showPit"),
    ("GET /problems/{kind}", "getProblemType"),
    ("GET /progressives", "listProgressives"),
    ("POST /progressives", "createProgressive"),
    ("GET /progressives/{name}", "getProgressive"),
    ("POST /progressives/{name}/adjust", "adjustProgressive"),
    ("GET /progressives/{name}/history", "getProgressiveHistory"),
    ("POST /progressives/{name}/links", "linkTable"),
    ("POST /progressives/{name}/reconfigure", "reconfigureProgressive"),
    ("POST /progressives/{name}/resume", "resumeProgressive"),
    ("POST /progressives/{name}/suspend", "suspendProgressive"),
    ("GET /reconciliation", "getReconciliation"),
    ("GET /rounds", "listRounds"),
    ("POST /rounds/settle", "settleRound"),
    ("GET /rounds/summary", "getRoundSummary"),
    ("GET /rounds/{table}/{round_id}", "getRound"),
    ("GET /significant-events", "listSignificantEvents"),
    ("POST /simulations", "startSimulation"),
    ("GET /simulations/{job}", "getSimulation"),
    ("GET /staff", "listStaff"),
    ("POST /staff", "addStaff"),
    ("DELETE /staff/{name}", "removeStaff"),
    ("POST /staff/{name}/credential", "changeCredential"),
    ("POST /staff/{name}/role", "changeRole"),
    ("GET /tables", "listTables"),
    ("POST /tables", "openTable"),
    ("DELETE /tables/{table}", "closeTable"),
    ("GET /tables/{table}", "getTable"),
    ("POST /tables/{table}/steps", "postStep"),
    ("POST /tables/{table}/void", "voidOpenRound"),
    ("POST /token", "login"),
    ("POST /token/revoke", "revokeTokens"),
    ("GET /verify", "verifyLedger"),
    ("GET /wagers", "listWagers"),
]
"""Every operation and its ``operationId``, as a generated client names its method: changing
one is a breaking change (README, "Versioning")."""


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    document: dict[str, Any] = create_app(ServiceConfig(db="sqlite://")).openapi()
    return document


def operations(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", op)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
    ]


def test_every_operation_has_its_pinned_operation_id(spec: dict[str, Any]) -> None:
    got = sorted((where, str(op.get("operationId"))) for where, op in operations(spec))
    assert got == sorted(PINNED)


def test_operation_ids_are_unique_camel_case_verbs(spec: dict[str, Any]) -> None:
    ids = [str(op["operationId"]) for _, op in operations(spec)]
    assert len(ids) == len(set(ids))
    for name in ids:
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]*)*", name), name


def test_the_mapping_names_only_operations_the_service_has(spec: dict[str, Any]) -> None:
    listed = {(where.split()[0].lower(), where.split()[1]) for where, _ in operations(spec)}
    assert set(OPERATIONS) == listed


def test_every_operation_has_one_described_tag(spec: dict[str, Any]) -> None:
    described = [t["name"] for t in spec["tags"]]
    assert described == list(TAGS)
    assert all(t["description"] for t in spec["tags"])
    used = set()
    for where, op in operations(spec):
        assert len(op["tags"]) == 1 and op["tags"][0] in TAGS, where
        used.add(op["tags"][0])
    assert used == set(TAGS), "a tag no operation has"


def test_a_route_named_by_the_mapping_names_its_form_schema_after_it(
    spec: dict[str, Any],
) -> None:
    assert "Body_login" in spec["components"]["schemas"]
