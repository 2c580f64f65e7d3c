"""POST routes: FastAPI calls the endpoint, the endpoint validates the body, resolves it, returns bytes.

Each resolving, odds or simulate endpoint is an :class:`Endpoint` built from its descriptor's entry
(what to validate, what work to allow, how to answer; ``service.endpoints`` builds and registers
them) served by an ordinary FastAPI route whose endpoint function FastAPI calls as
documented: it takes the ``Request``, reads the raw body, checks its ``Content-Type``, and returns a
``Response`` of the bytes :meth:`Endpoint.resolve` made (``Model.__pydantic_validator__``'s
``validate_json``, the work budget, the resolver, the narration, ``service.encoding``). FastAPI
neither parses the body nor re-validates the answer; the OpenAPI document shows both models all the
same (the request's in ``openapi_extra``, filled in by ``service.openapi``; the answer's as the
route's ``response_model``). Errors (bad JSON, a validation or rules error, a body over the limit, a
duplicate key) are raised to the app's exception handlers (``service.problems``).

What runs where is the pipeline's (``service.pipeline``): a small request is answered on the event
loop, odds, simulations (``heavy``) and every larger request in the heavy lane's worker processes
(``service.lanes``), so that ``/livez`` and every other request keep being answered meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

import rules.system
from rules import budget, foundry
from rules.dice import DiceSource
from rules.narration import LANGUAGES, Texts, catalog, names, narrate
from rules.system import System
from service import pipeline
from service.encoding import encode
from service.lanes import Draining
from service.language import HEADERS, negotiate
from service.problems import DuplicateKey, UnsupportedMediaType

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

#: A descriptor's entry an endpoint serves: a resolving endpoint, an odds endpoint or a simulation.
Entry = rules.system.Endpoint | rules.system.Odds


class Endpoint:
    """One POST endpoint: the descriptor's entry it serves (``entry``, of the system
    ``descriptor``), and what its answering reads of them, bound once when it is built
    (``service.endpoints``): the request model, the work function.

    :meth:`resolve` is the whole in-process path of a request from its raw body to the bytes of the
    answer (tests, the OpenAPI examples and the benchmarks call it directly)."""

    #: always answered in the heavy lane, whatever its work (odds and simulations)
    heavy = False

    def __init__(
        self,
        descriptor: System,
        entry: Entry,
        *,
        request_model: Any,
        work: Callable[[Any], budget.Work],
    ) -> None:
        self.descriptor = descriptor
        self.entry = entry
        self.path = descriptor.prefix + entry.path
        self.system = descriptor.id
        self.request_model = request_model
        self.work = work

    @property
    def response_model(self) -> Any:
        """The answer's model (the entry's ``result``), for the OpenAPI document."""
        return self.entry.result

    def validate(self, body: bytes) -> Any:
        """The request, validated by its model's own validator (``model_validate_json`` is a Python
        function around it that passes six keyword arguments: 0.5 us a request)."""
        req = self.request_model.__pydantic_validator__.validate_json(body)
        check_duplicates(body)
        return req

    def admit(self, body: bytes, dice_budget: int = budget.MAX_DICE) -> tuple[Any, budget.Work]:
        """The validated request and its work, checked against its budget (``dice_budget`` base
        dice for a resolver): the cheap part of the pipeline, run before a lane is chosen."""
        req = self.validate(body)
        work = self.work(req)
        budget.check(work, dice_budget)
        return req, work

    def warm(self) -> None:
        """Build what the endpoint builds once per process (its texts' catalogs), before the heavy
        lane's workers are forked from this one: they share it, and no job pays for it."""

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        """The answer to an admitted request: its bytes and the language of their texts (``None``:
        no texts), 4 MiB at most."""
        raise NotImplementedError

    def resolve(
        self, body: bytes, dice_budget: int = budget.MAX_DICE, accept_language: bytes = b""
    ) -> tuple[bytes, str | None]:
        """The whole synchronous path, in this process: :meth:`admit`, then :meth:`finish` (what a
        heavy-lane worker runs, and what tests and benchmarks call)."""
        req, _ = self.admit(body, dice_budget)
        return self.finish(req, accept_language)


class ResolverEndpoint(Endpoint):
    """Validate, check the work budget, resolve with a fresh dice source, narrate, encode.

    Serves a descriptor's resolving ``entry`` (``rules.system.Endpoint``) with its system's Foundry
    pools, rules version and the app's ``texts`` (those of every system it serves)."""

    entry: rules.system.Endpoint

    def __init__(self, descriptor: System, entry: rules.system.Endpoint, texts: Texts) -> None:
        super().__init__(descriptor, entry, request_model=entry.request, work=entry.work)
        self.resolver = entry.resolve
        self.slots = entry.slots
        self.foundry = descriptor.foundry
        self.texts = texts
        self.rules_version = descriptor.rules_version

    def warm(self) -> None:
        for lang in LANGUAGES:
            catalog(lang, self.texts)

    def finish(self, req: Any, accept_language: bytes = b"") -> tuple[bytes, str | None]:
        """Resolve an admitted request with a fresh dice source, narrate its events in the
        request's language (``lang``, else ``accept_language``), serialise the result; returns the
        bytes and the language of their texts.

        Errors (a ``RulesError``; ``LimitExceeded`` for an answer over 4 MiB) are raised for the
        app's exception handlers.
        """
        # A system without Foundry pools has no `foundry` in its requests (rules.system.Capability).
        mapper = self.foundry if self.foundry is not None and req.foundry else None
        seed = req.seed if req.seed is not None else new_seed()
        # The slots only check a script: a request without one does not list them.
        dice = DiceSource(seed, req.dice, self.slots(req) if req.dice else None)
        result = self.resolver(req, dice)
        result["rules_version"] = self.rules_version  # the descriptor's (rules.events.trace)
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
    """The function FastAPI calls for ``POST <endpoint.path>``: the HTTP surface of the one
    pipeline (``service.pipeline.answer``), the caller's hang-up watched while a heavy job runs."""
    system = endpoint.system

    async def serve(request: Request) -> Response:
        request.scope[SYSTEM_KEY] = system
        check_json(request)
        body = await request.body()
        accept = request.headers.get("accept-language", "").encode("latin-1")

        async def gone() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass

        try:
            client = request.app.state.clients.of(request.scope)
            payload, lang = await pipeline.answer(
                request.app.state, endpoint, body, accept, gone, client=client
            )
        except asyncio.CancelledError:
            # The server's graceful timeout ended the request (its job was ended with it): a
            # problem, not the server's plain 500 and its traceback.
            raise Draining(started=True) from None
        return Response(payload, media_type="application/json", headers=_LANGUAGE_HEADERS[lang])

    serve.__name__ = operation_id(system, endpoint.path)
    return serve


def operation_id(system: str, path: str) -> str:
    """``dos_roll`` for ``/dos/roll``, ``dice_roll`` for ``/dice/roll`` (the ``notation`` system's):
    the route's name and OpenAPI operation id, from the path served."""
    return path.strip("/").replace("/", "_").replace("-", "_")
