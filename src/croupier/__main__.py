"""The ``croupier`` console script (and ``python -m croupier``).

``croupier --version`` is answered here, before the command line (Typer, Rich and every command's
modules) is imported; anything else runs :func:`croupier.cli.main`.
"""

from __future__ import annotations

import sys

from croupier import __version__


def main() -> None:
    """Entry point: print the version at once, else run the full command line."""
    if sys.argv[1:] == ["--version"]:
        print(f"croupier {__version__}")
        raise SystemExit(0)
    from croupier.cli import main as cli_main

    cli_main()


if __name__ == "__main__":  # pragma: no cover
    main()
