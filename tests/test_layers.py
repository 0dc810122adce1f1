"""The layers of the house (developers' guide): each package imports only from the ones before it.

``cards`` → ``poker``, ``games`` → ``wagers``, ``paytables`` → ``analysis``, ``table``,
``progressive`` → ``cli``, ``commands``, ``service``; ``errors`` and ``units`` are below everything.
A module may import from its own layer or a lower one, never a higher one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import croupier

LAYER = {
    "errors": 0,
    "inputs": 0,
    "units": 0,
    "cards": 1,
    "poker": 2,
    "games": 2,
    "paytables": 3,
    "wagers": 3,
    "analysis": 4,
    "table": 4,
    "progressive": 4,
    "cli": 5,
    "commands": 5,
    "service": 5,
    "web": 5,
    "__main__": 5,
}

SRC = Path(croupier.__file__).parent
MODULES = sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


def _package(path: Path) -> str:
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "croupier" and len(parts) > 1:
                found.append((node.lineno, parts[1]))
    return found


def test_every_package_has_a_layer() -> None:
    packages = {_package(p) for p in MODULES}
    assert packages - set(LAYER) == set(), "give the new package a layer in LAYER"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_only_from_its_layer_or_below(path: Path) -> None:
    own = LAYER[_package(path)]
    upward = [
        f"line {line}: croupier.{target}"
        for line, target in _imports(path)
        if LAYER.get(target, 0) > own
    ]
    assert upward == [], f"{path.relative_to(SRC)} imports from a higher layer: {upward}"
