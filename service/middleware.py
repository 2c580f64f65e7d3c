"""Cross-cutting request handling: ONE pure ASGI middleware (STYLE 4), no ``BaseHTTPMiddleware``.

:class:`EdgeMiddleware` sits outside FastAPI's exception handling and does, per HTTP request:

- the request id: ``X-Request-ID`` when it is 1-128 of ``[A-Za-z0-9._-]``, made otherwise; put in
  ``scope["request_id"]`` (the problem renderer copies it into problem bodies) and on every response;
- the security headers (nosniff, no-referrer) on every response;
- CORS, with the policy and the preflight answers of Starlette's ``CORSMiddleware`` (used as a
  library, not as another layer: the work is done only when the request has an ``Origin``);
- the body limit: ``Content-Length`` checked up front, and bytes counted as they arrive so a chunked
  body cannot slip past (``BodyTooLarge`` becomes a 413 problem);
- the last resort for unexpected exceptions: a 500 problem with the request id, the traceback logged
  with it, never shown;
- the canonical log line and the metrics (health and metrics requests pass quietly).

One layer instead of four keeps the hot path short: a dict of the request headers, a ``send`` that
adds the headers (:class:`_Sender`), a counting ``receive``. Only ``http.response.start`` is touched;
bodies stream through unbuffered. A resolver POST reaches it straight from the app object
(``service.app.Dragonroll``), which has it answered by the route itself; every other request comes
through FastAPI's stack and goes on to its exception handling and router.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import get_route_path  # type: ignore[attr-defined]
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import problems
from service.logs import AccessLine
from service.metrics import PREFLIGHT, UNMATCHED, Metrics
from service.routing import BodyTooLarge, resolver_paths

REQUEST_ID = re.compile(rb"[A-Za-z0-9._\-]{1,128}")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
#: scope keys the problem renderers fill for the metrics: the problem kind and the limit it hit.
PROBLEM_KEY = "dragonroll.problem"
LIMIT_KEY = "dragonroll.limit"
#: scope key: the exception the edge logged before letting it out (the response had started).
LOGGED_KEY = "dragonroll.logged"
#: scope key: the interface a request came through when not HTTP (``"mcp"``, set by service.mcp).
VIA_KEY = "dragonroll.via"


def stamp_problem(body: dict[str, Any], scope: Scope, path: str) -> str:
    """Give a problem its ``instance`` and ``request_id``, note its kind for the access line and
    the metrics, and return that kind. Every problem response, from middleware or handler, goes
    through here."""
    body.setdefault("instance", path)
    request_id = scope.get("request_id")
    if request_id is not None:
        body.setdefault("request_id", request_id)
    kind: str = body["type"].rsplit("/", 1)[-1]
    scope[PROBLEM_KEY] = kind
    return kind


INTERNAL_ERROR = (
    "the service failed to resolve this request; the error was logged with its request id"
)


def cors_policy(origins: tuple[str, ...], private_network: bool = True) -> CORSMiddleware:
    """Any origin by default, never credentials, GET/POST/OPTIONS, preflights cached for a day.

    ``private_network`` answers Chrome's Private Network Access preflight
    (``Access-Control-Request-Private-Network: true``, sent when a page served from the internet calls
    a service on a private address, such as a self-hosted dragonroll) with
    ``Access-Control-Allow-Private-Network: true``; without it such a preflight is a 400.
    """

    async def unused(scope: Scope, receive: Receive, send: Send) -> None:  # pragma: no cover
        raise NotImplementedError

    return CORSMiddleware(
        unused,
        allow_origins=list(origins),
        allow_credentials=False,
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Content-Type", "X-Request-ID"],
        expose_headers=["X-Request-ID"],
        max_age=86400,
        allow_private_network=private_network,
    )


class EdgeMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        logger: Any,
        metrics: Metrics | None,
        quiet_paths: frozenset[str],
        log_requests: bool,
        body_limit: int,
        cors: CORSMiddleware,
        access_line: AccessLine | None = None,
    ) -> None:
        self.app = app
        #: The request line written directly (JSON format, ``service.logs.make_access_line``).
        self.access_line = access_line
        self.log = logger
        self.metrics = metrics
        self.quiet = quiet_paths
        self.log_requests = log_requests
        self.limit = body_limit
        self.cors = cors
        # With an allow-list the answer depends on the Origin: tell caches so on every response.
        # (Starlette's CORS code adds it itself when the request has an Origin.)
        vary = () if cors.allow_all_origins else ((b"vary", b"Origin"),)
        self.extra: tuple[tuple[bytes, bytes], ...] = (*SECURITY_HEADERS, *vary)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.serve(scope, receive, send, self.app)

    async def serve(self, scope: Scope, receive: Receive, send: Send, app: ASGIApp) -> None:
        """One HTTP request, answered by ``app``: the stack this middleware wraps, or a resolver
        route (``service.app.Dragonroll`` calls this for a resolver POST)."""
        headers = dict(scope["headers"])
        sender = self._sender(scope, headers, send)
        if scope["path"] in self.quiet:
            await app(scope, receive, sender)
            return
        start = time.perf_counter()
        try:
            if sender.cors_headers is not None and (
                scope["method"] == "OPTIONS" and b"access-control-request-method" in headers
            ):
                preflight = self.cors.preflight_response(request_headers=sender.cors_headers)
                await preflight(scope, receive, sender)
            elif self._announced_too_large(headers):
                await self._too_large(scope, sender)
            else:
                await self._answer(app, scope, self._counted(receive), sender)
        finally:
            self._record(scope, sender.status, time.perf_counter() - start)

    def _sender(self, scope: Scope, headers: dict[bytes, bytes], send: Send) -> _Sender:
        """The request id noted in the scope, and the ``send`` that adds it and the edge's headers
        (the CORS ones too when the request has an ``Origin``)."""
        rid = _request_id(headers, scope)
        if b"origin" in headers:
            extra = ((b"x-request-id", rid), *SECURITY_HEADERS)
            return _Sender(send, extra, self.cors, Headers(scope=scope))
        return _Sender(send, ((b"x-request-id", rid), *self.extra))

    def _counted(self, receive: Receive) -> Receive:
        """``receive``, raising :class:`BodyTooLarge` once the body's bytes pass the limit (a
        chunked body announces no length)."""
        limit = self.limit
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        return counted_receive

    async def _answer(self, app: ASGIApp, scope: Scope, receive: Receive, sender: _Sender) -> None:
        """``app``'s answer; an exception it lets out answered here (413 or 500) and logged."""
        try:
            await app(scope, receive, sender)
        except Exception as exc:
            await self._on_exception(scope, sender, exc, started=sender.started)

    def _announced_too_large(self, headers: dict[bytes, bytes]) -> bool:
        length = headers.get(b"content-length")
        return length is not None and length.isdigit() and int(length) > self.limit

    async def _on_exception(
        self, scope: Scope, send: Send, exc: Exception, *, started: bool
    ) -> None:
        if isinstance(exc, BodyTooLarge) and not started:
            await self._too_large(scope, send)
            return
        self.log.error(
            "unhandled exception"
            if not started
            else "unhandled exception after the response started",
            request_id=scope.get("request_id"),
            method=scope["method"],
            path=scope["path"],
            exc_info=exc,
        )
        if started:
            scope[LOGGED_KEY] = exc  # the app's last-resort handler need not log it again
            raise exc
        await send_problem(scope, send, problems.problem("internal-error", INTERNAL_ERROR))

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("route")
        if route is None and scope.get(LIMIT_KEY) == "body_size":
            route = _route_of(scope)  # turned away by its Content-Length before routing
        method: str = scope["method"]
        if route is not None:
            label: str = route.path
            system: str | None = getattr(route, "system", None)
        else:
            label = PREFLIGHT if _is_preflight(scope) else UNMATCHED
            system = None
        if VIA_KEY in scope:  # a tool call's request (service.mcp): "mcp:/dos/test"
            label = f"{scope[VIA_KEY]}:{label}"
        if self.metrics is not None:
            self.metrics.observe(
                label, method, status, seconds, system, scope.get(PROBLEM_KEY), scope.get(LIMIT_KEY)
            )
        if self.access_line is not None:
            self.access_line(
                method,
                label,
                scope["path"],
                status,
                round(seconds * 1_000_000),
                scope["request_id"],
                system,
            )
        elif self.log_requests:
            self.log.info(
                "request",
                method=method,
                route=label,
                path=scope["path"],
                status=status,
                duration_ms=round(seconds * 1_000_000) / 1000,
                request_id=scope["request_id"],
                system=system,
            )

    async def _too_large(self, scope: Scope, send: Send) -> None:
        scope[LIMIT_KEY] = "body_size"
        detail = f"the request body is larger than the limit of {self.limit} bytes"
        await send_problem(
            scope,
            send,
            problems.problem("payload-too-large", detail),
            headers=((b"connection", b"close"),),
        )


def _request_id(headers: dict[bytes, bytes], scope: Scope) -> bytes:
    """The request's ``X-Request-ID`` when it is well formed, else a new one; noted in the scope."""
    rid = headers.get(b"x-request-id")
    if rid is None or not REQUEST_ID.fullmatch(rid):
        rid = os.urandom(16).hex().encode("ascii")
    scope["request_id"] = rid.decode("ascii")
    return rid


class _Sender:
    """The ``send`` an answer goes through: adds the request id and the security headers (and, for
    a request with an ``Origin``, the CORS headers) to the response start, and notes whether it
    started and with which status, for the error path, the access line and the metrics."""

    __slots__ = ("cors", "cors_headers", "extra", "send", "started", "status")

    def __init__(
        self,
        send: Send,
        extra: tuple[tuple[bytes, bytes], ...],
        cors: CORSMiddleware | None = None,
        cors_headers: Headers | None = None,
    ) -> None:
        self.send = send
        self.extra = extra
        self.cors = cors
        self.cors_headers = cors_headers
        self.started = False
        self.status = 500

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            self.status = message["status"]
            message["headers"] = [*message.get("headers", ()), *self.extra]
            if self.cors is not None and self.cors_headers is not None:
                await self.cors.send(message, self.send, request_headers=self.cors_headers)
                return
        await self.send(message)


def _route_of(scope: Scope) -> Any:
    """The resolver route a POST was for, when it was answered before routing (a 413 by its
    Content-Length): its metrics and access line then name the route, as a chunked body's 413 does."""
    app = scope.get("app")
    if scope["method"] != "POST" or app is None:
        return None
    path = get_route_path(scope)
    return next((route for p, route in resolver_paths(app.router.routes) if p == path), None)


def _is_preflight(scope: Scope) -> bool:
    if scope["method"] != "OPTIONS":
        return False
    return any(name == b"access-control-request-method" for name, _ in scope["headers"])


async def send_problem(
    scope: Scope,
    send: Send,
    body: dict[str, Any],
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    """Send a problem+json response straight from middleware (outside FastAPI's handlers)."""
    stamp_problem(body, scope, scope["path"])
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
