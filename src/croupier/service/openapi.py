"""The OpenAPI document, completed: every error a route can answer is listed as the RFC 9457
problem it is (``application/problem+json``, :mod:`croupier.service.problems`), with an example —
401 and 403 on the routes that need a token, 409 where an ``Idempotency-Key`` is taken, 413 on a
request body, 404 where a name is looked up, 422 (FastAPI's default schema there is replaced:
the service never answers it) — and the token form has its example."""

from __future__ import annotations

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


def _problem_response(status: str, description: str | None = None) -> dict[str, Any]:
    text, example = EXAMPLES[status]
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
                    status, given.get("description") if has_own else None
                )
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


__all__ = ["PROBLEM_SCHEMA", "complete", "install"]
