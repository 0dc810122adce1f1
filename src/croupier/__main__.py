"""The ``croupier`` console script (and ``python -m croupier``).

``croupier --version`` is answered here, before the command line (Typer, Rich and every command's
modules) is imported; anything else runs :func:`croupier.cli.main`.
"""

from __future__ import annotations

import os
import sys

from croupier import __version__


def main() -> None:
    """Entry point: print the version at once, else run the full command line.

    A reader that closes the pipe early (``croupier … --json | head``) ends the command quietly,
    as ``cat`` does: no traceback, exit status 1 (the Python documentation's recipe for SIGPIPE).
    """
    try:
        if sys.argv[1:] == ["--version"]:
            print(f"croupier {__version__}")
            sys.stdout.flush()
            raise SystemExit(0)
        from croupier.cli import main as cli_main

        try:
            cli_main()
        finally:
            sys.stdout.flush()  # a broken pipe shows here, inside the handler, not at exit
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's final flush must not fail again
        raise SystemExit(1) from None


if __name__ == "__main__":  # pragma: no cover
    main()
