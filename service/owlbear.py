"""The Owlbear Rodeo extension at ``/owlbear/``: a self-hosted service is its own extension host.

The files are the build of ``clients/owlbear`` (``npm run build`` there writes them into
``service/static/owlbear``; they are committed and shipped in the package, and a test checks they
match their source). A GM adds ``<service>/owlbear/manifest.json`` to a room; Owlbear then loads the
popover (``/owlbear/index.html``) in an iframe, and the popover calls the service it came from (or the
URL the room's metadata names). The manifest's ``homepage_url`` is the service's own page, made
absolute from the request (behind a proxy, from the Host the proxy forwards).
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

ASSETS = Path(__file__).parent / "static" / "owlbear"
PREFIX = "/owlbear"
#: The popover's scripts and styles are files of this origin; it may call any service (the room's
#: URL) and be framed by Owlbear Rodeo (or any page standing in for it).
CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src *",
        "base-uri 'none'",
        "form-action 'none'",
    ]
)


def mount_owlbear(app: FastAPI) -> None:
    """``/owlbear/manifest.json``, the popover page and its assets, the icon."""

    async def manifest(request: Request) -> Response:
        body = json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8"))
        body["homepage_url"] = str(request.base_url)
        return JSONResponse(body, headers={"cache-control": "no-cache"})

    async def popover(request: Request) -> Response:
        return FileResponse(
            ASSETS / "index.html",
            media_type="text/html; charset=utf-8",
            headers={"content-security-policy": CSP, "cache-control": "no-cache"},
        )

    app.add_route(
        f"{PREFIX}/manifest.json", manifest, methods=["GET", "HEAD"], include_in_schema=False
    )
    for path in (f"{PREFIX}/", f"{PREFIX}/index.html"):
        app.add_route(path, popover, methods=["GET", "HEAD"], include_in_schema=False)
    app.mount(PREFIX, StaticFiles(directory=ASSETS, check_dir=False), name="owlbear")
