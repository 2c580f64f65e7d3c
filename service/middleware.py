"""Cross-cutting request handling as pure ASGI middleware (STYLE 4): no ``BaseHTTPMiddleware``.

The stack, outermost first (``service.app.create_app`` wires it):

1. :class:`RequestContextMiddleware`: the request id (``X-Request-ID`` when well-formed, made
   otherwise; ``scope["request_id"]``), the security headers and the id on every response, the
   canonical log line and the metrics. Health and metrics requests pass quietly.
2. Starlette's ``CORSMiddleware`` (pure ASGI): preflights are answered there, and every response it
   lets through, problems included, carries the CORS headers.
3. :class:`GuardMiddleware`: the body limit (``Content-Length`` checked up front, and bytes counted
   as they arrive, so a chunked body cannot slip past) and the last resort for unexpected
   exceptions: a 500 problem with the request id, the traceback logged, never shown.

Only ``http.response.start`` messages are touched; bodies stream through unbuffered.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import problems
from service.metrics import PREFLIGHT, UNMATCHED, Metrics

REQUEST_ID = re.compile(rb"[A-Za-z0-9._\-]{1,128}")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
#: scope keys the problem renderer fills for the metrics: the problem kind and the limit it hit.
PROBLEM_KEY = "dragonroll.problem"
LIMIT_KEY = "dragonroll.limit"
INTERNAL_ERROR = (
    "the service failed to resolve this request; the error was logged with its request id"
)


class BodyTooLarge(HTTPException):
    """The body grew past the limit while it was being read (rendered as a 413 problem)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than the limit of {limit} bytes")


def request_id_of(scope: Scope) -> bytes:
    """The caller's ``X-Request-ID`` when it is 1-128 of ``[A-Za-z0-9._-]``, else a new one."""
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            if REQUEST_ID.fullmatch(value):
                return bytes(value)
            break
    return os.urandom(16).hex().encode("ascii")


class RequestContextMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        logger: Any,
        metrics: Metrics | None,
        quiet_paths: frozenset[str],
        log_requests: bool,
    ) -> None:
        self.app = app
        self.log = logger
        self.metrics = metrics
        self.quiet = quiet_paths
        self.log_requests = log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = request_id_of(scope)
        scope["request_id"] = request_id = rid.decode("ascii")
        extra = ((b"x-request-id", rid), *SECURITY_HEADERS)
        status = 500

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        if scope["path"] in self.quiet:
            await self.app(scope, receive, send_with_headers)
            return
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            seconds = time.perf_counter() - start
            route = scope.get("route")
            method: str = scope["method"]
            if route is not None:
                label: str = route.path
                system: str | None = getattr(route, "system", None)
            else:
                label = PREFLIGHT if _is_preflight(scope) else UNMATCHED
                system = None
            if self.metrics is not None:
                self.metrics.observe(
                    label,
                    method,
                    status,
                    seconds,
                    system=system,
                    problem=scope.get(PROBLEM_KEY),
                    limit=scope.get(LIMIT_KEY),
                )
            if self.log_requests:
                self.log.info(
                    "request",
                    method=method,
                    route=label,
                    path=scope["path"],
                    status=status,
                    duration_ms=round(seconds * 1000, 3),
                    request_id=request_id,
                    system=system,
                )


def _is_preflight(scope: Scope) -> bool:
    if scope["method"] != "OPTIONS":
        return False
    return any(name == b"access-control-request-method" for name, _ in scope["headers"])


class GuardMiddleware:
    def __init__(self, app: ASGIApp, *, body_limit: int, logger: Any) -> None:
        self.app = app
        self.limit = body_limit
        self.log = logger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        for name, value in scope["headers"]:
            if name == b"content-length":
                if value.isdigit() and int(value) > limit:
                    await self._too_large(scope, send)
                    return
                break
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except Exception as exc:
            if started:
                self.log.error(
                    "unhandled exception after the response started",
                    request_id=scope.get("request_id"),
                    path=scope["path"],
                    exc_info=exc,
                )
                raise
            if isinstance(exc, BodyTooLarge):
                await self._too_large(scope, send)
                return
            self.log.error(
                "unhandled exception",
                request_id=scope.get("request_id"),
                method=scope["method"],
                path=scope["path"],
                exc_info=exc,
            )
            await send_problem(scope, send, problems.problem("internal-error", INTERNAL_ERROR))

    async def _too_large(self, scope: Scope, send: Send) -> None:
        scope[LIMIT_KEY] = "body_size"
        detail = f"the request body is larger than the limit of {self.limit} bytes"
        await send_problem(
            scope,
            send,
            problems.problem("payload-too-large", detail),
            headers=((b"connection", b"close"),),
        )


async def send_problem(
    scope: Scope,
    send: Send,
    body: dict[str, Any],
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    """Send a problem+json response straight from middleware (outside FastAPI's handlers)."""
    body.setdefault("instance", scope["path"])
    request_id = scope.get("request_id")
    if request_id is not None:
        body.setdefault("request_id", request_id)
    scope[PROBLEM_KEY] = body["type"].rsplit("/", 1)[-1]
    payload = problems.encode(body)
    await send(
        {
            "type": "http.response.start",
            "status": body["status"],
            "headers": [
                (b"content-type", problems.PROBLEM_JSON.encode("ascii")),
                (b"content-length", str(len(payload)).encode("ascii")),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
