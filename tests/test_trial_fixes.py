"""Rough edges a fresh user's trial of the README found (stop 13), each fixed as a class."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from croupier.errors import UnknownWagerError
from croupier.wagers import get_wager


def _closed_early(args: list[str]) -> tuple[int, bytes]:
    """Run ``croupier ARGS`` with its stdout closed before it writes (a ``| head`` reader gone)."""
    env = {**os.environ, "COLUMNS": "100"}
    p = subprocess.Popen(
        [sys.executable, "-m", "croupier", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read()
    return p.wait(timeout=60), err


@pytest.mark.parametrize(
    "args",
    [
        ["paytables", "--json"],  # normal output
        ["paytables", "633b.9", "--json"],  # the --json error object
    ],
)
def test_a_closed_pipe_is_no_traceback(args: list[str]) -> None:
    code, err = _closed_early(args)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err
    assert code in (1, 2)


def test_a_misspelt_wager_id_gets_did_you_mean() -> None:
    with pytest.raises(UnknownWagerError, match="did you mean 'perfect-pairs'"):
        get_wager("perfect-pair")
