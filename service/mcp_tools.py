"""The MCP server's tools, sized for an assistant's context: one per system, and one to describe.

An assistant's host puts every tool's name, description and input schema into the model's context
before the first question, so the list is built to be cheap (``tests/mcp/test_mcp_tools.py`` holds
it to its limits):

- one tool per **system** of the registry (``dos``, ``dragon``, ``riders``, ``dnd5e``, ``dice``: the
  path prefix), taking ``endpoint`` (one of the system's POST paths, resolvers, odds and simulations)
  and ``request`` (that endpoint's JSON body, exactly as over HTTP). Its description says when to
  use it and lists the endpoints, each with its summary and its required fields;
- ``describe_endpoint``: what one endpoint does, its request's full JSON Schema and a worked
  example, from the OpenAPI document (read when first asked, off the event loop).

The input schemas are plain objects at the top; no output schema (an answer's shape is the
endpoint's: the OpenAPI document and the rules pages, which are resources). Everything comes from
``app.state.systems`` and ``app.state.endpoints`` (STYLE 21): nothing here names a system.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from fastapi import FastAPI

from rules.system import System
from service.encoding import encode
from service.endpoints import Endpoint, endpoints

DESCRIBE = "describe_endpoint"
#: The request fields every endpoint shares (the envelope): not listed with each endpoint.
ENVELOPE = frozenset({"seed", "dice", "lang", "foundry"})
#: The longest example request a tool's description shows for an endpoint (in bytes of JSON).
EXAMPLE_LIMIT = 200
#: Every tool only reads: the same request and seed give the same answer, nothing changes.
ANNOTATIONS = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


@dataclass(frozen=True)
class Route:
    """One POST endpoint as the tools reach it."""

    path: str
    summary: str
    kind: str  # "resolve", "odds" or "simulate"
    fields: str  # its required fields, or its questions (a shaped odds endpoint)
    endpoint: Endpoint
    example: str = ""  # its first example request, when it is short


@dataclass(frozen=True)
class SystemTool:
    """The tool of one system: its MCP description and the endpoints it reaches by path."""

    spec: types.Tool
    routes: dict[str, Route]


def _required(model: Any) -> list[str]:
    fields = getattr(model, "model_fields", {})
    return [
        f.alias or name for name, f in fields.items() if f.is_required() and name not in ENVELOPE
    ]


def _routes(system: System, found: dict[str, Endpoint]) -> Iterator[Route]:
    entries: list[tuple[str, Any]] = [
        *(("resolve", e) for e in system.endpoints),
        *(("odds", o) for o in system.odds),
        *(("simulate", o) for o in system.simulations),
    ]
    for kind, entry in entries:
        path = system.prefix + entry.path
        if path not in found:  # an app serving part of the registry
            continue
        shapes = getattr(entry, "shapes", ())
        if shapes:
            fields = "one of: " + "; ".join(
                f"{shape.name.removeprefix('a ')} ({', '.join(_required(shape.request))})"
                for shape in shapes
            )
        else:
            fields = ", ".join(_required(entry.request)) or "all optional"
        example = next(iter(entry.examples.values()), None)
        shown = encode(example).decode() if example is not None else ""
        yield Route(
            path,
            entry.summary.rstrip("."),
            kind,
            fields,
            found[path],
            shown if len(shown) <= EXAMPLE_LIMIT else "",
        )


#: What each kind of endpoint is for, in the tool's first sentence.
_KINDS = {
    "resolve": "resolve a roll, test, attack or fight with seeded, replayable dice",
    "odds": "compute its exact odds without rolling",
    "simulate": "simulate many seeded runs of it",
}


def system_tool(system: System, found: dict[str, Endpoint]) -> SystemTool | None:
    routes = {route.path: route for route in _routes(system, found)}
    if not routes:
        return None
    name = system.prefix.strip("/")
    title = system.display_name("en")
    kinds = [text for kind, text in _KINDS.items() if any(r.kind == kind for r in routes.values())]
    if not system.game:  # the general roller: its rolls are no game's
        kinds[0] = "roll it with seeded, replayable dice"
    doing = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
    when = (
        f"Use it whenever the table plays {title}."
        if system.game
        else "Use it for any roll that is not a game system's own."
    )
    lines = [
        f"{title}: {doing}. {when}",
        f"Pass `endpoint` and its JSON body as `request` (the same body as POST <endpoint>; "
        f"{DESCRIBE} gives its fields and an example). Endpoints (required fields, an example):",
        *(
            f"- {r.path}: {r.summary} ({r.fields})" + (f", e.g. {r.example}" if r.example else "")
            for r in routes.values()
        ),
    ]
    spec = types.Tool(
        name=name,
        title=title,
        description="\n".join(lines),
        input_schema={
            "type": "object",
            "properties": {
                "endpoint": {"type": "string", "enum": list(routes)},
                "request": {
                    "type": "object",
                    "description": (
                        "The endpoint's JSON body. A resolving endpoint takes `seed` (a string or"
                        " an integer: the same seed, the same dice) and `dice` ({slot: [values]},"
                        " dice rolled at the table); every endpoint takes `lang` (en, pl, fi, ar)"
                        " for its texts."
                    ),
                },
            },
            "required": ["endpoint", "request"],
            "additionalProperties": False,
        },
        annotations=ANNOTATIONS,
    )
    return SystemTool(spec, routes)


def describe_tool(paths: Sequence[str]) -> types.Tool:
    return types.Tool(
        name=DESCRIBE,
        title="Describe an endpoint",
        description=(
            "What one endpoint answers, its request's full JSON Schema and a worked example"
            " request. Call it before the first request to an endpoint whose fields you do not"
            " know, or after a refusal you cannot read."
        ),
        input_schema={
            "type": "object",
            "properties": {"endpoint": {"type": "string", "enum": list(paths)}},
            "required": ["endpoint"],
            "additionalProperties": False,
        },
        annotations=ANNOTATIONS,
    )


class Catalog:
    """The tools of one app, built on first use (a few milliseconds: from the registry, not from
    the OpenAPI document), and the endpoints' descriptions (from the OpenAPI document, built once,
    when first asked)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self._systems: dict[str, SystemTool] | None = None
        self._specs: list[types.Tool] | None = None
        self._described: dict[str, str] = {}
        self._lock = threading.Lock()

    @property
    def systems(self) -> dict[str, SystemTool]:
        if self._systems is None:
            found = endpoints(self.app)
            tools = (system_tool(s, found) for s in self.app.state.systems)
            self._systems = {t.spec.name: t for t in tools if t is not None}
        return self._systems

    @property
    def specs(self) -> list[types.Tool]:
        """What ``tools/list`` answers."""
        if self._specs is None:
            paths = [path for tool in self.systems.values() for path in tool.routes]
            self._specs = [*(t.spec for t in self.systems.values()), describe_tool(paths)]
        return self._specs

    def route(self, path: str) -> Route | None:
        for tool in self.systems.values():
            if path in tool.routes:
                return tool.routes[path]
        return None

    def describe(self, path: str) -> str:
        """The text ``describe_endpoint`` answers for ``path`` (a path of a tool): the endpoint's
        summary and description, an example request and the request's JSON Schema. Builds the
        OpenAPI document the first time (a second or so: call it off the event loop)."""
        with self._lock:
            if path not in self._described:
                self._described[path] = describe(self.app.openapi(), path)
            return self._described[path]


def describe(doc: dict[str, Any], path: str) -> str:
    """One endpoint of the OpenAPI document ``doc``, told for an assistant."""
    op = doc["paths"][path]["post"]
    content = op["requestBody"]["content"]["application/json"]
    schema = embed(content["schema"], doc.get("components", {}).get("schemas", {}))
    example = content.get("example")
    if example is None and content.get("examples"):
        example = next(iter(content["examples"].values()))["value"]
    parts = [f"POST {path}: {op.get('summary', '')}", "", op.get("description", "")]
    if example is not None:
        parts += ["", "Example request:", encode(example).decode()]
    parts += ["", "Request JSON Schema:", encode(schema).decode()]
    return "\n".join(parts)


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
