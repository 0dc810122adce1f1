"""Alembic migrations of the progressive ledger (``env.py`` and ``versions/``).

Run them with :func:`croupier.progressive.migrate.upgrade`; the ledger does so when it opens a
database.
"""
