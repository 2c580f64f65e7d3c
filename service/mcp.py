"""The Model Context Protocol server at ``/mcp``: the service's endpoints as tools, for AI assistants.

Streamable HTTP, stateless (no session, no affinity: any replica answers any request) with JSON
answers, on the official ``mcp`` SDK's low-level server and session manager. Everything comes from
the app's own OpenAPI document:

- one **tool** per resolver, odds and simulation operation (every POST with a JSON body): its
  operation id as the name (``dos_test``), its summary as the title, summary and description as the
  description, the request body's schema as ``inputSchema`` and the 200 answer's as ``outputSchema``
  (each a self-contained JSON Schema: the components it uses under ``$defs``);
- a **call** is answered by the same app, in process: an HTTP request to the operation's path with
  the arguments as its JSON body, through the same edge (request id, body limit, access line,
  metrics), work budget and handlers. The tool's structured content is that answer's JSON and its
  text content the answer's bytes; a refused request (4xx) is a result with ``isError`` whose text
  is the problem+json. The inner request is marked (``VIA_KEY``): its access line and metrics carry
  the route as ``mcp:/dos/test``, so MCP calls and HTTP calls are told apart;
- **resources**: each system's rules page (``docs/systems/<id>.md``) and the dice specification
  (``docs/dice.md``), as ``text/markdown``.

``mount_mcp(app)`` adds the route and runs the SDK's session manager inside the app's lifespan.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
import orjson
from fastapi import FastAPI
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from service import metrics, problems

PATH = "/mcp"
#: scope key marking a request made for an MCP tool call (read by the edge's access line and
#: metrics: ``service.metrics.route_label``).
VIA_KEY = metrics.VIA_KEY
#: The pages served as resources: in the package when installed from a wheel (setup.py copies
#: them there), else the repository's docs/.
_PACKAGED = Path(__file__).parent / "pages"
_SOURCE = Path(__file__).parent.parent / "docs"
#: Request headers a tool call's HTTP request carries over from the MCP request.
_FORWARDED = (b"accept-language",)


@dataclass(frozen=True)
class Tool:
    """One operation as a tool: the MCP description and the path its calls are posted to."""

    path: str
    spec: types.Tool


def tools_from_openapi(doc: dict[str, Any]) -> list[Tool]:
    """A tool per POST operation with a JSON request body and a JSON 200 answer, in document order."""
    components = doc.get("components", {}).get("schemas", {})
    tools = []
    for path, item in doc.get("paths", {}).items():
        op = item.get("post")
        if not isinstance(op, dict) or "operationId" not in op:
            continue
        request = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        answer = op.get("responses", {}).get("200", {}).get("content", {}).get("application/json")
        if "schema" not in request or not answer or "schema" not in answer:
            continue
        summary = op.get("summary", op["operationId"])
        description = op.get("description", "")
        spec = types.Tool(
            name=op["operationId"],
            title=summary,
            description=f"{summary}. POST {path}.\n\n{description}".strip(),
            input_schema=embed(request["schema"], components),
            output_schema=embed(answer["schema"], components),
            annotations=types.ToolAnnotations(
                title=summary,
                read_only_hint=True,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )
        tools.append(Tool(path, spec))
    return tools


_PREFIX = "#/components/schemas/"


def embed(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """``schema`` as one self-contained JSON Schema: a root ``$ref`` replaced by its component, and
    every component it reaches copied under ``$defs`` with its references pointing there."""
    root = copy.deepcopy(schema)
    name = _ref_name(root)
    if name is not None and len(root) == 1:
        root = copy.deepcopy(components[name])
    defs: dict[str, Any] = {}
    pending = list(_refs(root))
    while pending:
        ref = pending.pop()
        if ref in defs:
            continue
        defs[ref] = copy.deepcopy(components[ref])
        pending.extend(_refs(defs[ref]))
    for node in (root, *defs.values()):
        _repoint(node)
    if "type" not in root:  # a union of requests: each an object (MCP wants an object at the root)
        root = {"type": "object", **root}
    if defs:
        root["$defs"] = {key: defs[key] for key in sorted(defs)}
    return root


def _ref_name(node: Any) -> str | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    return ref[len(_PREFIX) :] if isinstance(ref, str) and ref.startswith(_PREFIX) else None


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        name = _ref_name(node)
        if name is not None:
            yield name
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _repoint(node: Any) -> None:
    if isinstance(node, dict):
        name = _ref_name(node)
        if name is not None:
            node["$ref"] = f"#/$defs/{name}"
        mapping = node.get("discriminator", {}).get("mapping")  # OpenAPI's, beside a oneOf
        if isinstance(mapping, dict):
            for key, ref in mapping.items():
                if isinstance(ref, str) and ref.startswith(_PREFIX):
                    mapping[key] = f"#/$defs/{ref[len(_PREFIX) :]}"
        for value in node.values():
            _repoint(value)
    elif isinstance(node, list):
        for value in node:
            _repoint(value)


def pages() -> dict[str, tuple[str, str, Path]]:
    """The resources by URI: (name, description, file)."""
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


class Catalog:
    """The tools and resources of one app, made from its OpenAPI document on first use."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self._tools: dict[str, Tool] | None = None

    @property
    def tools(self) -> dict[str, Tool]:
        if self._tools is None:
            self._tools = {t.spec.name: t for t in tools_from_openapi(self.app.openapi())}
        return self._tools


async def post(
    app: Any, path: str, body: bytes, outer: Scope | None
) -> tuple[int, dict[bytes, bytes], bytes]:
    """POST ``body`` to ``app`` at ``path`` as one in-process HTTP request (marked as an MCP
    call); the answer's status, headers and body."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("ascii")),
    ]
    if outer is not None:
        headers += [(k, v) for k, v in outer.get("headers", ()) if k in _FORWARDED]
        if "request_id" in outer:  # the MCP request's id: its line and the call's line share it
            headers.append((b"x-request-id", outer["request_id"].encode("ascii")))
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": (outer or {}).get("scheme", "http"),
        "path": path,
        "raw_path": path.encode("ascii"),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": (outer or {}).get("client"),
        "server": (outer or {}).get("server"),
        "state": {},
        VIA_KEY: "mcp",
    }
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:  # the caller stays until the answer (a heavy job would be ended at a hang-up)
            await asyncio.Event().wait()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status = 500
    answer: dict[bytes, bytes] = {}
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            answer.update((k.lower(), v) for k, v in message.get("headers", ()))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, answer, b"".join(chunks)


async def list_resources(
    ctx: Any, params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            types.Resource(
                uri=uri,
                name=name,
                description=description,
                mime_type="text/markdown",
                size=path.stat().st_size,
            )
            for uri, (name, description, path) in pages().items()
        ]
    )


async def read_resource(
    ctx: Any, params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    page = pages().get(str(params.uri))
    if page is None:
        raise MCPError(
            types.INVALID_PARAMS,
            f"no resource {params.uri!s}; resources/list names them all",
        )
    return types.ReadResourceResult(
        contents=[
            types.TextResourceContents(
                uri=str(params.uri),
                mime_type="text/markdown",
                text=page[2].read_text(encoding="utf-8"),
            )
        ]
    )


def make_server(app: FastAPI, catalog: Catalog) -> Server[Any]:
    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[t.spec for t in catalog.tools.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = catalog.tools.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS, f"no tool named {params.name!r}; tools/list names them all"
            )
        body = orjson.dumps(params.arguments or {})
        request = getattr(ctx, "request", None)
        outer = getattr(request, "scope", None)
        status, _, payload = await post(app, tool.path, body, outer)
        text = payload.decode("utf-8")
        if status == 200:
            return types.CallToolResult(
                content=[types.TextContent(text=text)], structured_content=orjson.loads(payload)
            )
        # A problem: its JSON as the text (structured content is for answers: outputSchema).
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)

    return Server(
        "dragonroll",
        version=app.version,
        title="dragonroll",
        description="Seeded, replayable tabletop-RPG rules: every endpoint of the service as a tool.",
        instructions=(
            "Each tool resolves one request of a game system exactly as the HTTP endpoint named in"
            " its description does. Pass a `seed` to make the result replayable, or `dice` to"
            " resolve dice rolled at the table. A refused request comes back with isError and an"
            " RFC 9457 problem naming the field. The rules pages are resources."
        ),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


class _Endpoint:
    """The ASGI app at ``/mcp``: the SDK's stateless session manager, one per request.

    A stateless manager keeps nothing between requests; one made for each request needs no
    lifespan (the app works as well under a server or a test client that runs none) and costs
    about 0.15 ms (a tool call takes 3 to 4 ms in all here, the HTTP request in it 0.6).
    """

    def __init__(self, server: Server[Any]) -> None:
        self.server = server
        self.route: Route | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The route, for the access line and the metrics ("/mcp", not "unmatched"): FastAPI's
        # router notes only its own routes in the scope.
        scope.setdefault("route", self.route)
        # No DNS-rebinding check: like the HTTP API, the server holds no credentials and answers
        # any host (the edge's CORS and limits apply as to every request).
        try:  # the body limit (service.middleware.limits) met here, not inside the SDK (a 500)
            body = await _whole_body(receive)
        except problems.BodyTooLarge as exc:
            kind = problems.problem("payload-too-large", str(exc.detail))
            await problems.send_problem(scope, send, kind, {"connection": "close"})
            return
        manager = StreamableHTTPSessionManager(app=self.server, json_response=True, stateless=True)
        async with manager.run():
            await manager.handle_request(scope, _replay(body, receive), send)


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


def mount_mcp(app: FastAPI) -> None:
    """Serve the MCP server at ``/mcp`` (GET, POST, DELETE)."""
    # The SDK notes every stateless request at INFO ("Terminating session: None"): our access line
    # says what happened; its warnings and errors still show.
    sdk_log = logging.getLogger("mcp")
    sdk_log.setLevel(max(sdk_log.getEffectiveLevel(), logging.WARNING))
    endpoint = _Endpoint(make_server(app, Catalog(app)))
    endpoint.route = Route(
        PATH, endpoint, methods=["GET", "POST", "DELETE"], include_in_schema=False
    )
    app.router.routes.append(endpoint.route)
