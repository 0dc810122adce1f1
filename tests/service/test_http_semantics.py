"""HTTP's words for a body and the API's version (issue 29): a body sent as JSON that is not JSON
at all is a 400 problem (``NotJSON``), one sent as another media type a 415, JSON the route does
not take a 422 — on every route that reads a JSON body, each documented in the OpenAPI document;
and every response says the API's version (``Croupier-API-Version: 1``, ``info.version``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from croupier.service.versioning import API_VERSION, HEADER
from service_support import SHIFT, Server, keyed, serving

PROBLEM = "application/problem+json"
SAMPLE = {"table": "BJ-1", "name": "jp-5", "award_id": "1"}
NOT_JSON = (b"{not json", b"[1, 2", b'{"amount": NaN}', b"\xff\xfe{}", b"hello")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("semantics")) as srv:
        yield srv


@pytest.fixture(scope="module")
def spec(server: Server) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(f"{server.base}/openapi.json", timeout=60).json()
    return document


def json_routes(spec: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (method, path)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if "application/json" in (op.get("requestBody") or {}).get("content", {})
    ]


def test_every_json_route_answers_a_body_that_is_not_json_400(
    server: Server, spec: dict[str, Any]
) -> None:
    routes = json_routes(spec)
    assert ("post", "/rounds/settle") in routes and ("post", "/simulations") in routes
    with server.client() as c:
        for method, path in routes:
            url = path.format(**SAMPLE)
            for body in NOT_JSON:
                headers = keyed(server.auth(SHIFT)) | {"Content-Type": "application/json"}
                r = c.request(method.upper(), url, content=body, headers=headers)
                assert r.status_code == 400, (path, body, r.text)
                assert r.headers["content-type"] == PROBLEM
                assert r.json()["error_type"] == "NotJSON"
                assert r.json()["detail"].startswith("the request body is not JSON (RFC 8259)")
            empty = c.request(method.upper(), url, content=b"", headers=headers)
            assert empty.status_code == 400, (path, empty.text)
            assert "is empty" in empty.json()["detail"]


def test_the_wrong_media_type_is_415_and_json_the_route_does_not_take_422(
    server: Server, spec: dict[str, Any]
) -> None:
    with server.client() as c:
        for method, path in json_routes(spec):
            url = path.format(**SAMPLE)
            headers = keyed(server.auth(SHIFT))
            r = c.request(
                method.upper(),
                url,
                content=b"{}",
                headers={**headers, "Content-Type": "text/plain"},
            )
            assert r.status_code == 415, (path, r.text)
            headers = keyed(server.auth(SHIFT))
            r = c.request(method.upper(), url, json=[1, 2], headers=headers)
            assert r.status_code in (404, 422), (path, r.text)  # 404: the path names nothing
            assert r.json()["error_type"] != "NotJSON"


def test_every_json_routes_400_is_documented_with_its_example(spec: dict[str, Any]) -> None:
    for method, path in json_routes(spec):
        responses = spec["paths"][path][method]["responses"]
        examples = responses["400"]["content"][PROBLEM]["examples"]
        assert "a-body-that-is-not-json" in examples, (method, path)
        assert examples["a-body-that-is-not-json"]["value"]["status"] == 400
        assert "415" in responses and "422" in responses


def test_the_type_not_json_says_what_it_means(server: Server) -> None:
    r = httpx.get(f"{server.base}/problems/NotJSON", timeout=60)
    assert r.status_code == 200 and r.json()["status"] == 400


def test_every_response_says_the_api_version(server: Server) -> None:
    with server.client() as c:
        answers = [
            c.get("/health"),
            c.get("/wagers"),
            c.get("/nowhere"),  # a 404 problem
            c.get("/pit"),  # a page
            c.delete("/wagers"),  # a 405
            c.post("/tables", content=b"{", headers={"Content-Type": "application/json"}),
            c.get("/static/app.js"),
        ]
        for r in answers:
            assert r.headers.get(HEADER) == API_VERSION, (r.request.url, r.status_code)


def test_the_document_states_the_version_and_the_header_on_every_response(
    spec: dict[str, Any],
) -> None:
    assert spec["info"]["version"] == API_VERSION
    assert spec["info"]["x-croupier-version"]
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                header = response["headers"][HEADER]
                assert header["schema"]["enum"] == [API_VERSION], (method, path, status)
