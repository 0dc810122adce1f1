"""What produced a figure: croupier's version, the commit of a checkout, the libraries and the
machine, and the SHA-256 of a written file — the provenance a test lab ties a report to.

A report is only as checkable as its provenance: the same paytable (its configuration digest,
:func:`croupier.paytables.paytable_digest`), the same software (:func:`software`) and the same
files (:func:`file_sha256`) give the same figures.

>>> info = software()
>>> info.croupier == __import__("croupier").__version__
True
>>> sorted(info.to_dict())[:3]
['commit', 'croupier', 'dirty']
"""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import croupier

LIBRARIES = ("numpy", "scipy", "numba")
"""The libraries whose versions a report records: the arithmetic and the RNG run on them."""


@dataclass(frozen=True)
class Software:
    """The software that produced a report."""

    croupier: str
    """croupier's version (``croupier.__version__``)."""
    commit: str | None
    """The git commit of the checkout croupier runs from (40 hex digits), ``None`` when it is not
    installed from a checkout (a wheel) or git cannot tell."""
    dirty: bool | None
    """Whether the checkout has uncommitted changes to tracked files: then the commit alone does not
    give the code that ran. ``None`` when there is no commit."""
    python: str
    """The Python version (``platform.python_version()``)."""
    libraries: tuple[tuple[str, str], ...]
    """(name, version) of each of :data:`LIBRARIES` installed."""
    machine: str
    """The operating system and processor (``platform.platform()``, ``platform.machine()``)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``libraries`` as ``{name: version}``)."""
        return {
            "croupier": self.croupier,
            "commit": self.commit,
            "dirty": self.dirty,
            "python": self.python,
            "libraries": dict(self.libraries),
            "machine": self.machine,
        }


def _checkout() -> Path | None:
    """The git work tree croupier's package lies in, or ``None``."""
    here = Path(croupier.__file__).resolve().parent
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _git(tree: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(tree), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def library_version(name: str) -> str:
    """The installed version of the distribution ``name`` (importlib.metadata), or "unknown"."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"


@cache
def software() -> Software:
    """croupier's version, the checkout's commit (when there is one), Python, the libraries and
    the machine. Asking git costs a few milliseconds once per process."""
    commit: str | None = None
    dirty: bool | None = None
    tree = _checkout()
    if tree is not None:
        head = _git(tree, "rev-parse", "HEAD")
        if head and len(head) == 40:
            commit = head
            status = _git(tree, "status", "--porcelain", "--untracked-files=no")
            dirty = None if status is None else bool(status)
    found = ((name, library_version(name)) for name in LIBRARIES)
    libraries = [(name, version) for name, version in found if version != "unknown"]
    return Software(
        croupier=croupier.__version__,
        commit=commit,
        dirty=dirty,
        python=platform.python_version(),
        libraries=tuple(libraries),
        machine=f"{platform.platform()} ({platform.machine()})",
    )


def command_line() -> str:
    """The command that is running, as typed (``croupier`` for the entry point's path)."""
    args = list(sys.argv)
    if args and Path(args[0]).name in {"croupier", "__main__.py"}:
        args[0] = "croupier"
    return " ".join(_quoted(a) for a in args)


def _quoted(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of the file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()
