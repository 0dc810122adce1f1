"""A generated schema file's description (:mod:`.files`, :mod:`.registry`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Document:
    """One schema file: ``name`` (the file is ``NAME.schema.json``), its ``title`` and the
    ``shape`` it describes (a model, or a type such as ``list[Model]``); ``mode`` is pydantic's
    ``"serialization"`` for what croupier writes, ``"validation"`` for what it reads."""

    name: str
    title: str
    shape: Any
    mode: str = "serialization"
