"""Odds and simulation endpoints: the resolvers' path, without a dice source.

An odds endpoint (``/<system>/odds/...``) answers from its request alone, drawing no die; a simulate
endpoint (``/<system>/simulate``) makes its own dice sources, one per run. Either is an
:class:`OddsEndpoint`: validated, budgeted (its ``work`` function, when it has one), served, limited,
logged and measured exactly as the resolvers are (``service.pipeline``), and always answered in the
heavy lane's worker processes, off the event loop (``service.lanes``). ``POST /dos/odds`` and ``/dnd5e/odds`` take any of their system's
questions: a :class:`ShapedOddsEndpoint` picks the question by the body's keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union

from fastapi import APIRouter
from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError, from_json

from rules import budget
from rules.models import RollRequest
from service.encoding import encode
from service.routing import Endpoint, add_endpoint, check_duplicates, new_seed

ODDS_SLOTS = "none: odds draw no dice (`seed` and `dice` are refused)."


def _no_work(req: Any) -> budget.Work:
    return budget.NO_DICE


class OddsEndpoint(Endpoint):
    """Validates its body, checks its work, answers ``answer(request)``; no dice source."""

    heavy = True

    def __init__(
        self,
        path: str,
        *,
        system: str,
        request_model: Any,
        answer: Callable[[Any], Any],
        seeded: bool = False,
        work: Callable[[Any], budget.Work] | None = None,
    ) -> None:
        super().__init__(path, system=system, request_model=request_model, work=work or _no_work)
        self.answer = answer
        self.seeded = seeded

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        """Give a simulation without a seed a new one (DESIGN.md), answer, serialise (the work was
        checked by :meth:`admit`, against the same budget as the resolvers')."""
        if self.seeded and req.seed is None:
            req = req.model_copy(update={"seed": new_seed()})
        payload = encode(self.answer(req))
        budget.check_answer(len(payload))
        return payload, None  # odds tell no events: no language


def add_odds(
    router: APIRouter,
    path: str,
    *,
    answer: Callable[[Any], Any],
    request_model: type[RollRequest],
    response_model: type[Any],
    summary: str,
    description: str,
    examples: dict[str, Any],
    system: str | None = None,
    seeded: bool = False,
    slot_doc: str = ODDS_SLOTS,
    work: Callable[[Any], budget.Work] | None = None,
) -> None:
    """Register ``POST <path>`` answering ``request_model`` with ``answer`` (an odds or simulate
    function), its request examples (name -> body) in the OpenAPI document; ``seeded``: a request
    without a seed gets a new one, as a resolver's does; ``work(request)``: what the answer costs
    (``rules.budget.Work``), checked before answering as the resolvers' is (none: no check)."""
    endpoint = OddsEndpoint(
        router.prefix + path,
        system=system or router.prefix.strip("/"),
        request_model=request_model,
        answer=answer,
        seeded=seeded,
        work=work,
    )
    add_endpoint(
        router,
        endpoint,
        response_model=response_model,
        summary=summary,
        description=description,
        slot_doc=slot_doc,
        openapi_extra=_examples(examples),
    )


def _examples(examples: dict[str, Any]) -> dict[str, Any]:
    """The request body's named examples, as the OpenAPI document lists them."""
    named = {name: {"summary": name, "value": body} for name, body in examples.items()}
    return {"requestBody": {"content": {"application/json": {"examples": named}}}}


@dataclass(frozen=True)
class Shape:
    """One question a :class:`ShapedOddsRoute` answers: a body with any of ``keys`` (and none of
    another shape's) is a ``model``, answered by ``answer``."""

    name: str
    keys: frozenset[str]
    model: type[RollRequest]
    answer: Callable[[Any], Any]
    #: what a request of this shape costs (``rules.budget.Work``); none: no check
    work: Callable[[Any], budget.Work] | None = None


class ShapedOddsEndpoint(Endpoint):
    """Odds of several questions on one path (issue 18's ``POST /dos/odds``): the body's keys pick
    the shape, whose model validates it exactly as its own path's does (the same errors, at the
    same places); a body that fits no shape, or more than one, is a 422 naming the shapes."""

    heavy = True

    def __init__(self, path: str, *, system: str, shapes: Sequence[Shape]) -> None:
        request_model: Any = Union[tuple(shape.model for shape in shapes)]  # noqa: UP007
        super().__init__(path, system=system, request_model=request_model, work=_no_work)
        self.shapes = shapes
        self.by_model = {shape.model: shape for shape in shapes}

    def admit(self, body: bytes, dice_budget: int = budget.MAX_DICE) -> tuple[Any, budget.Work]:
        """The body's shape picks the model that validates it and the work that is checked."""
        shape = self.shape_of(body)
        req = shape.model.__pydantic_validator__.validate_json(body)
        check_duplicates(body)
        work = shape.work(req) if shape.work is not None else budget.NO_DICE
        budget.check(work, dice_budget)
        return req, work

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        payload = encode(self.by_model[type(req)].answer(req))
        budget.check_answer(len(payload))
        return payload, None

    def shape_of(self, body: bytes) -> Shape:
        try:
            parsed = from_json(body)  # the validators' own JSON parser
        except ValueError:
            # Any shape's validator says why the JSON is broken, as every route does (a 400).
            self.shapes[0].model.__pydantic_validator__.validate_json(body)
            parsed = None  # pragma: no cover - the same parser has refused it
        keys = parsed.keys() if isinstance(parsed, dict) else set()
        found = [shape for shape in self.shapes if shape.keys & keys]
        if len(found) == 1:
            return found[0]
        accepted = "; ".join(
            f"{s.name} (with {' or '.join(f'`{k}`' for k in sorted(s.keys))})" for s in self.shapes
        )
        error = PydanticCustomError(
            "odds_shape",
            "the body fits none of this endpoint's questions, or more than one: it takes {accepted}",
            {"accepted": accepted},
        )
        details: list[InitErrorDetails] = [{"type": error, "loc": (), "input": parsed}]
        raise ValidationError.from_exception_data(self.path, details)


def add_shaped_odds(
    router: APIRouter,
    path: str,
    *,
    shapes: Sequence[Shape],
    response_model: Any,
    summary: str,
    description: str,
    examples: dict[str, Any],
    system: str | None = None,
) -> None:
    """Register ``POST <path>`` answering whichever of ``shapes`` the body is; the OpenAPI document
    shows the body as one of the shapes' models, with ``examples`` (name -> body)."""
    endpoint = ShapedOddsEndpoint(
        router.prefix + path, system=system or router.prefix.strip("/"), shapes=shapes
    )
    add_endpoint(
        router,
        endpoint,
        response_model=response_model,
        summary=summary,
        description=description,
        slot_doc=ODDS_SLOTS,
        openapi_extra=_examples(examples),
    )
