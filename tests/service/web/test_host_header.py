"""No page, and no redirect, names a host taken from the request's ``Host`` header (a fresh
user's trial, item 3): ``curl -H 'Host: evil.example' …/pit`` gave ``<script
src="http://evil.example/static/app.js">`` (and pit.js, Chart.js, the style sheet), always
``http://``, on the pages that keep a staff bearer token in sessionStorage.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

from croupier.service.web.pages import HERE, templates
from service_support import Server, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-host")) as srv:
        yield srv


PAGES = ("/", "/compare", "/designer", "/eor", "/pit", "/dealer", "/docs", "/?wager=nope")


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8443"])
def test_no_page_names_the_host_the_request_gave(server: Server, host: str) -> None:
    """Every page (and a slash redirect) with a hostile ``Host`` header: the script and style
    URLs are root-relative, and nothing anywhere names that host (they were
    ``http://evil.example/static/app.js``, always ``http://``)."""
    with httpx.Client(base_url=server.base, timeout=60, headers={"Host": host}) as c:
        for path in PAGES:
            page = c.get(path)
            assert page.status_code in (200, 422), (path, page.status_code)
            assert "evil.example" not in page.text, path
            assert not any("evil.example" in v for v in page.headers.values()), path
            refs = re.findall(r'(?:src|href)="([^"]*)"', page.text)
            assert all(not re.match(r"[a-z]+:|//", ref) for ref in refs), (path, refs)
        html = c.get("/pit").text
        for asset in ("/static/app.js", "/static/pit.js", "/static/app.css"):
            assert f'"{asset}"' in html
        assert '"/static/vendor/chart-4.6.1.umd.min.js"' in html
        for path, location in (
            ("/pit/", "/pit"),
            ("/static", "/static/"),
            ("/dealer/?a=1", "/dealer?a=1"),
        ):
            moved = c.get(path, follow_redirects=False)
            assert (moved.status_code, moved.headers["location"]) == (307, location), path
        # a path that would redirect to "//host" is no redirect to another host
        url = httpx.URL(server.base).copy_with(raw_path=b"//evil.example/")
        assert c.send(c.build_request("GET", url)).status_code == 404


@pytest.mark.parametrize(
    ("root", "expected"), [("", "/static/app.js"), ("/proxy", "/proxy/static/app.js")]
)
def test_the_templates_url_for_is_root_relative(root: str, expected: str) -> None:
    """``url_for`` in a template (none calls it now; a future one may) gives the path under the
    server's configured root path, never ``http://<Host>/…`` (Starlette's own)."""
    app = FastAPI()
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    source = "{{ url_for('static', path='app.js') }}"

    @app.get("/t")
    def rendered(request: Request) -> PlainTextResponse:
        return PlainTextResponse(templates.env.from_string(source).render(request=request))

    with TestClient(app, root_path=root, base_url="http://evil.example") as c:
        assert c.get("/t").text == expected
