"""Regenerate the exact counts shipped with croupier (:mod:`croupier.analysis.precomputed`).

Run: ``python -m croupier.analysis.regenerate`` (rewrites ``analysis/data/exact-counts.json``) or
``python -m croupier.analysis.regenerate --check`` (recounts and compares; exit status 1 if the file
differs or is out of date).
"""

from __future__ import annotations

from croupier.analysis.precomputed import main

if __name__ == "__main__":
    raise SystemExit(main())
