"""The endpoints an app serves, each built from its descriptor's entry itself (STYLE 21, 22).

For every system the app serves (``rules.registry.SYSTEMS`` unless ``create_app`` is given others),
each resolving endpoint (``rules.system.Endpoint``) becomes a ``service.routing.ResolverEndpoint``,
each odds endpoint and simulation (``rules.system.Odds``) a ``service.odds.OddsEndpoint``, or a
``ShapedOddsEndpoint`` where the entry answers several shapes. Each holds its entry and its
system's descriptor; its route is registered straight on the app (``app.add_api_route``), with what
the OpenAPI document says of it read from the entry (summary, description and dice slots, answer
model, examples, the system's tag). The endpoints, by path, are kept in ``app.state.endpoints``
(:func:`endpoints`): the one place the OpenAPI document, the MCP tools, the metrics' labels and the
bench read. Nothing here names a system: a path a system does not have is the app's 404.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI

from rules.narration import Texts
from rules.system import Odds, System
from service.odds import OddsEndpoint, ShapedOddsEndpoint
from service.problems import KINDS, PROBLEM_JSON
from service.routing import Endpoint, ResolverEndpoint, endpoint_function, operation_id


def build(systems: Iterable[System], texts: Texts) -> dict[str, Endpoint]:
    """Every system's resolving endpoints, narrated from ``texts`` (those of every system the app
    serves), then every system's odds and simulations (the OpenAPI document lists them in this
    order), by path as served."""
    resolving = [ResolverEndpoint(s, entry, texts) for s in systems for entry in s.endpoints]
    answering = [_odds(s, entry) for s in systems for entry in (*s.odds, *s.simulations)]
    return {endpoint.path: endpoint for endpoint in (*resolving, *answering)}


def _odds(system: System, entry: Odds) -> Endpoint:
    return ShapedOddsEndpoint(system, entry) if entry.shapes else OddsEndpoint(system, entry)


def install(app: FastAPI, systems: Iterable[System], texts: Texts) -> None:
    """``POST`` routes on ``app`` for the endpoints of ``systems`` (:func:`build`), kept in
    ``app.state.endpoints``."""
    built = build(systems, texts)
    for path, endpoint in built.items():
        app.add_api_route(path, endpoint_function(endpoint), methods=["POST"], **route(endpoint))
    app.state.endpoints = built


def endpoints(app: FastAPI) -> dict[str, Endpoint]:
    """Every endpoint ``app`` serves, by path (:func:`install`)."""
    found: dict[str, Endpoint] = app.state.endpoints
    return found


def route(endpoint: Endpoint) -> dict[str, Any]:
    """What the route of ``endpoint`` says of it, from its entry: ``add_api_route``'s arguments.

    The request body is the entry's request model: the endpoint reads the body itself, so the
    schema is put into the document by ``service.openapi``; an odds entry's named examples are
    listed with it (a resolving endpoint's first example is resolved there)."""
    entry = endpoint.entry
    name = operation_id(endpoint.system, endpoint.path)
    content: dict[str, Any] = {}
    if isinstance(entry, Odds):
        content["examples"] = {n: {"summary": n, "value": b} for n, b in entry.examples.items()}
    return {
        "response_model": entry.result,
        "summary": entry.summary,
        "description": f"{entry.description}\n\n**Dice slots**: {entry.slot_doc}",
        "responses": problem_responses(400, 413, 415, 422, 503),
        "name": name,
        "operation_id": name,
        "tags": [endpoint.descriptor.title],
        "openapi_extra": {
            "requestBody": {"content": {"application/json": content}, "required": True}
        },
    }


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for problems (schema added by ``service.openapi``)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        kinds = [k for k, (s, _) in KINDS.items() if s == status and k != "preflight-refused"]
        out[status] = {
            "description": "Problem: " + ", ".join(kinds),
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        if status == 503:  # the heavy lane's queue is full, or the server is draining
            out[status]["headers"] = {
                "Retry-After": {
                    "description": "Seconds after which the request may be sent again.",
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
    return out
