"""Alembic's entry point for the service migrations (see :mod:`croupier.service.store`).

Alembic runs this file with its context established; a plain import (e.g. doctest collection)
does nothing.
"""

from __future__ import annotations

from alembic import context

from croupier.service.store import run_env

if hasattr(context, "config"):
    run_env()
