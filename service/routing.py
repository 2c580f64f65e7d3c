"""The HTTP surface of the POST endpoints: one FastAPI route per endpoint (``service.endpoints``),
a :class:`StaticRoute` (FastAPI's documented custom ``APIRoute``), whose function FastAPI calls: it
checks the ``Content-Type``, reads the raw body and answers through the one pipeline
(``service.pipeline.answer``). FastAPI neither parses the body nor re-validates the answer; the
OpenAPI document shows both models all the same (``service.openapi``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, cast

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import Scope

import rules.system
from rules.narration import Texts
from rules.system import System
from service import pipeline
from service.endpoints import Endpoint, build
from service.lanes import Draining
from service.language import HEADERS
from service.problem_texts import BODY_KEY
from service.problems import KINDS, PROBLEM_JSON, UnsupportedMediaType

#: scope key: the system of the endpoint a request reached (for the access line and the metrics).
SYSTEM_KEY = "dragonroll.system"
#: The response headers of each language (``service.language``), as a Response takes them.
_LANGUAGE_HEADERS: dict[str | None, dict[str, str]] = {
    None: {},
    **{
        lang: {name.decode(): value.decode() for name, value in headers}
        for lang, headers in HEADERS.items()
    },
}


def install(app: FastAPI, systems: Iterable[System], texts: Texts) -> None:
    """A ``POST`` route on ``app`` for each endpoint of ``systems`` (``service.endpoints.build``),
    the endpoints kept in ``app.state.endpoints``."""
    built = build(systems, texts)
    for path, endpoint in built.items():
        app.router.add_api_route(
            path,
            endpoint_function(endpoint),
            methods=["POST"],
            route_class_override=StaticRoute,
            **route(endpoint),
        )
    app.state.endpoints = built


class StaticRoute(APIRoute):
    """An endpoint's route (FastAPI's documented hook, a custom ``APIRoute``), for a path without
    parameters and a function that takes the request and answers it whole."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        # The router asks each route in turn: a request for another path is passed over by a
        # string comparison before Starlette's regular expression (the route sees the path with
        # the root path taken off, a suffix of the request's).
        if scope["type"] == "http" and not scope["path"].endswith(self.path):
            return Match.NONE, {}
        return super().matches(scope)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        # The function reads the body, checks it and answers (service.pipeline): FastAPI's handler
        # around it (parameters, dependencies, the body parsed as JSON, the answer re-validated)
        # would find nothing to do, at a cost of about 10 us a request.
        return cast(Callable[[Request], Coroutine[Any, Any, Response]], self.endpoint)


def is_json(content_type: str) -> bool:
    """``application/json`` or ``application/<x>+json``; no ``Content-Type`` at all is not JSON."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def check_json(request: Request) -> None:
    """Refuse a body that is not JSON by its ``Content-Type`` header, or without one (a 415)."""
    content_type = request.headers.get("content-type", "")
    if not is_json(content_type):
        raise UnsupportedMediaType(content_type)


def endpoint_function(endpoint: Endpoint) -> Callable[[Request], Any]:
    """The function FastAPI calls for ``POST <endpoint.path>``, the caller's hang-up watched while
    a heavy job runs."""
    system = endpoint.system

    async def serve(request: Request) -> Response:
        request.scope[SYSTEM_KEY] = system
        check_json(request)
        body = await request.body()
        request.scope[BODY_KEY] = body  # a refusal is told in its `lang` (service.problem_texts)
        accept = request.headers.get("accept-language", "").encode("latin-1")

        async def gone() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass

        try:
            payload, lang = await pipeline.answer(
                request.app.state, endpoint, body, accept, gone, scope=request.scope
            )
        except asyncio.CancelledError:
            # The server's graceful timeout ended the request (its job was ended with it): a
            # problem, not the server's plain 500 and its traceback.
            raise Draining(started=True) from None
        return Response(payload, media_type="application/json", headers=_LANGUAGE_HEADERS[lang])

    serve.__name__ = operation_id(endpoint.path)
    return serve


def operation_id(path: str) -> str:
    """``dos_roll`` for ``/dos/roll``, ``dice_roll`` for ``/dice/roll``: the route's name and
    OpenAPI operation id, from the path served."""
    return path.strip("/").replace("/", "_").replace("-", "_")


def route(endpoint: Endpoint) -> dict[str, Any]:
    """``add_api_route``'s arguments for ``endpoint``, from its entry. The request body's schema is
    put into the document by ``service.openapi``; an odds entry's named examples are listed with
    it (a resolving endpoint's first example is resolved there)."""
    entry = endpoint.entry
    name = operation_id(endpoint.path)
    content: dict[str, Any] = {}
    if not isinstance(entry, rules.system.Endpoint):  # odds and simulations
        content["examples"] = {n: {"summary": n, "value": b} for n, b in entry.examples.items()}
    return {
        "response_model": endpoint.response_model,
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
