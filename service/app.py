"""The application factory (STYLE 5): nothing happens at import time but definitions and ``app``.

The app is a plain ``FastAPI``: every request goes through its documented stack (Starlette's error
middleware, the middlewares added here, FastAPI's exception handlers, its router) to an endpoint
function FastAPI calls (``service.routing``).
"""

from __future__ import annotations

import asyncio
import gc
import signal
import threading
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response

from rules import registry
from rules.dice import RNG
from rules.narration import texts_of
from rules.registry import SYSTEMS
from rules.system import System
from service import health, pipeline, problems
from service.clients import Clients
from service.docs import mount_docs
from service.endpoints import endpoints
from service.favicon import mount_favicon
from service.foundry import mount_foundry
from service.lanes import HeavyLane
from service.logs import LEVELS, make_logger
from service.mcp import mount_mcp
from service.metrics import CONTENT_TYPE, Metrics
from service.middleware.access import RequestIdAndAccessLine
from service.middleware.answers import Held, UnreadAnswers
from service.middleware.cors import Cors
from service.middleware.errors import LastResort
from service.middleware.limits import BodyLimit
from service.middleware.metrics import RequestMetrics
from service.openapi import install_openapi
from service.owlbear import mount_owlbear
from service.playground import mount_playground
from service.routing import install
from service.settings import Settings
from service.systems import add_systems_route

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


def create_app(
    settings: Settings | None = None, systems: Iterable[System] | None = None
) -> FastAPI:
    """The service: the systems' routes (``systems``, the registry's by default: a test may serve
    others), ``GET /systems``, the docs, health and metrics, the middlewares (one job each,
    ``service.middleware``), and the problem handlers (``service.problems``)."""
    settings = settings or Settings()
    # This app's own descriptors: a system that reads dice notation over this deployment's
    # shorthands (DRAGONROLL_DICE_SHORTHANDS), every other the registry's itself.
    given = SYSTEMS if systems is None else systems
    served = registry.served(system.configured(settings.dice_shorthands) for system in given)
    log = make_logger(settings)
    app = FastAPI(
        title="dragonroll",
        version=VERSION,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=_lifespan(log, settings),
        # /dos/roll/ is a 404 problem, not a redirect built from the Host header
        redirect_slashes=False,
        telemetry=(None if settings.otel else {"tracing": False, "metrics": False, "logs": False}),
    )
    app.state.settings = settings
    app.state.lane = _heavy_lane(app, settings)
    app.state.held = Held(settings.unread_answer_bytes)
    app.state.clients = Clients(settings.trusted_proxies)
    app.state.systems = served
    # The narration of this app's systems, and their endpoints, each holding its entry.
    install(app, served, texts_of(served))
    add_systems_route(app, served)
    mount_docs(app)
    mount_playground(app)
    mount_foundry(app)
    mount_mcp(app)
    mount_owlbear(app)
    mount_favicon(app)
    install_openapi(app)
    health.add_health_routes(app)
    metrics = _add_metrics(app) if settings.metrics else None
    app.state.metrics = metrics
    quiet = frozenset({*health.PATHS, *(["/metrics"] if metrics else [])})
    # add_middleware puts each one outside those added before it: the last is the outermost.
    app.add_middleware(LastResort, logger=log)
    app.add_middleware(BodyLimit, limit=settings.body_limit)
    app.add_middleware(UnreadAnswers, held=app.state.held, exempt=health.PATHS)
    app.add_middleware(
        Cors, origins=settings.cors_origins, private_network=settings.cors_private_network
    )
    if metrics is not None:
        app.add_middleware(RequestMetrics, metrics=metrics, quiet=quiet)
    app.add_middleware(
        RequestIdAndAccessLine,
        logger=log,
        quiet=quiet,
        log=LEVELS[settings.log_level] <= LEVELS["info"],
    )
    problems.install_handlers(app)
    return app


def _heavy_lane(app: FastAPI, settings: Settings) -> HeavyLane:
    return HeavyLane(
        partial(pipeline.run_job, partial(endpoints, app)),
        workers=settings.heavy_workers,
        queue=settings.heavy_queue,
        cpu_seconds=settings.job_cpu_seconds,
        warm=partial(_warm, app),
        per_client=settings.heavy_per_client,
        client_queue=settings.heavy_client_queue,
    )


def _warm(app: FastAPI) -> None:
    for endpoint in endpoints(app).values():
        endpoint.warm()


#: The signals at which the service drains (uvicorn stops at both).
_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: Seconds before the server's graceful timeout at which running heavy jobs are ended, so that their
#: requests are answered (a 503) before the server cancels them.
_DRAIN_MARGIN = 0.5


def _lifespan(log: Any, settings: Settings) -> Any:
    """Ready once the dice pass their self-test and everything a first request would build is
    built (the catalogs, the OpenAPI document); the heavy lane's workers started, and drained at
    SIGTERM (shared/DESIGN.md, "Two lanes")."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        failed = health.dice_self_test()
        # What every endpoint builds once (its texts' catalogs: about a second of CPU), built
        # before the workers are forked: they share it, a replacement included, and no job pays
        # for it. (Built in a worker instead, every replacement would cost that second again: a
        # caller hanging up would cost the service a second of CPU.)
        _warm(app)
        # The OpenAPI document too (GET /openapi.json, MCP's describe_endpoint): 0.46 s of CPU,
        # which the first GET /openapi.json spent on the loop while /livez waited.
        app.openapi()
        # Everything built so far (modules, schemas, the app) lives as long as the process: move it
        # out of the collector's reach, so a full collection walks only what requests create (on
        # this machine a full collection took ~20 ms before, a pause every few thousand requests),
        # and the forked workers share its pages with the server.
        gc.collect()
        gc.freeze()
        lane: HeavyLane = app.state.lane
        lane.start(warm=True)
        restore = _drain_at_stop(lane, max(settings.graceful_timeout - _DRAIN_MARGIN, 0.0), log)
        if failed:
            log.error("dice self-test failed: not ready", rng=RNG, streams=failed)
        else:
            app.state.ready = True
            log.info(
                "ready",
                rng=RNG,
                self_test_streams=len(health.VECTORS),
                compiled_modules=len(health.compiled_modules()),
                heavy_workers=len(lane.workers),
            )
        try:
            yield
        finally:
            app.state.ready = False
            restore()
            lane.close()
            log.info("stopping")

    return lifespan


def _drain_at_stop(lane: HeavyLane, deadline: float, log: Any) -> Any:
    """At SIGTERM (or SIGINT), before the server's own handler: the lane drains (its queue answered
    503 at once, its running jobs ended ``deadline`` seconds later). Returns what undoes it. Only
    the main thread has signals: an app served elsewhere (a test's client) has no draining."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    previous: dict[int, Any] = {sig: signal.getsignal(sig) for sig in _STOP_SIGNALS}

    def on_stop(sig: int, frame: Any) -> None:
        if not lane.draining:
            loop.call_soon_threadsafe(lane.drain, deadline)
            log.info("draining", queued=len(lane.waiting), running=lane.busy())
        handler = previous[sig]
        if callable(handler):
            handler(sig, frame)
        elif handler == signal.SIG_DFL:  # nobody else stops the process: as it would have
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in _STOP_SIGNALS:
        signal.signal(sig, on_stop)

    def restore() -> None:
        for sig, handler in previous.items():
            if signal.getsignal(sig) is on_stop:
                signal.signal(sig, handler)

    return restore


def _add_metrics(app: FastAPI) -> Metrics:
    systems = sorted({endpoint.system for endpoint in endpoints(app).values()})
    metrics = Metrics(systems, lane=app.state.lane, held=app.state.held)

    async def serve_metrics(request: Request) -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    app.add_route("/metrics", serve_metrics, methods=["GET"], include_in_schema=False)
    return metrics


def __getattr__(name: str) -> Any:
    """``service.app:app`` (``uvicorn service.app:app``, ``from service.app import app``): built on
    first use and kept, not on import, so that a process importing this module for
    :func:`create_app` (the server, its tests, the MCP's stdio) does not pay for an app it never
    serves (about 0.3 s of CPU)."""
    if name == "app":
        built = globals()["app"] = create_app()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
