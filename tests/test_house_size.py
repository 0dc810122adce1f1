"""Issue 28: a house a newcomer can live in — no module of croupier over 800 lines and no function
over 100 (the Alembic revisions aside: each is a frozen record of one schema change). ruff's C901
and PLR0915 (pyproject.toml) keep the complexity and statement count down; this keeps the
lengths, docstrings included, that a reader sees."""

from __future__ import annotations

import ast
from pathlib import Path

import croupier

SRC = Path(croupier.__file__).parent
MODULE_LINES = 800
FUNCTION_LINES = 100


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "migrations" not in p.parts)


def test_no_module_is_over_800_lines() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert long == {}, f"split these along their seams: {long}"


def _long_functions(source: str) -> dict[str, int]:
    """``name:line`` → length of every function of ``source`` longer than the limit."""
    long = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            n = (node.end_lineno or node.lineno) - node.lineno + 1
            if n > FUNCTION_LINES:
                long[f"{node.name}:{node.lineno}"] = n
    return long


def test_no_function_is_over_100_lines() -> None:
    long = {
        f"{p.relative_to(SRC)} {name}": n
        for p in _modules()
        for name, n in _long_functions(p.read_text(encoding="utf-8")).items()
    }
    assert long == {}, f"split these along their seams: {long}"


def test_the_check_sees_a_long_method_and_passes_a_short_one() -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(FUNCTION_LINES))
    source = f"class C:\n    def long(self) -> None:\n{body}\n\n    def short(self) -> None:\n        pass\n"
    assert _long_functions(source) == {"long:2": FUNCTION_LINES + 1}
