"""The Prometheus metrics of every request (``service.metrics`` holds and renders them)."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.metrics import Metrics


class RequestMetrics:
    """Counts each request (but those to ``quiet`` paths) by route template, method, status class,
    and for the endpoints by system and outcome, with its latency; a problem's kind and the limit
    it reports come from the scope (``service.problems.stamp``)."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics, quiet: frozenset[str]) -> None:
        self.app = app
        self.metrics = metrics
        self.quiet = quiet

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.quiet:
            await self.app(scope, receive, send)
            return
        status = 500

        async def noting_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        start = time.perf_counter()
        try:
            await self.app(scope, receive, noting_send)
        finally:
            self.metrics.observe_request(scope, status, time.perf_counter() - start)
