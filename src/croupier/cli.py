"""The ``croupier`` command line (Typer + Rich).

The commands live in :mod:`croupier.commands` (``wagers``, ``paytables``, ``analyze``,
``simulate``, ``parsheet`` and ``hand`` in :mod:`croupier.commands.analysis`), which share the
``app`` of :mod:`croupier.commands.common`; this module loads them and runs the app. Every
error croupier raises (:class:`~croupier.errors.CroupierError`) ends the command with one line on
stderr and exit status 2; no traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import typer

from croupier.commands.common import app, err, error_line, where
from croupier.errors import CroupierError


def _load_command_modules() -> None:
    """Import every module of :mod:`croupier.commands` (the analysis commands first), which add
    their commands to ``app``; they import :mod:`croupier.commands.common`, never this module."""
    folder = Path(__file__).parent / "commands"
    names = sorted(i.name for i in pkgutil.iter_modules([str(folder)]) if i.name != "common")
    for name in sorted(names, key=lambda n: n != "analysis"):
        importlib.import_module(f"croupier.commands.{name}")


_load_command_modules()


def main() -> None:
    """Entry point of the ``croupier`` console script: one line per error, exit status 2.

    Usage errors (a missing option, a value of the wrong type) are one line too.
    """
    command = typer.main.get_command(app)
    try:
        code = command.main(prog_name="croupier", standalone_mode=False)
    except typer.Abort:
        err.print("aborted", style="red")
        raise SystemExit(1) from None
    except typer.TyperException as exc:  # Typer's usage errors: bad or missing options
        if type(exc).__name__ == "NoArgsIsHelpError":  # help was printed for a bare `croupier`
            raise SystemExit(0) from None
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        error_line(message)
        raise SystemExit(getattr(exc, "exit_code", 2)) from None
    except CroupierError as exc:
        error_line(f"{where(exc)}{exc}")
        raise SystemExit(2) from None
    raise SystemExit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]


if __name__ == "__main__":  # pragma: no cover
    main()
