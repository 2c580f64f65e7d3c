"""The MCP server's tools, one per system and ``describe_endpoint``, sized for an assistant's context
(docs/mcp.md; ``tests/mcp/test_mcp_tools.py`` holds the list under its budget). Everything comes from
``app.state.systems`` and the app's endpoints (STYLE 21): nothing here names a system.
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
from service.mcp_card import CARD_URI, TOOL_META

DESCRIBE = "describe_endpoint"
#: The request fields every endpoint shares (the envelope): told once, in the input schema.
ENVELOPE = frozenset({"seed", "dice", "lang", "foundry"})
#: The most bytes of example requests a tool's description shows for one endpoint.
EXAMPLE_LIMIT = 300
#: The most values an option may have to be listed with them in a tool's description.
OPTION_VALUES = 4
#: Every tool only reads: the same request and seed give the same answer, nothing changes.
ANNOTATIONS = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
#: The input schema's words for `request` and `full`, the same in every system's tool.
REQUEST_DOC = (
    "The endpoint's JSON body, as in the examples. Optional: `seed` (the same seed, the same dice;"
    " else a new one, returned), `lang` (en|pl|fi|ar)."
)
FULL_DOC = "true: the whole HTTP answer, not its summary."


@dataclass(frozen=True)
class Route:
    """One POST endpoint as the tools reach it."""

    path: str
    summary: str
    kind: str  # "resolve", "odds" or "simulate"
    endpoint: Endpoint
    #: its example requests shown in the description (JSON), the shortest first
    examples: tuple[str, ...] = ()
    #: the resolving endpoint it answers for (odds and simulations), and for a resolving one the
    #: odds endpoint that answers for it (a roll card's chart)
    of: str = ""
    odds: str = ""
    #: its optional fields with few values, told as `name: a|b|c`
    options: tuple[str, ...] = ()
    #: the tool that reaches it, and the event codes of its outcome (a roll card's first line)
    tool: str = ""
    outcome: tuple[str, ...] = ()


@dataclass(frozen=True)
class SystemTool:
    """The tool of one system: its MCP description and the endpoints it reaches by path."""

    spec: types.Tool
    routes: dict[str, Route]


def _examples(entry: Any) -> tuple[str, ...]:
    """The entry's example requests that fit in :data:`EXAMPLE_LIMIT` together, shortest first,
    without their `seed` (the input schema says what a seed does: about 450 bytes of the list)."""
    shown: list[str] = []
    bodies = ({k: v for k, v in body.items() if k != "seed"} for body in entry.examples.values())
    for text in sorted((encode(body).decode() for body in bodies), key=len):
        if sum(map(len, shown)) + len(text) > EXAMPLE_LIMIT:
            break
        shown.append(text)
    return tuple(shown)


def _options(model: Any) -> tuple[str, ...]:
    """The optional top-level fields of a request with a few named values (a ``Literal``, an
    enum): ``dialect: foundry|roll20|avrae``."""
    schema = model.model_json_schema() if hasattr(model, "model_json_schema") else {}
    defs = schema.get("$defs", {})
    required = set(schema.get("required", ()))
    found: list[str] = []
    for name, prop in schema.get("properties", {}).items():
        if name in ENVELOPE or name in required:
            continue
        values = _values(prop, defs)
        if values is not None and 1 < len(values) <= OPTION_VALUES:
            found.append(f"{name}: {'|'.join(values)}")
    return tuple(found)


def _values(prop: dict[str, Any], defs: dict[str, Any]) -> list[str] | None:
    for option in (prop, *prop.get("anyOf", ())):
        ref = option.get("$ref", "")
        target = defs.get(ref.rsplit("/", 1)[-1], {}) if ref else option
        if "enum" in target:
            return [str(v) for v in target["enum"]]
    return None


def _routes(system: System, found: dict[str, Endpoint]) -> Iterator[Route]:
    prefix = system.prefix
    tool = prefix.strip("/")
    odds_of = {prefix + o.of: prefix + o.path for o in system.odds if o.of}
    for entry in system.endpoints:
        path = prefix + entry.path
        if path in found:  # an app serving part of the registry
            yield Route(
                path,
                entry.summary.rstrip("."),
                "resolve",
                found[path],
                _examples(entry),
                odds=odds_of.get(path, ""),
                options=_options(entry.request),
                tool=tool,
                outcome=tuple(entry.outcome),
            )
    for kind, entries in (("odds", system.odds), ("simulate", system.simulations)):
        for odds in entries:
            path = prefix + odds.path
            if path in found:
                of = prefix + odds.of if odds.of else ""
                summary = odds.summary.rstrip(".")
                yield Route(path, summary, kind, found[path], _examples(odds), of=of, tool=tool)


def _first_line(system: System) -> str:
    title = system.display_name("en")
    about = f"{title}: {system.about}." if system.about else f"{title}."
    if system.game:
        return f"{about} Use it when the table plays {title}."
    return f"{about} Use it for any roll that is not a game's own (a game's test: its tool)."


def _lines(routes: Sequence[Route]) -> Iterator[str]:
    """The endpoints as the description tells them: each resolving one with its examples and
    options, the odds of each in one line, each simulation."""
    for r in routes:
        if r.kind == "resolve":
            shown = " or ".join(r.examples) if r.examples else f"({DESCRIBE} has one)"
            options = f"; options {', '.join(r.options)}" if r.options else ""
            yield f"- {r.path}: {r.summary}, e.g. {shown}{options}"
    odds = [r for r in routes if r.kind == "odds" and r.of]
    if odds:
        shaped = [r.path for r in routes if r.kind == "odds" and not r.of]
        takes = "takes" if len(shaped) == 1 else "take"
        anyof = f"; {' and '.join(shaped)} {takes} any of them" if shaped else ""
        yield (
            f"- {', '.join(r.path for r in odds)}: the exact odds of"
            f" {', '.join(r.of for r in odds)} before rolling (what are my odds?): the same body"
            f" without `seed`{anyof}"
        )
    for r in routes:
        if r.kind == "simulate":
            yield f"- {r.path}: {r.summary}, plus `runs` (1-1000)"


def system_tool(system: System, found: dict[str, Endpoint]) -> SystemTool | None:
    routes = {route.path: route for route in _routes(system, found)}
    if not routes:
        return None
    lines = [
        _first_line(system),
        "Send `endpoint` and its JSON body as `request`. Endpoints:",
        *_lines(list(routes.values())),
    ]
    spec = types.Tool(
        name=system.prefix.strip("/"),
        title=system.display_name("en"),
        description="\n".join(lines),
        input_schema={
            "type": "object",
            "properties": {
                "endpoint": {"type": "string", "enum": list(routes)},
                "request": {"type": "object", "description": REQUEST_DOC},
                "full": {"type": "boolean", "default": False, "description": FULL_DOC},
            },
            "required": ["endpoint", "request"],
            "additionalProperties": False,
        },
        annotations=ANNOTATIONS,
        meta=TOOL_META,
    )
    return SystemTool(spec, routes)


def describe_tool(paths: Sequence[str]) -> types.Tool:
    return types.Tool(
        name=DESCRIBE,
        title="Describe an endpoint",
        description=(
            "One endpoint's fields (types, bounds, defaults, what each means) and a worked"
            " example, in a few KB; `schema: true` adds its request's whole JSON Schema. Call it"
            " before a first request to an endpoint whose fields you do not know."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "endpoint": {"type": "string", "enum": list(paths)},
                "schema": {"type": "boolean", "default": False},
            },
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
        self._described: dict[tuple[str, bool], str] = {}
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
            self._specs = [*(t.spec for t in self.systems.values()), describe_tool(self.paths())]
        return self._specs

    def paths(self) -> list[str]:
        return [path for tool in self.systems.values() for path in tool.routes]

    def route(self, path: str) -> Route | None:
        for tool in self.systems.values():
            if path in tool.routes:
                return tool.routes[path]
        return None

    def tool_of(self, path: str) -> str | None:
        return next((name for name, t in self.systems.items() if path in t.routes), None)

    def describe(self, path: str, schema: bool = False) -> str:
        """The text ``describe_endpoint`` answers for ``path`` (a path of a tool). Builds the
        OpenAPI document the first time (a second or so: call it off the event loop)."""
        with self._lock:
            key = (path, schema)
            if key not in self._described:
                route = self.route(path)
                shown = route.examples[0] if route is not None and route.examples else None
                self._described[key] = describe(
                    self.app.openapi(), path, schema=schema, example=shown
                )
            return self._described[key]


# ------------------------------------------------------------------------------ describe_endpoint

#: The most bytes ``describe_endpoint`` answers without ``schema: true`` (the issue's "a few KB").
DESCRIBE_LIMIT = 4000
#: How deep the field list goes into nested objects.
FIELD_DEPTH = 4


#: What the envelope's fields are, told once at the end of an endpoint's fields.
ENVELOPE_DOC = {
    "seed": "seed (string or integer): the same seed, the same dice; without one a new one, returned",
    "dice": "dice ({slot: [values]}): dice rolled at the table, used in order in their slot",
    "lang": "lang (en|pl|fi|ar): the language of the events' texts",
    "foundry": "foundry (boolean): also answer the dice as Foundry VTT rolls",
}


def describe(
    doc: dict[str, Any], path: str, *, schema: bool = False, example: str | None = None
) -> str:
    """One endpoint of the OpenAPI document ``doc``, told for an assistant: what it does, its
    fields and a worked example (``example``, else the document's), within
    :data:`DESCRIBE_LIMIT` bytes (descriptions shortened, deeper fields named only, as it takes);
    with ``schema``, the request's JSON Schema too."""
    op = doc["paths"][path]["post"]
    content = op["requestBody"]["content"]["application/json"]
    root = embed(content["schema"], doc.get("components", {}).get("schemas", {}))
    if example is None and "example" in content:
        example = encode(content["example"]).decode()
    if example is None and content.get("examples"):
        example = encode(next(iter(content["examples"].values()))["value"]).decode()
    tail = ["", "Example request:", example] if example is not None else []
    options = root.get("anyOf", root.get("oneOf", ()))
    body = root if "properties" in root or not options else _kind(options[0], root["$defs"])[0]
    envelope = [ENVELOPE_DOC[k] for k in ENVELOPE_DOC if k in body.get("properties", {})]
    if envelope:
        tail[:0] = ["Every endpoint's: " + "; ".join(envelope) + "."]
    if schema:
        tail += ["", "Request JSON Schema:", encode(root).decode()]
    else:
        tail += ["", f"The request's whole JSON Schema: {DESCRIBE} with `schema: true`."]
    head = f"POST {path}: {op.get('summary', '')}"
    for words, depth in ((300, FIELD_DEPTH), (120, FIELD_DEPTH), (80, 3), (0, 3), (0, 2), (0, 1)):
        about = _shorten(op.get("description", ""), words * 3)
        fields = _bodies(root, words, depth)
        text = "\n".join([head, about, "", "Fields (* required):", *fields, *tail])
        if schema or len(text.encode()) <= DESCRIBE_LIMIT:
            break
    return text


def _bodies(root: dict[str, Any], words: int, depth: int) -> Iterator[str]:
    """The fields of a request, or of each body it may be (a shaped odds endpoint's)."""
    defs = root.get("$defs", {})
    if "properties" in root:
        yield from _fields(root, defs, words=words, depth=depth, seen=set())
        return
    for option in root.get("anyOf", root.get("oneOf", ())):
        target, kind = _kind(option, defs)
        yield f"- a {kind}:"
        yield from _fields(target, defs, words=words, depth=depth, seen=set(), indent="  ")


def _shorten(text: str, limit: int) -> str:
    """``text`` cut at a sentence's end before ``limit`` characters (its first sentence at least)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(". ", 0, limit)
    if cut < 0:
        cut = text.find(". ")
    return text if cut < 0 else text[: cut + 1]


def _fields(
    schema: dict[str, Any],
    defs: dict[str, Any],
    *,
    words: int,
    depth: int,
    seen: set[str],
    indent: str = "",
    top: bool = True,
) -> Iterator[str]:
    """``- name* (type, bounds, default): what it means`` for each property (but the envelope's
    of a ``top`` body), nested objects' properties below theirs, a model met again named so."""
    required = set(schema.get("required", ()))
    for name, prop in schema.get("properties", {}).items():
        if top and name in ENVELOPE:
            continue
        target, kind = _kind(prop, defs)
        title = str(target.get("title", ""))
        again = bool(title) and title in seen and "properties" in target
        mark = "*" if name in required else ""
        about = _shorten(prop.get("description") or target.get("description") or "", words)
        said = f"{kind}, as above" if again else kind
        yield f"{indent}- {name}{mark} ({said}){': ' + about if about else ''}"
        if depth > 1 and "properties" in target and not again:
            seen.add(title)
            yield from _fields(
                target,
                defs,
                words=words // 2,
                depth=depth - 1,
                seen=seen,
                indent=indent + "  ",
                top=False,
            )


def _kind(prop: dict[str, Any], defs: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The object a property holds (itself, or what its ``$ref``, array items or options lead
    to) and its type in a few words: ``integer 0..1000, default 0``, ``list of Combatant``."""
    options = [o for o in prop.get("anyOf", prop.get("oneOf", [prop])) if o.get("type") != "null"]
    words: list[str] = []
    target: dict[str, Any] = prop
    for option in options:
        node, many = option, ""
        if node.get("type") == "array" and isinstance(node.get("items"), dict):
            node, many = node["items"], "list of "
        ref = node.get("$ref", "")
        if ref:
            target = defs.get(ref.rsplit("/", 1)[-1], {})
            words.append(many + (target.get("title") or ref.rsplit("/", 1)[-1]))
            continue
        words.append(many + _scalar(node))
    kind = " or ".join(dict.fromkeys(words)) or "any"
    if "default" in prop and prop["default"] is not None:
        kind += f", default {encode(prop['default']).decode()}"
    return target, kind


def _scalar(node: dict[str, Any]) -> str:
    if "enum" in node:
        return "|".join(str(v) for v in node["enum"])
    kind = str(node.get("type", "any"))
    low = node.get("minimum", node.get("minLength", node.get("minItems")))
    high = node.get("maximum", node.get("maxLength", node.get("maxItems")))
    if low is not None or high is not None:
        kind += f" {_number(low)}..{_number(high)}"
    return kind


def _number(value: Any) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


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


__all__ = ["CARD_URI", "DESCRIBE", "Catalog", "Route", "SystemTool", "describe", "embed"]
