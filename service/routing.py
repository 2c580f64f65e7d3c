"""Resolver routes: validate the body, call the engine, return its bytes.

Each resolving endpoint is a :class:`ResolverRoute`. FastAPI sees an ordinary route with a request
body model and a response model, so the OpenAPI document describes it fully. A request reaches it as
any request does (the edge middleware, FastAPI's exception handling, its router); the route then
answers a POST as plain ASGI in :meth:`ResolverRoute.handle`: the body read, then
``Model.model_validate_json(body)``, ``resolver(request, dice)``, ``encode(result)``, and the two
response messages, without FastAPI's per-request ``Request``, dependency solving and response
re-validation. Errors (bad JSON, a validation or rules error, a body over the limit) are raised to the
app's exception handlers, which answer them as problems. Results are written by ``service.encoding``
in declaration order, so the same request with the same seed gives the same bytes.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from fastapi import APIRouter
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import Message, Receive, Scope, Send

from rules import budget, foundry
from rules.dice import DiceSource, SlotSpec
from rules.foundry import Mapper
from rules.models import RollRequest
from rules.narration import Texts, names, narrate
from service.encoding import encode
from service.language import HEADERS, negotiate
from service.problems import KINDS, PROBLEM_JSON


class UnsupportedMediaType(Exception):
    def __init__(self, content_type: str) -> None:
        super().__init__(content_type)
        self.content_type = content_type


class BodyTooLarge(HTTPException):
    """The body grew past the limit while it was being read (rendered as a 413 problem)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than the limit of {limit} bytes")


class Resolver(Protocol):
    def __call__(self, req: Any, dice: DiceSource, /) -> Any: ...


def new_seed() -> str:
    """A server-made seed: 32 lowercase hex characters from a secure source (DESIGN.md)."""
    return secrets.token_hex(16)


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media in ("", "application/json") or (
        media.startswith("application/") and media.endswith("+json")
    )


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for problems (schema added by ``service.openapi``)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        kinds = [k for k, (s, _) in KINDS.items() if s == status]
        out[status] = {
            "description": "Problem: " + ", ".join(kinds),
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
    return out


class ResolverRoute(APIRoute):
    """A POST route whose handler is the lean validate -> resolve -> serialise path."""

    def __init__(
        self,
        path: str,
        endpoint: Callable[..., Any],
        *,
        resolver: Resolver,
        slots: Callable[[Any], SlotSpec],
        request_model: type[RollRequest],
        system: str,
        work: Callable[[Any], budget.Work],
        foundry: Mapper | None = None,
        texts: Texts | None = None,
        **kwargs: Any,
    ) -> None:
        self.resolver = resolver
        self.slots = slots
        self.work = work
        self.request_model = request_model
        self.system = system
        self.foundry = foundry
        self.texts = texts
        super().__init__(path, endpoint, **kwargs)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one POST as plain ASGI; errors are raised for the app's exception handlers.
        Another method gets Starlette's 405."""
        if scope["method"] != "POST":
            await super().handle(scope, receive, send)
            return
        check_json(scope)
        accept = next((v for k, v in scope["headers"] if k == b"accept-language"), b"")
        payload, lang = self.resolve(await read_body(receive), max_dice(scope), accept)
        await send(json_start(payload, HEADERS[lang] if lang else ()))
        await send({"type": "http.response.body", "body": payload})

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """Validate a JSON body, check its work budget, resolve it with a fresh dice source,
        narrate its events in the request's language (``lang``, else ``accept_language``),
        serialise the result; returns the bytes and the language of their texts.

        Errors (a ``ValidationError``, a ``RulesError``: ``LimitExceeded`` for a request over
        ``dice_budget`` base dice) are raised for the app's exception handlers.
        """
        # The model's validator itself: ``model_validate_json`` is a Python function around it that
        # passes six keyword arguments (0.5 us a request).
        req = self.request_model.__pydantic_validator__.validate_json(body)
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
        return encode(result), lang


def max_dice(scope: Scope) -> int:
    """The work budget of the app serving ``scope`` (``Settings.max_dice``), base dice a request."""
    settings = getattr(getattr(scope.get("app"), "state", None), "settings", None)
    return settings.max_dice if settings is not None else budget.MAX_DICE


def check_json(scope: Scope) -> None:
    """Refuse a body that is not JSON by its (first) ``Content-Type`` header (a 415 problem)."""
    content_type = ""
    for name, value in scope["headers"]:
        if name == b"content-type":
            content_type = value.decode("latin-1")
            break
    if not is_json(content_type):
        raise UnsupportedMediaType(content_type)


def json_start(payload: bytes, headers: Iterable[tuple[bytes, bytes]] = ()) -> Message:
    """The ``http.response.start`` of a 200 JSON answer, with ``headers`` added."""
    return {
        "type": "http.response.start",
        "status": 200,
        "headers": [
            (b"content-length", str(len(payload)).encode()),
            (b"content-type", b"application/json"),
            *headers,
        ],
    }


async def read_body(receive: Receive) -> bytes:
    """The whole request body, as ``Request.body()`` reads it (``ClientDisconnect`` included)."""
    message: Message = await receive()
    if message["type"] == "http.request" and not message.get("more_body", False):
        return bytes(message.get("body", b""))
    chunks: list[bytes] = []
    while True:
        if message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect()
        message = await receive()


def resolver_paths(routes: Iterable[Any]) -> Iterator[tuple[str, ResolverRoute]]:
    """(path as served, route) of every resolver route, included routers looked into."""
    for route in routes:
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is not None:  # FastAPI's included router
            for context in contexts():
                if isinstance(context.original_route, ResolverRoute):
                    yield context.path_format, context.original_route
        elif isinstance(route, ResolverRoute):
            yield route.path_format, route


def documented_endpoint(
    system: str, path: str, request_model: type[Any], response_model: type[Any]
) -> Callable[..., Any]:
    """A route's endpoint for FastAPI's documentation only (the route answers without it): its
    signature names the body and response models, its name is the operation id."""

    def endpoint(body: Any) -> Any:  # pragma: no cover - documentation only, never called
        raise NotImplementedError

    endpoint.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(
                "body", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=request_model
            )
        ],
        return_annotation=response_model,
    )
    endpoint.__name__ = f"{system}_{path.strip('/').replace('/', '_').replace('-', '_')}"
    return endpoint


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
    system: str,
    slot_doc: str,
    work: Callable[[Any], budget.Work],
    foundry: Mapper | None = None,
    texts: Texts | None = None,
) -> None:
    """Register ``POST <path>`` resolving ``request_model`` into ``response_model``.

    ``slot_doc`` lists the endpoint's dice slots; it is appended to the OpenAPI description.
    ``work`` counts the base dice a request can roll (``rules.budget``), checked before resolving.
    ``foundry``: the system's Foundry pools (``rules.foundry``; none: ``foundry: true`` is a 422);
    ``texts``: the source texts its events are narrated from (the registry's by default).
    """
    add_post(
        router,
        path,
        ResolverRoute,
        system=system,
        request_model=request_model,
        response_model=response_model,
        summary=summary,
        description=description,
        slot_doc=slot_doc,
        resolver=resolver,
        slots=slots,
        work=work,
        foundry=foundry,
        texts=texts,
    )


def add_post(
    router: APIRouter,
    path: str,
    route_class: type[ResolverRoute],
    *,
    system: str,
    request_model: type[RollRequest],
    response_model: type[Any],
    summary: str,
    description: str,
    slot_doc: str,
    **route_args: Any,
) -> None:
    """Append a ``route_class`` answering ``POST <path>`` to ``router``, documented as every
    resolver is (``route_args``: what the class itself takes, or more of the operation)."""
    endpoint = documented_endpoint(system, path, request_model, response_model)
    router.routes.append(
        route_class(
            router.prefix + path,
            endpoint,
            request_model=request_model,
            system=system,
            methods=["POST"],
            response_model=response_model,
            summary=summary,
            description=f"{description}\n\n**Dice slots**: {slot_doc}",
            tags=list(router.tags),
            responses=problem_responses(400, 413, 415, 422),
            name=endpoint.__name__,
            operation_id=endpoint.__name__,
            **route_args,
        )
    )
