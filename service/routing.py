"""Resolver routes: validate the body, call the engine, return its bytes.

Each resolving endpoint is a :class:`ResolverRoute`. FastAPI still sees an ordinary route with a
request body model and a response model, so the OpenAPI document describes it fully; at request time
the route skips FastAPI's dependency solving and response re-validation and does the three steps
itself: ``Model.model_validate_json(body)``, ``resolver(request, dice)``, ``encode(result)``.
Results are dataclasses the engine builds from checked values (``rules.record``), written by
``service.encoding`` in declaration order, so the same request with the same seed gives the same bytes.

Speed (README, "Performance"): :meth:`ResolverRoute.serve` answers a POST as plain ASGI: it
reads the body from ``receive`` and sends the two response messages itself, without the per-request
``Request`` object, the two ``AsyncExitStack``s and the exception-wrapping layer of FastAPI's
``request_response``. The app object itself (``service.app.Dragonroll``) hands a resolver POST to
the edge layer (``EdgeMiddleware.serve_resolver``), which does the same work with this module's
pieces (``check_json``, ``read_body``, :meth:`ResolverRoute.resolve`, ``json_start``,
:meth:`ResolverFastPath.answer`) in one coroutine, skipping FastAPI's and Starlette's stack; when it
cannot (another middleware in the stack, telemetry on), :class:`ResolverFastPath`, the innermost
middleware (``install_fast_path``), calls :meth:`ResolverRoute.serve` without consulting FastAPI's
router; a request that still reaches the router (a mounted copy of a router, for instance) gets it
from :meth:`ResolverRoute.handle`. Errors are raised to the same
exception handlers either way, so every problem response is unchanged (a property test compares the
answers with FastAPI's own path). Another method, or a route with a FastAPI body-size limit, goes
through FastAPI's own path.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from fastapi import APIRouter, FastAPI
from fastapi import routing as fastapi_routing
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import get_route_path  # type: ignore[attr-defined]
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rules.dice import DiceSource, SlotSpec
from rules.models import RollRequest
from rules.narration import tell
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
        **kwargs: Any,
    ) -> None:
        self.resolver = resolver
        self.slots = slots
        self.request_model = request_model
        self.system = system
        super().__init__(path, endpoint, **kwargs)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "POST" or _body_limited(self, scope):
            await super().handle(scope, receive, send)
            return
        await self.serve(scope, receive, send)

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one POST as plain ASGI; errors are raised for the app's exception handlers."""
        check_json(scope)
        accept = next((v for k, v in scope["headers"] if k == b"accept-language"), b"")
        payload, lang = self.resolve(await read_body(receive), accept)
        await send(json_start(payload, HEADERS[lang]))
        await send({"type": "http.response.body", "body": payload})

    def resolve(self, body: bytes, accept_language: bytes = b"") -> tuple[bytes, str]:
        """Validate a JSON body, resolve it with a fresh dice source, narrate its events in the
        request's language (``lang``, else ``accept_language``), serialise the result; returns the
        bytes and the language.

        Errors (a ``ValidationError``, a ``RulesError``) are raised for the app's exception handlers.
        """
        # The model's validator itself: ``model_validate_json`` is a Python function around it that
        # passes six keyword arguments (0.5 us a request).
        req = self.request_model.__pydantic_validator__.validate_json(body)
        seed = req.seed if req.seed is not None else new_seed()
        # The slots only check a script: a request without one does not list them.
        dice = DiceSource(seed, req.dice, self.slots(req) if req.dice else None)
        result = self.resolver(req, dice)
        lang = req.lang or negotiate(accept_language)
        tell(result, req, lang)
        return encode(result), lang

    def get_route_handler(self) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            content_type = request.headers.get("content-type", "")
            if not is_json(content_type):
                raise UnsupportedMediaType(content_type)
            payload, lang = self.resolve(
                await request.body(), request.headers.get("accept-language", "").encode("latin-1")
            )
            return Response(
                payload,
                media_type="application/json",
                headers={k.decode(): v.decode() for k, v in HEADERS[lang]},
            )

        return handle


def check_json(scope: Scope) -> None:
    """Refuse a body that is not JSON by its (first) ``Content-Type`` header (a 415 problem)."""
    content_type = ""
    for name, value in scope["headers"]:
        if name == b"content-type":
            content_type = value.decode("latin-1")
            break
    if not is_json(content_type):
        raise UnsupportedMediaType(content_type)


def json_start(payload: bytes, extra: tuple[tuple[bytes, bytes], ...] = ()) -> Message:
    """The ``http.response.start`` of a 200 JSON answer, with ``extra`` headers after its own."""
    return {
        "type": "http.response.start",
        "status": 200,
        "headers": [
            (b"content-length", str(len(payload)).encode()),
            (b"content-type", b"application/json"),
            *extra,
        ],
    }


async def read_body(receive: Receive, limit: int | None = None) -> bytes:
    """The whole request body, as ``Request.body()`` reads it (``ClientDisconnect`` included).

    With a ``limit``, :class:`BodyTooLarge` as soon as the bytes received pass it (a chunked body
    announces no length).
    """
    message: Message = await receive()
    if message["type"] == "http.request" and not message.get("more_body", False):
        body = bytes(message.get("body", b""))
        if limit is not None and len(body) > limit:
            raise BodyTooLarge(limit)
        return body
    chunks: list[bytes] = []
    received = 0
    while True:
        if message["type"] == "http.request":
            chunk = message.get("body", b"")
            received += len(chunk)
            if limit is not None and received > limit:
                raise BodyTooLarge(limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect()
        message = await receive()


def _body_limited(route: APIRoute, scope: Scope) -> bool:
    """Whether FastAPI would wrap this route in its own body-size limit (then it takes the request)."""
    lookup = getattr(fastapi_routing, "_get_scope_effective_route_context", None)
    context = lookup(scope) if lookup is not None else None
    limit = getattr(context if context is not None else route, "max_body_size", None)
    return limit is not None


class ResolverFastPath:
    """Innermost middleware: a POST to a resolver route is answered without FastAPI's router.

    FastAPI's router matches an included router's routes twice per request (``matches`` then
    ``_handle_selected``) and wraps the route in ``AsyncExitStackMiddleware``; for a static POST path
    that is most of the framework's cost. This middleware sits inside every other middleware (it is
    put last in ``user_middleware``, whatever order the others are added in), so request ids, logs,
    metrics and body limits see the request as before; it looks the path up in a dict of the
    resolver routes, sets ``scope["route"]`` / ``"endpoint"`` / ``"path_params"`` as the router
    would, and hands any exception to the app's exception handlers exactly as Starlette's
    ``ExceptionMiddleware`` does (same lookup by class, same handlers). Anything else, another method
    included, goes on to the router unchanged.
    """

    def __init__(self, app: ASGIApp, *, fastapi: FastAPI) -> None:
        self.app = app
        self.routes: dict[str, ResolverRoute] = dict(resolver_paths(fastapi.router.routes))
        self.handlers: dict[type[BaseException], Callable[..., Any]] = {
            key: value
            for key, value in fastapi.exception_handlers.items()
            if isinstance(key, type) and key is not Exception
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = (
            self.routes.get(get_route_path(scope))
            if scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        if route is None:
            await self.app(scope, receive, send)
            return
        await self.serve(route, scope, receive, send)

    async def serve(self, route: ResolverRoute, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a POST to ``route`` as the router would, errors through the app's handlers."""
        enter(route, scope)
        try:
            await route.serve(scope, receive, send)
        except Exception as exc:
            await self.answer(exc, scope, receive, send)

    async def answer(self, exc: Exception, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer ``exc`` with the app's handler for it, as Starlette's ``ExceptionMiddleware``
        does; raise it again when the app has none."""
        handler = self._handler(exc)
        if handler is None:
            raise exc
        response = await handler(Request(scope, receive), exc)
        await response(scope, receive, send)

    def _handler(self, exc: Exception) -> Callable[..., Any] | None:
        for cls in type(exc).__mro__:
            if cls in self.handlers:
                return self.handlers[cls]
        return None


def enter(route: ResolverRoute, scope: Scope) -> None:
    """Note in the scope that the request is for ``route``, as FastAPI's router would."""
    scope["route"] = route
    scope["endpoint"] = route.endpoint
    scope["path_params"] = {}


def resolver_paths(routes: Iterable[Any]) -> Iterator[tuple[str, ResolverRoute]]:
    """(path as served, route) of every resolver route, included routers looked into.

    Routes with a path parameter or a FastAPI body-size limit are left to the router.
    """
    for route in routes:
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is not None:  # FastAPI's included router
            for context in contexts():
                original = context.original_route
                if (
                    isinstance(original, ResolverRoute)
                    and "{" not in context.path_format
                    and getattr(context, "max_body_size", None) is None
                ):
                    yield context.path_format, original
        elif (
            isinstance(route, ResolverRoute)
            and "{" not in route.path_format
            and getattr(route, "max_body_size", None) is None
        ):
            yield route.path_format, route


def install_fast_path(app: FastAPI) -> None:
    """Serve the app's resolver routes through :class:`ResolverFastPath` (call in the factory)."""
    app.user_middleware.append(Middleware(ResolverFastPath, fastapi=app))


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
) -> None:
    """Register ``POST <path>`` resolving ``request_model`` into ``response_model``.

    ``slot_doc`` lists the endpoint's dice slots; it is appended to the OpenAPI description.
    """

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
    router.routes.append(
        ResolverRoute(
            router.prefix + path,
            endpoint,
            resolver=resolver,
            slots=slots,
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
        )
    )
