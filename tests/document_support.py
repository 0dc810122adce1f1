"""Run a command with ``--json`` and check its output against the document's model (and the
schema file generated from it): the test half of :mod:`croupier.operations.schemas`."""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
from pydantic import TypeAdapter

from cli_support import run_main, run_main_once
from croupier.operations.schemas.files import schema_of
from croupier.operations.schemas.registry import DOCUMENTS


def check_document(name: str, args: list[str], code: int = 0, *, once: bool = False) -> Any:
    """Run ``croupier ARGS --json`` (exit status ``code``); its output validates against document
    ``name``'s model and the schema generated from it, and the model dumps it back key for key.
    Returns the JSON. ``once``: a command that only computes, run once a process
    (:func:`cli_support.run_main_once`) for every test that reads its output."""
    run = run_main_once(*args, "--json") if once else run_main([*args, "--json"])
    assert run.code == code, run.err
    data = json.loads(run.out)
    (doc,) = [d for d in DOCUMENTS if d.name == name]
    adapter: TypeAdapter[Any] = TypeAdapter(doc.shape)
    value = adapter.validate_python(data)
    assert adapter.dump_python(value, mode="json", by_alias=True, exclude_unset=True) == data
    jsonschema.validate(data, schema_of(doc), cls=jsonschema.Draft202012Validator)
    return data
