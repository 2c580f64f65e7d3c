"""API documentation pages (Swagger UI, ReDoc) served from local assets under a strict
Content-Security-Policy: no CDN, no internet (docs/operations.md, "Limits and hardening"). The one
inline script Swagger UI needs is pinned by a SHA-256 computed from the page itself, so it cannot
drift.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
STATIC = "/static/docs"
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)
REDOC_JS = "redoc.standalone.js"
REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
# A 16 px mark in the page's own colours, as a data: URI (the policy allows data: images).
LOCAL_LOGO = (
    b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    b"%3Ccircle cx='8' cy='8' r='7' fill='%238a2d1f'/%3E%3C/svg%3E"
)


def redoc_bundle() -> bytes:
    source = (ASSETS / REDOC_JS).read_bytes()
    if REDOC_LOGO not in source:
        raise RuntimeError(
            f"{REDOC_JS} no longer names {REDOC_LOGO.decode()}: check service/docs.py"
        )
    return source.replace(REDOC_LOGO, LOCAL_LOGO)


def content_security_policy(html: bytes) -> str:
    """A strict CSP for a docs page, allowing exactly the inline scripts ``html`` contains."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode("ascii") + "'"
        for script in _INLINE_SCRIPT.findall(html)
    )
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src 'self' {hashes}".rstrip(),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )


def _with_csp(page: HTMLResponse) -> HTMLResponse:
    page.headers["content-security-policy"] = content_security_policy(bytes(page.body))
    return page


def mount_docs(app: FastAPI) -> None:
    bundle = redoc_bundle()

    async def redoc_js(request: Request) -> Response:
        return Response(
            bundle,
            media_type="text/javascript; charset=utf-8",
            headers={"cache-control": "public, max-age=3600"},
        )

    # Before the mount, so this path is answered here and every other asset by the mount.
    app.add_route(
        f"{STATIC}/{REDOC_JS}", redoc_js, methods=["GET", "HEAD"], include_in_schema=False
    )
    app.mount(STATIC, StaticFiles(directory=ASSETS), name="docs-assets")

    async def swagger(request: Request) -> HTMLResponse:
        return _with_csp(
            get_swagger_ui_html(
                openapi_url="/openapi.json",
                title=f"{app.title} - Swagger UI",
                swagger_js_url=f"{STATIC}/swagger-ui-bundle.js",
                swagger_css_url=f"{STATIC}/swagger-ui.css",
                swagger_favicon_url=f"{STATIC}/favicon.png",
            )
        )

    async def redoc(request: Request) -> HTMLResponse:
        return _with_csp(
            get_redoc_html(
                openapi_url="/openapi.json",
                title=f"{app.title} - ReDoc",
                redoc_js_url=f"{STATIC}/{REDOC_JS}",
                redoc_favicon_url=f"{STATIC}/favicon.png",
                with_google_fonts=False,
            )
        )

    app.add_route("/docs", swagger, include_in_schema=False)
    app.add_route("/redoc", redoc, include_in_schema=False)
