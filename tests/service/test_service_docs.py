"""``/docs`` works without internet access: Swagger UI is served by croupier itself (a casino's
table network has no route to a CDN; the page's own scripts are vendored for the same reason)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from croupier.service.app import ServiceConfig, create_app


def test_the_api_docs_fetch_nothing_from_outside(tmp_path: Path) -> None:
    cfg = ServiceConfig(db=f"sqlite:///{tmp_path / 'docs.sqlite3'}")
    with TestClient(create_app(cfg)) as c:
        page = c.get("/docs")
        assert page.status_code == 200
        sources = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
        sources += re.findall(r"""url: ?["']([^"']+)["']""", page.text)
        assert sources, page.text
        for src in sources:
            assert not re.match(r"(https?:)?//", src), f"{src} is fetched from outside the server"
            got = c.get(src)
            assert got.status_code == 200, src
        script = c.get("/docs-assets/swagger-ui-bundle.js")
        assert script.status_code == 200 and "SwaggerUIBundle" in script.text
        assert c.get("/redoc").status_code == 404  # ReDoc would load from a CDN: not served
        assert "/docs" not in c.get("/openapi.json").json()["paths"]
