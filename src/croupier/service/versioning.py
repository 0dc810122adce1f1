"""The API's version, and its policy (README, "Versioning").

The HTTP API is version :data:`API_VERSION`. Every response carries it in the
:data:`HEADER` header (:class:`VersionHeader`), and the OpenAPI document gives it as
``info.version`` and declares the header on every response (:func:`document`). Within a version
a change only adds: an operation, an optional field of a request, a field of a response, a
problem type. A breaking change — an operation or an ``operationId`` removed or renamed
(tests/service/test_operation_ids.py pins them), a field removed or its meaning changed, a
request once taken refused — makes version 2, served under the path prefix ``/v2`` beside the
unprefixed version 1 for as long as the release notes say. The package's own version
(``croupier.__version__``) is the document's ``x-croupier-version``: it changes with every
release, the API's only with a breaking change.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import croupier

API_VERSION = "1"
"""The API's version: what :data:`HEADER` says and the OpenAPI document's ``info.version``."""

HEADER = "Croupier-API-Version"
"""The response header naming the API's version."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_RAW = (HEADER.lower().encode("latin-1"), API_VERSION.encode("latin-1"))


class VersionHeader:
    """ASGI middleware, the outermost: every HTTP response carries :data:`HEADER` — a problem, a
    page, a redirect, a static file alike."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def versioned(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), _RAW]
            await send(message)

        await self.app(scope, receive, versioned)


SCHEMA: dict[str, Any] = {
    "description": f"The API's version ({API_VERSION}): a breaking change makes a new version, "
    "served under its own path prefix (/v2).",
    "schema": {"type": "string", "enum": [API_VERSION]},
}
"""The header as the OpenAPI document declares it on each response."""


def document(spec: dict[str, Any]) -> None:
    """Give ``spec`` the API's version (``info.version``, the package's as
    ``x-croupier-version``) and declare :data:`HEADER` on every response of every operation."""
    info = spec.setdefault("info", {})
    info["version"] = API_VERSION
    info["x-croupier-version"] = croupier.__version__
    for ops in spec.get("paths", {}).values():
        for op in ops.values():
            for response in op.get("responses", {}).values():
                response.setdefault("headers", {})[HEADER] = dict(SCHEMA)


__all__ = ["API_VERSION", "HEADER", "SCHEMA", "VersionHeader", "document"]
