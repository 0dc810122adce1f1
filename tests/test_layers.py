"""The layers of the house (README "Layout"): each package imports only from the ones before it,
and no module imports itself back through others.

``errors``, ``units``, ``frozen`` → ``cards`` → ``poker``, ``games`` → ``paytables`` → ``wagers`` →
``analysis``, ``table`` → ``progressive`` → ``operations`` → ``cli``, ``commands``, ``service``. A
module may import from its own layer or a lower one, never a higher one — every import counts, at
module level or inside a function, absolute or relative, under ``TYPE_CHECKING`` too. And there is
no import cycle between modules (a module's package ``__init__`` included), function-level imports
included: a cycle hides an order in which the modules cannot be loaded, and one module that should
be two. A module uses another package's public names only: no ``from croupier.X import _name``,
no ``croupier.X._name``, across packages (its own package's private names are its own).
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

import croupier

LAYER = {
    "errors": 0,
    "environment": 0,
    "inputs": 0,
    "lazy": 0,
    "names": 0,
    "units": 0,
    "frozen": 0,
    "cards": 1,
    "poker": 2,
    "games": 2,
    "paytables": 3,
    "wagers": 4,
    "analysis": 5,
    "table": 5,
    "progressive": 6,
    "operations": 7,
    "cli": 8,
    "commands": 8,
    "service": 8,
    "web": 8,
    "__main__": 8,
}

KNOWN_CYCLES: set[frozenset[str]] = set()

KNOWN_PRIVATE: dict[str, set[str]] = {}
"""Private names of another package a module still uses (to be made public, then removed here)."""

SRC = Path(croupier.__file__).parent
README = SRC.parent.parent / "README.md"
MODULES = sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


NAMES = {_name(p): p for p in SRC.rglob("*.py")}


def _package(path: Path) -> str:
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, croupier module) of every import in the module, functions included; relative
    imports resolved; ``from P import M`` counts M when it is a module."""
    return _imports_of(path, _name(path))


def _imports_of(path: Path, name: str) -> list[tuple[int, str]]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = importlib.util.resolve_name("." * node.level + base, package)
            targets = [base, *(f"{base}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        found += [(node.lineno, t) for t in targets if t in NAMES and t != name]
    return found


def test_every_package_has_a_layer() -> None:
    packages = {_package(p) for p in MODULES}
    assert packages - set(LAYER) == set(), "give the new package a layer in LAYER"


def test_the_readme_describes_these_layers() -> None:
    text = README.read_text(encoding="utf-8").split("## Layout", 1)[1].split("\n## ", 1)[0]
    order = [p for p in re.findall(r"`(\w+)(?:/)?`", text) if p in LAYER]
    layers = [LAYER[p] for p in order]
    assert layers == sorted(layers), f"README's layout lists the layers out of order: {order}"
    assert set(order) >= set(LAYER) - {"web", "__main__"}, set(LAYER) - set(order)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_only_from_its_layer_or_below(path: Path) -> None:
    own = LAYER[_package(path)]
    upward = [
        f"line {line}: {target}"
        for line, target in _imports(path)
        if "." in target and LAYER.get(target.split(".")[1], 0) > own
    ]
    assert upward == [], f"{path.relative_to(SRC)} imports from a higher layer: {upward}"


def _private_imports(path: Path, own: str) -> list[str]:
    """Each private name (a leading underscore, dunders aside) of another croupier package than
    ``own`` that the module at ``path`` imports or reaches as an attribute of a module:
    ``from croupier.x import _name``, ``from croupier.x._mod import name``, ``import
    croupier.x._mod``, ``croupier.x._name`` (relative imports resolved)."""
    name = _name(path) if path.is_relative_to(SRC) else f"croupier.{own}.m"
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def private(part: str) -> bool:
        return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))

    def foreign(module: str) -> bool:
        parts = module.split(".")
        return parts[0] == "croupier" and len(parts) > 1 and parts[1] != own

    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = importlib.util.resolve_name("." * node.level + base, package)
            if not foreign(base):
                continue
            names = [base, *(f"{base}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if foreign(a.name)]
        elif isinstance(node, ast.Attribute):
            dotted = ast.unparse(node)
            if not (dotted.startswith("croupier.") and foreign(dotted)):
                continue
            names = [dotted]
        else:
            continue
        found += [f"line {node.lineno}: {n}" for n in names if any(map(private, n.split(".")[2:]))]
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_private_name_of_another_package(path: Path) -> None:
    known = KNOWN_PRIVATE.get(str(path.relative_to(SRC)), set())
    found = [f for f in _private_imports(path, _package(path)) if f.split(": ", 1)[1] not in known]
    assert found == [], f"{path.relative_to(SRC)} uses another package's private names: {found}"


def test_the_private_name_check_finds_them(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from croupier.commands.common import _money, parse\n"
        "from croupier.table._impl import x\n"
        "from croupier.service.m import _own\n"
        "import croupier.table._impl\n"
        "y = croupier.table.progressive._offer\n"
        "from croupier.commands import __version__\n",
        encoding="utf-8",
    )
    assert [f.split(": ", 1)[1] for f in _private_imports(module, "service")] == [
        "croupier.commands.common._money",
        "croupier.table._impl",
        "croupier.table._impl.x",
        "croupier.table._impl",
        "croupier.table.progressive._offer",
    ]


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module of ``graph`` (module → the
    modules it imports), by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle() -> None:
    graph = {name: {t for _, t in _imports(path)} for name, path in NAMES.items()}
    cycles = [sorted(c) for c in _cycles(graph) if c not in KNOWN_CYCLES]
    assert cycles == [], f"modules importing each other (functions included): {cycles}"


def test_the_cycle_check_finds_cycles_and_function_level_imports(tmp_path: Path) -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": {"g"}, "g": set()}
    assert _cycles(graph) == [frozenset({"a", "b", "c"})]
    # an import inside a function is an import
    module = tmp_path / "m.py"
    module.write_text("def f() -> None:\n    from croupier.cli import main\n", encoding="utf-8")
    assert [t for _, t in _imports_of(module, "croupier.commands.m")] == ["croupier.cli"]
