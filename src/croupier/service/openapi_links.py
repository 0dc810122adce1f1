"""The OpenAPI document's links (OpenAPI 3.1 § 4.8.20): how a response names what the next
request works on — the table a ``POST /tables`` opened, the round and awards a settlement
stored, the progressive, staff member or simulation job just made, the first of a list read. A
client (and a stateful tester such as Schemathesis) follows them from one operation to the next.

Each link is written in the response of its source operation with the target's
``operationId`` and a runtime expression for each path parameter (``$response.body#/table``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Op = tuple[str, str]
"""An operation: its method (lower case) and path."""

_TABLE_OPS: tuple[Op, ...] = (
    ("get", "/tables/{table}"),
    ("post", "/tables/{table}/steps"),
    ("post", "/tables/{table}/void"),
    ("delete", "/tables/{table}"),
)
_PROGRESSIVE_OPS: tuple[Op, ...] = (
    ("get", "/progressives/{name}"),
    ("get", "/progressives/{name}/history"),
    ("post", "/progressives/{name}/links"),
    ("post", "/progressives/{name}/adjust"),
    ("post", "/progressives/{name}/suspend"),
    ("post", "/progressives/{name}/resume"),
    ("post", "/progressives/{name}/reconfigure"),
)
_STAFF_OPS: tuple[Op, ...] = (
    ("post", "/staff/{name}/role"),
    ("post", "/staff/{name}/credential"),
    ("delete", "/staff/{name}"),
)
_AWARD_OPS: tuple[Op, ...] = (
    ("post", "/awards/{award_id}/validate"),
    ("post", "/awards/{award_id}/void"),
)
_FIRST_AWARD = "$response.body#/progressives/0/awards/0/award"
_ROUND = {"table": "$response.body#/table", "round_id": "$response.body#/round"}


def _each(targets: tuple[Op, ...], params: Mapping[str, str]) -> list[tuple[Op, dict[str, str]]]:
    return [(target, dict(params)) for target in targets]


LINKS: dict[tuple[str, str, str], list[tuple[Op, dict[str, str]]]] = {
    ("post", "/tables", "201"): _each(_TABLE_OPS, {"table": "$response.body#/table"}),
    ("post", "/tables/{table}/steps", "200"): _each(_TABLE_OPS, {"table": "$response.body#/table"}),
    ("post", "/rounds/settle", "201"): [
        (("get", "/rounds/{table}/{round_id}"), _ROUND),
        *_each(_AWARD_OPS, {"award_id": _FIRST_AWARD}),
    ],
    ("post", "/rounds/settle", "200"): [(("get", "/rounds/{table}/{round_id}"), _ROUND)],
    ("post", "/progressives", "201"): _each(_PROGRESSIVE_OPS, {"name": "$response.body#/name"}),
    ("post", "/staff", "201"): _each(_STAFF_OPS, {"name": "$response.body#/user"}),
    ("post", "/simulations", "202"): [
        (("get", "/simulations/{job}"), {"job": "$response.body#/job"})
    ],
    ("get", "/awards", "200"): _each(_AWARD_OPS, {"award_id": "$response.body#/awards/0/award"}),
    ("get", "/tables", "200"): _each(_TABLE_OPS, {"table": "$response.body#/tables/0/table"}),
    ("get", "/progressives", "200"): _each(
        _PROGRESSIVE_OPS, {"name": "$response.body#/progressives/0/name"}
    ),
    ("get", "/rounds", "200"): [
        (
            ("get", "/rounds/{table}/{round_id}"),
            {
                "table": "$response.body#/rounds/0/table",
                "round_id": "$response.body#/rounds/0/round",
            },
        )
    ],
}
"""By source (method, path, status): each target operation with its parameters' expressions."""


def _name(target: Op) -> str:
    """A link's name: ``GetTablesTable`` for ``GET /tables/{table}``."""
    method, path = target
    words = [w.strip("{}").replace("_", " ").title().replace(" ", "") for w in path.split("/")]
    return method.title() + "".join(words)


def add_links(spec: dict[str, Any]) -> None:
    """Write :data:`LINKS` into ``spec`` (an OpenAPI document with ``operationId``\\ s); a link
    whose source or target the document lacks is left out."""
    paths: dict[str, Any] = spec.get("paths", {})
    ids = {
        (method, path): op.get("operationId")
        for path, ops in paths.items()
        for method, op in ops.items()
        if isinstance(op, dict)
    }
    for (method, path, status), targets in LINKS.items():
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is None:
            continue
        links = response.setdefault("links", {})
        for target, params in targets:
            if ids.get(target):
                links[_name(target)] = {"operationId": ids[target], "parameters": params}
        if not links:
            del response["links"]


__all__ = ["LINKS", "add_links"]
