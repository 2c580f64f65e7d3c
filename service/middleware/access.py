"""The request id, the security headers, and one access line per request."""

from __future__ import annotations

import os
import re
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.metrics import route_label
from service.problems import PROBLEM_KEY
from service.routing import SYSTEM_KEY

REQUEST_ID = re.compile(rb"[A-Za-z0-9._\-]{1,128}")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def request_id(scope: Scope) -> bytes:
    """The request's ``X-Request-ID`` when it is 1-128 of ``[A-Za-z0-9._-]``, else a new one;
    noted in ``scope["request_id"]`` (problems copy it into their bodies)."""
    rid: bytes | None = None
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            rid = value
            break
    if rid is None or not REQUEST_ID.fullmatch(rid):
        rid = os.urandom(16).hex().encode("ascii")
    scope["request_id"] = rid.decode("ascii")
    return rid


class RequestIdAndAccessLine:
    """Every HTTP response carries the request id and the security headers; every request but
    those to ``quiet`` paths (health, metrics) is logged once, at info, when it ends: method,
    route template, path, status (499 when the client went away first), duration, request id,
    system."""

    def __init__(self, app: ASGIApp, *, logger: Any, quiet: frozenset[str], log: bool) -> None:
        self.app = app
        self.log = logger
        self.quiet = quiet
        self.log_requests = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = ((b"x-request-id", request_id(scope)), *SECURITY_HEADERS)
        status = 500

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        if not self.log_requests or scope["path"] in self.quiet:
            await self.app(scope, receive, send_with_headers)
            return
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            access_line(self.log, scope, status, time.perf_counter() - start)


def access_line(log: Any, scope: Scope, status: int, seconds: float) -> None:
    """A request's access line, at info: method, route label, path, status, duration, request
    id, system, and the problem's kind when it was refused (what the middleware writes for each
    HTTP request, and an MCP call over stdio for each call)."""
    problem = scope.get(PROBLEM_KEY)
    log.info(
        "request",
        method=scope["method"],
        route=route_label(scope),
        path=scope["path"],
        status=status,
        duration_ms=round(seconds * 1_000_000) / 1000,
        request_id=scope["request_id"],
        system=scope.get(SYSTEM_KEY),
        **({"problem": problem} if problem is not None else {}),
    )
