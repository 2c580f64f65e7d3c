"""API documentation pages (Swagger UI, ReDoc) served from local assets: no CDN, no internet."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
STATIC = "/static/docs"


def mount_docs(app: FastAPI) -> None:
    app.mount(STATIC, StaticFiles(directory=ASSETS), name="docs-assets")

    async def swagger(request: Request) -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{STATIC}/favicon.png",
        )

    async def redoc(request: Request) -> HTMLResponse:
        return get_redoc_html(
            openapi_url="/openapi.json",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{STATIC}/redoc.standalone.js",
            redoc_favicon_url=f"{STATIC}/favicon.png",
            with_google_fonts=False,
        )

    app.add_route("/docs", swagger, include_in_schema=False)
    app.add_route("/redoc", redoc, include_in_schema=False)
