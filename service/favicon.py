"""``GET /favicon.ico``: the service's small icon (16x16, the hexagon of the Owlbear icon), so a
browser opening ``/``, ``/docs`` or any JSON answer finds one instead of a 404 in its console."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, Response

ICON = Path(__file__).resolve().parent / "static" / "favicon.ico"


def mount_favicon(app: FastAPI) -> None:
    """The icon at ``/favicon.ico``, cached for a day (it changes with a release, if ever)."""

    async def favicon(request: Request) -> Response:
        return FileResponse(
            ICON, media_type="image/x-icon", headers={"cache-control": "public, max-age=86400"}
        )

    app.add_route("/favicon.ico", favicon, methods=["GET", "HEAD"], include_in_schema=False)
