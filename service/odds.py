"""Odds and simulation routes: the resolver routes' path, without a dice source.

An odds endpoint (``/<system>/odds/...``) answers from its request alone, drawing no die; a simulate
endpoint (``/<system>/simulate``) makes its own dice sources, one per run. Either is an
:class:`OddsRoute`: a :class:`~service.routing.ResolverRoute` whose :meth:`resolve` calls
``answer(request)``, so it is served, limited, logged and measured exactly as the resolvers are.
``POST /dos/odds`` and ``/dnd5e/odds`` take any of their system's questions: a
:class:`ShapedOddsRoute` picks the question by the body's keys.
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
from service.routing import ResolverRoute, add_post, new_seed


def _no_slots(req: Any) -> dict[str, int | None]:
    return {}


def _no_work(req: Any) -> budget.Work:
    return budget.NO_DICE


def _refused(*_: Any) -> Any:  # pragma: no cover - answered by ``resolve``
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
        work: Callable[[Any], budget.Work] = _no_work,
        **kwargs: Any,
    ) -> None:
        self.answer = answer
        self.seeded = seeded
        super().__init__(path, endpoint, resolver=_refused, slots=_no_slots, work=work, **kwargs)

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """Validate, check the work (odds terms, or a simulation's dice: budgets of their own,
        ``rules.budget``), give a simulation without a seed a new one (DESIGN.md), answer,
        serialise."""
        req = self.request_model.__pydantic_validator__.validate_json(body)
        budget.check(self.work(req), dice_budget)
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
    work: Callable[[Any], budget.Work] = _no_work,
) -> None:
    """Register ``POST <path>`` answering ``request_model`` with ``answer`` (an odds or simulate
    function), its request examples (name -> body) in the OpenAPI document; ``seeded``: a request
    without a seed gets a new one, as a resolver's does; ``work`` bounds a request's work before
    it is answered (``rules.budget``)."""

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
        work=work,
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
    work: Callable[[Any], budget.Work] = _no_work


class ShapedOddsRoute(OddsRoute):
    """Odds of several questions on one path (issue 18's ``POST /dos/odds``): the body's keys pick
    the shape, whose model validates it exactly as its own path's does (the same errors, at the
    same places); a body that fits no shape, or more than one, is a 422 naming the shapes."""

    def __init__(
        self, path: str, endpoint: Callable[..., Any], *, shapes: Sequence[Shape], **kwargs: Any
    ) -> None:
        self.shapes = shapes
        # Each shape answers its own requests (``resolve``): the route has no answer of its own.
        super().__init__(path, endpoint, answer=_refused, seeded=False, **kwargs)

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        shape = self.shape_of(body)
        req = shape.model.__pydantic_validator__.validate_json(body)
        budget.check(shape.work(req), dice_budget)
        return encode(shape.answer(req)), None

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
    system: str,
    examples: dict[str, Any],
) -> None:
    """Register ``POST <path>`` answering whichever of ``shapes`` the body is; the OpenAPI document
    shows the body as one of the shapes' models, with ``examples`` (name -> body)."""
    add_post(
        router,
        path,
        ShapedOddsRoute,
        system=system,
        request_model=Union[tuple(shape.model for shape in shapes)],  # type: ignore[arg-type]  # noqa: UP007
        response_model=response_model,
        summary=summary,
        description=description,
        slot_doc="none: odds draw no dice (`seed` and `dice` are refused).",
        shapes=shapes,
        openapi_extra=_examples(examples),
    )
