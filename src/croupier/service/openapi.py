"""The OpenAPI document, completed: every error a route can answer is listed as the RFC 9457
problem it is (``application/problem+json``, :mod:`croupier.service.problems`), with examples
that are the route's own (instance, words, section) — 400 where the ``Idempotency-Key`` is
required (marked so), 401 on the routes that need a token (their own words), 403 where a role
above the lowest is needed, 404 where a name is looked up, 409 where what is asked can conflict
with what is recorded, 413 and 415 on a request body, 422 on every route but ``GET /health``
(FastAPI's default schema there is replaced: the service never answers it), 400 on a JSON
body that is not JSON at all (415 for one sent as another media type), 429 where the route
declares it (``POST /token``), 503 where the server's capacity can refuse a request for now —
and the token form has its example, and the responses name what the next request works on
(links, :mod:`croupier.service.openapi_links`). The examples that are not made from the route
itself are :data:`croupier.service.openapi_examples.OWN`."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from pydantic import TypeAdapter

from croupier.errors import CroupierError, citation, cite
from croupier.operations.schemas.problems import Problem
from croupier.progressive import Role
from croupier.service.common import MAX_STORED_INT
from croupier.service.dependencies import EVERY_ROLE, REQUIREMENTS
from croupier.service.idempotency import HEADER as IDEMPOTENCY_HEADER
from croupier.service.idempotency import MAX_KEY, check_key
from croupier.service.openapi_examples import OWN, Example
from croupier.service.openapi_links import add_links
from croupier.service.operation_ids import OPERATIONS, TAGS
from croupier.service.problems import (
    FORM,
    MEDIA_TYPE,
    NOT_JSON,
    PROBLEM_BASE,
    UNSUPPORTED,
    form_media_refusal,
    json_media_refusal,
    not_json_refusal,
)
from croupier.service.query import LENIENT, nul_refusal, query_names, refusal
from croupier.service.routes import api_routes
from croupier.service.routes.reading import parsheet_example
from croupier.service.versioning import document as document_version


def _problem_schemas() -> dict[str, dict[str, Any]]:
    """The Problem schema (:class:`croupier.operations.schemas.problems.Problem`) and the shapes
    it nests, as ``components.schemas`` holds them."""
    body = TypeAdapter(Problem).json_schema(
        mode="serialization", ref_template="#/components/schemas/{model}"
    )
    nested: dict[str, dict[str, Any]] = body.pop("$defs", {})
    return {"Problem": body, **nested}


PROBLEM_SCHEMAS = _problem_schemas()
PROBLEM_SCHEMA: dict[str, Any] = PROBLEM_SCHEMAS["Problem"]
"""RFC 9457 problem details, from its model."""


INSTANCE_VALUES = {
    "table": "BJ-1",
    "award_id": "3",
    "name": "mtd-5",
    "wager": "perfect-pairs",
    "round_id": "round-1",
    "job": "0f6c2a",
}
"""The values a route's example problem puts in its path (``instance``)."""


def _instance(path: str, names: Mapping[str, str] = MappingProxyType({})) -> str:
    values = {**INSTANCE_VALUES, **names}
    return re.sub(r"\{([^}]+)\}", lambda m: values.get(m.group(1), "x"), path)


DESCRIPTIONS = {
    "400": "The request is malformed: its body is not JSON at all, or it changes money or "
    "configuration and came without an Idempotency-Key (or with one that is not a key); nothing "
    "changed.",
    "401": "No token, or one that is not valid or has expired.",
    "403": "The member's role is below the one the rule requires; nothing changed.",
    "404": "Nothing by that name.",
    "409": "A conflict with what is recorded; nothing changed.",
    "413": "The request body is larger than the service takes.",
    "415": "A body sent as another media type than the route reads; nothing changed.",
    "422": "The request breaks a rule, or is not one the route takes; nothing changed.",
    "503": "The server cannot take the request now (its simulation jobs' queue is full, or it "
    "is stopping); nothing changed: the same request later can succeed.",
}

MEMBERS = {
    Role.DEALER: "dana",
    Role.FLOORPERSON: "flo",
    Role.PIT_MANAGER: "pat",
    Role.ASSISTANT_SHIFT_MANAGER: "ash",
    Role.SHIFT_MANAGER: "sam",
    Role.AUDITOR: "audrey",
}
"""Who is refused in a 403 example: a member of the role just below the route's — or, on a
route that changes something and takes the lowest pit role, an auditor (a role that reads and
changes nothing)."""

Requirement = tuple[Role, str, str, str | None]


class Facts(NamedTuple):
    """What the document needs to know of a route beyond its OpenAPI operation."""

    requirement: Requirement | None
    """The role, section and words of the token the route requires
    (:func:`~croupier.service.dependencies.require`)."""
    query: frozenset[str]
    """The query parameters it declares."""
    every_role: bool = False
    """Whether its token may be any member's, one that only reads included (no 403)."""


def route_facts(app: FastAPI) -> dict[tuple[str, str], Facts]:
    """Each API operation's :class:`Facts`, by method (lower case) and path."""
    out: dict[tuple[str, str], Facts] = {}
    for path, methods, dependant in api_routes(app):
        facts = Facts(_requirement(dependant), query_names(dependant), _every_role(dependant))
        for method in methods:
            out[(method.lower(), path)] = facts
    return out


def _every_role(dependant: Dependant) -> bool:
    return dependant.call in EVERY_ROLE or any(_every_role(d) for d in dependant.dependencies)


def _requirement(dependant: Dependant) -> Requirement | None:
    if dependant.call in REQUIREMENTS:
        return REQUIREMENTS[dependant.call]
    for sub in dependant.dependencies:
        found = _requirement(sub)
        if found is not None:
            return found
    return None


def _refusal(make: Callable[[], object]) -> str:
    """The one-line text of the error ``make()`` raises."""
    try:
        make()
    except CroupierError as exc:
        return str(exc)
    raise AssertionError("no error")  # pragma: no cover


def examples_of(
    method: str,
    path: str,
    op: dict[str, Any],
    facts: Facts,
    max_body: int = 1 << 20,
    schemas: Mapping[str, Any] = MappingProxyType({}),
) -> dict[str, list[Example]]:
    """The operation's problems by status, each with its own examples (module docstring);
    ``schemas`` the document's ``components.schemas`` (a form body's fields)."""
    where = f"{method.upper()} {_instance(path)}"
    own = OWN.get((method, path), {})
    out: dict[str, list[Example]] = {}
    keyed = any(p.get("name") == IDEMPOTENCY_HEADER for p in op.get("parameters", []))
    if keyed:
        text = _refusal(lambda: check_key(None, where))
        out["400"] = [Example("No Idempotency-Key", "IdempotencyKeyError", text)]
    if facts.requirement is not None:
        role, section, what, also = facts.requirement
        text = f"{what} needs a staff member's token: log in with POST /token"
        out["401"] = [Example("No token", "AuthenticationError", text)]
        if role.rank > 0:
            below = list(Role)[role.rank - 1]
            text = cite(
                f"{MEMBERS[below]} is {below.said}; {what} needs "
                f"{role.who_may(reading=method.lower() == 'get')}",
                section,
                also,
            )
            out["403"] = [Example(f"A {below.value}", "AuthorizationError", text, section)]
        elif method.lower() not in ("get", "head") and not facts.every_role and "403" not in own:
            # the roles that only read are refused what changes something
            a = Role.AUDITOR
            text = (
                f"{MEMBERS[a]} is {a.said} (a role that reads and changes nothing); {what} "
                f"needs {role.who_may()} ({citation(section)})"
            )
            out["403"] = [Example("An auditor", "AuthorizationError", text, section)]
    for status, given in own.items():
        out.setdefault(status, []).extend([given] if isinstance(given, Example) else given)
    if keyed:
        text = (
            f"{IDEMPOTENCY_HEADER} 'k1' was used for another request ({where}); nothing changed: "
            "a new request needs a new key"
        )
        out.setdefault("409", []).append(
            Example("The key used for another request", "IdempotencyConflictError", text)
        )
    if "requestBody" in op:
        text = f"the request body is larger than the service takes ({max_body:,} bytes)"
        out["413"] = [Example("A body too large", "RequestTooLarge", text)]
        content = op["requestBody"].get("content", {})
        if FORM in content:
            form = content[FORM].get("schema", {})
            form = schemas.get(str(form.get("$ref", "")).rsplit("/", 1)[-1], form)
            fields = [str(f) for f in form.get("required", [])]
            text = form_media_refusal(where, fields, "application/json")
            out["415"] = [Example("A JSON body, not form fields", UNSUPPORTED, text)]
        elif "application/json" in content:
            text = json_media_refusal("text/plain")
            out["415"] = [Example("A body sent as text, not JSON", UNSUPPORTED, text)]
            text = not_json_refusal("Expecting ',' delimiter: line 1 column 15 (char 14)")
            out.setdefault("400", []).append(Example("A body that is not JSON", NOT_JSON, text))
    if path not in LENIENT:
        known = facts.query
        typed = sorted(known)[0][:-1] if known else "page"
        text = str(refusal(where, [typed], known))
        out.setdefault("422", []).append(
            Example("A query parameter the route does not take", "InputError", text)
        )
    elif facts.query:  # a page reads its form's fields: only what it declares is checked
        name = sorted(facts.query)[-1]
        text = str(nul_refusal(f"{method.upper()} {path}", "query", name))
        out.setdefault("422", []).append(Example("A NUL in a query parameter", "InputError", text))
    if "{" in path and "404" not in out:
        raise AssertionError(f"{method.upper()} {path}: no example of its 404 (openapi_examples)")
    return out


def _fastapi_default(response: Mapping[str, Any]) -> bool:
    """Whether ``response`` is FastAPI's own 422 (its ``HTTPValidationError``), not one the
    route declares (``POST /token``'s 429, say: kept, the route answers it)."""
    return response.get("description") == "Validation Error"


def _problem_response(
    status: str, path: str, examples: list[Example], description: str | None
) -> dict[str, Any]:
    shown = {}
    for ex in examples:
        slug = re.sub(r"[^a-z0-9]+", "-", ex.summary.lower()).strip("-")
        shown[slug] = {
            "summary": ex.summary,
            "value": {
                "type": f"{PROBLEM_BASE}{ex.kind}",
                "title": ex.kind,
                "status": int(status),
                "detail": ex.detail,
                "instance": _instance(path, ex.names),
                "error_type": ex.kind,
                "section": ex.section,
            },
        }
    return {
        "description": description or DESCRIPTIONS[status],
        "content": {
            MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}, "examples": shown}
        },
    }


ANSWER_EXAMPLES: Mapping[tuple[str, str], Callable[[], dict[str, Any]]] = MappingProxyType(
    {("get", "/parsheets/{wager}"): parsheet_example}
)
"""The success answers shown whole as their route's example, made by the route's own code when
the document is built (keyed by method and path)."""


def _answer_examples(spec: dict[str, Any]) -> None:
    for (method, path), make in ANSWER_EXAMPLES.items():
        answer = spec.get("paths", {}).get(path, {}).get(method, {}).get("responses", {})
        body = answer.get("200", {}).get("content", {}).get("application/json")
        if body is not None:
            body["example"] = make()


def complete(spec: dict[str, Any], app: FastAPI | None = None) -> dict[str, Any]:
    """``spec`` with the problem responses and examples described in the module docstring
    (``app`` the application it documents: each route's token and query parameters)."""
    facts = route_facts(app) if app is not None else {}
    config = getattr(app.state, "config", None) if app is not None else None
    max_body = int(getattr(config, "max_body", 1 << 20))
    spec.setdefault("components", {}).setdefault("schemas", {}).update(PROBLEM_SCHEMAS)
    for path, ops in spec.get("paths", {}).items():
        for method, op in ops.items():
            responses: dict[str, Any] = op.setdefault("responses", {})
            for p in op.get("parameters", []):
                if p.get("name") == IDEMPOTENCY_HEADER:  # the service's own 400 without it
                    p["required"] = True
                    p["schema"] = {"type": "string", "minLength": 1, "maxLength": MAX_KEY}
            fact = facts.get((method, path), Facts(None, frozenset()))
            schemas = spec["components"]["schemas"]
            problems = examples_of(method, path, op, fact, max_body, schemas)
            for status in [s for s in responses if s.startswith(("4", "5"))]:
                if status not in problems and _fastapi_default(responses[status]):
                    del responses[status]  # FastAPI's own 422, on a route that never answers it
            for status, examples in sorted(problems.items()):
                said = responses.get(status, {}).get("description")
                own = said if said and said != "Validation Error" else None
                other = {  # a page's own answer beside the problem (its HTML)
                    kind: body
                    for kind, body in (responses.get(status, {}).get("content") or {}).items()
                    if kind not in ("application/json", MEDIA_TYPE)
                }
                responses[status] = _problem_response(status, path, examples, own)
                responses[status]["content"].update(other)
            for status, given in responses.items():
                if not status.startswith("2"):
                    continue
                csv_body = (given.get("content") or {}).get("text/csv")
                if csv_body is not None and not csv_body.get("schema"):
                    csv_body["schema"] = {"type": "string", "description": "CSV with a header"}
            bodies = [
                g["content"]["application/json"]
                for g in responses.values()
                if "application/json" in (g.get("content") or {})
            ]
            for status, given in responses.items():  # a 200 beside a 201: the same document
                if bodies and status[0] == "2" and status != "204" and not given.get("content"):
                    given["content"] = {"application/json": {"schema": bodies[0]["schema"]}}
            # a route's own problem examples (POST /token's 429) as the service sends them:
            # FastAPI's document leaves out their null section
            for given in responses.values():
                problem_body = (given.get("content") or {}).get(MEDIA_TYPE) or {}
                for example in (problem_body.get("examples") or {}).values():
                    example.get("value", {}).setdefault("section", None)
            op["responses"] = dict(sorted(responses.items()))
            known = OPERATIONS.get((method, path))
            if known is not None:  # one tag, the resource's (operation_ids)
                op["tags"] = [known.tag]
            if method == "post" and path == "/token":
                form = op["requestBody"]["content"].get("application/x-www-form-urlencoded")
                if form is not None:
                    form["example"] = {"username": "dana", "password": "her passphrase"}
    schemas = spec["components"]["schemas"]
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    spec["tags"] = [{"name": name, "description": said} for name, said in TAGS.items()]
    _whole_bounds(spec)
    _answer_examples(spec)
    add_links(spec)  # what a response names for the next request (openapi_links)
    document_version(spec)  # info.version, and the version header on every response
    return spec


def _whole_bounds(node: Any) -> None:
    """An integer's bounds as integers: the document's generator writes a body field's ``le=8``
    as ``8.0``, and ``le=MAX_STORED_INT`` as the float nearest it, 2**63 — one more than the
    databases store (the only bound that large the service gives)."""
    if isinstance(node, dict):
        if node.get("type") == "integer":
            for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                value = node.get(bound)
                if not isinstance(value, float) or not value.is_integer():
                    continue
                if abs(value) < 2**53:
                    node[bound] = int(value)
                elif abs(value) == float(MAX_STORED_INT):
                    node[bound] = MAX_STORED_INT if value > 0 else -MAX_STORED_INT - 1
        for child in node.values():
            _whole_bounds(child)
    elif isinstance(node, list):
        for child in node:
            _whole_bounds(child)


def install(app: FastAPI) -> None:
    """Serve :func:`complete`'s document as the app's OpenAPI (built once, then kept)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(FastAPI.openapi(app), app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


__all__ = ["PROBLEM_SCHEMA", "PROBLEM_SCHEMAS", "api_routes", "complete", "install"]
