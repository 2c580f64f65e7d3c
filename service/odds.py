"""Odds and simulation endpoints: the resolvers' path, without a dice source.

An odds endpoint (``/<system>/odds/...``) answers from its request alone, drawing no die; a simulate
endpoint (``/<system>/simulate``) makes its own dice sources, one per run. Either is an
:class:`OddsEndpoint`: validated, budgeted (its ``work`` function, when it has one), served, limited,
logged and measured exactly as the resolvers are (``service.pipeline``), and always answered in the
heavy lane's worker processes, off the event loop (``service.lanes``). ``POST /dos/odds`` and ``/dnd5e/odds`` take any of their system's
questions: a :class:`ShapedOddsEndpoint` picks the question by the body's keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Union

from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError, from_json

from rules import budget
from rules.system import Odds, Shape, System
from service.encoding import encode
from service.routing import Endpoint, check_duplicates, new_seed


def _no_work(req: Any) -> budget.Work:
    return budget.NO_DICE


class OddsEndpoint(Endpoint):
    """Validates its body, checks its work, answers ``answer(request)``; no dice source.

    Serves a descriptor's odds or simulation ``entry`` (``rules.system.Odds``): its request, its
    answer, its work (none: no dice counted), whether a request without a seed gets one."""

    heavy = True

    def __init__(self, descriptor: System, entry: Odds) -> None:
        assert entry.request is not None and entry.answer is not None, entry.path
        work = entry.work or _no_work
        super().__init__(descriptor, entry, request_model=entry.request, work=work)
        self.answer = entry.answer
        self.seeded = entry.seeded

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        """Give a simulation without a seed a new one (DESIGN.md), answer, serialise (the work was
        checked by :meth:`admit`, against the same budget as the resolvers')."""
        if self.seeded and req.seed is None:
            req = req.model_copy(update={"seed": new_seed()})
        payload = encode(self.answer(req))
        budget.check_answer(len(payload))
        return payload, None  # odds tell no events: no language


class ShapedOddsEndpoint(Endpoint):
    """Odds of several questions on one path (``POST /dos/odds``, its entry's ``shapes``,
    ``rules.system.Shape``): the body's keys pick
    the shape, whose model validates it exactly as its own path's does (the same errors, at the
    same places); a body that fits no shape, or more than one, is a 422 naming the shapes."""

    heavy = True

    def __init__(self, descriptor: System, entry: Odds) -> None:
        request_model: Any = Union[tuple(shape.request for shape in entry.shapes)]  # noqa: UP007
        super().__init__(descriptor, entry, request_model=request_model, work=_no_work)
        self.shapes: Sequence[Shape] = entry.shapes
        self.by_model = {shape.request: shape for shape in entry.shapes}

    def admit(self, body: bytes, dice_budget: int = budget.MAX_DICE) -> tuple[Any, budget.Work]:
        """The body's shape picks the model that validates it and the work that is checked."""
        shape = self.shape_of(body)
        req = shape.request.__pydantic_validator__.validate_json(body)
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
            self.shapes[0].request.__pydantic_validator__.validate_json(body)
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
