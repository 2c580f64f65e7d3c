"""The playground page at ``GET /``: static files shipped with the service, nothing from a CDN.

The page reads the service's own OpenAPI document (each endpoint's request example, its schema for
the form view) and calls the endpoints on the same origin. Its Content-Security-Policy allows only
this origin: scripts and styles come from files, never inline.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles

ASSETS = Path(__file__).parent / "static" / "playground"
STATIC = "/static/playground"
#: The front-end modules the playground shares with the Foundry dialog and the MCP roll card.
SHARED_ASSETS = Path(__file__).parent / "static" / "shared"
SHARED = "/static/shared"
CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)


def mount_playground(app: FastAPI) -> None:
    app.mount(STATIC, StaticFiles(directory=ASSETS), name="playground-assets")
    app.mount(SHARED, StaticFiles(directory=SHARED_ASSETS), name="shared-assets")

    async def page(request: Request) -> Response:
        return FileResponse(
            ASSETS / "index.html",
            media_type="text/html; charset=utf-8",
            headers={"content-security-policy": CSP, "cache-control": "no-cache"},
        )

    app.add_route("/", page, methods=["GET", "HEAD"], include_in_schema=False)
