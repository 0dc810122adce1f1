"""The OpenAPI document's links (:mod:`croupier.service.openapi_links`): each names an operation
the document has, fills exactly that operation's path parameters, from a field the source's
response has — what a stateful tester (Schemathesis) and a client follow."""

from __future__ import annotations

import re
from typing import Any

import pytest

from croupier.service.app import create_app
from croupier.service.openapi_links import LINKS


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    document: dict[str, Any] = create_app().openapi()
    return document


def operations(spec: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Each operation by its ``operationId``: (method, path, operation)."""
    return {
        op["operationId"]: (method, path, op)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
    }


def test_every_declared_link_is_in_the_document(spec: dict[str, Any]) -> None:
    for (method, path, status), targets in LINKS.items():
        links = spec["paths"][path][method]["responses"][status]["links"]
        assert len(links) == len(targets), (method, path, status)


def test_each_link_fills_its_targets_path_parameters(spec: dict[str, Any]) -> None:
    by_id = operations(spec)
    seen = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                for name, link in response.get("links", {}).items():
                    _, target_path, _ = by_id[link["operationId"]]
                    wanted = set(re.findall(r"\{([^}]+)\}", target_path))
                    assert set(link["parameters"]) == wanted, (method, path, status, name)
                    for expression in link["parameters"].values():
                        assert expression.startswith("$response.body#/"), expression
                    seen += 1
    assert seen >= 25


def test_the_obvious_chains_are_linked(spec: dict[str, Any]) -> None:
    """A table opened → its steps; a progressive made → its read; a round settled → its award
    validated; a job started → its progress."""
    by_id = operations(spec)

    def targets(method: str, path: str, status: str) -> set[tuple[str, str]]:
        links = spec["paths"][path][method]["responses"][status].get("links", {})
        return {by_id[link["operationId"]][:2] for link in links.values()}

    assert ("post", "/tables/{table}/steps") in targets("post", "/tables", "201")
    assert ("get", "/progressives/{name}") in targets("post", "/progressives", "201")
    assert ("post", "/awards/{award_id}/validate") in targets("post", "/rounds/settle", "201")
    assert ("get", "/simulations/{job}") in targets("post", "/simulations", "202")
