"""The one registry of wagers: the CLI, par sheets, simulator and service find wagers here.

Wager modules register an instance with :func:`register`; :func:`all_wagers` imports every module
of the ``croupier.wagers`` package first, and :func:`get_wager` finds the module of one wager by
the index read from the modules' source (:func:`wager_index`), so adding a wager is adding a
module (and its paytable data file) — nothing else changes.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TypeVar

from croupier.errors import UnknownWagerError, suggest
from croupier.wagers.base import Wager
from croupier.wagers.spec import WagerSpec

_REGISTRY: dict[str, Wager] = {}
_NOT_WAGER_MODULES = {"base", "registry", "at_table", "spec"}
W = TypeVar("W", bound=type[Wager])


def register(cls: W) -> W:
    """Class decorator: register an instance of the wager class under its spec's ``id``.

    Raises :class:`TypeError` for a class without a spec."""
    if not isinstance(getattr(cls, "spec", None), WagerSpec):
        raise TypeError(f"{cls.__qualname__} has no spec = WagerSpec(...): nothing to register")
    old = _REGISTRY.get(cls.spec.id)
    if old is not None and _origin(type(old)) != _origin(cls):
        raise ValueError(
            f"two wagers claim the id {cls.spec.id!r}: {_origin(type(old))}, {_origin(cls)}"
        )
    _REGISTRY[cls.spec.id] = cls()
    return cls


def _origin(cls: type[Wager]) -> tuple[str, str]:
    # the same module imported under two names (doctest collection) is still one wager
    return inspect.getfile(cls), cls.__qualname__


_SPEC_ID = re.compile(r"""id\s*=\s*["']([^"'\n]+)["']""")
"""A wager spec's id in a module's source: the keyword ``id="perfect-pairs"`` of its
:class:`~croupier.wagers.spec.WagerSpec` (the one place the id is written). The pattern starts
with its literal, which ``re`` finds fast; :func:`_spec_ids` drops ``xid=`` and ``a.id =``."""


def _spec_ids(text: str) -> Iterator[str]:
    """The ids ``text`` writes as ``id="…"`` (a keyword or name of its own)."""
    for m in _SPEC_ID.finditer(text):
        before = text[m.start() - 1] if m.start() else " "
        if not (before.isalnum() or before in "_."):
            yield m[1]


@cache
def wager_index() -> dict[str, tuple[str, ...]]:
    """croupier's wager modules (of this package) → the ids each registers, read from their
    source (the ``id="…"`` of each spec; no module is imported), so that :func:`get_wager`
    imports only the module of the wager asked for (start-up time: settling a Baccarat coup need
    not import the poker evaluators). Derived, not kept by hand: a wager added as a module is in
    it. A module whose ids are not written as text is found all the same: an id not in the index
    imports every module the index does not list. ``tests/test_startup.py`` checks the index
    against what the modules register."""
    here = Path(__file__).parent
    index: dict[str, tuple[str, ...]] = {}
    for module in _modules():
        package = here / module
        files = sorted(package.rglob("*.py")) if package.is_dir() else [here / f"{module}.py"]
        ids = (i for f in files for i in _spec_ids(f.read_text(encoding="utf-8")))
        found = tuple(dict.fromkeys(ids))
        if found:
            index[module] = found
    return index


@cache
def _home() -> dict[str, str]:
    """Wager id → the module that registers it (:func:`wager_index` turned around)."""
    return {wager_id: module for module, ids in wager_index().items() for wager_id in ids}


_imported: set[str] = set()
_discovered = False


def _modules() -> tuple[str, ...]:
    """The names of the wager modules of this package (those that register wagers on import)."""
    return tuple(
        info.name
        for info in pkgutil.iter_modules([str(Path(__file__).parent)])
        if info.name not in _NOT_WAGER_MODULES and not info.name.startswith("_")
    )


def _load(module: str) -> None:
    if module not in _imported:
        importlib.import_module(f"croupier.wagers.{module}")
        _imported.add(module)


def _discover() -> None:
    """Import every wager module once per process (they register themselves on import)."""
    global _discovered
    if _discovered:
        return
    for module in _modules():
        _load(module)
    _discovered = True


def all_wagers() -> tuple[Wager, ...]:
    """Every registered wager, ordered by section then id."""
    _discover()
    return tuple(sorted(_REGISTRY.values(), key=lambda w: (w.spec.section, w.spec.id)))


def get_wager(wager_id: str) -> Wager:
    """The wager registered as ``wager_id``; :class:`UnknownWagerError` lists the known ids."""
    key = wager_id.strip().lower()
    if key not in _REGISTRY and not _discovered:
        home = _home().get(key)
        if home is not None:
            _load(home)
        else:  # perhaps a module whose ids the index could not read
            for module in _modules():
                if module not in wager_index():
                    _load(module)
    try:
        return _REGISTRY[key]
    except KeyError:
        ids = sorted(set(_REGISTRY) | set(_home()))
        raise UnknownWagerError(
            f"no wager {wager_id!r}{suggest(key, ids)} (known wagers: {', '.join(ids)})"
        ) from None
