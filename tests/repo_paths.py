"""The repository's root, for the tests that read its files (examples, docs/schemas, README.md)
from whichever folder of tests/ they live in."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository's root: the folder holding README.md, examples/ and docs/."""
