"""Every parameter a route takes is bounded and named, and no other is taken (issue 16, items 2
and 3), against a real server on SQLite and on PostgreSQL.

The trial found ``POST /awards/99999999999999999999/validate`` and ``GET
/rounds?offset=99999999999999999999`` answering ``500 InternalError`` (the driver cannot store the
integer), and ``GET /hold-report?since=…&table=BJ-9`` answering the all-time, all-table report
(an undeclared parameter silently ignored). The sweeps read the OpenAPI document: every integer
parameter (path, query or a body model's field) is bounded to what the databases store and
refuses 2**63 and -1 (where -1 is below its minimum) with a 422 naming it; every route refuses a
query parameter it does not declare, naming it, with "did you mean"; a problem about a query
parameter names it as the query does, never as a command-line option (``--unit``).
"""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from croupier.service.query import LENIENT
from progressive_support import BACKENDS
from service_support import DEALER, PIT, SHIFT, Server, keyed, pp_round, serving

PROBLEM = "application/problem+json"
STORED_MAX = 2**63 - 1
SAMPLE = {
    "wager": "perfect-pairs",
    "name": "jp-5",
    "award_id": "1",
    "table": "BJ-1",
    "round_id": "r1",
    "job": "nope",
    "kind": "LockoutError",
}
"""Values of the path parameters a sweep is not probing."""


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"params-{request.param}")) as srv:
        yield srv


@pytest.fixture(scope="module")
def spec(server: Server) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(f"{server.base}/openapi.json", timeout=60).json()
    return document


def _is_integer(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The integer branch of a parameter's schema (``int | None`` is an ``anyOf``)."""
    if schema.get("type") == "integer":
        return schema
    for branch in schema.get("anyOf", []):
        if branch.get("type") == "integer":
            return dict(branch)
    return None


def integer_parameters(spec: dict[str, Any]) -> list[tuple[str, str, str, str, dict[str, Any]]]:
    """(method, path, where, name, schema) of every integer parameter of every operation: in
    the path, the query, or a field of the body's model."""
    found = []
    schemas = spec["components"]["schemas"]
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for p in op.get("parameters", []):
                integer = _is_integer(p["schema"])
                if integer is not None:
                    found.append((method, path, p["in"], p["name"], integer))
            body = (op.get("requestBody") or {}).get("content", {}).get("application/json")
            ref = (body or {}).get("schema", {}).get("$ref", "")
            model = schemas.get(ref.rsplit("/", 1)[-1], {})
            for name, prop in model.get("properties", {}).items():
                integer = _is_integer(prop)
                if integer is not None:
                    found.append((method, path, "body", name, integer))
    return found


def body_example(spec: dict[str, Any], op: dict[str, Any]) -> Any:
    """A valid body of the operation, from its examples."""
    body = (op.get("requestBody") or {}).get("content", {}).get("application/json")
    if body is None:
        return None
    if "example" in body:
        return body["example"]
    if body.get("examples"):
        return next(iter(body["examples"].values()))["value"]
    ref = body["schema"]["$ref"].rsplit("/", 1)[-1]
    return spec["components"]["schemas"][ref]["examples"][0]


def send(
    srv: Server, spec: dict[str, Any], method: str, path: str, where: str, name: str, value: int
) -> httpx.Response:
    op = spec["paths"][path][method]
    values = {**SAMPLE, **({name: str(value)} if where == "path" else {})}
    url = path.format(**values)
    params = {name: str(value)} if where == "query" else {}
    body = body_example(spec, op)
    if where == "body":
        body = {**body, name: value}
    headers = keyed(srv.auth(SHIFT)) if method != "get" else srv.auth(SHIFT)
    return httpx.request(
        method.upper(),
        f"{srv.base}{url}",
        params=params,
        json=body,
        headers=headers,
        timeout=120,
    )


def test_every_integer_parameter_is_bounded_to_what_the_database_stores(
    server: Server, spec: dict[str, Any]
) -> None:
    found = integer_parameters(spec)
    named = {(m, p, n) for m, p, _, n, _ in found}
    # the trial's three, and the body fields: all are in the sweep
    assert {
        ("post", "/awards/{award_id}/validate", "award_id"),
        ("post", "/awards/{award_id}/void", "award_id"),
        ("get", "/rounds", "offset"),
        ("post", "/simulations", "seed"),
        ("post", "/progressives", "decks"),
    } <= named
    for method, path, where, name, schema in found:
        at = (method, path, name)
        assert "maximum" in schema and schema["maximum"] <= STORED_MAX, at
        assert "minimum" in schema and schema["minimum"] >= -STORED_MAX - 1, at
        for value in (2**63, -1):
            r = send(server, spec, method, path, where, name, value)
            assert r.status_code < 500, (at, value, r.text)
            if value > schema["maximum"] or value < schema["minimum"]:
                assert r.status_code == 422, (at, value, r.text)
                assert r.headers["content-type"] == PROBLEM
                problem = r.json()
                assert problem["error_type"] == "InputError", (at, value)
                assert f"{where}.{name}" in problem["detail"], (at, value, problem["detail"])


def test_every_integer_parameter_at_its_maximum_is_answered_without_a_server_error(
    server: Server, spec: dict[str, Any]
) -> None:
    """The largest id, offset or limit the document allows is one the route answers (a 2xx or
    a 4xx problem), never a 5xx: Schemathesis found ``POST /awards/9223372036854775806/void``
    a 500 on PostgreSQL, whose awards' ids are 32-bit (the lookup now finds no award: a 404).
    (Not the counts of work — a simulation's rounds — whose maximum is work the server does.)"""
    swept = [
        found
        for found in integer_parameters(spec)
        if found[2] == "path" or found[3] in ("offset", "limit")
    ]
    assert {(m, p, n) for m, p, _, n, _ in swept} >= {
        ("post", "/awards/{award_id}/validate", "award_id"),
        ("post", "/awards/{award_id}/void", "award_id"),
        ("get", "/rounds", "offset"),
    }
    for method, path, where, name, schema in swept:
        r = send(server, spec, method, path, where, name, schema["maximum"])
        assert r.status_code < 500, ((method, path, name), r.text)
        if name == "award_id":
            assert r.status_code == 404, r.text
            assert r.json()["detail"] == f"no award {schema['maximum']}"


def test_a_nul_in_any_text_parameter_is_a_422_naming_it(
    server: Server, spec: dict[str, Any]
) -> None:
    """A NUL (U+0000) in a path or query parameter is refused with a 422 naming it, on every
    route and both databases: Schemathesis found ``GET /significant-events?progressive=…%00…``
    a 500 on PostgreSQL (which stores no NUL in text), and so were ``GET /progressives/a%00b``,
    ``/tables/…``, ``/rounds?table=…``, ``/awards?progressive=…`` and others."""
    swept = 0
    with server.client() as c:
        for path, ops in spec["paths"].items():
            for method, op in ops.items():
                for p in op.get("parameters", []):
                    schema = p["schema"]
                    texts = [schema, *schema.get("anyOf", [])]
                    if p["in"] not in ("path", "query") or not any(
                        t.get("type") == "string" and "enum" not in t for t in texts
                    ):
                        continue
                    nul = "a\x00b"
                    inserted = {p["name"]: "a%00b"} if p["in"] == "path" else {}
                    url = path.format(**{**SAMPLE, **inserted})  # %00: a NUL once decoded
                    params = {p["name"]: nul} if p["in"] == "query" else {}
                    headers = keyed(server.auth(SHIFT)) if method != "get" else server.auth(SHIFT)
                    r = c.request(method.upper(), url, params=params, headers=headers)
                    at = (method, path, p["name"])
                    assert r.status_code == 422, (at, r.text)
                    assert r.headers["content-type"] == PROBLEM, at
                    detail = r.json()["detail"]
                    assert f"{p['in']} parameter {p['name']!r} holds a NUL" in detail, (at, detail)
                    swept += 1
    assert swept >= 15  # the names in paths and the filters of the reading routes


def test_the_trials_big_integers_are_422_naming_them(server: Server) -> None:
    big = "99999999999999999999"
    with server.client() as c:
        before = c.get("/awards", headers=server.auth(DEALER)).json()
        for method, url, body, name in [
            ("POST", f"/awards/{big}/validate", None, "award_id"),
            ("POST", f"/awards/{big}/void", {"reason": "misread"}, "award_id"),
            ("GET", f"/rounds?offset={big}", None, "offset"),
        ]:
            r = c.request(method, url, json=body, headers=keyed(server.auth(SHIFT)))
            assert r.status_code == 422, (url, r.text)
            assert r.json()["error_type"] == "InputError" and name in r.json()["detail"]
        assert c.get("/awards", headers=server.auth(DEALER)).json() == before
        # the largest the database stores is taken
        r = c.get("/rounds", params={"offset": STORED_MAX}, headers=server.auth(DEALER))
        assert r.status_code == 200, r.text
        assert r.json()["rounds"] == [] and r.json()["offset"] == STORED_MAX


def test_an_undeclared_query_parameter_is_a_problem_naming_it(
    server: Server, spec: dict[str, Any]
) -> None:
    """Every operation, with or without a token, refuses a query parameter it does not declare
    before doing anything; ``GET /health`` alone answers any probe, and an HTML page any form
    field (and the designer's paytable its ``pay:`` fields): :data:`LENIENT`."""
    with server.client() as c:
        rounds = c.get("/rounds", headers=server.auth(DEALER)).json()["count"]
        for path, ops in spec["paths"].items():
            for method in ops:
                url = path.format(**SAMPLE)
                r = c.request(method.upper(), url, params={"zz-unknown": "1"})
                if path in LENIENT:
                    assert r.status_code == 200, (path, r.text[:300])
                    continue
                where = f"{method.upper()} {url}"
                assert r.status_code == 422, (where, r.text)
                assert r.headers["content-type"] == PROBLEM
                assert "'zz-unknown'" in r.json()["detail"] and where in r.json()["detail"]
        assert c.get("/rounds", headers=server.auth(DEALER)).json()["count"] == rounds


def test_the_hold_report_refuses_a_filter_it_does_not_apply(server: Server) -> None:
    with server.client() as c:
        r = c.get("/hold-report", params={"sinse": "2027-01-01"}, headers=server.auth(PIT))
        assert r.status_code == 422 and r.json()["error_type"] == "InputError", r.text
        assert "'sinse'" in r.json()["detail"]
        # a near miss is named with what was meant
        r = c.get("/rounds", params={"tabel": "BJ-1"}, headers=server.auth(DEALER))
        assert r.status_code == 422
        assert "did you mean 'table'?" in r.json()["detail"]
        r = c.get("/reconciliation", params={"form": "2027-01-01"}, headers=server.auth(PIT))
        assert "did you mean 'format'?" in r.json()["detail"] or "'from'" in r.json()["detail"]
        # what a route declares is taken, under the name the query uses (?from=, not ?start=)
        ok = c.get("/reconciliation", params={"from": "2027-01-01"}, headers=server.auth(PIT))
        assert ok.status_code == 200, ok.text
        # the web page's forms are not the API: their pages read the fields they know
        page = c.get("/", params={"wager": "perfect-pairs", "utm_source": "x"})
        assert page.status_code == 200


def test_the_pages_links_to_the_api_take_only_its_parameters(server: Server) -> None:
    """The explorer's JSON download used to repeat the wager as a query parameter of
    ``/parsheets/{wager}``: now refused, so the page links with the route's own parameters."""
    page = httpx.get(
        f"{server.base}/", params={"wager": "perfect-pairs", "paytable": "A", "decks": 6}
    )
    assert page.status_code == 200
    found = re.search(r'id="dl-json" href="([^"]+)"', page.text)
    assert found is not None
    link = html.unescape(found.group(1))
    assert "wager=" not in link
    sheet = httpx.get(f"{server.base}{link}", timeout=60)
    assert sheet.status_code == 200, sheet.text
    assert (sheet.json()["wager"], sheet.json()["decks"]) == ("perfect-pairs", 6)


def string_query_parameters(spec: dict[str, Any]) -> list[tuple[str, str, str]]:
    found = []
    for path, ops in spec["paths"].items():
        op = ops.get("get")
        if op is None:
            continue
        for p in op.get("parameters", []):
            sch = p["schema"]
            kinds = {sch.get("type")} | {b.get("type") for b in sch.get("anyOf", [])}
            if p["in"] == "query" and "string" in kinds and "enum" not in sch:
                found.append(("get", path, p["name"]))
    return found


def test_a_query_parameter_is_named_as_the_query_names_it(
    server: Server, spec: dict[str, Any]
) -> None:
    """Bad text in each string query parameter: a problem that names no command-line option
    (the trial's ``/eor/…?unit=abc`` said ``--unit must be…``)."""
    found = string_query_parameters(spec)
    assert ("get", "/eor/{wager}", "unit") in found
    with server.client(headers=server.auth(DEALER)) as c:
        r = c.get("/eor/perfect-pairs", params={"unit": "abc"})
        assert r.status_code == 422
        assert r.json()["detail"].startswith("the unit parameter must be an amount in dollars")
        for method, path, name in found:
            r = c.request(method.upper(), path.format(**SAMPLE), params={name: "a-b-c!"})
            assert r.status_code < 500, (path, name, r.text)
            if r.status_code >= 400 and r.headers["content-type"] == PROBLEM:
                assert " --" not in r.json()["detail"], (path, name, r.json()["detail"])
            elif r.status_code >= 400:  # an HTML page: its error shown on the page
                assert r.headers["content-type"].startswith("text/html"), (path, name)
                assert " --" not in html.unescape(r.text), (path, name)


def test_a_simulation_names_its_fields(server: Server) -> None:
    with server.client() as c:
        for field, value in (("meter", "abc"), ("amount", "1e400")):
            spec = {"wager": "jackpot-party", "paytable": "P1", "rounds": 1000, field: value}
            r = c.post("/simulations", json=spec, headers=server.auth(DEALER))
            assert r.status_code == 422, r.text
            assert r.json()["detail"].startswith(f"the {field} field ")


def test_a_seat_past_what_the_table_has_is_refused_whole(server: Server) -> None:
    """A seat beyond the table's (a big integer in a round file's step) is the round's own 422,
    nothing stored."""
    body = pp_round(f"big-{uuid.uuid4().hex[:6]}")
    body["steps"][0]["seat"] = 2**63
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-2"},
            json=body,
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 422, r.text
        assert "seat 9223372036854775808" in r.json()["detail"]
        got = c.get(f"/rounds/BJ-2/{body['id']}", headers=server.auth(DEALER))
        assert got.status_code == 404
