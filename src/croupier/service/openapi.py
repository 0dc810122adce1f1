"""The OpenAPI document, completed: every error a route can answer is listed as the RFC 9457
problem it is (``application/problem+json``, :mod:`croupier.service.problems`), with an example —
401 and 403 on the routes that need a token, 409 where an ``Idempotency-Key`` is taken, 413 on a
request body, 404 where a name is looked up, 422 (FastAPI's default schema there is replaced:
the service never answers it) — and the token form has its example."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI

from croupier.service.problems import MEDIA_TYPE, PROBLEM_BASE

PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "description": "RFC 9457 problem details: the croupier error's type, its one-line detail "
    "and the section of 58 Pa. Code (or other rule) it cites.",
    "type": "object",
    "required": ["type", "title", "status", "detail", "instance", "error_type", "section"],
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "error_type": {"type": "string", "description": "The croupier.errors class."},
        "section": {"type": ["string", "null"], "description": "The rule's section."},
        "violations": {
            "type": "array",
            "description": "A Rules Submission's violations, each with its section.",
            "items": {
                "type": "object",
                "properties": {
                    "message": {"type": "string"},
                    "section": {"type": ["string", "null"]},
                },
            },
        },
        "errors": {
            "type": "array",
            "description": "Where a request did not match its schema.",
            "items": {
                "type": "object",
                "properties": {"where": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    },
}


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object schema with these properties (``required`` all present)."""
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": sorted(required),
    }


_S: dict[str, Any] = {"type": "string"}
_NS: dict[str, Any] = {"type": ["string", "null"]}
_I: dict[str, Any] = {"type": "integer"}
_B: dict[str, Any] = {"type": "boolean"}
_O: dict[str, Any] = {"type": "object"}
_A: dict[str, Any] = {"type": "array", "items": {"type": "object"}}

AWARD = _obj(
    {
        "award": _I,
        "progressive": _S,
        "round": _S,
        "table": _S,
        "position": _I,
        "outcome": _S,
        "kind": _S,
        "status": {"type": "string", "enum": ["pending", "paid", "voided"]},
        "level": _NS,
        "share": _NS,
        "amount": _S,
        "amount_cents": _I,
        "validated_by": {
            **_NS,
            "description": "Who validated it; null until then, and for a voided award.",
        },
    },
    {"voided_by": _S, "envy_for_position": _I, "reason": _S},
)
"""An award as the ledger shows it (docs/schemas/meters-status.schema.json)."""

ROUND = _obj(
    {
        "table": _S,
        "round": _S,
        "submission": _S,
        "submission_digest": {**_S, "description": "As `croupier check` prints it."},
        "content_digest": _S,
        "cards": {"type": ["string", "null"], "description": "The cards dealt, as text."},
        "events": _A,
        "settlement": _O,
        "net_cents": _I,
        "wagers": {"type": "array", "items": _S},
        "progressives": _A,
        "recorded_by": _S,
        "settled_at": {**_S, "format": "date-time"},
    }
)
"""A settled round's document (docs/schemas/service-round.schema.json)."""

TABLE = _obj(
    {
        "table": _S,
        "round": {
            **_S,
            "description": "The round's id (round-N), as GET /rounds/{table}/{id} "
            "takes it once settled.",
        },
        "round_number": _I,
        "submission_digest": _S,
        "progressives": {"type": "array", "items": _S},
        "phase": _S,
        "allowed": {"type": "array", "items": _S},
        "cards": {"type": ["string", "null"], "description": "The cards dealt, as text."},
        "events": _A,
        "settlement": _O,
        "net_cents": _I,
    },
    {
        "settled": {**ROUND, "description": "After settle: the stored round."},
        "voided": {**ROUND, "description": "After a void: the voided round, stored."},
        "estimate": {
            **_S,
            "description": "Present when a share of a meter is shown at the "
            "live meter before the round is settled.",
        },
    },
)
"""An open table's round so far (:mod:`croupier.service.tables`)."""

SUCCESS: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/rounds/settle"): ROUND,
    ("post", "/tables"): TABLE,
    ("post", "/tables/{table}/steps"): TABLE,
    ("post", "/tables/{table}/void"): TABLE,
    ("delete", "/tables/{table}"): _obj(
        {
            "table": _S,
            "closed": _B,
            "closed_by": _S,
            "closed_at": {**_S, "format": "date-time"},
            "round_not_played": _S,
        }
    ),
    ("post", "/progressives"): _obj(
        {"name": _S, "section": _S, "levels": _A, "tables": {"type": "array", "items": _S}},
        {"pending": {"type": "array", "items": AWARD}},
    ),
    ("post", "/awards/{award_id}/validate"): AWARD,
    ("post", "/awards/{award_id}/void"): AWARD,
    ("post", "/progressives/{name}/links"): _obj({"progressive": _S, "table": _S, "linked_by": _S}),
    ("post", "/progressives/{name}/adjust"): _obj(
        {
            "progressive": _S,
            "level": _S,
            "adjusted_by": _S,
            "reason": _S,
            "meter": _S,
            "meter_micros": _I,
            "reserve": _S,
            "reserve_micros": _I,
        }
    ),
    ("post", "/staff"): _obj({"user": _S, "role": _S, "added_by": _S}),
    ("post", "/progressives/{name}/suspend"): _obj({"progressive": _S, "suspended": _B, "by": _S}),
    ("post", "/progressives/{name}/resume"): _obj({"progressive": _S, "suspended": _B, "by": _S}),
    ("post", "/progressives/{name}/reconfigure"): _obj(
        {"progressive": _S, "by": _S, "approval": _S, "changes": _O}
    ),
    ("get", "/reconciliation"): _obj({"from": _NS, "to": _NS, "balanced": _B, "progressives": _A}),
}
"""The success body of each route that answers a ``Response`` it encodes itself (FastAPI can't
see its shape): keyed by method and path."""

INSTANCE_VALUES = {
    "table": "BJ-1",
    "award_id": "3",
    "name": "mtd-5",
    "wager": "perfect-pairs",
    "round_id": "round-1",
    "job": "0f6c2a",
}
"""The values a route's example problem puts in its path (``instance``)."""


def _instance(path: str) -> str:
    return re.sub(r"\{([^}]+)\}", lambda m: INSTANCE_VALUES.get(m.group(1), "x"), path)


def _example(status: int, kind: str, detail: str, section: str | None) -> dict[str, Any]:
    return {
        "type": f"{PROBLEM_BASE}{kind}",
        "title": kind,
        "status": status,
        "detail": detail,
        "instance": "/awards/3/validate",
        "error_type": kind,
        "section": section,
    }


EXAMPLES: dict[str, tuple[str, dict[str, Any]]] = {
    "401": (
        "No token, or one that is not valid or has expired.",
        _example(
            401,
            "AuthenticationError",
            "validating an award needs a staff member's token: log in with POST /token",
            None,
        ),
    ),
    "403": (
        "The member's role is below the one the rule requires.",
        _example(
            403,
            "AuthorizationError",
            "dana is a dealer; validating a progressive payout needs a floorperson or above "
            "(58 Pa. Code § 633b.2(h)(3))",
            "633b.2(h)(3)",
        ),
    ),
    "404": (
        "Nothing by that name.",
        _example(404, "LedgerLookupError", "no award 3", None),
    ),
    "409": (
        "A conflict with what is recorded: the Idempotency-Key used for another request, a "
        "round id taken by other content, an award settled already.",
        _example(
            409,
            "IdempotencyConflictError",
            "Idempotency-Key 'k1' was used for another request; nothing changed",
            None,
        ),
    ),
    "413": (
        "The request body is larger than the service takes.",
        _example(413, "RequestTooLarge", "the request body is larger than the service takes", None),
    ),
    "422": (
        "The request breaks a rule or does not match its schema; nothing changed.",
        _example(
            422,
            "LockoutError",
            "step 4 (bet): no wager is accepted after 'No more bets' (58 Pa. Code § 633b.1(d))",
            "633b.1(d)",
        ),
    ),
}


def _problem_response(status: str, path: str, description: str | None = None) -> dict[str, Any]:
    text, example = EXAMPLES[status]
    example = {**example, "instance": _instance(path)}
    return {
        "description": description or text,
        "content": {
            MEDIA_TYPE: {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "example": example,
            }
        },
    }


def complete(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with the problem responses and examples described in the module docstring."""
    spec.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    for path, ops in spec.get("paths", {}).items():
        for method, op in ops.items():
            responses: dict[str, Any] = op.setdefault("responses", {})
            wanted = {"422"}
            if op.get("security"):
                wanted |= {"401", "403"}
            params = {p.get("name") for p in op.get("parameters", [])}
            if "Idempotency-Key" in params:
                wanted.add("409")
            if "requestBody" in op:
                wanted.add("413")
            if "{" in path:
                wanted.add("404")
            for status in sorted(wanted):
                given = responses.get(status, {})
                has_own = status != "422" and given.get("description")
                responses[status] = _problem_response(
                    status, path, given.get("description") if has_own else None
                )
            for status, given in responses.items():
                if not status.startswith("2"):
                    continue
                json_body = (given.get("content") or {}).get("application/json")
                if json_body is not None and not json_body.get("schema"):
                    json_body["schema"] = SUCCESS.get((method, path), {"type": "object"})
                csv_body = (given.get("content") or {}).get("text/csv")
                if csv_body is not None and not csv_body.get("schema"):
                    csv_body["schema"] = {"type": "string", "description": "CSV with a header"}
            if method == "post" and path == "/token":
                form = op["requestBody"]["content"].get("application/x-www-form-urlencoded")
                if form is not None:
                    form["example"] = {"username": "dana", "password": "her passphrase"}
    schemas = spec["components"]["schemas"]
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    return spec


def install(app: FastAPI) -> None:
    """Serve :func:`complete`'s document as the app's OpenAPI (built once, then kept)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


__all__ = ["PROBLEM_SCHEMA", "SUCCESS", "complete", "install"]
