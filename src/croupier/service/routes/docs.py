"""The API documentation page (``/docs``: Swagger UI over ``/openapi.json``), served offline.

FastAPI's own ``/docs`` loads Swagger UI's script and style from a CDN, so on a casino network
without internet access the page is blank. Here the same Swagger UI comes from the installed
``swagger-ui-bundle`` package (spec-first/swagger_ui_bundle, Apache-2.0) under
``/docs-assets``, like the web page's own scripts under ``/static``: nothing is fetched from
outside the server. ReDoc (``/redoc``), which has no offline bundle here, is not served.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs-assets"
"""Where Swagger UI's script, style and icon are served."""


REDIRECT = "/docs/oauth2-redirect"
"""Swagger UI's OAuth2 redirect page (its "Authorize" with the password flow)."""

router = APIRouter(include_in_schema=False)


@router.get("/docs")
def docs(request: Request) -> HTMLResponse:
    """Swagger UI over the app's OpenAPI document, its assets from :data:`ASSETS`."""
    app = request.app
    return get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=f"{app.title} — API",
        oauth2_redirect_url=REDIRECT,
        swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
    )


@router.get(REDIRECT)
def oauth2_redirect() -> HTMLResponse:
    """The page Swagger UI's OAuth2 login comes back to."""
    return get_swagger_ui_oauth2_redirect_html()


def install(app: FastAPI) -> None:
    """Serve ``/docs`` (and its OAuth2 redirect page) with Swagger UI from :data:`ASSETS`.
    ``app`` must be made with ``docs_url=None`` so FastAPI's CDN page is not added too."""
    app.mount(ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    app.include_router(router)


__all__ = ["ASSETS", "install", "router"]
