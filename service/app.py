"""The application factory (STYLE 5): nothing happens at import time but definitions and ``app``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from pydantic_core import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rules.dice import RNG
from rules.errors import RulesError
from service import problems
from service.docs import mount_docs
from service.openapi import install_openapi
from service.routers import SYSTEMS
from service.routing import UnsupportedMediaType, install_fast_path
from service.settings import Settings

VERSION = "0.1.0"
DESCRIPTION = """\
A stateless rules service for virtual tabletops. Send the whole situation as JSON with a `seed` (or
with `dice` you rolled yourself) and get the outcome back with every die shown and every step explained.
The same request with the same seed gives the same bytes, on any machine, in any later release of the
same rules version.

Dice come from named **slots**, each its own `sha256-v1` stream:
`block(i) = SHA-256(seed || 0x1F || slot || 0x1F || i as 8-byte big-endian)`, eight 32-bit big-endian
words per block; a die of `s` sides takes the next word `w`, skips it when `w >= 2^32 - (2^32 mod s)`,
and shows `1 + (w mod s)`. Errors are RFC 9457 `application/problem+json`.
"""


def _problem_response(
    request: Request, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> Response:
    body.setdefault("instance", request.url.path)
    request_id = request.scope.get("request_id")
    if request_id is not None:
        body.setdefault("request_id", request_id)
    return Response(
        problems.encode(body),
        status_code=body["status"],
        media_type=problems.PROBLEM_JSON,
        headers=headers,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(
        title="dragonroll",
        version=VERSION,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.settings = settings
    for router in SYSTEMS:
        app.include_router(router)
    install_fast_path(app)  # resolver POSTs skip FastAPI's router (docs/readme/performance.md)
    mount_docs(app)
    install_openapi(app)

    @app.get("/livez", include_in_schema=False)
    @app.get("/healthz", include_in_schema=False)
    async def livez() -> JSONResponse:
        return JSONResponse({"status": "ok"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        return JSONResponse({"status": "ready", "rng": RNG})

    @app.exception_handler(ValidationError)
    async def on_validation(request: Request, exc: ValidationError) -> Response:
        return _problem_response(request, problems.from_validation_error(exc))

    @app.exception_handler(RulesError)
    async def on_rules(request: Request, exc: RulesError) -> Response:
        return _problem_response(request, problems.from_rules_error(exc))

    @app.exception_handler(UnsupportedMediaType)
    async def on_media(request: Request, exc: UnsupportedMediaType) -> Response:
        return _problem_response(
            request,
            problems.problem(
                "unsupported-media-type",
                f"Content-Type {exc.content_type!r} is not JSON: send 'Content-Type: application/json'",
            ),
        )

    @app.exception_handler(HTTPException)
    async def on_http(request: Request, exc: HTTPException) -> Response:
        kind = {404: "not-found", 405: "method-not-allowed", 413: "payload-too-large"}.get(
            exc.status_code
        )
        detail = str(exc.detail)
        if exc.status_code == 404:
            detail = f"no resource at {request.url.path}; see /docs for the endpoints"
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            detail = f"{request.method} is not allowed on {request.url.path}" + (
                f"; allowed: {allowed}" if allowed else ""
            )
        body = (
            problems.problem(kind, detail)
            if kind
            else {
                "type": "about:blank",
                "title": detail,
                "status": exc.status_code,
                "detail": detail,
            }
        )
        return _problem_response(request, body, headers=exc.headers)

    @app.exception_handler(Exception)
    async def on_error(request: Request, exc: Exception) -> Response:
        return _problem_response(
            request,
            problems.problem(
                "internal-error",
                "the service failed to resolve this request; the error was logged with its request id",
            ),
        )

    return app


app = create_app()
