"""Settings read from the environment: one rule for every whole-number ``$CROUPIER_…`` variable
the service, its server and the login throttle read."""

from __future__ import annotations

import os

from croupier.errors import InputError


def env_int(name: str, default: int, low: int, high: int, unit: str = "") -> int:
    """``$name`` as a whole number (ASCII digits) from ``low`` to ``high``; ``default`` when unset
    or blank. :class:`~croupier.errors.InputError` otherwise, in one line naming the variable,
    the range and its ``unit`` ("seconds", "bytes"; none for a count).

    >>> env_int("CROUPIER_NO_SUCH_SETTING", 7, 1, 10)
    7
    """
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        of = f" of {unit}" if unit else ""
        raise InputError(
            f"${name} is a whole number{of} from {low:,} to {high:,}, not {text[:40]!r}"
        )
    return int(text)


__all__ = ["env_int"]
