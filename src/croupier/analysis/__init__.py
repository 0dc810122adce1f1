"""Exact par sheets and the simulator that cross-checks them.

>>> from croupier.analysis import exact_parsheet
>>> from croupier.wagers import get_wager
>>> f"{float(exact_parsheet(get_wager('perfect-pairs'), 'B', decks=8).house_edge):.4%}"
'3.3735%'
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.analysis.exact import OutcomeCounts, exact_counts, total_deals
    from croupier.analysis.parsheet import OutcomeRow, ParSheet, exact_parsheet, resolve
    from croupier.analysis.simulate import simulate

_HOME = {
    "OutcomeCounts": "exact",
    "exact_counts": "exact",
    "total_deals": "exact",
    "OutcomeRow": "parsheet",
    "ParSheet": "parsheet",
    "exact_parsheet": "parsheet",
    "resolve": "parsheet",
    "simulate": "simulate",
}
"""Each re-exported name → its module, imported on first use (start-up time: a command that
needs one analysis module does not import them all)."""


def __getattr__(name: str) -> Any:
    """The re-exported ``name``, its module imported now."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"croupier.analysis.{home}"), name)
    globals()[name] = value
    return value


class _Package(ModuleType):
    """This package, whose re-exported ``simulate`` (the function) outlives the import of its
    module ``croupier.analysis.simulate``: importing a submodule sets the package's attribute of
    that name to the module, which would shadow the function of the same name."""

    def __setattr__(self, name: str, value: Any) -> None:
        if (
            isinstance(value, ModuleType)
            and value.__name__ == f"{__name__}.{name}"
            and _HOME.get(name) == name
        ):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = [
    "OutcomeCounts",
    "OutcomeRow",
    "ParSheet",
    "exact_counts",
    "exact_parsheet",
    "resolve",
    "simulate",
    "total_deals",
]
