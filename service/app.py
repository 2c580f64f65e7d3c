"""The application factory (STYLE 5): nothing happens at import time but definitions and ``app``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from pydantic_core import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from rules.dice import RNG
from rules.errors import RulesError
from service import health, problems
from service.docs import mount_docs
from service.logs import LEVELS, make_access_line, make_logger
from service.metrics import CONTENT_TYPE, Metrics
from service.middleware import (
    INTERNAL_ERROR,
    LIMIT_KEY,
    EdgeMiddleware,
    cors_policy,
    stamp_problem,
)
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
    scope = request.scope
    kind = stamp_problem(body, scope, request.url.path)
    limit = _limit_of(kind, body["detail"])
    if limit is not None:
        scope[LIMIT_KEY] = limit
    return Response(
        problems.encode(body),
        status_code=body["status"],
        media_type=problems.PROBLEM_JSON,
        headers=headers,
    )


def _limit_of(kind: str, detail: str) -> str | None:
    """Which limit a problem reports, for ``dragonroll_limit_rejections_total``."""
    if kind == "payload-too-large":
        return "body_size"
    if kind == "limit-exceeded":
        return "engine"
    if kind == "malformed-json":
        if "recursion limit exceeded" in detail:
            return "json_depth"
        if "number out of range" in detail:
            return "json_number"
    return None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    log = make_logger(settings)
    access_line = make_access_line(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        failed = health.dice_self_test()
        if failed:
            log.error("dice self-test failed: not ready", rng=RNG, streams=failed)
        else:
            app.state.ready = True
            log.info("ready", rng=RNG, self_test_streams=len(health.VECTORS))
        yield
        app.state.ready = False
        if access_line is not None:
            access_line.flush()  # any request line still buffered goes out before "stopping"
        log.info("stopping")

    app = FastAPI(
        title="dragonroll",
        version=VERSION,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
        telemetry=(None if settings.otel else {"tracing": False, "metrics": False, "logs": False}),
    )
    app.state.settings = settings
    for router in SYSTEMS:
        app.include_router(router)
    install_fast_path(app)  # resolver POSTs skip FastAPI's router (README, "Performance")
    mount_docs(app)
    install_openapi(app)
    health.add_health_routes(app)
    quiet = set(health.PATHS)
    metrics: Metrics | None = None
    if settings.metrics:
        systems = sorted({s for r in app.routes if (s := getattr(r, "system", None))})
        metrics = Metrics(systems)
        registry = metrics

        async def serve_metrics(request: Request) -> Response:
            return Response(registry.render(), media_type=CONTENT_TYPE)

        app.add_route("/metrics", serve_metrics, methods=["GET"], include_in_schema=False)
        quiet.add("/metrics")
    app.state.metrics = metrics

    # One pure ASGI layer outside FastAPI's exception handling (see service.middleware).
    app.add_middleware(
        EdgeMiddleware,
        logger=log,
        metrics=metrics,
        quiet_paths=frozenset(quiet),
        log_requests=LEVELS[settings.log_level] <= LEVELS["info"],
        body_limit=settings.body_limit,
        cors=cors_policy(settings.cors_origins),
        access_line=access_line,
    )

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
        # Reached only when the middleware itself fails: GuardMiddleware handles the app's errors.
        log.error("unhandled exception", request_id=request.scope.get("request_id"), exc_info=exc)
        return _problem_response(request, problems.problem("internal-error", INTERNAL_ERROR))

    return app


app = create_app()
