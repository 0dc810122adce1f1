"""Holding croupier's JSON to its model (:mod:`croupier.operations.schemas`): the model reads
it (a key it does not name refused) and writes it back unchanged — the same keys, a key absent
where the output leaves it out, the same values of the same JSON types (a whole number stays
``5``, never ``5.0``)."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Where ``a`` and ``b`` differ in a key, a value or a value's JSON type (``5`` is not
    ``5.0``), each as a JSON-pointer-like path with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            d
            for k in sorted(a.keys() | b.keys())
            for d in (
                differences(a[k], b[k], f"{where}/{k}")
                if k in a and k in b
                else [f"{where}/{k}: {'only written back' if k in a else 'only in the output'}"]
            )
        ]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in differences(x, y, f"{where}/{i}")
        ]
    if type(a) is not type(b) or a != b:
        return [f"{where}: written back {a!r}, output {b!r}"]
    return []


def held(model: Any, doc: Any) -> None:
    """Assert that ``model`` (a model class or a type such as ``list[Model]``) reads ``doc`` and
    writes it back unchanged."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    again = adapter.dump_python(adapter.validate_python(doc), mode="json", by_alias=True)
    found = differences(again, doc)
    assert not found, "\n".join(found[:20])


__all__ = ["differences", "held"]
