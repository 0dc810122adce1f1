"""A cheaper ``__init__`` for the frozen dataclasses a table round makes at every step.

A frozen dataclass's generated ``__init__`` stores each field with its own
``object.__setattr__(self, name, value)`` call — the price of refusing later assignment. A round
makes its values (events, settlement lines, settlements, bets) by the dozen, and a 17-field
settlement line then costs as much as a dozen function calls. :func:`stored_at_once` gives such a
class an ``__init__`` with the very same parameters and defaults that stores every field in the
instance's dictionary in one update — where the generated one puts them — so the instance is the
same value: equal, the same ``repr``, hash and pickle, still frozen (assignment and deletion still
raise :class:`dataclasses.FrozenInstanceError`).

Only a plain frozen dataclass qualifies — no ``__post_init__``, no ``InitVar``, every field an
``__init__`` parameter, no keyword-only fields and no ``__slots__`` — else :class:`TypeError` at
import: whatever more its ``__init__`` should do is not forgotten.

>>> from dataclasses import FrozenInstanceError, dataclass, field
>>> @stored_at_once
... @dataclass(frozen=True)
... class Line:
...     seat: int
...     notes: list[str] = field(default_factory=list)
...     pays: str = "loses"
>>> line = Line(3)
>>> line, line == Line(3, [], "loses"), Line(3).notes is line.notes
(Line(seat=3, notes=[], pays='loses'), True, False)
>>> line.seat = 4
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'seat'
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class _Factory:
    """The default of a field made by its ``default_factory`` (shown as the generated
    ``__init__`` shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def stored_at_once(cls: type[T]) -> type[T]:
    """Give the frozen dataclass ``cls`` an ``__init__`` storing all its fields in one update of
    the instance dictionary (see the module). The generated ``__init__`` stays reachable as the new
    one's ``__wrapped__`` (what :func:`inspect.signature` reads).

    Raises :class:`TypeError` for a class this cannot serve: not a frozen dataclass, or one with
    ``__post_init__``, ``InitVar`` or keyword-only fields, fields left out of ``__init__``, or
    ``__slots__``."""
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}'s __init__ does more than store its fields")
    generated = cls.__init__
    own = fields(cls)
    names = [f.name for f in own]
    params = list(inspect.signature(generated).parameters.values())[1:]
    if [p.name for p in params] != names or any(
        not f.init or f.kw_only or p.kind is not p.POSITIONAL_OR_KEYWORD
        for f, p in zip(own, params, strict=True)
    ):
        raise TypeError(f"{cls.__name__}'s __init__ takes other than its fields, in order")
    scope: dict[str, Any] = {"_FACTORY": _FACTORY}
    signature: list[str] = []
    made: list[str] = []
    for f in own:
        if f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            signature.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            signature.append(f"{f.name}=_FACTORY")
            made.append(f"    if {f.name} is _FACTORY:\n        {f.name} = _factory_{f.name}()\n")
        else:
            signature.append(f.name)
    stored = ", ".join(f"{n}={n}" for n in names)
    source = (
        f"def __init__(self, {', '.join(signature)}):\n"
        + "".join(made)
        + f"    self.__dict__.update({stored})\n"
    )
    exec(source, scope)  # the code is made from the field names alone
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = dict(generated.__annotations__)
    init.__wrapped__ = generated
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


__all__ = ["stored_at_once"]
