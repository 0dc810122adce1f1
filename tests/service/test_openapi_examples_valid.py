"""Every example in the OpenAPI document is valid against the schema it illustrates: a request
body's, a parameter's and a response's (``example``, and each of ``examples``), and each schema's
own ``examples`` — ``$ref`` resolved against the document's components (jsonschema, JSON Schema
2020-12 as OpenAPI 3.1 uses it). A client generator and a tester such as Schemathesis take the
examples for what the API accepts and answers: one that the schema refuses misleads both."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from croupier.service.app import ServiceConfig, create_app

BASE = "urn:croupier:openapi"


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    document: dict[str, Any] = create_app(ServiceConfig(db="sqlite://")).openapi()
    return document


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def illustrated(node: Any, pointer: str = "") -> Iterator[tuple[str, str, Any]]:
    """(where the example is, the pointer of the schema it illustrates, the example) of every
    example under ``node`` (at ``pointer`` in the document)."""
    if isinstance(node, list):
        for i, child in enumerate(node):
            yield from illustrated(child, f"{pointer}/{i}")
        return
    if not isinstance(node, dict):
        return
    given = node.get("examples")
    if "schema" in node:  # a parameter, a header or a media type: OpenAPI's examples
        target = f"{pointer}/schema"
        if "example" in node:
            yield f"{pointer}/example", target, node["example"]
        if isinstance(given, dict):
            for name, example in given.items():
                if isinstance(example, dict) and "value" in example:
                    yield f"{pointer}/examples/{_escape(name)}", target, example["value"]
    elif isinstance(given, list):  # a schema: JSON Schema's examples
        for i, example in enumerate(given):
            yield f"{pointer}/examples/{i}", pointer, example
    for key, child in node.items():
        if key not in ("example", "examples"):
            yield from illustrated(child, f"{pointer}/{_escape(key)}")


def test_the_document_has_examples_of_every_kind(spec: dict[str, Any]) -> None:
    where = [w for w, _, _ in illustrated(spec)]
    assert any("/requestBody/" in w for w in where)
    assert any("/responses/" in w for w in where)
    assert len(where) > 100


def test_every_example_is_valid_against_its_schema(spec: dict[str, Any]) -> None:
    registry: Registry[Any] = Registry().with_resource(BASE, DRAFT202012.create_resource(spec))
    invalid = []
    for where, schema_at, example in illustrated(spec):
        validator = Draft202012Validator({"$ref": f"{BASE}#{schema_at}"}, registry=registry)
        errors = sorted(validator.iter_errors(example), key=lambda e: list(e.absolute_path))
        invalid += [f"{where}: {e.message[:200]} (at {list(e.absolute_path)})" for e in errors]
    assert not invalid, "\n".join(invalid)
