"""Run the ``croupier`` console script in-process, as a user's shell would (through ``main``,
which prints every croupier error as one line), and capture what it prints."""

from __future__ import annotations

import contextlib
import functools
import io
import sys
from dataclasses import dataclass

from croupier.cli import main


@dataclass(frozen=True)
class Run:
    """The exit status and the text printed on stdout and stderr."""

    code: int
    out: str
    err: str

    def error_lines(self) -> list[str]:
        """The lines of stderr."""
        return self.err.splitlines()


def run_main(args: list[str]) -> Run:
    """``croupier ARGS`` through :func:`croupier.cli.main`; any other exception propagates."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["croupier", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            else:  # pragma: no cover - main always exits
                code = 0
    finally:
        sys.argv = saved
    return Run(code, out.getvalue(), err.getvalue())


@functools.cache
def run_main_once(*args: str) -> Run:
    """:func:`run_main` of a command that only computes and prints (an analysis, a strategy): run
    once a test process, its :class:`Run` (frozen text) shared by every test that reads that
    output — ``croupier strategy four-card-poker --json`` takes about five seconds, and four tests
    read it."""
    return run_main(list(args))


def assert_one_error_line(run: Run) -> str:
    """Exit status 2, nothing on stdout, exactly one ``error:`` line on stderr; that line."""
    assert run.code == 2, (run.code, run.out, run.err)
    lines = run.error_lines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.err
    assert run.out == "", run.out
    return lines[0]
