"""The application factory (STYLE 5): nothing happens at import time but definitions and ``app``."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from pydantic_core import ValidationError
from starlette.exceptions import HTTPException
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import get_route_path  # type: ignore[attr-defined]
from starlette.types import Receive, Scope, Send

from rules import build
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
from service.playground import mount_playground
from service.routers import SYSTEMS
from service.routing import (
    ResolverFastPath,
    ResolverRoute,
    UnsupportedMediaType,
    install_fast_path,
    resolver_paths,
)
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


#: FastAPI's own layers outside the user middleware that a resolver POST may skip: the 500 page
#: (the edge layer answers errors first), the telemetry exception hook (skipped only while no
#: telemetry is configured) and the app-wide body limit (skipped only when the app sets none).
_SKIPPABLE = {
    f"{ServerErrorMiddleware.__module__}.ServerErrorMiddleware",
    "fastapi.telemetry._asgi.ExceptionTelemetryMiddleware",
    "fastapi._body_limit.AppBodyLimitMiddleware",
}


class Dragonroll(FastAPI):
    """The app object uvicorn calls: a POST to a resolver path goes straight to the edge layer.

    ``FastAPI.__call__`` -> ``Starlette.__call__`` -> ``ServerErrorMiddleware`` ->
    ``ExceptionTelemetryMiddleware`` -> ``AppBodyLimitMiddleware`` -> :class:`EdgeMiddleware` ->
    :class:`ResolverFastPath` is, for a resolver POST, five calls that do nothing but pass it on. So
    the app looks the path up itself (exactly, as the fast path does) and hands the request to the
    SAME :class:`EdgeMiddleware` instance of the built stack (request id, security headers, CORS,
    body limit, 500 fallback, access line, metrics), whose ``serve_resolver`` resolves it (errors
    through the app's exception handlers, as the fast path does): same answers, same logs, same
    metrics.

    Everything else (other paths and methods, lifespan, websockets) takes FastAPI's path unchanged,
    and so does every request when the stack holds a layer this shortcut would skip (a middleware
    added by the user or an instrumentation, an app-wide body limit), when FastAPI's telemetry is
    configured and on, or when the stack no longer has the shape checked here (a FastAPI upgrade:
    ``test_resolver_posts_skip_fastapi`` notices).
    """

    _entries: dict[str, ResolverRoute] | None = None
    _edge: EdgeMiddleware | None = None
    _fast: ResolverFastPath | None = None
    _telemetry_possible = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            entries = self._entries
            if entries is None:
                entries = self._entries = self._shortcut()
            if entries:
                if self.root_path:
                    scope["root_path"] = self.root_path
                route = entries.get(get_route_path(scope))
                if route is not None and not (
                    self._telemetry_possible and self._native_telemetry.enabled()
                ):
                    assert self._edge is not None and self._fast is not None
                    scope["app"] = self
                    await self._edge.serve_resolver(scope, receive, send, route, self._fast)
                    return
        await super().__call__(scope, receive, send)

    def _shortcut(self) -> dict[str, ResolverRoute]:
        """The resolver routes by path, if the built stack is [skippable layers], the edge, the
        fast path; else nothing (every request takes FastAPI's path)."""
        if self.middleware_stack is None:
            self.middleware_stack = self.build_middleware_stack()
        config = self._telemetry
        self._telemetry_possible = bool(config["tracing"] or config["metrics"] or config["logs"])
        layer: Any = self.middleware_stack
        while layer is not None:
            if isinstance(layer, EdgeMiddleware) and self._edge is None:
                self._edge = layer
            elif isinstance(layer, ResolverFastPath) and self._edge is not None:
                self._fast = layer
                return dict(layer.routes)
            elif f"{type(layer).__module__}.{type(layer).__name__}" not in _SKIPPABLE or (
                type(layer).__name__ == "AppBodyLimitMiddleware" and self.max_body_size is not None
            ):
                break
            layer = getattr(layer, "app", None)
        self._edge = None
        return {}


def create_app(settings: Settings | None = None) -> Dragonroll:
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
            log.info(
                "ready",
                rng=RNG,
                self_test_streams=len(health.VECTORS),
                compiled_modules=len(build.compiled_modules()),
            )
        stale = build.stale_modules()
        if stale:
            log.warning("compiled modules older than their source: rebuild them", modules=stale)
        # Everything built so far (modules, schemas, the app) lives as long as the process: move it
        # out of the collector's reach, so a full collection walks only what requests create (on
        # this machine a full collection took ~20 ms before, a pause every few thousand requests).
        gc.collect()
        gc.freeze()
        yield
        app.state.ready = False
        if access_line is not None:
            access_line.flush()  # any request line still buffered goes out before "stopping"
        log.info("stopping")

    app = Dragonroll(
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
    mount_playground(app)
    install_openapi(app)
    health.add_health_routes(app)
    quiet = set(health.PATHS)
    metrics: Metrics | None = None
    if settings.metrics:
        # The resolver routes inside the included routers (app.routes holds FastAPI's wrappers).
        systems = sorted({route.system for _, route in resolver_paths(app.router.routes)})
        metrics = Metrics(systems)
        registry = metrics

        async def serve_metrics(request: Request) -> Response:
            return Response(registry.render(), media_type=CONTENT_TYPE)

        app.add_route("/metrics", serve_metrics, methods=["GET"], include_in_schema=False)
        quiet.add("/metrics")
    app.state.metrics = metrics

    # One pure ASGI layer outside FastAPI's exception handling (see service.middleware); resolver
    # POSTs reach it straight from Dragonroll.__call__, everything else through the stack.
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
