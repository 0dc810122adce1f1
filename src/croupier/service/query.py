"""A query parameter a route does not declare is a 422 problem naming it, with the nearest one it
does declare (``GET /hold-report?tabel=BJ-1`` — did you mean 'table'?), never silently ignored:
a filter that is not applied must not look applied (the trial read the all-time, all-table hold
report as the one it asked for).

:func:`known_query` is an app-wide dependency (:func:`croupier.service.app.create_app`); it
checks the routes of the API (those in the OpenAPI document), not those of :data:`LENIENT`: the
web page's HTML routes, which read their forms' fields themselves, and ``GET /health``, which
answers whatever a load balancer's probe adds to it. The same dependency refuses a path or query
parameter holding a NUL character (:func:`nul_parameter`).
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from croupier.errors import InputError, suggest

LENIENT = frozenset(
    {"/health", "/", "/compare", "/eor", "/designer", "/pit", "/dealer", "/designer/paytable.toml"}
)
"""Paths whose query string is not checked: a health probe's is its own business, an HTML page's
is its form's fields (:mod:`croupier.service.web.pages`), and the designer's paytable is named
by ``pay:OUTCOME`` parameters, one for each pay edited."""

_DECLARED: dict[int, frozenset[str]] = {}
"""Each route's query parameters (by the route's id), worked out once."""


def declared(route: APIRoute) -> frozenset[str]:
    """The names of the query parameters ``route`` declares, its dependencies' included (as a
    client sends them: the alias, ``from`` for ``start``)."""
    known = _DECLARED.get(id(route))
    if known is None:
        known = _DECLARED[id(route)] = query_names(route.dependant)
    return known


def query_names(dependant: Dependant) -> frozenset[str]:
    """The query parameters ``dependant`` and its dependencies declare."""
    return frozenset(_names(dependant))


def _names(dependant: Dependant) -> Iterator[str]:
    for field in dependant.query_params:
        yield field.alias
    for sub in dependant.dependencies:
        yield from _names(sub)


def unknown_query(request: Request) -> InputError | None:
    """The problem with ``request``'s query parameters, if one is not the route's."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema or route.path in LENIENT:
        return None
    known = declared(route)
    unknown = [name for name in request.query_params if name not in known]
    if not unknown:
        return None
    return refusal(f"{request.method} {request.url.path}", unknown, known)


def refusal(where: str, unknown: list[str], known: frozenset[str]) -> InputError:
    """The problem of request ``where`` (``GET /rounds``) given query parameters ``unknown`` that
    its route does not declare (``known``): the first named, with the nearest known one."""
    name = unknown[0]
    more = f" (nor {', '.join(repr(n) for n in unknown[1:])})" if len(unknown) > 1 else ""
    if not known:
        return InputError(f"{where} takes no query parameters, not {name!r}{more}")
    takes = ", ".join(sorted(known))
    return InputError(
        f"{where} takes the query parameters {takes}, not {name!r}{more}{suggest(name, known)}"
    )


def nul_parameter(request: Request) -> InputError | None:
    """The problem with ``request``'s path or query parameters, if one holds a NUL character:
    no name, id or filter the service takes holds one, and PostgreSQL stores none in text (a
    lookup with one was a 500 from the driver; Schemathesis found it). Any route, any
    database: one answer, a 422 naming the parameter."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema:
        return None
    given = [("path", k, v) for k, v in request.path_params.items()]
    given += [("query", k, v) for k, v in request.query_params.multi_items()]
    for where, name, value in given:
        if isinstance(value, str) and "\x00" in value:
            return nul_refusal(f"{request.method} {route.path}", where, name)
    return None


def nul_refusal(where: str, kind: str, name: str) -> InputError:
    """The problem of request ``where`` (``GET /rounds``) whose ``kind`` (path or query)
    parameter ``name`` holds a NUL character."""
    return InputError(
        f"{where}: the {kind} parameter {name!r} holds a NUL character (U+0000), which no name, "
        "id or filter the service takes holds"
    )


async def known_query(request: Request) -> None:
    """The dependency: :class:`~croupier.errors.InputError` (422) for a query parameter the
    route does not declare, or a path or query parameter holding a NUL (:func:`nul_parameter`)
    (async: no I/O, no trip to the thread pool)."""
    problem = unknown_query(request) or nul_parameter(request)
    if problem is not None:
        raise problem


__all__ = [
    "LENIENT",
    "declared",
    "known_query",
    "nul_parameter",
    "nul_refusal",
    "query_names",
    "refusal",
    "unknown_query",
]
