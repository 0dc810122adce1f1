"""The service's routes: one module per resource, each an ``APIRouter`` that
:func:`croupier.service.app.create_app` includes (FastAPI's *Bigger Applications* layout; the
list is :mod:`croupier.service`'s). A route parses its request, calls one function and presents
its answer: what it depends on — the member and their role, the ledger, the
``Idempotency-Key`` — is :mod:`croupier.service.dependencies`'s.

This package's own :func:`api_routes` lists the API's routes as the OpenAPI document lists them
(:mod:`croupier.service.openapi`, the ``Allow`` of a 405 in :mod:`croupier.service.problems`);
it imports no route module, so those two can use it while the routers are being built."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant

try:  # FastAPI keeps an included router's routes nested, and says how to reach them
    from fastapi.routing import iter_route_contexts
except ImportError:  # pragma: no cover - an older FastAPI lists them in app.routes
    iter_route_contexts = None  # type: ignore[assignment]


def api_routes(app: FastAPI) -> Iterator[tuple[str, frozenset[str], Dependant]]:
    """Each route of the API (in the OpenAPI document): its path, methods and dependant — the
    routes of the routers the app includes too (FastAPI keeps those nested)."""
    routes: Iterable[Any] = app.routes
    if iter_route_contexts is not None:
        routes = iter_route_contexts(app.routes)
    for route in routes:
        dependant = getattr(route, "dependant", None)
        if isinstance(dependant, Dependant) and getattr(route, "include_in_schema", False):
            yield str(route.path), frozenset(route.methods or ()), dependant


__all__ = ["api_routes"]
