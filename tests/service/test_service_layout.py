"""The service's layout (issue 28, FastAPI's *Bigger Applications* guide): one ``APIRouter`` per
resource under ``service/routes/``, every router included by the app, and a keyed request's
``Idempotency-Key`` taken by the one dependency (``dependencies.Once``), not by closures."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
from fastapi import APIRouter
from fastapi.routing import APIRoute

import croupier.service.routes as routes_package
from croupier.service.app import create_app
from croupier.service.idempotency import HEADER
from croupier.service.routes import api_routes

ROUTES = Path(routes_package.__file__).parent
MODULES = sorted(m.name for m in pkgutil.iter_modules([str(ROUTES)]))

CLOSURES_LEFT: set[str] = set()
"""Route modules whose keyed routes still hand closures to ``dependencies.idempotent`` (their
internals are another change's: they take ``Once`` when that lands)."""


@pytest.mark.parametrize("name", MODULES)
def test_each_route_module_is_a_router(name: str) -> None:
    module = importlib.import_module(f"croupier.service.routes.{name}")
    assert isinstance(getattr(module, "router", None), APIRouter), name


def test_the_app_includes_every_router() -> None:
    served = {(path, methods) for path, methods, _ in api_routes(create_app())}
    for name in MODULES:
        router = importlib.import_module(f"croupier.service.routes.{name}").router
        for route in router.routes:
            if isinstance(route, APIRoute) and route.include_in_schema:
                assert (route.path, frozenset(route.methods or ())) in served, (name, route.path)


def test_every_keyed_route_takes_the_key_from_the_dependency() -> None:
    keyed = 0
    for path, _, dependant in api_routes(create_app()):
        if str(getattr(dependant.call, "__module__", "")).rsplit(".", 1)[-1] in CLOSURES_LEFT:
            continue
        own = [p.alias for p in dependant.header_params]
        assert HEADER not in own, f"{path} reads {HEADER} itself: take dependencies.Once"
        for sub in dependant.dependencies:
            keyed += any(p.alias == HEADER for p in sub.header_params)
    assert keyed >= 14  # the POSTs and DELETEs that change money or configuration


@pytest.mark.parametrize("name", [m for m in MODULES if m not in CLOSURES_LEFT])
def test_no_route_hands_closures_to_the_key(name: str) -> None:
    tree = ast.parse((ROUTES / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Attribute) and d.attr in {"get", "post", "delete"}
            for d in (x.func if isinstance(x, ast.Call) else x for x in node.decorator_list)
        ):
            inner = [n.name for n in ast.walk(node) if isinstance(n, ast.FunctionDef)]
            assert inner == [node.name], f"{name}.{node.name} defines {inner[1:]}"
            called = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            assert "idempotent" not in called, f"{name}.{node.name}: take dependencies.Once"
