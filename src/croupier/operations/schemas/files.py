"""``docs/schemas/*.schema.json`` generated from the models (:data:`DOCUMENTS`).

Each file is draft 2020-12 JSON Schema: ``$schema``, ``$id``
(``https://croupier.example/schemas/NAME.schema.json``), ``title`` (the command or document it
describes), then the model's own schema (``$defs`` for the shapes it nests), written with two
spaces of indent, keys in the model's order, and a final newline.

Run ``python -m croupier.operations.schemas.files`` to rewrite the files after changing a model,
``--check`` to list the files that differ (exit status 1) without writing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from croupier.operations.schemas.document import Document
from croupier.operations.schemas.registry import DOCUMENTS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
ID_BASE = "https://croupier.example/schemas/"


def schema_of(doc: Document) -> dict[str, Any]:
    """The JSON Schema document of ``doc``, as its file holds it."""
    body = TypeAdapter(doc.shape).json_schema(
        mode="serialization" if doc.mode == "serialization" else "validation",
        ref_template="#/$defs/{model}",
    )
    body.pop("title", None)
    return {"$schema": DRAFT, "$id": f"{ID_BASE}{doc.name}.schema.json", "title": doc.title, **body}


def text_of(doc: Document) -> str:
    """The file's text: JSON with two spaces of indent and a final newline."""
    return json.dumps(schema_of(doc), indent=2, ensure_ascii=False) + "\n"


def stale(folder: Path, documents: tuple[Document, ...] | None = None) -> Mapping[str, str]:
    """The files under ``folder`` that differ from their model: name → the text they should
    hold."""
    out: dict[str, str] = {}
    for doc in documents if documents is not None else DOCUMENTS:
        path = folder / f"{doc.name}.schema.json"
        want = text_of(doc)
        have = path.read_text("utf-8") if path.is_file() else None
        if have != want:
            out[doc.name] = want
    return out


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or ``--check``) the schema files; the exit status is 1 when ``--check`` finds a
    file out of date."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=Path("docs/schemas"))
    parser.add_argument("--check", action="store_true", help="list stale files; write nothing")
    args = parser.parse_args(argv)
    differ = stale(args.folder)
    for name, text in sorted(differ.items()):
        print(f"{'stale' if args.check else 'wrote'}: {args.folder / (name + '.schema.json')}")
        if not args.check:
            (args.folder / f"{name}.schema.json").write_text(text, "utf-8")
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
