"""The API documentation page (``/docs``: Swagger UI over ``/openapi.json``), served offline.

FastAPI's own ``/docs`` loads Swagger UI's script and style from a CDN, so on a casino network
without internet access the page is blank. Here the same Swagger UI comes from the installed
``swagger-ui-bundle`` package (spec-first/swagger_ui_bundle, Apache-2.0) under
``/docs-assets``, like the web page's own scripts under ``/static``: nothing is fetched from
outside the server. ReDoc (``/redoc``), which has no offline bundle here, is not served.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs-assets"
"""Where Swagger UI's script, style and icon are served."""


def install(app: FastAPI) -> None:
    """Serve ``/docs`` (and its OAuth2 redirect page) with Swagger UI from :data:`ASSETS`.
    ``app`` must be made with ``docs_url=None`` so FastAPI's CDN page is not added too."""
    app.mount(ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    redirect = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} — API",
            oauth2_redirect_url=redirect,
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
        )

    @app.get(redirect, include_in_schema=False)
    def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()


__all__ = ["ASSETS", "install"]
