"""Odds and simulation routes: the resolver routes' path, without a dice source.

An odds endpoint (``/<system>/odds/...``) answers from its request alone, drawing no die; a simulate
endpoint (``/<system>/simulate``) makes its own dice sources, one per run. Either is an
:class:`OddsRoute`: a :class:`~service.routing.ResolverRoute` whose :meth:`resolve` calls
``answer(request)``, so it is served, limited, logged and measured exactly as the resolvers are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from rules import budget
from rules.models import RollRequest
from service.encoding import encode
from service.routing import ResolverRoute, add_post, new_seed


def _no_slots(req: Any) -> dict[str, int | None]:
    return {}


def _no_work(req: Any) -> budget.Work:
    return budget.NO_DICE


def _refused(req: Any, dice: Any) -> Any:  # pragma: no cover - answered by ``resolve``
    raise NotImplementedError


class OddsRoute(ResolverRoute):
    """A POST route that validates its body and answers ``answer(request)``; no dice source."""

    def __init__(
        self,
        path: str,
        endpoint: Callable[..., Any],
        *,
        answer: Callable[[Any], Any],
        seeded: bool,
        **kwargs: Any,
    ) -> None:
        self.answer = answer
        self.seeded = seeded
        super().__init__(
            path, endpoint, resolver=_refused, slots=_no_slots, work=_no_work, **kwargs
        )

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """Validate, give a simulation without a seed a new one (DESIGN.md), answer, serialise.

        Odds draw no die; a simulation bounds its own work (``runs`` x the fight, a 422 beyond),
        so the resolvers' dice budget does not apply."""
        req = self.request_model.__pydantic_validator__.validate_json(body)
        if self.seeded and req.seed is None:
            req = req.model_copy(update={"seed": new_seed()})
        return encode(self.answer(req)), None  # odds tell no events: no language


def add_odds(
    router: APIRouter,
    path: str,
    *,
    answer: Callable[[Any], Any],
    request_model: type[RollRequest],
    response_model: type[Any],
    summary: str,
    description: str,
    system: str,
    examples: dict[str, Any],
    seeded: bool = False,
    slot_doc: str = "none: odds draw no dice (`seed` and `dice` are refused).",
) -> None:
    """Register ``POST <path>`` answering ``request_model`` with ``answer`` (an odds or simulate
    function), its request examples (name -> body) in the OpenAPI document; ``seeded``: a request
    without a seed gets a new one, as a resolver's does."""

    add_post(
        router,
        path,
        OddsRoute,
        system=system,
        request_model=request_model,
        response_model=response_model,
        summary=summary,
        description=description,
        slot_doc=slot_doc,
        answer=answer,
        seeded=seeded,
        openapi_extra={
            "requestBody": {
                "content": {
                    "application/json": {
                        "examples": {
                            name: {"summary": name, "value": body}
                            for name, body in examples.items()
                        }
                    }
                }
            }
        },
    )
