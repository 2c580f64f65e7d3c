"""The Model Context Protocol server, at ``/mcp`` (streamable HTTP, stateless) and over stdio
(``service.mcp_stdio``), both made by :func:`make_server` on the official SDK's low-level server: the
tools (``service.mcp_tools``), each call read as sent (``service.mcp_wire``), answered by the one
pipeline and told small (``service.mcp_answers``), the resources and the roll card
(``service.mcp_card``). A call is logged and counted once (docs/mcp.md).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable
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
from service import mcp_answers, mcp_card, pipeline, problems
from service.encoding import encode
from service.lanes import Abandoned
from service.logs import make_logger
from service.mcp_tools import DESCRIBE, Catalog
from service.mcp_tools import Route as ToolRoute
from service.mcp_wire import DuplicateKeyIn, Refusal, Wire, member, version_refusal
from service.metrics import CALL_KEY
from service.middleware.access import access_line
from service.problem_texts import BODY_KEY
from service.routing import SYSTEM_KEY
from service.settings import Settings

PATH = "/mcp"
#: scope key of an HTTP request's :class:`~service.mcp_wire.Wire`.
WIRE_KEY = "dragonroll.mcp.wire"
#: scope key: the caller of a tool call over HTTP went away before its answer (a 499, as HTTP).
GONE_KEY = "dragonroll.mcp.gone"
#: The pages served as resources: in the package when installed from a wheel (setup.py copies
#: them there), else the repository's docs/.
_PACKAGED = Path(__file__).parent / "pages"
_SOURCE = Path(__file__).parent.parent / "docs"
OPENAPI_URI = "dragonroll://openapi.json"
#: The longest text a result carries (the events' sentences, the odds' lines).
TEXT_LIMIT = 8192
#: What a result adds to its answer's bytes at most, besides its text (the JSON-RPC envelope).
ENVELOPE_BYTES = 1024

#: An awaitable function that returns once the caller has gone away.
Gone = Callable[[], Awaitable[Any]]
#: How often a tool call over HTTP looks whether its caller went away, in seconds.
GONE_POLL = 0.5


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
    """Tool calls answered for one app: arguments read from the raw bytes, the endpoint answered
    by the pipeline, refusals rendered as HTTP renders them, each call logged and counted once."""

    def __init__(self, app: FastAPI, catalog: Catalog) -> None:
        self.app = app
        self.catalog = catalog
        self.log = make_logger(app.state.settings)

    async def call(
        self, ctx: Any, params: types.CallToolRequestParams, wire: Wire | None
    ) -> types.CallToolResult:
        request = getattr(ctx, "request", None)
        http = request if isinstance(request, Request) else None
        found, raw = wire.raw_arguments(ctx.request_id) if wire is not None else (False, None)
        if not found and params.arguments is not None:  # a transport without a raw side
            raw = encode(params.arguments)
        if params.name == DESCRIBE:
            return await self.describe(raw, http)
        tool = self.catalog.systems.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS, f"no tool named {params.name!r}; tools/list names them all"
            )
        try:
            path, body, full = _arguments(raw, tool.routes, self.catalog)
        except _Refused as refused:
            return _error(problems.encode(refused.problem))
        route = tool.routes[path]
        if http is not None:  # the /mcp request's own access line and sample tell the call
            result, _ = await self.run(route, body, full, http.scope, _gone(http))
            return result
        scope = _stdio_scope()
        start, status = time.perf_counter(), 500
        try:
            result, status = await self.run(route, body, full, scope, None)
            return result
        finally:
            self.note(scope, status, time.perf_counter() - start)

    async def run(
        self, route: ToolRoute, body: bytes, full: bool, scope: Scope, gone: Gone | None
    ) -> tuple[types.CallToolResult, int]:
        """One call of ``route``'s endpoint in ``scope`` (the /mcp request's, or a stdio call's):
        its result and the status an HTTP request would have had."""
        endpoint = route.endpoint
        scope[CALL_KEY] = f"mcp:{endpoint.path}"
        scope[SYSTEM_KEY] = endpoint.system
        accept = _header(scope, b"accept-language")
        scope[BODY_KEY] = body  # a refusal is told in the call's `lang` (service.problem_texts)
        try:
            payload, lang = await pipeline.answer(
                self.app.state, endpoint, body, accept, gone, scope=scope
            )
            return self.result(route, payload, lang, full), 200
        except Abandoned:  # nobody reads the answer: the access line and the metrics say 499
            scope[GONE_KEY] = True
            return _error(b"{}"), problems.CLIENT_CLOSED
        except Exception as exc:
            status, problem = self.refusal(exc, scope, route)
            return _error(problem, _hint(route, status)), status

    def result(
        self, route: ToolRoute, payload: bytes, lang: str | None, full: bool
    ) -> types.CallToolResult:
        """The answer as a result: its summary (or with ``full`` the whole answer) and its text,
        within the answer bound as the SDK will write it (non-ASCII escaped: 6 bytes a character
        at most)."""
        answer = orjson.loads(payload)
        if lang is not None:  # a resolving endpoint's answer, told in its events
            texts = [e.get("text", "") for e in answer.get("events", ()) if isinstance(e, dict)]
            text = _cut("\n".join(t for t in texts if t))
            small = mcp_answers.resolution(answer, lang, route.odds)
        else:
            lines = mcp_answers.odds_lines(answer, route.endpoint.response_model)
            where = f"POST {route.path}: {len(payload):,} bytes in full (`full: true`)."
            text = _cut("\n".join([*lines, where]))
            small = mcp_answers.odds(answer)
        structured = answer if full else small
        shown = payload if full else encode(small)
        escaped = len(shown.translate(None, _ASCII)) * 2 + len(text.encode()) * 3
        budget.check_answer(len(shown) + escaped + ENVELOPE_BYTES)
        meta = {mcp_card.CALL_META: self.card_meta(route, lang, full)}
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=structured, meta=meta
        )

    @staticmethod
    def card_meta(route: ToolRoute, lang: str | None, full: bool) -> dict[str, Any]:
        """What the roll card reads of a call (in its ``_meta``, which no model reads): the tool,
        the endpoint, its kind, its odds endpoint, its outcome codes, the language, and whether
        the structured content is the whole answer (else the card asks for it, with ``full``)."""
        return {
            "tool": route.tool,
            "endpoint": route.path,
            "kind": route.kind,
            "odds": route.odds or None,
            "outcome": list(route.outcome),
            "lang": lang,
            "full": full,
        }

    def refusal(self, exc: Exception, scope: Scope, route: ToolRoute) -> tuple[int, bytes]:
        """The problem HTTP answers ``exc`` with (``service.problems.rendered``; anything else is
        a bug: logged with its traceback, as the last resort logs it, and a 500), stamped in
        ``scope`` for the access line and the metrics."""
        found = problems.rendered(exc)
        if found is None:
            self.log.error(
                "unhandled exception",
                request_id=scope.get("request_id"),
                method="POST",
                path=route.path,
                exc_info=exc,
            )
            body = problems.problem("internal-error", problems.INTERNAL_ERROR)
        else:
            body = dict(found[0])
        body["instance"] = route.path  # the endpoint's, as over HTTP (not /mcp)
        return int(body["status"]), problems.stamp(body, scope)

    def note(self, scope: Scope, status: int, seconds: float) -> None:
        """A stdio call's access line and metrics sample: what the middleware writes for an HTTP
        request, by the same functions."""
        access_line(self.log, scope, status, seconds)
        registry = getattr(self.app.state, "metrics", None)
        if registry is not None:
            registry.observe_request(scope, status, seconds)

    async def describe(self, raw: bytes | None, http: Request | None) -> types.CallToolResult:
        try:
            path, _, schema = _arguments(raw, self.catalog.paths(), self.catalog, body=False)
        except _Refused as refused:
            return _error(problems.encode(refused.problem))
        if http is not None:
            http.scope[CALL_KEY] = f"mcp:{DESCRIBE}"
        # The OpenAPI document is built once, on the first describe (about a second): off the loop.
        text = await anyio.to_thread.run_sync(self.catalog.describe, path, schema)
        return types.CallToolResult(content=[types.TextContent(text=text)])


#: The bytes below 0x80 (what a JSON writer never escapes but for controls and quotes).
_ASCII = bytes(range(128))


def _cut(text: str) -> str:
    if len(text) <= TEXT_LIMIT:
        return text
    cut = text.rfind("\n", 0, TEXT_LIMIT)
    shown = text[: cut if cut > 0 else TEXT_LIMIT]
    rest = text.count("\n") - shown.count("\n")
    return f"{shown}\n... ({rest} more lines: `full: true` has them all)"


def _hint(route: ToolRoute, status: int) -> str | None:
    """What to send instead of a request the endpoint refused as written (a 4xx): its example."""
    if not 400 <= status < 500 or status == problems.CLIENT_CLOSED:
        return None
    example = route.examples[0] if route.examples else None
    if example is None:
        return f"{DESCRIBE} tells every field of {route.path} and gives a working example."
    return f"For example, {route.path} answers {example} ({DESCRIBE} tells every field)."


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


def _arguments(
    raw: bytes | None, paths: Any, catalog: Catalog, *, body: bool = True
) -> tuple[str, bytes, bool]:
    """The endpoint a call names, its request's raw bytes (a JSON string's text: some hosts send
    a nested object as a string) and its flag (``full``; ``schema`` for describe_endpoint), or
    the problem with the call's arguments."""
    flag = "full" if body else "schema"
    if raw is None:
        raise _refuse("", "missing: the tool takes an object with `endpoint`")
    try:
        _, path = member(raw, "endpoint")
        request, value = member(raw, "request")
        _, wanted = member(raw, flag)
        keys = set(orjson.loads(raw))
    except DuplicateKeyIn as exc:
        msg = f"the key {exc.key!r} appears twice in one object: send each key once"
        raise _refuse("", msg, "duplicate-key") from None
    except (ValueError, TypeError, AttributeError):
        raise _refuse("", "not an object: the tool takes an object with `endpoint`") from None
    for key in sorted(keys - ({"endpoint", "request", flag} if body else {"endpoint", flag})):
        raise _refuse(key, "unknown argument: it is not part of this tool's schema")
    _check_endpoint(path, paths, catalog)
    if wanted is not None and not isinstance(wanted, bool):
        raise _refuse(flag, "must be true or false")
    if not body:
        return path, b"", bool(wanted)
    if request is None:
        raise _refuse("request", "required argument is missing: the endpoint's JSON body")
    if isinstance(value, str):
        request = value.encode("utf-8")
    return path, request, bool(wanted)


def _check_endpoint(path: Any, paths: Any, catalog: Catalog) -> None:
    if path is None:
        raise _refuse("endpoint", "required argument is missing")
    if path in paths:
        return
    owner = catalog.tool_of(path) if isinstance(path, str) else None
    said = f"; it is the `{owner}` tool's" if owner else ""
    raise _refuse("endpoint", f"{path!r} is not one of this tool's: {', '.join(paths)}{said}")


def _error(problem: bytes | dict[str, Any], hint: str | None = None) -> types.CallToolResult:
    text = (problem if isinstance(problem, bytes) else problems.encode(problem)).decode("utf-8")
    content = [types.TextContent(text=text)]
    if hint:
        content.append(types.TextContent(text=hint))
    return types.CallToolResult(content=content, is_error=True)


def _header(scope: Scope, name: bytes) -> bytes:
    return next((v for k, v in scope.get("headers", ()) if k == name), b"")


def _stdio_scope() -> dict[str, Any]:
    """What a tool call over stdio is logged and counted by: a POST of its own, with an id."""
    return {
        "type": "http",
        "method": "POST",
        "path": PATH,
        "headers": [],
        "request_id": os.urandom(16).hex(),
    }


# ------------------------------------------------------------------------------------- resources


def _card() -> types.Resource:
    return types.Resource(
        uri=mcp_card.CARD_URI,
        name="roll-card",
        title="Roll card",
        description="A tool's answer as a card: the dice, the outcome, the events, the odds.",
        mime_type=mcp_card.MIME_TYPE,
        meta=mcp_card.RESOURCE_META,
    )


async def list_resources(
    ctx: Any, params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    listed = [
        types.Resource(
            uri=uri,
            name=name,
            description=description,
            mime_type="text/markdown",
            size=path.stat().st_size,
        )
        for uri, (name, description, path) in pages().items()
    ]
    openapi = types.Resource(
        uri=OPENAPI_URI,
        name="openapi",
        description="The OpenAPI document: every endpoint's request and answer schemas.",
        mime_type="application/json",
    )
    return types.ListResourcesResult(resources=[*listed, openapi, _card()])


def _reader(app: FastAPI) -> Callable[[Any, types.ReadResourceRequestParams], Any]:
    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == OPENAPI_URI:
            doc = await anyio.to_thread.run_sync(app.openapi)
            text, mime, meta = encode(doc).decode(), "application/json", None
        elif uri == mcp_card.CARD_URI:
            text = await anyio.to_thread.run_sync(mcp_card.html, app.version)
            mime, meta = mcp_card.MIME_TYPE, mcp_card.RESOURCE_META
        else:
            page = pages().get(uri)
            if page is None:
                raise MCPError(
                    types.INVALID_PARAMS, f"no resource {uri}; resources/list names them all"
                )
            text, mime, meta = page[2].read_text(encoding="utf-8"), "text/markdown", None
        content = types.TextResourceContents(uri=uri, mime_type=mime, text=text, meta=meta)
        return types.ReadResourceResult(contents=[content])

    return read_resource


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

    server: Server[Any] = Server(
        "dragonroll",
        version=app.version,
        title="dragonroll",
        description="Seeded, replayable tabletop-RPG rules: dice, tests, attacks, odds, fights.",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=_reader(app),
    )
    server.extensions.update(mcp_card.EXTENSIONS)  # the roll card (MCP Apps)
    return server


INSTRUCTIONS = (
    "Each game system is one tool (its description says which game it is); the dice tool rolls"
    " any notation. Pass `endpoint` (a path its description lists) and `request` (that"
    " endpoint's JSON body, as in its examples). The answer is a summary: the outcome, the"
    " totals, the dice and the events as sentences (odds: each probability in percent);"
    " `full: true` gives the whole HTTP answer. A `seed` replays a roll exactly; `dice` uses dice"
    " rolled at the table; `lang` (en, pl, fi, ar) the events' language. A refused request comes"
    " back with isError, an RFC 9457 problem naming the field, and an example to send instead;"
    " describe_endpoint tells an endpoint's every field."
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
            await _send_json(send, status, Refusal(-32600, message).message())
            return
        # The body as every endpoint reads it: its limit is the middleware's (a 413 problem).
        body = await Request(scope, receive).body()
        wire = Wire()
        try:
            version = _header(scope, b"mcp-protocol-version").decode("latin-1") or None
            refused = version_refusal(version)
            if refused is not None:
                raise refused
            wire.take(body)
        except Refusal as refused:
            await _send_json(send, 400, refused.message())
            return
        scope[WIRE_KEY] = wire
        manager = StreamableHTTPSessionManager(app=self.server, json_response=True, stateless=True)
        async with manager.run():
            await manager.handle_request(
                scope, _replay(body, receive), _closed_if_gone(scope, send)
            )


async def _send_json(send: Send, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _closed_if_gone(scope: Scope, send: Send) -> Send:
    """``send``, the status a 499 when the call's caller went away first (nobody reads the
    answer: its access line and metrics say so, as HTTP's do)."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and scope.get(GONE_KEY):
            message = {**message, "status": problems.CLIENT_CLOSED}
        await send(message)

    return sending


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
