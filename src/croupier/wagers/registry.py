"""The one registry of wagers: the CLI, par sheets, simulator and service find wagers here.

Wager modules register an instance with :func:`register`; :func:`all_wagers` imports every module
of the ``croupier.wagers`` package first, so adding a wager is adding a module (and its paytable
data file) — nothing else changes.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import TypeVar

from croupier.errors import UnknownWagerError
from croupier.wagers.base import Wager

_REGISTRY: dict[str, Wager] = {}
_NOT_WAGER_MODULES = {"base", "registry", "at_table"}
W = TypeVar("W", bound=type[Wager])


def register(cls: W) -> W:
    """Class decorator: register an instance of the wager class under its ``id``."""
    old = _REGISTRY.get(cls.id)
    if old is not None and _origin(type(old)) != _origin(cls):
        raise ValueError(
            f"two wagers claim the id {cls.id!r}: {_origin(type(old))}, {_origin(cls)}"
        )
    _REGISTRY[cls.id] = cls()
    return cls


def _origin(cls: type[Wager]) -> tuple[str, str]:
    # the same module imported under two names (doctest collection) is still one wager
    return inspect.getfile(cls), cls.__qualname__


_discovered = False


def _discover() -> None:
    """Import every wager module once per process (they register themselves on import)."""
    global _discovered
    if _discovered:
        return
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name not in _NOT_WAGER_MODULES and not info.name.startswith("_"):
            importlib.import_module(f"croupier.wagers.{info.name}")
    _discovered = True


def all_wagers() -> tuple[Wager, ...]:
    """Every registered wager, ordered by section then id."""
    _discover()
    return tuple(sorted(_REGISTRY.values(), key=lambda w: (w.section, w.id)))


def get_wager(wager_id: str) -> Wager:
    """The wager registered as ``wager_id``; :class:`UnknownWagerError` lists the known ids."""
    _discover()
    try:
        return _REGISTRY[wager_id.strip().lower()]
    except KeyError:
        import difflib

        known = ", ".join(sorted(_REGISTRY))
        near = difflib.get_close_matches(wager_id.strip().lower(), list(_REGISTRY), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise UnknownWagerError(f"no wager {wager_id!r}{hint} (known wagers: {known})") from None
