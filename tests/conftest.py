"""One compilation of each compiled kernel, and of each module, per test run, however many
pytest-xdist workers and child processes.

The kernels (:mod:`croupier.analysis.kernels`) are compiled on first use and cached on disk by
numba (``cache=True``). On a clean checkout (CI) the cache is empty, and two workers reaching
the same kernel at once both compiled it: the Blackjack round kernel alone is ~27 s of CPU, and
a measured run of the normal suite compiled it twice at the same second. Here a worker takes a
file lock per kernel for a top-level compilation, so the second worker waits for the first and
then loads the compiled code from numba's cache instead of compiling it again.

Only the outermost compilation of a thread takes a lock (a kernel's callees compile inside it),
so each process holds at most one lock at a time and no two can wait on each other; a lock not
had within :data:`WAIT` seconds is given up and the kernel compiled as before. Nothing compiled
changes: numba's own cache decides what is loaded, exactly as without the lock.

Python bytecode likewise: see :func:`pytest_configure`.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from numba.core import dispatcher, sigutils
from numba.core.caching import NullCache
from numba.core.compiler_lock import global_compiler_lock

WAIT = 600.0
"""Seconds a worker waits for another's compilation of the same kernel before compiling it."""

LOCKS = Path(tempfile.gettempdir()) / "croupier-numba-compile-locks"

_compile = dispatcher.Dispatcher.compile


def _lock_path(disp: Any) -> Path:
    """The lock of one kernel of one checkout (the source file's path and the function)."""
    func = disp.py_func
    key = f"{func.__code__.co_filename}:{func.__qualname__}"
    return LOCKS / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.lock"


def _compile_once(self: Any, sig: Any) -> Any:
    """:meth:`Dispatcher.compile` under the kernel's file lock, for a disk-cached kernel not yet
    compiled in this process, outside any other compilation."""
    nested = global_compiler_lock.is_locked()  # type: ignore[no-untyped-call]
    if isinstance(self._cache, NullCache) or nested:
        return _compile(self, sig)
    args, _ = sigutils.normalize_signature(sig)  # type: ignore[no-untyped-call]
    if tuple(args) in self.overloads:
        return _compile(self, sig)
    LOCKS.mkdir(parents=True, exist_ok=True)
    with _lock_path(self).open("a") as lock:
        end = time.monotonic() + WAIT
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > end:
                    return _compile(self, sig)
                time.sleep(0.05)
        try:
            return _compile(self, sig)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


dispatcher.Dispatcher.compile = _compile_once  # type: ignore[method-assign]


def pytest_configure(config: pytest.Config) -> None:
    """Where ``PYTHONDONTWRITEBYTECODE`` is set (CI's machines set it), every process the session
    starts — each pytest-xdist worker, each ``croupier`` command and ``croupier serve`` the tests
    run, a few hundred in all — would compile croupier's sources (and the tests, rewritten by
    pytest) afresh on import. The controller (not a worker: it runs this before starting them)
    lets the session's processes write bytecode, so each module is compiled once per checkout, in
    ``__pycache__`` beside its source as Python does by default (where numba keeps its cache of
    the kernels already; git ignores both). What runs is the same source."""
    if not hasattr(config, "workerinput"):
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the README's test command, ``addopts``) starts one worker more than the
    machine has cores. A good part of the suite's wall time is waiting — for a ``croupier serve``
    the test started, for PostgreSQL, a pacing window or another worker's compilation of a kernel
    (:func:`_compile_once`) — and a core left idle then is a core another worker can use: on two
    cores three workers ran the suite in 4 m 32 s where two took 4 m 48 s (2026-12-07)."""
    return (os.cpu_count() or 1) + 1
