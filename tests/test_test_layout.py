"""The tests' own layout (README, "The tests are named for what they test"): every test module
lives in a folder of tests/ that mirrors a package (or module) of src/croupier, or in tests/
itself when it is one of the cross-cutting tests named here; none is named by a work-item code
(``test_h_…``, ``test_f1_…``, ``…_s1_…``); their basenames are unique (pytest and mypy import
them by basename: tests/ has no ``__init__.py``); the support modules the tests share sit in
tests/ itself, where every folder imports them from; and no test module imports another test
module outside its own folder.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import croupier

TESTS = Path(__file__).resolve().parent
SRC = Path(croupier.__file__).resolve().parent

CROSS_CUTTING = frozenset(
    {
        "test_adding_a_wager.py",  # a wager is two files: the wagers and paytables together
        "test_bad_input.py",  # bad input at every boundary: library, CLI, files
        "test_boundary_shapes.py",  # shapes a new user reached for, across the boundaries
        "test_citations_pa_first.py",  # error texts of every layer
        "test_error_hierarchy.py",  # the parents of every layer's errors
        "test_error_text.py",  # every error of the hierarchy
        "test_fuzz.py",  # every input surface
        "test_house_size.py",  # every module and function of src/
        "test_layers.py",  # the layers of the house
        "test_money_limit.py",  # one money maximum from the columns to the CLI and HTTP
        "test_readme_python.py",  # the README
        "test_readme_walkthrough.py",  # the README
        "test_startup.py",  # start-up: the registries against the modules
        "test_test_layout.py",  # this file
    }
)
"""The test modules that belong to no one package, and so live in tests/ itself."""

WORK_ITEM = re.compile(r"^test_[a-z]\d?_|_[a-z]\d_")
"""A name made of a work-item code: ``test_h_``, ``test_f1_``, ``test_k2_`` or ``_s1_`` within."""


def all_test_modules() -> list[Path]:
    """Every test module under tests/."""
    return sorted(TESTS.rglob("test_*.py"))


def mirrors_src(folder: Path) -> bool:
    """Whether ``folder`` (under tests/) is named for a package or module of src/croupier."""
    parts = folder.relative_to(TESTS).parts
    where = SRC.joinpath(*parts)
    return (where / "__init__.py").is_file() or where.with_suffix(".py").is_file()


def test_the_layout_finds_the_tests() -> None:
    assert len(all_test_modules()) > 100
    assert (TESTS / "service" / "web").is_dir()


def test_every_test_module_lives_in_a_folder_named_for_what_it_tests() -> None:
    misplaced = [
        str(p.relative_to(TESTS))
        for p in all_test_modules()
        if (p.parent == TESTS and p.name not in CROSS_CUTTING)
        or (p.parent != TESTS and not mirrors_src(p.parent))
    ]
    assert not misplaced, (
        f"{misplaced}: put a test in tests/<package>/ for the src/croupier package it tests, "
        "or list it in CROSS_CUTTING when it tests no one package"
    )


def test_the_cross_cutting_list_names_only_files_that_exist() -> None:
    assert {n for n in CROSS_CUTTING if not (TESTS / n).is_file()} == set()


def test_no_test_module_is_named_by_a_work_item_code() -> None:
    coded = [str(p.relative_to(TESTS)) for p in all_test_modules() if WORK_ITEM.search(p.stem)]
    assert not coded, f"{coded}: name a test for what it tests, not for the work item"


def test_the_pattern_catches_work_item_codes_and_only_those() -> None:
    for coded in ("test_h_names", "test_f1_tables", "test_k2_fused", "test_service_s1_path"):
        assert WORK_ITEM.search(coded), coded
    for named in ("test_adding_a_wager", "test_paytable_data_633b2", "test_table_agreement"):
        assert not WORK_ITEM.search(named), named


def test_test_module_basenames_are_unique_and_no_folder_is_a_package() -> None:
    twice = [n for n, k in Counter(p.name for p in all_test_modules()).items() if k > 1]
    assert not twice, f"{twice}: pytest and mypy import test modules by basename"
    assert sorted(TESTS.rglob("__init__.py")) == []


def test_the_shared_support_modules_live_in_tests_itself() -> None:
    nested = [
        str(p.relative_to(TESTS))
        for p in TESTS.rglob("*.py")
        if p.parent != TESTS and not p.name.startswith("test_")
    ]
    assert not nested, f"{nested}: a module the tests share goes in tests/ (on pytest's pythonpath)"


def imported_test_modules(path: Path) -> set[str]:
    """The test modules (``test_…``) that the module at ``path`` imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return {n for n in names if n.split(".")[0].startswith("test_")}


def test_no_test_module_imports_a_test_module_of_another_folder() -> None:
    crossing = [
        f"{p.relative_to(TESTS)} imports {name}"
        for p in [*all_test_modules(), *TESTS.glob("*.py")]
        for name in sorted(imported_test_modules(p))
        if not (p.parent / f"{name}.py").is_file()
    ]
    assert not crossing, f"{crossing}: move what is shared into a support module in tests/"


MENTION = re.compile(r"tests/[\w/]*\.(?:py|txt)\b")
"""A path under tests/ named in prose: ``tests/service/test_service.py``."""


def test_every_test_file_the_readme_docs_and_ci_name_exists() -> None:
    root = TESTS.parent
    texts = [root / "README.md", root / ".ci" / "run", *sorted((root / "docs").rglob("*.md"))]
    texts += [*TESTS.rglob("*.py"), *sorted((root / "benchmarks").glob("*.py"))]
    stale = sorted(
        f"{text.relative_to(root)}: {name}"
        for text in texts
        for name in set(MENTION.findall(text.read_text(encoding="utf-8")))
        if not (root / name).is_file()
    )
    assert not stale, f"{stale}: a test named where it no longer is"
