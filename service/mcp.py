"""The Model Context Protocol server: the service's endpoints as tools, for AI assistants.

Served at ``/mcp`` (streamable HTTP, stateless: no session, any replica answers any request, JSON
answers) and over stdio (``dragonroll mcp``, ``service.mcp_stdio``), on the official ``mcp`` SDK's
low-level server. The same :func:`make_server` answers both:

- **tools** (``service.mcp_tools``): one per system, taking ``endpoint`` and ``request`` (that
  endpoint's JSON body), and ``describe_endpoint``; the whole list is about 9 KB of JSON;
- a **call** is answered by :func:`answer`, the one function that runs an endpoint for MCP, with
  the raw bytes of the request as the client sent them (``service.mcp_wire``): the same
  validation, duplicate-key check, work budget, heavy lane and answer bound as an HTTP request.
  Its refusals are the app's own problems (rendered by the app's exception handlers), as an
  ``isError`` result; each call has its access line and metrics, the route written
  ``mcp:/dos/test``. The result carries the answer once, as ``structuredContent`` (spliced in as
  the endpoint's bytes, never parsed and re-written), with the events' sentences as its text;
- **resources**: each system's rules page, the dice specification and the OpenAPI document.

Over HTTP (:class:`Transport`) the ``Host`` and ``Origin`` headers are checked against the loopback
names and the configured public URL and CORS origins (DNS rebinding), and anything but ``POST`` is a
405: there is no stream to listen to and no session to delete.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import mcp_types as types
import orjson
from fastapi import FastAPI
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from rules import budget
from service import metrics, pipeline, problems
from service.endpoints import Endpoint
from service.logs import make_logger
from service.mcp_tools import DESCRIBE, Catalog
from service.mcp_wire import DuplicateKeyIn, EnvelopeRefused, Wire, member
from service.settings import Settings

PATH = "/mcp"
#: scope key marking a tool call (read by the access line and metrics: ``mcp:/dos/test``).
VIA_KEY = metrics.VIA_KEY
#: scope key of an HTTP request's :class:`~service.mcp_wire.Wire`.
WIRE_KEY = "dragonroll.mcp.wire"
#: The pages served as resources: in the package when installed from a wheel (setup.py copies
#: them there), else the repository's docs/.
_PACKAGED = Path(__file__).parent / "pages"
_SOURCE = Path(__file__).parent.parent / "docs"
OPENAPI_URI = "dragonroll://openapi.json"
#: The longest text a result carries beside its structured content (the events' sentences).
TEXT_LIMIT = 8192
#: The largest answer without texts whose probabilities the text lists.
SUMMARY_LIMIT = 64 * 1024

#: An awaitable function that returns once the caller has gone away.
Gone = Callable[[], Awaitable[Any]]
#: How often a tool call over HTTP looks whether its caller went away, in seconds.
GONE_POLL = 0.5


async def answer(
    state: Any,
    endpoint: Endpoint,
    body: bytes,
    accept_language: bytes = b"",
    gone: Gone | None = None,
) -> tuple[bytes, str | None]:
    """THE SEAM: an MCP tool call's request answered as an HTTP request to ``endpoint`` is (the
    answer's bytes and the language of its texts; a refusal raised as the HTTP path raises it).

    This is the only place MCP runs an endpoint, and it hands the call to the service's one
    pipeline (``service.pipeline.answer``): validation, duplicate keys, the work budget, the lanes
    (the heavy lane's process pool, its queue and CPU limit), the answer bound. ``gone`` returns
    once the caller has gone away (HTTP; ``None`` on stdio): its job is then dropped or ended."""
    return await pipeline.answer(state, endpoint, body, accept_language, gone)


def pages() -> dict[str, tuple[str, str, Path]]:
    """The rules pages served as resources, by URI: (name, description, file)."""
    root = _PACKAGED if _PACKAGED.is_dir() else _SOURCE
    out: dict[str, tuple[str, str, Path]] = {}
    dice = root / "dice.md"
    if dice.is_file():
        out["dragonroll://docs/dice.md"] = (
            "dice",
            "The dice specification: sha256-v1 slots, seeds, scripted dice, the general roller.",
            dice,
        )
    for page in sorted((root / "systems").glob("*.md")):
        out[f"dragonroll://docs/systems/{page.name}"] = (
            f"rules-{page.stem}",
            f"The rules page of the {page.stem} system: its endpoints, requests and answers.",
            page,
        )
    return out


class Calls:
    """Tool calls answered for one app: arguments read from the raw bytes, the endpoint run
    through :func:`answer`, refusals rendered by the app's exception handlers, an access line and
    metrics for each call."""

    def __init__(self, app: FastAPI, catalog: Catalog) -> None:
        self.app = app
        self.catalog = catalog
        self.log = make_logger(app.state.settings)

    async def call(
        self, ctx: Any, params: types.CallToolRequestParams, wire: Wire | None
    ) -> types.CallToolResult:
        request = getattr(ctx, "request", None)
        outer: Scope = getattr(request, "scope", None) or {}
        found, raw = wire.raw_arguments(ctx.request_id) if wire is not None else (False, None)
        if not found and params.arguments is not None:  # a transport without a raw side
            raw = orjson.dumps(params.arguments)
        if params.name == DESCRIBE:
            return await self.describe(raw)
        tool = self.catalog.systems.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS, f"no tool named {params.name!r}; tools/list names them all"
            )
        try:
            path, body = _arguments(raw, list(tool.routes))
        except _Refused as refused:
            return _error(problems.encode(refused.problem))
        route = tool.routes[path]
        accept = _header(outer, b"accept-language")
        gone = _gone(request) if isinstance(request, Request) else None
        return await self.run(route.endpoint, body, accept, outer, wire=wire, gone=gone)

    async def run(
        self,
        endpoint: Endpoint,
        body: bytes,
        accept_language: bytes,
        outer: Scope,
        *,
        wire: Wire | None,
        gone: Gone | None,
    ) -> types.CallToolResult:
        """One call of ``endpoint``: its result, its access line, its metrics."""
        scope = _call_scope(endpoint.path, outer)
        start = time.perf_counter()
        status = 200
        try:
            payload, lang = await answer(self.app.state, endpoint, body, accept_language, gone)
            text = _text(payload, lang, endpoint.path)
            # The bound holds for the result as sent: the answer, its text and the envelope.
            budget.check_answer(len(payload) + len(orjson.dumps(text)) + 1024)
            structured = wire.placeholder(payload) if wire is not None else orjson.loads(payload)
            return types.CallToolResult(
                content=[types.TextContent(text=text)], structured_content=structured
            )
        except Exception as exc:
            status, problem = await self.render(exc, scope)
            return _error(problem)
        finally:
            self.note(scope, endpoint, status, time.perf_counter() - start)

    async def render(self, exc: Exception, scope: Scope) -> tuple[int, bytes]:
        """The problem the app answers ``exc`` with over HTTP (its exception handlers; a 500 for
        anything they do not know, logged with its traceback as the last resort logs it)."""
        handlers: dict[Any, Any] = self.app.exception_handlers
        handler = next((handlers[c] for c in type(exc).__mro__ if c in handlers), None)
        if handler is None:
            self.log.error(
                "unhandled exception",
                request_id=scope.get("request_id"),
                method="POST",
                path=scope["path"],
                exc_info=exc,
            )
            body = problems.problem("internal-error", problems.INTERNAL_ERROR)
            return 500, problems.stamp(body, scope)
        response = await handler(Request(scope), exc)
        return response.status_code, bytes(response.body)

    def note(self, scope: Scope, endpoint: Endpoint, status: int, seconds: float) -> None:
        route = f"mcp:{endpoint.path}"
        self.log.info(
            "request",
            method="POST",
            route=route,
            path=endpoint.path,
            status=status,
            duration_ms=round(seconds * 1_000_000) / 1000,
            request_id=scope.get("request_id"),
            system=endpoint.system,
        )
        registry = getattr(self.app.state, "metrics", None)
        if registry is not None:
            registry.observe(
                route,
                "POST",
                status,
                seconds,
                endpoint.system,
                scope.get(problems.PROBLEM_KEY),
                scope.get(problems.LIMIT_KEY),
            )

    async def describe(self, raw: bytes | None) -> types.CallToolResult:
        paths = [path for tool in self.catalog.systems.values() for path in tool.routes]
        try:
            path, _ = _arguments(raw, paths, body=False)
        except _Refused as refused:
            return _error(problems.encode(refused.problem))
        # The OpenAPI document is built once, on the first describe (about a second): off the loop.
        text = await anyio.to_thread.run_sync(self.catalog.describe, path)
        return types.CallToolResult(content=[types.TextContent(text=text)])


def _gone(request: Request) -> Gone:
    """Returns once the HTTP client of ``request`` has gone away (its body is read by then)."""

    async def gone() -> None:
        while not await request.is_disconnected():
            await anyio.sleep(GONE_POLL)

    return gone


class _Refused(Exception):
    def __init__(self, problem: dict[str, Any]) -> None:
        super().__init__(problem["detail"])
        self.problem = problem


def _refuse(where: str, msg: str, kind: str = "validation-error") -> _Refused:
    errors = [{"loc": ["arguments", *([where] if where else [])], "msg": msg}]
    detail = f"arguments.{where}: {msg}" if where else f"arguments: {msg}"
    return _Refused(problems.problem(kind, detail, errors=errors, instance=PATH))


def _arguments(raw: bytes | None, paths: list[str], *, body: bool = True) -> tuple[str, bytes]:
    """The endpoint a call names and its request's raw bytes (a JSON string's text: some hosts
    send a nested object as a string), or the problem with the call's arguments."""
    expected = "an object with `endpoint` and `request`" if body else "an object with `endpoint`"
    if raw is None:
        raise _refuse("", f"missing: the tool takes {expected}")
    allowed = {"endpoint", "request"} if body else {"endpoint"}
    try:
        found, path = member(raw, "endpoint")
        request, value = member(raw, "request")
        keys = set(orjson.loads(raw))
    except DuplicateKeyIn as exc:
        msg = f"the key {exc.key!r} appears twice in one object: send each key once"
        raise _refuse("", msg, "duplicate-key") from None
    except (ValueError, TypeError, AttributeError):
        raise _refuse("", f"not an object: the tool takes {expected}") from None
    for key in sorted(keys - allowed):
        raise _refuse(key, "unknown argument: it is not part of this tool's schema")
    if found is None:
        raise _refuse("endpoint", "required argument is missing")
    if path not in paths:
        raise _refuse("endpoint", f"{path!r} is not one of this tool's: {', '.join(paths)}")
    if not body:
        return path, b""
    if request is None:
        raise _refuse("request", "required argument is missing: the endpoint's JSON body")
    if isinstance(value, str):
        request = value.encode("utf-8")
    return path, request


def _text(payload: bytes, lang: str | None, path: str) -> str:
    """The short text of an answer: its events' sentences; for an answer without texts (odds,
    simulations) its top probabilities when it is small, else where the answer is."""
    lines: list[str] = []
    if lang is not None:
        events = orjson.loads(payload).get("events")
        if isinstance(events, list):
            lines = [e["text"] for e in events if isinstance(e, dict) and e.get("text")]
    elif len(payload) <= SUMMARY_LIMIT:
        lines = list(_probabilities(orjson.loads(payload), ""))[:12]
    where = (
        f"POST {path}: the whole answer is the structured content ({len(payload):,} bytes of JSON)."
    )
    if not lines:
        return where
    text = "\n".join(lines)
    if len(text) > TEXT_LIMIT:
        cut = text.rfind("\n", 0, TEXT_LIMIT)
        shown = text[: cut if cut > 0 else TEXT_LIMIT]
        rest = len(lines) - shown.count("\n") - 1
        text = f"{shown}\n... ({rest} more in the structured content)"
    return text if lang is not None else f"{text}\n{where}"


def _probabilities(node: Any, at: str, depth: int = 0) -> Iterator[str]:
    """``where: p (exact)`` for each probability of an odds answer near its top (none in lists)."""
    if not isinstance(node, dict) or depth > 2:
        return
    if isinstance(node.get("p"), float | int) and isinstance(node.get("exact"), str):
        yield f"{at}: {node['p']} ({node['exact']})"
        return
    for key, value in node.items():
        yield from _probabilities(value, f"{at}.{key}" if at else key, depth + 1)


def _error(problem: bytes | dict[str, Any]) -> types.CallToolResult:
    text = problem.decode("utf-8") if isinstance(problem, bytes) else orjson.dumps(problem).decode()
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)


def _header(scope: Scope, name: bytes) -> bytes:
    return next((v for k, v in scope.get("headers", ()) if k == name), b"")


def _call_scope(path: str, outer: Scope) -> dict[str, Any]:
    """The scope a call's problems are rendered in: the endpoint's path, the MCP request's id (a
    new one on stdio), marked as an MCP call."""
    return {
        "type": "http",
        "method": "POST",
        "path": path,
        "raw_path": path.encode("ascii"),
        "query_string": b"",
        "headers": [(k, v) for k, v in outer.get("headers", ()) if k == b"accept-language"],
        "request_id": outer.get("request_id") or os.urandom(16).hex(),
        VIA_KEY: "mcp",
    }


async def list_resources(
    ctx: Any, params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            *(
                types.Resource(
                    uri=uri,
                    name=name,
                    description=description,
                    mime_type="text/markdown",
                    size=path.stat().st_size,
                )
                for uri, (name, description, path) in pages().items()
            ),
            types.Resource(
                uri=OPENAPI_URI,
                name="openapi",
                description="The OpenAPI document: every endpoint's request and answer schemas.",
                mime_type="application/json",
            ),
        ]
    )


def make_server(app: FastAPI, catalog: Catalog, wire: Wire | None = None) -> Server[Any]:
    """The MCP server of ``app``; ``wire``: the raw side of a transport that has one for the
    whole connection (stdio; over HTTP each request's is in its scope)."""
    calls = Calls(app, catalog)

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=catalog.specs)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        request = getattr(ctx, "request", None)
        scoped = getattr(request, "scope", {}).get(WIRE_KEY) if request is not None else None
        return await calls.call(ctx, params, scoped or wire)

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == OPENAPI_URI:
            doc = await anyio.to_thread.run_sync(app.openapi)
            return types.ReadResourceResult(
                contents=[
                    types.TextResourceContents(
                        uri=uri, mime_type="application/json", text=orjson.dumps(doc).decode()
                    )
                ]
            )
        page = pages().get(uri)
        if page is None:
            raise MCPError(
                types.INVALID_PARAMS, f"no resource {uri}; resources/list names them all"
            )
        text = page[2].read_text(encoding="utf-8")
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="text/markdown", text=text)]
        )

    return Server(
        "dragonroll",
        version=app.version,
        title="dragonroll",
        description="Seeded, replayable tabletop-RPG rules: dice, tests, attacks, odds, fights.",
        instructions=(
            "Each game system is one tool: pass `endpoint` (one of the POST paths its description"
            " lists) and `request` (that endpoint's JSON body). describe_endpoint gives an"
            " endpoint's request schema and an example. Pass a `seed` to make a result"
            " replayable, or `dice` to use dice rolled at the table. The answer is the structured"
            " content, its text the events as sentences. A refused request comes back with"
            " isError and an RFC 9457 problem naming the field (`body` is the request)."
            " The rules pages and the OpenAPI document are resources."
        ),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


# ------------------------------------------------------------------------------ streamable HTTP

#: Host names a local server answers by default (DNS rebinding: a page of another site that
#: resolves to this machine sends its own name as the Host and its own origin as the Origin).
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


class Guard:
    """Which ``Host`` and ``Origin`` a request to ``/mcp`` may carry: the loopback names (any port,
    http or https), the public URL's host and origin (``DRAGONROLL_PUBLIC_URL``), and the origins
    CORS is configured with (``DRAGONROLL_CORS_ORIGINS``; its default ``*`` opens no origin here)."""

    def __init__(self, settings: Settings) -> None:
        self.hosts = set(LOOPBACK)
        self.origins = {o.lower() for o in settings.cors_origins if o != "*"}
        if settings.public_url:
            public = urlsplit(settings.public_url)
            if public.hostname:
                self.hosts.add(public.hostname.lower())
                self.origins.add(f"{public.scheme}://{public.netloc}".lower())

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        host = _header(scope, b"host").decode("latin-1").strip().lower()
        name = urlsplit(f"//{host}").hostname if host else None
        if name not in self.hosts:
            return 421, (
                f"the Host {host!r} is not this server's: a local server answers its loopback"
                " names; a deployment, the host of DRAGONROLL_PUBLIC_URL"
            )
        origin = _header(scope, b"origin").decode("latin-1").strip().lower()
        if origin and not self.allows(origin):
            return 403, (
                f"the Origin {origin!r} may not call this server: loopback pages, the public URL's"
                " and those of DRAGONROLL_CORS_ORIGINS may"
            )
        return None

    def allows(self, origin: str) -> bool:
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.hostname in LOOPBACK


class Transport:
    """The ASGI app at ``/mcp``: the checks, then the SDK's stateless session manager (one per
    request: it keeps nothing between requests, needs no lifespan, and costs about 0.15 ms)."""

    def __init__(self, server: Server[Any], guard: Guard) -> None:
        self.server = server
        self.guard = guard
        self.route: Route | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The route, for the access line and the metrics ("/mcp", not "unmatched").
        scope.setdefault("route", self.route)
        if scope["method"] != "POST":
            # No stream to listen to (stateless: nothing is ever sent unasked), no session to end:
            # the spec's 405 for GET and DELETE, as the app's problem.
            raise HTTPException(405, headers={"Allow": "POST"})
        refusal = self.guard.refusal(scope)
        if refusal is not None:
            status, message = refusal
            await _send_json(send, status, _rpc_error(None, -32600, message))
            return
        try:  # the body limit (service.middleware.limits) met here, not inside the SDK (a 500)
            body = await _whole_body(receive)
        except problems.BodyTooLarge as exc:
            kind = problems.problem("payload-too-large", str(exc.detail))
            await problems.send_problem(scope, send, kind, {"connection": "close"})
            return
        wire = Wire()
        try:
            wire.take(body)
        except EnvelopeRefused as refused:
            await _send_json(send, 400, refused.message())
            return
        scope[WIRE_KEY] = wire
        manager = StreamableHTTPSessionManager(app=self.server, json_response=True, stateless=True)
        try:
            async with manager.run():
                await manager.handle_request(scope, _replay(body, receive), _spliced(send, wire))
        finally:
            wire.forget()


def _rpc_error(request_id: Any, code: int, message: str) -> bytes:
    return orjson.dumps(
        {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    )


async def _send_json(send: Send, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _spliced(send: Send, wire: Wire) -> Send:
    """``send`` with the answers spliced into the body (and its length set again)."""
    start: Message | None = None

    async def splicing(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
            return
        if message["type"] == "http.response.body" and start is not None:
            body = wire.splice(message.get("body", b""))
            if not message.get("more_body", False):
                headers = [(k, v) for k, v in start.get("headers", ()) if k != b"content-length"]
                start = {**start, "headers": [*headers, (b"content-length", b"%d" % len(body))]}
            await send(start)
            start = None
            await send({**message, "body": body})
            return
        if message["type"] == "http.response.body":
            message = {**message, "body": wire.splice(message.get("body", b""))}
        await send(message)

    return splicing


async def _whole_body(receive: Receive) -> bytes:
    """The request's body, read whole (the SDK reads it whole too)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then waits on the client as before."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def quiet_sdk() -> None:
    """The SDK notes every stateless request at INFO ("Terminating session: None"): our access
    line says what happened; its warnings and errors still show."""
    sdk_log = logging.getLogger("mcp")
    sdk_log.setLevel(max(sdk_log.getEffectiveLevel(), logging.WARNING))


def mount_mcp(app: FastAPI) -> None:
    """Serve the MCP server at ``/mcp`` (POST; any other method a 405)."""
    quiet_sdk()
    transport = Transport(make_server(app, Catalog(app)), Guard(app.state.settings))
    transport.route = Route(PATH, transport, include_in_schema=False)
    app.router.routes.append(transport.route)
