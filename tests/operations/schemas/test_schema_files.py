"""docs/schemas is generated from the models: every file matches its model, and every file is
either generated or named as hand-written (a list that only shrinks)."""

from __future__ import annotations

import json

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest

from croupier.operations.schemas.files import schema_of, stale
from croupier.operations.schemas.registry import DOCUMENTS, HAND_WRITTEN
from repo_paths import ROOT

FOLDER = ROOT / "docs" / "schemas"


def test_every_generated_schema_file_matches_its_model() -> None:
    differ = stale(FOLDER)
    assert not differ, (
        f"out of date: {sorted(differ)}; run python -m croupier.operations.schemas.files"
    )


def test_every_schema_file_is_generated_or_named_hand_written() -> None:
    files = {p.name.removesuffix(".schema.json") for p in FOLDER.glob("*.schema.json")}
    generated = {d.name for d in DOCUMENTS}
    assert generated.isdisjoint(HAND_WRITTEN)
    assert files == generated | HAND_WRITTEN


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: d.name)
def test_every_generated_schema_is_valid_draft_2020_12(doc: object) -> None:
    schema = schema_of(doc)  # type: ignore[arg-type]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert json.loads(json.dumps(schema)) == schema
