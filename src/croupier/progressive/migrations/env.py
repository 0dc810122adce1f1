"""Alembic's entry point for the ledger migrations (see :mod:`croupier.progressive.migrate`).

Alembic runs this file with its context established; a plain import (e.g. doctest collection)
does nothing.
"""

from __future__ import annotations

from alembic import context

from croupier.progressive.migrate import run_env

if hasattr(context, "config"):
    run_env()
