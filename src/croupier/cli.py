"""The ``croupier`` command line (Typer + Rich).

The commands live in :mod:`croupier.commands` (``wagers``, ``paytables``, ``analyze``,
``simulate``, ``parsheet`` and ``hand`` in :mod:`croupier.commands.analysis`), which share the
``app`` of :mod:`croupier.commands.common`; this module runs the app. A command's module is
imported only when the command runs (:class:`~croupier.commands.common.LazyGroup`: start-up
time), so ``croupier --help`` imports none. Every error croupier raises
(:class:`~croupier.errors.CroupierError`) ends the command with one line on stderr and exit
status 2; no traceback.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from croupier.commands.common import (
    app,
    err,
    error_line,
    load_command,
    tidy_help,
    where,
    with_suggestion,
)
from croupier.errors import CroupierError, InputError, citation, error_section, one_line


def load_all_commands() -> Any:
    """The whole command tree with every command module imported (what ``--help`` of each
    command shows; the tests compare it with the lazily loaded one)."""
    from croupier.commands import COMMANDS

    for name in COMMANDS:
        load_command(name)
    command = typer.main.get_command(app)
    tidy_help(command)
    return command


def _registered(typer_app: typer.Typer) -> int:
    """How many commands and groups ``typer_app`` and its groups have declared."""
    groups = [g.typer_instance for g in typer_app.registered_groups]
    return len(typer_app.registered_commands) + sum(
        1 + _registered(g) for g in groups if g is not None
    )


_root: tuple[int, Any] | None = None
"""The click command tree last built from ``app``, and :func:`_registered` when it was built."""


def _root_command() -> Any:
    """The click command tree of ``app``, its help tidied; built again only when a command
    module has declared more commands since. A process running one command builds it once
    anyway; in-process use (the tests, a notebook) runs many, and with every command module
    loaded each build took ~45 ms — all the time of a quick command."""
    global _root
    declared = _registered(app)
    if _root is None or _root[0] != declared:
        command = typer.main.get_command(app)
        tidy_help(command)
        _root = (declared, command)
    return _root[1]


def _json_requested(args: list[str]) -> bool:
    """Whether the command line asks for ``--json`` (before a ``--`` that ends the options)."""
    for a in args:
        if a == "--":
            return False
        if a == "--json":
            return True
    return False


def _flags(command: Any, args: list[str]) -> set[str]:
    """Every option name that takes no value (``--json``, ``-n``) of ``command`` and of the
    subcommands ``args`` name (only their modules are imported: start-up time)."""
    import click

    found: set[str] = set()
    for a in ["", *args]:
        if a and not a.startswith("-") and hasattr(command, "resolve_command"):
            try:
                _, sub, _ = command.resolve_command(click.Context(command), [a])
            except click.ClickException:
                continue
            command = sub if sub is not None else command
        for p in command.params:
            if getattr(p, "is_flag", False) or getattr(p, "count", False):
                found.update((*p.opts, *p.secondary_opts))
    return found


def _not_text(arg: str) -> int | None:
    """The position (from 1) of the first character of ``arg`` that is no Unicode text — a
    byte of the command line that was not UTF-8 (Python holds it as a surrogate, ``\\udced``
    for 0xED) or a lone surrogate — else ``None``."""
    if arg.isascii():
        return None
    return next((i + 1 for i, ch in enumerate(arg) if 0xD800 <= ord(ch) <= 0xDFFF), None)


def check_arguments_text(args: list[str]) -> None:
    """Refuse a command line whose text is not UTF-8, at the boundary, naming the option
    (``--reason``, ``--name``, ``--as``, ``--approval``, …) or the argument: every free-text
    value croupier reads from a command line — a reason, a name, an approval — is Unicode text,
    and a byte that is not UTF-8 would otherwise reach the ledger as a lone surrogate, refused
    there naming a field of an event the user never typed. An argument that names an existing
    file is left to the file system (a file's name is bytes). The message says where the bad
    byte is, not the value. :class:`~croupier.errors.InputError`."""
    for i, arg in enumerate(args):
        at = _not_text(arg)
        if at is None or os.path.lexists(arg):
            continue
        name, _, value = arg.partition("=")
        if arg.startswith("--") and value and _not_text(name) is None:
            what, at = name, at - len(name) - 1
        elif (
            i > 0
            and args[i - 1].startswith("-")
            and args[i - 1] not in _flags(_root_command(), args[:i])
        ):
            what = args[i - 1]
        else:
            what = f"argument {i + 1} of the command line"
        ch = ord((value if what == name else arg)[at - 1])
        bad = f"the byte 0x{ch - 0xDC00:02X}" if 0xDC80 <= ch <= 0xDCFF else f"U+{ch:04X}"
        raise InputError(
            f"{one_line(what)}: not valid UTF-8 text ({bad} at character {at}): every text "
            "croupier reads is Unicode text; give it in UTF-8"
        )


def _fail(message: str, kind: str, section: str | None, json_out: bool) -> None:
    """Report one error: its ``error:`` line on stderr and, under ``--json``, one JSON object
    ``{"error": {"type", "message", "section", "citation"}}`` on stdout
    (docs/schemas/error.schema.json)."""
    line = one_line(message)
    if json_out:
        import json

        cited = citation(section) if section else None
        doc = {"error": {"type": kind, "message": line, "section": section, "citation": cited}}
        print(json.dumps(doc, ensure_ascii=False))
    error_line(line)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``croupier`` console script: one line per error, exit status 2.

    Usage errors (a missing option, a value of the wrong type) are one line too. Under
    ``--json`` an error is also one JSON object on stdout, naming the error's type, its
    one-line message and the section of the rule it enforces (or ``null``).
    """
    args = sys.argv[1:] if argv is None else argv
    json_out = _json_requested(args)
    command = _root_command()
    try:
        check_arguments_text(args)
        code = command.main(args=args, prog_name="croupier", standalone_mode=False)
    except typer.Abort:
        err.print("aborted", style="red")
        raise SystemExit(1) from None
    except typer.TyperException as exc:  # Typer's usage errors: bad or missing options
        if type(exc).__name__ == "NoArgsIsHelpError":  # help was printed for a bare `croupier`
            raise SystemExit(0) from None
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        _fail(message, "UsageError", None, json_out)
        raise SystemExit(getattr(exc, "exit_code", 2)) from None
    except CroupierError as exc:
        _fail(
            with_suggestion(f"{where(exc)}{exc}"), type(exc).__name__, error_section(exc), json_out
        )
        raise SystemExit(2) from None
    raise SystemExit(code if isinstance(code, int) else 0)


__all__ = ["app", "check_arguments_text", "error_section", "load_all_commands", "main"]


if __name__ == "__main__":  # pragma: no cover
    main()
