"""Each operation's ``operationId`` and tag: one mapping, :data:`OPERATIONS`, keyed by method and
path as the OpenAPI document lists them.

An ``operationId`` is what a client generated from ``/openapi.json`` names its method
(``client.settle_round(...)``, ``settleRound``), so it is chosen here, a camelCase verb and its
object, and never derived from a function's name or path (FastAPI's default,
``settle_round_rounds_settle_post``, changed whenever either did).
tests/service/test_operation_ids.py pins the list: changing or removing one is a breaking change
of the API (README, "Versioning"). The application names each route by this mapping
(:func:`operation_id`, FastAPI's ``generate_unique_id_function``: the names of the schemas FastAPI
makes for a route, ``Body_login``, follow it), and :func:`croupier.service.openapi.complete`
tags each operation by it and describes the tags (:data:`TAGS`).
"""

from __future__ import annotations

from typing import NamedTuple

from fastapi.routing import APIRoute
from fastapi.utils import generate_unique_id


class Operation(NamedTuple):
    """One operation's name and the resource it is listed under."""

    operation_id: str
    tag: str


TAGS: dict[str, str] = {
    "auth": "Logging in and out: a staff member's bearer token (`POST /token`).",
    "health": "Whether the service and its database answer.",
    "reading": "What croupier offers, open to anyone: the wagers, the paytables printed in the "
    "regulation, a wager's exact par sheet and its count analysis (effect of removal), "
    "Blackjack's house edge by rule set and the effect of each rule.",
    "rounds": "Round files settled and stored, and the stored rounds read back.",
    "tables": "Open tables: a round dealt step by step, each step checked as it is posted.",
    "progressives": "The progressive controller: progressives, their levels, the tables linked "
    "to them, adjustments, suspension and reconfiguration.",
    "awards": "Progressive awards: listed, validated by a floorperson, or voided, and each "
    "one's hand-pay slip.",
    "ledger": "The controller's ledger: its significant events, a full verification of its "
    "chain, and signed checkpoints of its head.",
    "reports": "What the stored rounds add up to: the hold by wager, the hold report against "
    "the par sheets, and the progressives' reconciliation, liability and contributions by table.",
    "staff": "The staff store: members, roles and credentials.",
    "simulations": "Simulation jobs, run in the server's own processes.",
    "events": "The live event stream (Server-Sent Events): awards, meters, suspensions as "
    "they happen, and the signs' display feed.",
    "problems": "What an RFC 9457 problem type means (a problem's `type` resolved).",
    "pages": "The web page's HTML views (the par-sheet explorer, the comparison, the count "
    "analysis, the designer, the Blackjack calculator, the pit's and the dealer's screens).",
    "exports": "Downloads: a par sheet or the paytable comparison as CSV, a designed paytable "
    "as TOML.",
}
"""Each tag's description, in the order the document lists them."""

OPERATIONS: dict[tuple[str, str], Operation] = {
    ("post", "/token"): Operation("login", "auth"),
    ("post", "/token/revoke"): Operation("revokeTokens", "auth"),
    ("get", "/health"): Operation("getHealth", "health"),
    ("get", "/wagers"): Operation("listWagers", "reading"),
    ("get", "/paytables"): Operation("listPaytables", "reading"),
    ("get", "/parsheets/{wager}"): Operation("getParsheet", "reading"),
    ("get", "/eor/{wager}"): Operation("getCountAnalysis", "reading"),
    ("get", "/blackjack/house-edge"): Operation("getBlackjackHouseEdge", "reading"),
    ("get", "/blackjack/effects"): Operation("getBlackjackRuleEffects", "reading"),
    ("post", "/rounds/settle"): Operation("settleRound", "rounds"),
    ("get", "/rounds"): Operation("listRounds", "rounds"),
    ("get", "/rounds/{table}/{round_id}"): Operation("getRound", "rounds"),
    ("post", "/tables"): Operation("openTable", "tables"),
    ("get", "/tables"): Operation("listTables", "tables"),
    ("get", "/tables/{table}"): Operation("getTable", "tables"),
    ("delete", "/tables/{table}"): Operation("closeTable", "tables"),
    ("post", "/tables/{table}/steps"): Operation("postStep", "tables"),
    ("post", "/tables/{table}/void"): Operation("voidOpenRound", "tables"),
    ("get", "/progressives"): Operation("listProgressives", "progressives"),
    ("post", "/progressives"): Operation("createProgressive", "progressives"),
    ("get", "/progressives/{name}"): Operation("getProgressive", "progressives"),
    ("get", "/progressives/{name}/history"): Operation("getProgressiveHistory", "progressives"),
    ("post", "/progressives/{name}/links"): Operation("linkTable", "progressives"),
    ("post", "/progressives/{name}/adjust"): Operation("adjustProgressive", "progressives"),
    ("post", "/progressives/{name}/suspend"): Operation("suspendProgressive", "progressives"),
    ("post", "/progressives/{name}/resume"): Operation("resumeProgressive", "progressives"),
    ("post", "/progressives/{name}/reconfigure"): Operation(
        "reconfigureProgressive", "progressives"
    ),
    ("get", "/awards"): Operation("listAwards", "awards"),
    ("post", "/awards/{award_id}/validate"): Operation("validateAward", "awards"),
    ("post", "/awards/{award_id}/void"): Operation("voidAward", "awards"),
    ("get", "/awards/{award_id}/slip"): Operation("getAwardSlip", "awards"),
    ("get", "/significant-events"): Operation("listSignificantEvents", "ledger"),
    ("get", "/verify"): Operation("verifyLedger", "ledger"),
    ("get", "/checkpoint"): Operation("getCheckpoint", "ledger"),
    ("get", "/rounds/summary"): Operation("getRoundSummary", "reports"),
    ("get", "/hold-report"): Operation("getHoldReport", "reports"),
    ("get", "/reconciliation"): Operation("getReconciliation", "reports"),
    ("get", "/liability"): Operation("getLiability", "reports"),
    ("get", "/contributions"): Operation("getContributions", "reports"),
    ("get", "/staff"): Operation("listStaff", "staff"),
    ("post", "/staff"): Operation("addStaff", "staff"),
    ("delete", "/staff/{name}"): Operation("removeStaff", "staff"),
    ("post", "/staff/{name}/role"): Operation("changeRole", "staff"),
    ("post", "/staff/{name}/credential"): Operation("changeCredential", "staff"),
    ("post", "/simulations"): Operation("startSimulation", "simulations"),
    ("get", "/simulations/{job}"): Operation("getSimulation", "simulations"),
    ("get", "/events"): Operation("streamEvents", "events"),
    ("get", "/events/display"): Operation("streamDisplay", "events"),
    ("get", "/problems/{kind}"): Operation("getProblemType", "problems"),
    ("get", "/"): Operation("showExplorer", "pages"),
    ("get", "/compare"): Operation("showComparison", "pages"),
    ("get", "/eor"): Operation("showCountAnalysis", "pages"),
    ("get", "/designer"): Operation("showDesigner", "pages"),
    ("get", "/blackjack"): Operation("showBlackjackCalculator", "pages"),
    ("get", "/pit"): Operation("showPit", "pages"),
    ("get", "/dealer"): Operation("showDealer", "pages"),
    ("get", "/parsheet.csv"): Operation("exportParsheetCsv", "exports"),
    ("get", "/compare.csv"): Operation("exportComparisonCsv", "exports"),
    ("get", "/designer/paytable.toml"): Operation("exportPaytableToml", "exports"),
}
"""Every operation's :class:`Operation`, by method (lower case) and path."""


def operation_id(route: APIRoute) -> str:
    """``route``'s ``operationId`` from :data:`OPERATIONS` (FastAPI's
    ``generate_unique_id_function``); a route not in it keeps FastAPI's own, which the pinned
    list's test refuses."""
    methods = sorted(route.methods or ())
    found = OPERATIONS.get((methods[0].lower(), route.path_format)) if len(methods) == 1 else None
    return found.operation_id if found is not None else generate_unique_id(route)


__all__ = ["OPERATIONS", "TAGS", "Operation", "operation_id"]
