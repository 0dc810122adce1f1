"""One source for every JSON shape croupier reads or writes: pydantic models.

The HTTP service's OpenAPI document takes its request and response schemas from these models,
and ``docs/schemas/*.schema.json`` (the ``--json`` output of each command, the round file) is
generated from the same models by :mod:`croupier.operations.schemas.files`::

    python -m croupier.operations.schemas.files          # rewrite docs/schemas
    python -m croupier.operations.schemas.files --check  # exit 1 if a file is out of date

A test (``tests/operations/schemas/test_schema_files.py``) fails when a file and its model
disagree, so the documents cannot drift from the code.

- :class:`Shape` — the base of every model: unknown keys are refused (``extra="forbid"``), values
  are frozen, and each field's docstring is its schema ``description``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Shape(BaseModel):
    """The base of croupier's JSON models: a key the model does not name is refused, a model is
    immutable, and an attribute's docstring becomes its JSON Schema ``description``."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


__all__ = ["Shape"]
