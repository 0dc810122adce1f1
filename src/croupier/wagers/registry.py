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

from croupier.errors import UnknownWagerError, suggest
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


INDEX: dict[str, tuple[str, ...]] = {
    "baccarat": ("banker", "player", "tie"),
    "five_treasures": ("blazing-7s", "cover-all", "fortune-7", "golden-8", "heavenly-9"),
    "perfect_pairs": ("perfect-pairs",),
    "jackpot_party": ("jackpot-party",),
    "match_the_dealer": ("match-the-dealer",),
    "axman": ("axman", "axman-h17"),
    "four_card_poker": (
        "aces-up",
        "bad-beat-bonus",
        "five-card-hand-bonus",
        "five-card-hand-bonus-dealer",
        "five-card-progressive",
        "four-card-poker",
        "four-card-progressive",
        "six-card-bonus",
    ),
    "ultimate_pairs": ("ultimate-pairs",),
}
"""croupier's own wager modules (of this package) → the ids each registers, so that
:func:`get_wager` imports only the module of the wager asked for (start-up time: settling a
Baccarat coup need not import the poker evaluators). A module not listed here (a wager added as
just a module) is found all the same: an id not in the index imports every unlisted module.
``tests/test_startup.py`` checks the index against what the modules register."""

_HOME = {wager_id: module for module, ids in INDEX.items() for wager_id in ids}
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
    return tuple(sorted(_REGISTRY.values(), key=lambda w: (w.section, w.id)))


def get_wager(wager_id: str) -> Wager:
    """The wager registered as ``wager_id``; :class:`UnknownWagerError` lists the known ids."""
    key = wager_id.strip().lower()
    if key not in _REGISTRY and not _discovered:
        home = _HOME.get(key)
        if home is not None:
            _load(home)
        else:  # not one of croupier's own: perhaps a module the index does not list
            for module in _modules():
                if module not in INDEX:
                    _load(module)
    try:
        return _REGISTRY[key]
    except KeyError:
        ids = sorted(set(_REGISTRY) | set(_HOME))
        raise UnknownWagerError(
            f"no wager {wager_id!r}{suggest(key, ids)} (known wagers: {', '.join(ids)})"
        ) from None
