"""numpy imported when first used, not when a module that may use it is imported.

Importing numpy costs about 0.15 s of CPU; ``croupier parsheet`` from the shipped counts and most
commands never touch an array, yet every wager module is imported to list the wagers (issue 33).
A module whose arrays are needed only by some of its functions writes::

    if TYPE_CHECKING:
        import numpy as np
    else:
        from croupier.lazy import numpy as np

so the type checker sees numpy itself and, at run time, ``np.zeros`` imports numpy on its first
call (then reads the attribute straight from this stand-in). Module-level arrays are built on
first use too (a module's ``__getattr__``, PEP 562, or a cached function).
"""

from __future__ import annotations

import importlib
import types
from typing import Any


class _OnFirstUse(types.ModuleType):
    """A stand-in for the module of the same name, imported on the first attribute read; each
    attribute read is then kept on the stand-in, so later reads cost what a module's do."""

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        value = getattr(importlib.import_module(self.__name__), attribute)
        setattr(self, attribute, value)
        return value


numpy = _OnFirstUse("numpy")
"""numpy, imported on first use."""

__all__ = ["numpy"]
