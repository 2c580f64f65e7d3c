"""Resolver routes: validate the body, call the engine, return its bytes.

Each resolving endpoint is a :class:`ResolverRoute`. FastAPI still sees an ordinary route with a
request body model and a response model, so the OpenAPI document describes it fully; at request time
the route skips FastAPI's dependency solving and response re-validation and does the three steps
itself: ``Model.model_validate_json(body)``, ``resolver(request, dice)``, ``result.model_dump_json()``.
The engine's models are already validated and serialise deterministically, so nothing is lost and the
same request with the same seed gives the same bytes.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from rules.dice import DiceSource, SlotSpec
from rules.models import RollRequest
from service.problems import KINDS, PROBLEM_JSON


class UnsupportedMediaType(Exception):
    def __init__(self, content_type: str) -> None:
        super().__init__(content_type)
        self.content_type = content_type


class Resolver(Protocol):
    def __call__(self, req: Any, dice: DiceSource, /) -> BaseModel: ...


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

    def get_route_handler(self) -> Callable[[Request], Any]:
        validate = self.request_model.model_validate_json
        resolver = self.resolver
        slots = self.slots

        async def handle(request: Request) -> Response:
            content_type = request.headers.get("content-type", "")
            if not is_json(content_type):
                raise UnsupportedMediaType(content_type)
            body = await request.body()
            req = validate(body)
            seed = req.seed if req.seed is not None else new_seed()
            dice = DiceSource(seed, req.dice, slots(req))
            result = resolver(req, dice)
            return Response(result.model_dump_json(), media_type="application/json")

        return handle


def add_resolver(
    router: APIRouter,
    path: str,
    *,
    resolver: Resolver,
    slots: Callable[[Any], SlotSpec],
    request_model: type[RollRequest],
    response_model: type[BaseModel],
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
