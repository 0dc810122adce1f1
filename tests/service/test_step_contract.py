"""The OpenAPI document types a step per action and the round file's submission (issue 29): a
client generated from it gets one class per step, chosen by ``action``."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.service.app import create_app
from croupier.table.steps import STEP_MODELS


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    doc: dict[str, Any] = create_app().openapi()
    return doc


def _union(schema: dict[str, Any]) -> None:
    names = {m.__name__ for m in STEP_MODELS.values()}
    assert schema["discriminator"]["propertyName"] == "action"
    mapping = schema["discriminator"]["mapping"]
    assert {a: ref.rsplit("/", 1)[1] for a, ref in mapping.items()} == {
        a: m.__name__ for a, m in STEP_MODELS.items()
    }
    assert {s["$ref"].rsplit("/", 1)[1] for s in schema["oneOf"]} == names


def test_a_posted_step_is_a_oneof_discriminated_by_action(spec: dict[str, Any]) -> None:
    body = spec["paths"]["/tables/{table}/steps"]["post"]["requestBody"]
    _union(body["content"]["application/json"]["schema"])
    split = spec["components"]["schemas"]["SplitStep"]
    assert set(split["properties"]) == {"action", "seat"} and split["required"] == [
        "action",
        "seat",
    ]


def test_a_round_files_steps_and_submission_are_typed(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    # POST /rounds/settle takes the round file with its submission inline (the service reads
    # no file): ServiceRoundFile; the round file itself may name a path (docs/schemas)
    round_file = schemas["ServiceRoundFile"]["properties"]
    _union(round_file["steps"]["items"])
    assert round_file["submission"]["$ref"].endswith("/SubmissionFile")
    settle = spec["paths"]["/rounds/settle"]["post"]["requestBody"]["content"]
    assert settle["application/json"]["schema"]["$ref"].endswith("/ServiceRoundFile")
    assert schemas["OpenTable"]["properties"]["submission"]["$ref"].endswith("/SubmissionFile")
    assert "wagers" in schemas["SubmissionFile"]["required"]
