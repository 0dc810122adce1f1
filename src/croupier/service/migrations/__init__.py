"""Alembic migrations of the service's tables (:mod:`croupier.service.store`)."""
