"""The application factory (STYLE 5): nothing happens at import time but definitions and ``app``."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI
from pydantic_core import ValidationError
from starlette.exceptions import HTTPException
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import get_route_path  # type: ignore[attr-defined]
from starlette.types import Receive, Scope, Send

from rules.dice import RNG
from rules.errors import RulesError
from service import health, problems
from service.docs import mount_docs
from service.logs import LEVELS, AccessLine, make_access_line, make_logger
from service.metrics import CONTENT_TYPE, Metrics
from service.middleware import (
    INTERNAL_ERROR,
    LIMIT_KEY,
    LOGGED_KEY,
    EdgeMiddleware,
    cors_policy,
    stamp_problem,
)
from service.openapi import install_openapi
from service.playground import mount_playground
from service.routers import SYSTEMS, dice
from service.routing import ResolverRoute, UnsupportedMediaType, resolver_paths
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


#: FastAPI's own layers outside the user middleware that the shortcut may skip: the 500 page (the
#: edge answers errors first), the telemetry exception hook (skipped only while no telemetry is
#: configured) and the app-wide body limit (skipped only when the app sets none).
_SKIPPABLE = {
    f"{ServerErrorMiddleware.__module__}.ServerErrorMiddleware",
    "fastapi.telemetry._asgi.ExceptionTelemetryMiddleware",
    "fastapi._body_limit.AppBodyLimitMiddleware",
}


class Dragonroll(FastAPI):
    """The app object uvicorn calls, with one shortcut: a POST to a resolver path.

    Through FastAPI, a resolver POST passes three layers that only hand it on (the 500 page, the
    telemetry hook, the app-wide body limit), the edge, the exception middleware and the router,
    which matches an included router's routes twice, before the route's ``handle`` answers it. The
    shortcut looks the path up in a dict and runs the SAME edge instance (request id, headers, CORS,
    body limit, 500 fallback, access line, metrics) straight around the route's ``handle``, errors
    answered by the app's handlers as the exception middleware would. A request then costs 1.3x to
    2.2x fewer instructions (docs/performance.md, "The shortcut for resolver POSTs");
    ``tests/service/test_dispatch.py`` and
    ``tests/properties/test_every_endpoint.py`` compare its answers, logs and metrics with FastAPI's
    path. That path takes everything else, and every request when the stack holds a layer the
    shortcut would skip (a middleware added after ``create_app``, an app-wide body limit), when
    FastAPI's telemetry is on, or when the stack no longer has the shape checked here.
    """

    _routes: dict[str, ResolverRoute] | None = None
    _edge: EdgeMiddleware | None = None
    _handlers: dict[Any, Any]
    _telemetry_possible = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            if self._routes is None:
                self._routes = self._shortcut()
            if self.root_path:
                scope["root_path"] = self.root_path
            route = self._routes.get(get_route_path(scope)) if self._routes else None
            if route is not None and not (
                self._telemetry_possible and self._native_telemetry.enabled()
            ):
                assert self._edge is not None
                scope["app"] = self
                await self._edge.serve(scope, receive, send, partial(self._answer, route))
                return
        await super().__call__(scope, receive, send)

    async def _answer(
        self, route: ResolverRoute, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """``route``'s answer, errors through the app's handlers, as the router and Starlette's
        exception middleware would give it."""
        scope["route"], scope["endpoint"], scope["path_params"] = route, route.endpoint, {}
        try:
            await route.handle(scope, receive, send)
        except Exception as exc:
            handler = next(
                (self._handlers[c] for c in type(exc).__mro__ if c in self._handlers), None
            )
            if handler is None:
                raise
            response = await handler(Request(scope, receive), exc)
            await response(scope, receive, send)

    def _shortcut(self) -> dict[str, ResolverRoute]:
        """The resolver routes by path, if the built stack is [skippable layers], the edge, the
        exception middleware; else nothing (every request takes FastAPI's path)."""
        if self.middleware_stack is None:
            self.middleware_stack = self.build_middleware_stack()
        config = self._telemetry
        self._telemetry_possible = bool(config["tracing"] or config["metrics"] or config["logs"])
        layer: Any = self.middleware_stack
        while f"{type(layer).__module__}.{type(layer).__name__}" in _SKIPPABLE and not (
            type(layer).__name__ == "AppBodyLimitMiddleware" and self.max_body_size is not None
        ):
            layer = layer.app
        if not (isinstance(layer, EdgeMiddleware) and isinstance(layer.app, ExceptionMiddleware)):
            return {}
        self._edge = layer
        # The exception middleware's handlers, the catch-all ``Exception`` one aside (the edge
        # answers what no other handler does, as it does on FastAPI's path).
        self._handlers = {
            key: value
            for key, value in self.exception_handlers.items()
            if isinstance(key, type) and key is not Exception
        }
        return dict(resolver_paths(self.router.routes))


def create_app(settings: Settings | None = None) -> Dragonroll:
    """The service: the systems' routers, the docs, health and metrics, one edge middleware, and
    the problem handlers."""
    settings = settings or Settings()
    log = make_logger(settings)
    access_line = make_access_line(settings)
    app = Dragonroll(
        title="dragonroll",
        version=VERSION,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=_lifespan(log, access_line),
        telemetry=(None if settings.otel else {"tracing": False, "metrics": False, "logs": False}),
    )
    app.state.settings = settings
    dice.configure(settings)  # the /dice shorthands (a process-wide table: the last app's)
    for router in SYSTEMS:
        app.include_router(router)
    mount_docs(app)
    mount_playground(app)
    install_openapi(app)
    health.add_health_routes(app)
    app.state.metrics = metrics = _add_metrics(app) if settings.metrics else None
    # One pure ASGI layer outside FastAPI's exception handling (see service.middleware).
    app.add_middleware(
        EdgeMiddleware,
        logger=log,
        metrics=metrics,
        quiet_paths=frozenset({*health.PATHS, *(["/metrics"] if metrics else [])}),
        log_requests=LEVELS[settings.log_level] <= LEVELS["info"],
        body_limit=settings.body_limit,
        cors=cors_policy(
            settings.cors_origins,
            private_network=settings.cors_private_network,
        ),
        access_line=access_line,
    )
    _add_problem_handlers(app, log)
    return app


def _lifespan(log: Any, access_line: AccessLine | None) -> Any:
    """Ready once the dice pass their self-test; the buffered request lines flushed at the end."""

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
                compiled_modules=len(health.compiled_modules()),
            )
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

    return lifespan


def _add_metrics(app: FastAPI) -> Metrics:
    """The registry, labelled with the systems of the resolver routes, served at ``/metrics``."""
    # The resolver routes inside the included routers (app.routes holds FastAPI's wrappers).
    metrics = Metrics(sorted({route.system for _, route in resolver_paths(app.router.routes)}))

    async def serve_metrics(request: Request) -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    app.add_route("/metrics", serve_metrics, methods=["GET"], include_in_schema=False)
    return metrics


def _add_problem_handlers(app: FastAPI, log: Any) -> None:
    """Every error the app raises answered as an RFC 9457 problem (``service.problems``)."""

    async def on_error(request: Request, exc: Exception) -> Response:
        # Reached only when the edge middleware lets an exception out: it logged the app's errors.
        if request.scope.get(LOGGED_KEY) is not exc:
            log.error(
                "unhandled exception", request_id=request.scope.get("request_id"), exc_info=exc
            )
        return _problem_response(request, problems.problem("internal-error", INTERNAL_ERROR))

    app.add_exception_handler(ValidationError, _on_validation)
    app.add_exception_handler(RulesError, _on_rules)
    app.add_exception_handler(UnsupportedMediaType, _on_media)
    app.add_exception_handler(HTTPException, _on_http)
    app.add_exception_handler(Exception, on_error)


async def _on_validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ValidationError)
    return _problem_response(request, problems.from_validation_error(exc))


async def _on_rules(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RulesError)
    return _problem_response(request, problems.from_rules_error(exc))


async def _on_media(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, UnsupportedMediaType)
    detail = f"Content-Type {exc.content_type!r} is not JSON: send 'Content-Type: application/json'"
    return _problem_response(request, problems.problem("unsupported-media-type", detail))


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
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
        else {"type": "about:blank", "title": detail, "status": exc.status_code, "detail": detail}
    )
    return _problem_response(request, body, headers=exc.headers)


app = create_app()
