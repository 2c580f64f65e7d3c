"""The POST endpoints an app answers, each built from one entry of a descriptor (STYLE 21, 22).

An :class:`Endpoint` takes a raw body to the bytes of its answer, in two steps: :meth:`~Endpoint.admit`
(validate, refuse a duplicate key, count the work against its budget) and
:meth:`~Endpoint.finish` (answer, narrate, encode). ``service.pipeline`` decides where the second
runs; ``service.routing`` serves them over HTTP. Nothing here names a system.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Union

from fastapi import FastAPI
from pydantic import BaseModel
from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError, from_json

import rules.system
from rules import budget, foundry
from rules.dice import DiceSource
from rules.narration import LANGUAGES, Texts, catalog, names, narrate
from rules.system import Entry, Odds, Shape, ShapedOdds, Simulator, System
from service.encoding import encode
from service.language import negotiate
from service.problems import DuplicateKey


def new_seed() -> str:
    """A server-made seed: 32 lowercase hex characters from a secure source (DESIGN.md)."""
    return secrets.token_hex(16)


def check_duplicates(body: bytes) -> None:
    """Refuse a body in which one JSON object names a key twice (:class:`DuplicateKey`, a 422):
    pydantic keeps the last, so ``{"stat": 24, "stat": 1}`` would be a changed answer the caller
    never sees. Run on bodies that validated (well formed, bounded in depth); docs/hardening.md
    gives its cost."""
    _PAIRS.raw_decode(body.decode("utf-8").lstrip(_JSON_WHITESPACE))


def _unique(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)


#: One decoder, made once, for :func:`check_duplicates`: every object's pairs go to :func:`_unique`.
_PAIRS = json.JSONDecoder(object_pairs_hook=_unique)
_JSON_WHITESPACE = " \t\n\r"


class Endpoint:
    """One POST endpoint: the descriptor's ``entry`` it serves, of the system ``descriptor``.

    :meth:`resolve` is the whole in-process path from a raw body to the answer's bytes (what a
    heavy-lane worker runs, and what tests, the OpenAPI examples and the benchmarks call)."""

    #: always answered in the heavy lane, whatever its work (odds and simulations)
    heavy: ClassVar[bool] = False

    def __init__(
        self,
        descriptor: System,
        entry: Entry,
        request_model: Any,
        work: Callable[[Any], budget.Work],
    ) -> None:
        self.descriptor = descriptor
        self.entry = entry
        self.path = descriptor.prefix + entry.path
        self.system = descriptor.id
        self.request_model = request_model
        #: What a validated request costs (``rules.budget``).
        self.work = work

    @property
    def response_model(self) -> Any:
        return self.entry.result

    def model_for(self, body: bytes) -> type[BaseModel]:
        model: type[BaseModel] = self.request_model
        return model

    def admit(self, body: bytes, dice_budget: int = budget.MAX_DICE) -> tuple[Any, budget.Work]:
        """The validated request and its work, checked against its budget (``dice_budget`` base
        dice for a resolver): the cheap part, run before a lane is chosen."""
        req = self.model_for(body).__pydantic_validator__.validate_json(body)
        check_duplicates(body)
        work = self.work(req)
        budget.check(work, dice_budget)
        return req, work

    def warm(self) -> None:
        """Build what it builds once per process, before the heavy lane's workers are forked."""

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        """The answer to an admitted request: its bytes (4 MiB at most) and the language of their
        texts (``None``: no texts)."""
        raise NotImplementedError

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """:meth:`admit`, then :meth:`finish`, in this process."""
        req, _ = self.admit(body, dice_budget)
        return self.finish(req, accept_language)


def _answer(payload: bytes) -> tuple[bytes, str | None]:
    budget.check_answer(len(payload))
    return payload, None  # odds and simulations tell no events: no language


class ResolverEndpoint(Endpoint):
    """A resolving endpoint: resolve with a fresh dice source, narrate from the app's ``texts``
    (those of every system it serves), add the Foundry rolls asked for, encode."""

    entry: rules.system.Endpoint[Any, Any]

    def __init__(
        self, descriptor: System, entry: rules.system.Endpoint[Any, Any], texts: Texts
    ) -> None:
        super().__init__(descriptor, entry, entry.request, entry.work)
        self.resolver = entry.resolve
        self.slots = entry.slots
        self.foundry = descriptor.foundry if entry.foundry else None
        self.texts = texts
        self.rules_version = descriptor.rules_version

    def warm(self) -> None:
        for lang in LANGUAGES:
            catalog(lang, self.texts)

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        """Errors (a ``RulesError``; ``LimitExceeded`` for an answer over 4 MiB) are raised for
        the app's exception handlers."""
        seed = req.seed if req.seed is not None else new_seed()
        # The slots only check a script: a request without one does not list them.
        dice = DiceSource(seed, req.dice, self.slots(req) if req.dice else None)
        result = self.resolver(req, dice)
        result["rules_version"] = self.rules_version  # the descriptor's (rules.events.trace)
        lang = req.lang or negotiate(accept_language)
        named = names(req)  # the request's names: for the events' texts and the rolls' flavors
        narrate(result["events"], lang, named, self.texts)
        if self.foundry is not None and req.foundry:
            rolls = foundry.rolls(
                self.system, self.foundry, req, result, lang=lang, names=named, texts=self.texts
            )
            result = {**result, "foundry": {"rolls": rolls}}
        payload = encode(result)
        budget.check_answer(len(payload))
        return payload, lang


class OddsEndpoint(Endpoint):
    """Odds (no die drawn) or a simulation (its own dice sources, one per run): ``answer(request)``,
    always in the heavy lane; a simulation without a seed gets a new one."""

    heavy = True
    entry: Odds[Any, Any] | Simulator[Any]

    def __init__(self, descriptor: System, entry: Odds[Any, Any] | Simulator[Any]) -> None:
        super().__init__(descriptor, entry, entry.request, entry.work)
        self.answer: Callable[[Any], Any] = entry.answer

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        if self.entry.seeded and req.seed is None:
            req = req.model_copy(update={"seed": new_seed()})
        return _answer(encode(self.answer(req)))


class ShapedOddsEndpoint(Endpoint):
    """Several odds questions on one path (``rules.system.ShapedOdds``): the body's keys pick the
    shape, whose model validates it as its own path's does; a body that fits no shape, or more
    than one, is a 422 naming the shapes."""

    heavy = True
    entry: ShapedOdds

    def __init__(self, descriptor: System, entry: ShapedOdds) -> None:
        self.shapes = entry.shapes
        self.by_model = {shape.request: shape.odds for shape in entry.shapes}
        union: Any = Union[tuple(shape.request for shape in entry.shapes)]  # noqa: UP007
        super().__init__(descriptor, entry, union, self.shape_work)

    def shape_work(self, req: Any) -> budget.Work:
        work: budget.Work = self.by_model[type(req)].work(req)
        return work

    def model_for(self, body: bytes) -> type[BaseModel]:
        return self.shape_of(body).request

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        return _answer(encode(self.by_model[type(req)].answer(req)))

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


def build(systems: Iterable[System], texts: Texts) -> dict[str, Endpoint]:
    """Every system's resolving endpoints, narrated from ``texts`` (those of every system the app
    serves), then every system's odds and simulations (the OpenAPI document's order), by path."""
    systems = tuple(systems)
    resolving = [ResolverEndpoint(s, entry, texts) for s in systems for entry in s.endpoints]
    answering = [_answering(s, entry) for s in systems for entry in (*s.odds, *s.simulations)]
    return {endpoint.path: endpoint for endpoint in (*resolving, *answering)}


def _answering(system: System, entry: Odds[Any, Any] | ShapedOdds | Simulator[Any]) -> Endpoint:
    if isinstance(entry, ShapedOdds):
        return ShapedOddsEndpoint(system, entry)
    return OddsEndpoint(system, entry)


def endpoints(app: FastAPI) -> dict[str, Endpoint]:
    """Every endpoint ``app`` serves, by path (``service.routing.install``)."""
    found: dict[str, Endpoint] = app.state.endpoints
    return found
