"""The Owlbear Rodeo extension at ``/owlbear/``, so that a self-hosted service is its own extension
host: the build of ``clients/owlbear`` (committed in ``service/static/owlbear``), its manifest and
its store listing naming every file by the service's absolute address (docs/owlbear.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

from service.foundry import bad_host

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
#: The store's tags for this extension (of those it accepts: dice, fog, tool, content-pack,
#: drawing, audio, combat, automation, other).
TAGS = ("dice", "combat", "automation")
HERO = "hero.png"


def absolute(manifest: dict[str, Any], base: str) -> dict[str, Any]:
    """The manifest with its icons, popover and home page as absolute URLs under ``base`` (the
    service's address, no trailing slash)."""
    out = dict(manifest)
    out["homepage_url"] = f"{base}/"
    out["icon"] = base + manifest["icon"]
    out["action"] = {
        **manifest["action"],
        "icon": base + manifest["action"]["icon"],
        "popover": base + manifest["action"]["popover"],
    }
    return out


def store_listing(manifest: dict[str, Any], base: str) -> str:
    """The extension store's page (``store.md``): YAML front matter, then what the extension does."""
    quote = json.dumps  # a JSON string is a YAML string
    front = [
        "---",
        f"title: {quote(manifest['name'])}",
        f"description: {quote(manifest['description'])}",
        f"author: {quote(manifest['author'])}",
        f"image: {quote(f'{base}{PREFIX}/{HERO}')}",
        f"icon: {quote(base + manifest['icon'])}",
        "tags:",
        *(f"  - {tag}" for tag in TAGS),
        f"manifest: {quote(f'{base}{PREFIX}/manifest.json')}",
        f"learn-more: {quote(f'{base}/')}",
        "---",
    ]
    body = (
        "# dragonroll\n\n"
        "Tests and combat of Dragons of Shadows, dragon battles, Dragon Riders and the fifth-edition "
        "SRD, and any dice notation, resolved by a dragonroll service: pick a roll, change the "
        "request in a form, and roll. Every die comes from a seed, so anyone can replay a result; "
        "with Dice+ in the room the table's own 3D dice are used instead.\n\n"
        "The result goes to every player, each reading it in their own language (English, Polish, "
        "Finnish or Arabic), or to the GM alone. The popover follows the room's light or dark "
        "theme.\n"
    )
    return "\n".join(front) + "\n\n" + body


def mount_owlbear(app: FastAPI) -> None:
    """``/owlbear/manifest.json``, ``/owlbear/store.md``, the popover page and its assets."""
    public_url: str | None = app.state.settings.public_url or None

    def base_of(request: Request) -> str | Response:
        if public_url:
            return public_url.rstrip("/")
        return bad_host(request) or str(request.base_url).rstrip("/")

    def headers() -> dict[str, str]:
        return {"cache-control": "no-cache", **({} if public_url else {"vary": "Host"})}

    def source() -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8"))
        return loaded

    async def manifest(request: Request) -> Response:
        base = base_of(request)
        if isinstance(base, Response):
            return base
        return JSONResponse(absolute(source(), base), headers=headers())

    async def store(request: Request) -> Response:
        base = base_of(request)
        if isinstance(base, Response):
            return base
        page = store_listing(source(), base)
        return Response(page, media_type="text/markdown; charset=utf-8", headers=headers())

    async def popover(request: Request) -> Response:
        return FileResponse(
            ASSETS / "index.html",
            media_type="text/html; charset=utf-8",
            headers={"content-security-policy": CSP, "cache-control": "no-cache"},
        )

    for path, endpoint in ((f"{PREFIX}/manifest.json", manifest), (f"{PREFIX}/store.md", store)):
        app.add_route(path, endpoint, methods=["GET", "HEAD"], include_in_schema=False)
    for path in (f"{PREFIX}/", f"{PREFIX}/index.html"):
        app.add_route(path, popover, methods=["GET", "HEAD"], include_in_schema=False)
    app.mount(PREFIX, StaticFiles(directory=ASSETS, check_dir=False), name="owlbear")
