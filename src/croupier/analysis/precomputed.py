"""Exact outcome counts shipped with croupier: every built-in wager over every standard shoe its
paytables allow, so that ``croupier parsheet`` reads them instead of recounting (the Four Card
Poker side wagers alone walk all C(52, 6) six-card hands; AxMan and Jackpot Party every round).

The counts are those :func:`croupier.analysis.exact.compute_counts` finds, stored in
``analysis/data/exact-counts.json``. Each carries a *fingerprint* of what it was computed from:
the source of the wager's module and of every croupier module it imports, directly or not (and
:mod:`croupier.analysis.exact`), with the data it reads: the paytable files of its own section and
the data tables its code names (the Four Card Poker dealer table) — not another wager's code or
paytables. A stored count is used only while its fingerprint matches the installed code; after
any change to that code it is recounted as before (slower, never stale) until the file is
regenerated; a test (tests/analysis/test_precomputed.py) fails while any stored count is stale:

    python -m croupier.analysis.regenerate          # regenerate (about half a minute, progress shown)
    python -m croupier.analysis.regenerate --check  # recount everything and compare, change nothing

tests/analysis/test_precomputed.py checks the same (marked ``slow``). Shoes other than the standard ones,
and wagers not built in, are always counted; so is everything with ``CROUPIER_RECOUNT=1`` in the
environment, or inside :func:`recounting`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from croupier.cards import Shoe
from croupier.wagers import all_wagers
from croupier.wagers.base import Wager

DATA = "exact-counts.json"
RECOUNT_VARIABLE = "CROUPIER_RECOUNT"
"""Set (non-empty) in the environment, every count is made afresh: ``CROUPIER_RECOUNT=1 croupier
parsheet`` counts everything as before the counts were shipped."""
FORMAT = 1
_ROOT = "croupier"
_ALSO = ("croupier.analysis.exact",)
"""Modules every count depends on besides the wager's own (the generic enumeration)."""
_NOT = frozenset({__name__, "croupier.analysis.regenerate", "croupier.errors", "croupier.names"})
"""Not part of any fingerprint: this module reads the counts, it does not make them;
``croupier.errors``, the exception classes and the text of their messages, which a count may
raise but never reads — a new error type or a reworded message (every branch of the service's
work makes one) left every count as it was and still made every stored count stale; and
``croupier.names``, the rules for the names of tables, rounds and staff and the names of
characters a message shows (a card refused names its odd characters), which no count reads."""


@dataclass(frozen=True)
class StoredCount:
    """One wager class's counts over the standard shoe of ``decks`` decks, and the wager's own
    statement of how they were counted (:meth:`~croupier.wagers.base.Wager.counting_convention`;
    ``None`` for the generic convention), which some wagers can only give by counting again."""

    wager: str
    wager_class: str
    decks: int
    fingerprint: str
    counts: tuple[int, ...]
    convention: str | None


def class_name(wager_type: type[Wager]) -> str:
    """``module.QualifiedName`` of a wager class: the key of its stored counts."""
    return f"{wager_type.__module__}.{wager_type.__qualname__}"


def class_default(wager: Wager) -> bool:
    """Whether ``wager`` is set up as its class's default, its paytables (``book_override``)
    aside: a wager whose counts are its class's stored ones."""
    default = type(wager)()
    return all(
        getattr(wager, f.name) == getattr(default, f.name)
        for f in fields(wager)
        if f.name != "book_override"
    )


# -- fingerprints ----------------------------------------------------------------------------------


_PACKAGE = Path(__file__).resolve().parent.parent
"""The croupier package folder."""

_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)


@cache
def _module_file(name: str) -> Path | None:
    """The source file of croupier module ``name`` (``None`` for a name that is no module)."""
    parts = name.split(".")
    if parts[0] != _ROOT or len(parts) < 2:
        return None
    path = _PACKAGE.joinpath(*parts[1:])
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def _read(path: Path) -> bytes:
    """The bytes of ``path``, read once a process: every wager's fingerprint reads most of the
    same modules (22 wager classes read them ~700 times in ``croupier parsheet``)."""
    return path.read_bytes()


def _text(path: Path) -> str:
    """The text of source file ``path`` (UTF-8), read once a process."""
    return _read(path).decode("utf-8")


@cache
def _imports(name: str) -> frozenset[str]:
    """The croupier modules ``name`` imports anywhere in its source (functions included; a
    superset does no harm: it only widens the fingerprint)."""
    path = _module_file(name)
    if path is None:
        return frozenset()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    text = _text(path)
    targets: list[str] = []
    for base, what in _FROM.findall(text):
        if base.startswith("."):
            base = importlib.util.resolve_name(base, package)
        targets.append(base)
        for item in what.strip("()").split(","):
            word = item.split("#")[0].split()
            if word:
                targets.append(f"{base}.{word[0]}")
    for names in _IMPORT.findall(text):
        targets += [n.split()[0] for n in names.split(",") if n.split()]
    return frozenset(t for t in targets if _module_file(t) is not None)


def closure(*modules: str) -> tuple[str, ...]:
    """``modules`` and every croupier module they import, directly or not, sorted."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name not in seen and name not in _NOT:
            seen.add(name)
            todo.extend(_imports(name) - seen)
    return tuple(sorted(seen))


_PAYTABLES = _PACKAGE / "paytables"


@cache
def _package_data() -> tuple[Path, ...]:
    """The package's files other than Python source, paytables and the stored counts."""
    return tuple(
        sorted(
            p
            for p in _PACKAGE.rglob("*")
            if p.is_file()
            and p.suffix not in (".py", ".pyc", ".pyi", ".typed", ".mako")
            and "__pycache__" not in p.parts
            and _PAYTABLES not in p.parents
            and p.resolve() != _data_path().resolve()
        )
    )


def data_files(wager_type: type[Wager], modules: tuple[str, ...]) -> list[Path]:
    """The data a count of ``wager_type`` reads: the paytable files holding its section's
    paytables (not every section's), and the package data files (tables such as the Four Card
    Poker dealer table) that one of ``modules`` names in its source."""
    wager = wager_type()
    files = set()
    for table in wager.book.for_section(wager.section):
        for candidate in (_PAYTABLES / "data" / table.source, _PAYTABLES / table.source):
            if candidate.is_file():
                files.add(candidate)
    for name in modules:
        files |= _data_named_in(name)
    return sorted(files)


@cache
def _data_named_in(module: str) -> frozenset[Path]:
    """The package data files whose name the source of croupier module ``module`` holds (looked
    for once a process: 22 wager classes share most of their modules)."""
    path = _module_file(module)
    if path is None:
        return frozenset()
    text = _text(path)
    return frozenset(f for f in _package_data() if f.name in text)


@cache
def fingerprint(wager_type: type[Wager]) -> str:
    """SHA-256 over the source of the wager's module and its :func:`closure` (with the generic
    enumeration) and over its :func:`data_files`: a change to another wager's code or paytables
    leaves it as it was."""
    modules = closure(wager_type.__module__, *_ALSO)
    return _digest(modules, data_files(wager_type, modules))


def _digest(modules: tuple[str, ...], data: list[Path]) -> str:
    """SHA-256 over the source of ``modules`` and the bytes of ``data``, each under its name."""
    files: dict[str, Path] = {}
    for name in modules:
        path = _module_file(name)
        if path is not None:
            files[name] = path
    for d in data:
        inside = d.is_relative_to(_PACKAGE)
        files[d.relative_to(_PACKAGE).as_posix() if inside else d.name] = d
    h = hashlib.sha256()
    for key in sorted(files):
        content = _read(files[key])
        h.update(f"{key}\0{len(content)}\0".encode())
        h.update(content)
    return h.hexdigest()


@cache
def modules_fingerprint(*modules: str) -> str:
    """SHA-256 over the source of ``modules`` and their :func:`closure`, and over the package
    data files their source names: the fingerprint of figures other than a wager's counts (the
    whole-game figures of :mod:`croupier.analysis.game_store`)."""
    found = closure(*modules)
    return _digest(found, sorted(set().union(*map(_data_named_in, found))))


# -- the stored counts ---------------------------------------------------------------------------


def data_path(name: str) -> Path:
    """Where the package data file ``name`` (``croupier/analysis/data``) is."""
    return Path(str(resources.files("croupier.analysis") / "data" / name))


def shipped(path: Path, form: int) -> dict[str, Any] | None:
    """The JSON document of the data file ``path`` (:func:`data_path`) if it is there and of
    format ``form``; else ``None``."""
    if not path.exists():
        return None
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc if doc.get("format") == form else None


def _data_path() -> Path:
    return data_path(DATA)


@cache
def stored() -> dict[tuple[str, int], StoredCount]:
    """The shipped counts by (wager class, decks); empty if the file is missing."""
    doc = shipped(_data_path(), FORMAT)
    if doc is None:
        return {}
    out = {}
    for e in doc["counts"]:
        entry = StoredCount(
            e["wager"],
            e["class"],
            e["decks"],
            e["fingerprint"],
            tuple(e["counts"]),
            e["convention"],
        )
        out[(entry.wager_class, entry.decks)] = entry
    return out


_recounting = 0


@contextmanager
def recounting() -> Iterator[None]:
    """Within this block :func:`lookup` finds nothing: every count is made afresh (benchmarks,
    checks). Clear :func:`croupier.analysis.exact._cached_counts` too for counts already made."""
    global _recounting
    _recounting += 1
    try:
        yield
    finally:
        _recounting -= 1


def recounting_now() -> bool:
    """Whether every figure is to be made afresh: inside :func:`recounting`, or with
    ``CROUPIER_RECOUNT`` set (non-empty) in the environment."""
    return bool(_recounting or os.environ.get(RECOUNT_VARIABLE))


def lookup(wager_type: type[Wager], composition: tuple[int, ...]) -> StoredCount | None:
    """The shipped counts of ``wager_type`` over ``composition``, if it is a standard shoe, they
    were stored and the code they came from is unchanged; else ``None``."""
    entries = stored()
    if not entries or recounting_now():
        return None
    decks, rest = divmod(sum(composition), 52)
    if rest or not decks or composition != Shoe.standard(decks).counts:
        return None
    entry = entries.get((class_name(wager_type), decks))
    if entry is None or entry.fingerprint != fingerprint(wager_type):
        return None
    return entry


# -- regenerating and checking ---------------------------------------------------------------------


def offerings() -> list[tuple[Wager, int]]:
    """One wager of each built-in class with each deck count its paytables allow."""
    seen: set[tuple[str, int]] = set()
    out = []
    for w in all_wagers():
        for _, decks in w.offerings():
            key = (class_name(type(w)), decks)
            if key not in seen:
                seen.add(key)
                out.append((w, decks))
    return out
