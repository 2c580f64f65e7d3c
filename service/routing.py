"""POST routes: FastAPI calls the endpoint, the endpoint validates the body, resolves it, returns bytes.

Each resolving, odds or simulate endpoint is an :class:`Endpoint` (what to validate, what work to
allow, how to answer) served by an ordinary FastAPI route whose endpoint function FastAPI calls as
documented: it takes the ``Request``, reads the raw body, checks its ``Content-Type``, and returns a
``Response`` of the bytes :meth:`Endpoint.resolve` made (``Model.__pydantic_validator__``'s
``validate_json``, the work budget, the resolver, the narration, ``service.encoding``). FastAPI
neither parses the body nor re-validates the answer; the OpenAPI document shows both models all the
same (the request's in ``openapi_extra``, filled in by ``service.openapi``; the answer's as the
route's ``response_model``). Errors (bad JSON, a validation or rules error, a body over the limit, a
duplicate key) are raised to the app's exception handlers (``service.problems``).

Odds and simulations (``heavy``) are answered in the app's worker threads (``service.workers``), off
the event loop, so that ``/livez`` and every other request keep being answered meanwhile.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from fastapi import APIRouter, FastAPI
from starlette.requests import Request
from starlette.responses import Response

from rules import budget, foundry
from rules.dice import DiceSource, SlotSpec
from rules.foundry import Mapper
from rules.models import RollRequest
from rules.narration import Texts, names, narrate
from service.encoding import encode
from service.language import HEADERS, negotiate
from service.problems import KINDS, PROBLEM_JSON, DuplicateKey, UnsupportedMediaType

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


class Resolver(Protocol):
    def __call__(self, req: Any, dice: DiceSource, /) -> Any: ...


def new_seed() -> str:
    """A server-made seed: 32 lowercase hex characters from a secure source (DESIGN.md)."""
    return secrets.token_hex(16)


def is_json(content_type: str) -> bool:
    """``application/json`` or ``application/<x>+json``; no ``Content-Type`` at all is not JSON."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def check_duplicates(body: bytes) -> None:
    """Refuse a body in which one JSON object names a key twice (:class:`DuplicateKey`, a 422).

    pydantic's parser keeps the last of them, so ``{"stat": 24, "stat": 1}`` would be resolved as
    ``stat`` 1: a changed rules answer the caller never sees. Run on bodies that validated (so the
    JSON is well formed and bounded in depth and numbers): one decoder, made once, scans the text
    from its first value (``raw_decode``: what follows it is JSON whitespace, pydantic has seen to
    it), where ``json.loads`` with a hook builds a decoder per call and checks the tail again;
    docs/hardening.md gives its cost."""
    _PAIRS.raw_decode(body.decode("utf-8").lstrip(_JSON_WHITESPACE))


def _unique(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)


#: The decoder of :func:`check_duplicates`: every object's pairs go to :func:`_unique`.
_PAIRS = json.JSONDecoder(object_pairs_hook=_unique)
#: What JSON allows around a value (RFC 8259 section 2).
_JSON_WHITESPACE = " \t\n\r"


class Endpoint:
    """One POST endpoint: its request model, its work function, how it answers.

    :meth:`resolve` is the whole in-process path of a request from its raw body to the bytes of the
    answer (tests, the OpenAPI examples and the benchmarks call it directly)."""

    #: answered in the worker threads, off the event loop (odds and simulations)
    heavy = False
    #: the answer's model, for the OpenAPI document (set by :func:`add_endpoint`)
    response_model: Any = None

    def __init__(
        self,
        path: str,
        *,
        system: str,
        request_model: Any,
        work: Callable[[Any], budget.Work],
    ) -> None:
        self.path = path
        self.system = system
        self.request_model = request_model
        self.work = work

    def validate(self, body: bytes) -> Any:
        """The request, validated by its model's own validator (``model_validate_json`` is a Python
        function around it that passes six keyword arguments: 0.5 us a request)."""
        req = self.request_model.__pydantic_validator__.validate_json(body)
        check_duplicates(body)
        return req

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """The answer's bytes and the language of their texts (``None``: no texts)."""
        raise NotImplementedError


class ResolverEndpoint(Endpoint):
    """Validate, check the work budget, resolve with a fresh dice source, narrate, encode."""

    def __init__(
        self,
        path: str,
        *,
        system: str,
        request_model: Any,
        work: Callable[[Any], budget.Work],
        resolver: Resolver,
        slots: Callable[[Any], SlotSpec],
        foundry: Mapper | None = None,
        texts: Texts | None = None,
    ) -> None:
        super().__init__(path, system=system, request_model=request_model, work=work)
        self.resolver = resolver
        self.slots = slots
        self.foundry = foundry
        self.texts = texts

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """Validate a JSON body, check its work budget, resolve it with a fresh dice source,
        narrate its events in the request's language (``lang``, else ``accept_language``),
        serialise the result; returns the bytes and the language of their texts.

        Errors (a ``ValidationError``, a ``RulesError``: ``LimitExceeded`` for a request over
        ``dice_budget`` base dice) are raised for the app's exception handlers.
        """
        req = self.validate(body)
        budget.check(self.work(req), dice_budget)
        mapper = foundry.check(self.system, self.foundry) if req.foundry else None
        seed = req.seed if req.seed is not None else new_seed()
        # The slots only check a script: a request without one does not list them.
        dice = DiceSource(seed, req.dice, self.slots(req) if req.dice else None)
        result = self.resolver(req, dice)
        lang = req.lang or negotiate(accept_language)
        named = names(req)  # the request's names: for the events' texts and the rolls' flavors
        narrate(result["events"], lang, named, self.texts)
        if mapper is not None:
            rolls = foundry.rolls(
                self.system, mapper, req, result, lang=lang, names=named, texts=self.texts
            )
            result = {**result, "foundry": {"rolls": rolls}}
        payload = encode(result)
        budget.check_answer(len(payload))
        return payload, lang


def check_json(request: Request) -> None:
    """Refuse a body that is not JSON by its ``Content-Type`` header, or without one (a 415)."""
    content_type = request.headers.get("content-type", "")
    if not is_json(content_type):
        raise UnsupportedMediaType(content_type)


def endpoint_function(endpoint: Endpoint) -> Callable[[Request], Any]:
    """The function FastAPI calls for ``POST <endpoint.path>``."""
    system = endpoint.system

    async def serve(request: Request) -> Response:
        request.scope[SYSTEM_KEY] = system
        check_json(request)
        body = await request.body()
        max_dice: int = request.app.state.settings.max_dice
        accept = request.headers.get("accept-language", "").encode("latin-1")
        if endpoint.heavy:
            payload, lang = await request.app.state.workers.run(
                endpoint.resolve, body, max_dice, accept
            )
        else:
            payload, lang = endpoint.resolve(body, max_dice, accept)
        return Response(payload, media_type="application/json", headers=_LANGUAGE_HEADERS[lang])

    serve.__name__ = operation_id(system, endpoint.path)
    return serve


def operation_id(system: str, path: str) -> str:
    """``dos_roll`` for ``/dos/roll``, ``dice_roll`` for ``/dice/roll`` (the ``notation`` system's):
    the route's name and OpenAPI operation id, from the path served."""
    return path.strip("/").replace("/", "_").replace("-", "_")


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for problems (schema added by ``service.openapi``)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        kinds = [k for k, (s, _) in KINDS.items() if s == status and k != "preflight-refused"]
        out[status] = {
            "description": "Problem: " + ", ".join(kinds),
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
    return out


#: The endpoints registered on each router (by its id, with the router kept alive beside them), by
#: path as served (``router.prefix + path``), with the route each became and the arguments of
#: ``add_api_route`` that made it.
_REGISTERED: dict[int, tuple[APIRouter, dict[str, tuple[Endpoint, Any, dict[str, Any]]]]] = {}


def add_endpoint(
    router: APIRouter,
    endpoint: Endpoint,
    *,
    response_model: Any,
    summary: str,
    description: str,
    slot_doc: str,
    openapi_extra: dict[str, Any] | None = None,
) -> None:
    """Register ``POST endpoint.path`` on ``router``: a FastAPI route calling
    :func:`endpoint_function`, documented with its request model (``openapi_extra``; the schema is
    put in by ``service.openapi``) and its answer (``response_model``)."""
    name = operation_id(endpoint.system, endpoint.path)
    endpoint.response_model = response_model
    extra = dict(openapi_extra or {})
    body = extra.setdefault("requestBody", {})
    body["required"] = True
    body.setdefault("content", {}).setdefault("application/json", {})
    route_args: dict[str, Any] = {
        "endpoint": endpoint_function(endpoint),
        "methods": ["POST"],
        "response_model": response_model,
        "summary": summary,
        "description": f"{description}\n\n**Dice slots**: {slot_doc}",
        "responses": problem_responses(400, 413, 415, 422),
        "name": name,
        "operation_id": name,
        "openapi_extra": extra,
    }
    router.add_api_route(endpoint.path.removeprefix(router.prefix), **route_args)
    route = router.routes[-1]
    registered = _REGISTERED.setdefault(id(router), (router, {}))[1]
    registered[endpoint.path] = (endpoint, route, {**route_args, "tags": list(router.tags)})


def include(app: FastAPI, router: APIRouter) -> None:
    """``router``'s routes served by ``app``, its endpoints noted in ``app.state.endpoints``.

    The endpoints are added to the app's own router (``app.add_api_route``, with the arguments
    that made them on ``router``), the router's other routes included as usual: a request is then
    matched against one flat list of routes, not through an included router's (which FastAPI
    matches route by route twice per request: 15-20 us of a /dos/test on this machine)."""
    registered = _REGISTERED.get(id(router), (router, {}))[1]
    ours = {id(route) for _, route, _ in registered.values()}
    for path, (_, _, route_args) in registered.items():
        app.add_api_route(path, **route_args)
    others = [route for route in router.routes if id(route) not in ours]
    if others:
        rest = APIRouter()
        rest.routes.extend(others)
        app.include_router(rest)
    found: dict[str, Endpoint] = getattr(app.state, "endpoints", {})
    found.update({path: endpoint for path, (endpoint, _, _) in registered.items()})
    app.state.endpoints = found


def endpoints(app: FastAPI) -> dict[str, Endpoint]:
    """Every endpoint of ``app`` by path (those of the routers :func:`include` put in)."""
    found: dict[str, Endpoint] = getattr(app.state, "endpoints", {})
    return found


def add_resolver(
    router: APIRouter,
    path: str,
    *,
    resolver: Resolver,
    slots: Callable[[Any], SlotSpec],
    request_model: type[RollRequest],
    response_model: type[Any],
    summary: str,
    description: str,
    slot_doc: str,
    work: Callable[[Any], budget.Work],
    system: str | None = None,
    foundry: Mapper | None = None,
    texts: Texts | None = None,
) -> None:
    """Register ``POST <path>`` resolving ``request_model`` into ``response_model``.

    ``slot_doc`` lists the endpoint's dice slots; it is appended to the OpenAPI description.
    ``work`` counts the base dice a request can roll (``rules.budget``), checked before resolving.
    ``system``: the system's id (default: the router's prefix without its slash).
    ``foundry``: the system's Foundry pools (``rules.foundry``; none: ``foundry: true`` is a 422);
    ``texts``: the source texts its events are narrated from (the registry's by default).
    """
    endpoint = ResolverEndpoint(
        router.prefix + path,
        system=system or router.prefix.strip("/"),
        request_model=request_model,
        work=work,
        resolver=resolver,
        slots=slots,
        foundry=foundry,
        texts=texts,
    )
    add_endpoint(
        router,
        endpoint,
        response_model=response_model,
        summary=summary,
        description=description,
        slot_doc=slot_doc,
    )
