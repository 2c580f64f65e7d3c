"""What a system is for the service: its descriptor (STYLE 21, 24).

Each system package exports one :class:`System` (``rules.<id>.SYSTEM``) and ``rules.registry``
lists them. A descriptor holds typed entries: resolving endpoints (:class:`Endpoint`), odds
(:class:`Odds`, :class:`ShapedOdds`) and simulations (:class:`Simulator`), each with its work
function. A descriptor that breaks a rule the service relies on is refused when it is built, with a
message that says what to do (docs/development.md, "Adding a system").
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, partial
from typing import Any, ClassVar, Final, Generic, TypeVar, Union, get_type_hints

from pydantic import BaseModel, ValidationError

from rules import narration
from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.foundry import Mapper
from rules.models import Envelope, FoundryRollRequest, RollRequest, offers_foundry
from rules.narration import Message
from rules.odds import NoDice, NoScript, Simulation

#: A request body, as JSON.
Body = Mapping[str, Any]

#: A resolving endpoint's request and result (``rules.models``).
Req = TypeVar("Req", bound=RollRequest)
Res = TypeVar("Res", bound=Envelope)
#: An odds endpoint's request (the resolving one's without ``seed`` and ``dice``) and its answer.
Question = TypeVar("Question", bound=NoDice)
Answer = TypeVar("Answer", bound=Mapping[str, Any])
#: A simulation's request (the resolving one's plus ``runs``, without ``dice``).
Runs = TypeVar("Runs", bound=NoScript)

ODDS_SLOTS: Final = "none: odds draw no dice (`seed` and `dice` are refused)."
SIMULATE_SLOTS: Final = (
    "a run draws the resolving endpoint's own slots from its own seeds (`{seed}/{i}`, and per "
    "turn or round `{seed}/{i}/{t}`); `dice` is refused."
)
#: The end of every odds endpoint's description.
ODDS_DOC: Final = (
    "Takes the resolving endpoint's request without `seed` and `dice` (either is a 422) and "
    'answers without drawing a die. Every probability is `{"p": float, "exact": "n/d"}`, '
    "`exact` in lowest terms; the outcomes of one question sum to exactly 1."
)
#: The end of every simulation's description.
SIMULATE_DOC: Final = (
    " Takes the resolving endpoint's request plus `runs` (1-1000); `dice` is refused; without a "
    "`seed` the service makes one and returns it. Run i is seeded `{seed}/{i}`. The answer: each "
    "ending's count, rate and 95% Wilson score interval, the mean length, and example runs (the "
    "first of each ending, the longest) to replay. The dice a simulation may roll are bounded "
    "(a 422 `limit-exceeded` beyond)."
)


class Capability(StrEnum):
    """Something a system may have beyond resolving, each declared by its descriptor's fields."""

    #: Foundry VTT rolls: ``System.foundry`` (its pools), offered by at least one endpoint.
    FOUNDRY = "foundry"
    ODDS = "odds"
    SIMULATE = "simulate"
    #: Counted phrases ("1 die", "3 dice"): a ``narration.counted`` message among its texts.
    COUNTED = "counted"
    #: Participants with a grammatical class: a ``gender`` field in one of its requests.
    GENDERED = "gendered"


@dataclass(frozen=True, eq=False, kw_only=True)
class Endpoint(Generic[Req, Res]):
    """A resolving endpoint, ``POST /<system><path>``: ``resolve(request, dice) -> result``."""

    path: str
    summary: str
    description: str
    request: type[Req]
    result: type[Res]
    resolve: Callable[[Req, DiceSource], Res]
    #: The slots a request draws from (a ``dice`` script is checked against them).
    slots: Callable[[Req], SlotSpec]
    slot_doc: str
    #: What a request costs (``rules.budget``), checked before any die is drawn.
    work: Callable[[Req], Work]
    #: Name -> request body; the first is the OpenAPI document's example, resolved there.
    examples: Mapping[str, Body]
    #: The event codes that tell an answer's outcome in one line (``GET /systems`` lists them).
    outcome: Sequence[str] = ()

    seeded: ClassVar[bool] = True

    def __post_init__(self) -> None:
        _check_functions(self, "resolve", "slots", "work")
        if self.foundry != offers_foundry(self.result):
            base = "FoundryEnvelope" if self.foundry else "Envelope"
            raise ValueError(
                f"{self.path}: its request {'offers' if self.foundry else 'lacks'} `foundry` but "
                f"its result does not agree: base {self.result.__name__} on rules.models.{base}, "
                "as its request is based on "
                + ("FoundryRollRequest" if self.foundry else "RollRequest")
            )

    @property
    def foundry(self) -> bool:
        """Whether its requests take ``foundry: true`` (Foundry VTT rolls in the answer)."""
        return issubclass(self.request, FoundryRollRequest)


@dataclass(frozen=True, eq=False, kw_only=True)
class Odds(Generic[Question, Answer]):
    """The exact odds of a resolving endpoint's request (``of``, its path), no die drawn."""

    path: str
    summary: str
    description: str
    request: type[Question]
    result: type[Answer]
    answer: Callable[[Question], Answer]
    work: Callable[[Question], Work]
    examples: Mapping[str, Body]
    of: str = ""

    slot_doc: ClassVar[str] = ODDS_SLOTS
    seeded: ClassVar[bool] = False

    def __post_init__(self) -> None:
        _check_functions(self, "answer", "work")

    def shape(self, name: str, keys: frozenset[str]) -> Shape:
        """This question as one of a :class:`ShapedOdds`'s: a body with any of ``keys``."""
        return Shape(name, keys, self)


@dataclass(frozen=True, eq=False)
class Shape:
    """One question a :class:`ShapedOdds` answers: a body with any of ``keys`` (and none of
    another shape's) is answered as ``odds`` answers it."""

    name: str
    keys: frozenset[str]
    odds: Odds[Any, Any]

    @property
    def request(self) -> type[BaseModel]:
        return self.odds.request


@dataclass(frozen=True, eq=False, kw_only=True)
class ShapedOdds:
    """Several odds questions on one path, told apart by the body's keys (``POST /dos/odds``)."""

    path: str
    summary: str
    description: str
    shapes: Sequence[Shape]
    examples: Mapping[str, Body]

    slot_doc: ClassVar[str] = ODDS_SLOTS
    seeded: ClassVar[bool] = False
    #: It answers for several resolving endpoints, so for none in particular.
    of: ClassVar[str] = ""

    @property
    def result(self) -> Any:
        """The answer of any of its questions."""
        return Union[tuple(shape.odds.result for shape in self.shapes)]  # noqa: UP007


@dataclass(frozen=True, eq=False, kw_only=True)
class Simulator(Generic[Runs]):
    """Seeded runs of a resolving endpoint's request (``of``), summarised (``rules.odds``): run
    i is seeded ``{seed}/{i}``, and a request without a seed gets a new one."""

    path: str
    summary: str
    description: str
    request: type[Runs]
    answer: Callable[[Runs], Simulation]
    work: Callable[[Runs], Work]
    examples: Mapping[str, Body]
    of: str = ""

    result: ClassVar[type[Simulation]] = Simulation
    slot_doc: ClassVar[str] = SIMULATE_SLOTS
    seeded: ClassVar[bool] = True

    def __post_init__(self) -> None:
        _check_functions(self, "answer", "work")


def exact_odds(
    question: type[Question],
    answer: Callable[[Question], Answer],
    *,
    path: str,
    of: str,
    work: Callable[[Question], Work],
    summary: str,
    description: str,
    examples: Mapping[str, Body],
    then: str = "",
) -> Odds[Question, Answer]:
    """Odds of ``question`` whose answer model is ``answer``'s return annotation (so the two cannot
    disagree, which mypy alone would not see), described by ``description``, :data:`ODDS_DOC`,
    then ``then``."""
    return Odds(
        path=path,
        of=of,
        answer=answer,
        work=work,
        request=question,
        result=_returned(answer, path),
        summary=summary,
        description=f"{description.rstrip()} {ODDS_DOC}{then}",
        examples=examples,
    )


def simulation(
    runs: type[Runs],
    answer: Callable[[Runs], Simulation],
    *,
    of: str,
    work: Callable[[Runs], Work],
    summary: str,
    description: str,
    examples: Mapping[str, Body],
    path: str = "/simulate",
) -> Simulator[Runs]:
    """A simulation of ``runs`` at ``path``, described by ``description`` then
    :data:`SIMULATE_DOC`."""
    return Simulator(
        path=path,
        of=of,
        answer=answer,
        work=work,
        request=runs,
        summary=summary,
        description=description.rstrip() + SIMULATE_DOC,
        examples=examples,
    )


def _returned(function: Callable[..., Any], path: str) -> Any:
    """``function``'s return type, from its annotation (a ``functools.partial`` is read through)."""
    while isinstance(function, partial):
        function = function.func
    try:
        return get_type_hints(function)["return"]
    except (KeyError, TypeError, NameError) as error:
        raise TypeError(
            f"{path}: annotate the return type of {getattr(function, '__qualname__', function)!r}: "
            "the answer's model is read from it (a function compiled with mypyc has none: keep "
            f"it out of `compiled=`) ({error!r})"
        ) from error


#: Any entry of a descriptor: each is one ``POST`` path of its system.
Entry = Endpoint[Any, Any] | Odds[Any, Any] | ShapedOdds | Simulator[Any]


def _check_functions(entry: Any, *names: str) -> None:
    for name in names:
        if not callable(getattr(entry, name)):
            raise TypeError(
                f"{entry.path}: `{name}` must be a function (a work function returns "
                "rules.budget.Work, what a request costs; Work(0, (), 'no dice') costs nothing)"
            )


@dataclass(frozen=True, eq=False)
class System:
    """A game system as the service serves it (or ``game=False``: an entry without a game, the
    dice roller, served at its own ``path``)."""

    #: The first part of its event codes and catalog contexts; the path prefix unless ``path``.
    id: str
    #: Display name by language; English (``en``) at least, the fallback for any other.
    name: Mapping[str, str]
    #: ``<id>-<n>``, on every answer: bumped whenever an answer could change for the same request
    #: and seed (a rule, a draw order, an event, a text in any language; docs/dice.md).
    rules_version: str
    endpoints: Sequence[Endpoint[Any, Any]]
    #: The English source of the events' sentences and of the Foundry rolls' flavors.
    texts: Sequence[Message]
    flavors: Sequence[Message] = ()
    #: What the game is, in an English phrase a first reader tells the systems apart by (the MCP
    #: tools' descriptions open with it, ``service.mcp_tools``).
    about: str = ""
    odds: Sequence[Odds[Any, Any] | ShapedOdds] = ()
    simulations: Sequence[Simulator[Any]] = ()
    #: Its Foundry pools, for the endpoints whose requests offer ``foundry``.
    foundry: Mapper | None = None
    #: The OpenAPI tag (the English name by default).
    tag: str = ""
    game: bool = True
    path: str = ""
    #: Engine modules of its own compiled with mypyc (``rules.registry.compiled()``).
    compiled: Sequence[str] = field(default=())
    #: For a system that reads dice notation: this descriptor over a deployment's extra
    #: shorthands (``DRAGONROLL_DICE_SHORTHANDS``; :meth:`configured`).
    with_shorthands: Callable[[Mapping[str, str]], System] | None = None

    def __post_init__(self) -> None:
        problems = [*_naming(self), *_paths(self), *_outcomes(self), *_foundry(self)]
        problems += [problem for entry in self.entries() for problem in _examples(entry)]
        if problems:
            raise ValueError(f"system {self.id!r}: " + "; ".join(problems))

    @property
    def prefix(self) -> str:
        return self.path or f"/{self.id}"

    def entries(self) -> tuple[Entry, ...]:
        """Every entry, in the order the service lists them: endpoints, odds, simulations."""
        return (*self.endpoints, *self.odds, *self.simulations)

    def configured(self, shorthands: Mapping[str, str]) -> System:
        """This system as a deployment with the extra dice ``shorthands`` serves it (each app
        builds its own); itself when there are none or it reads no notation."""
        if not shorthands or self.with_shorthands is None:
            return self
        return self.with_shorthands(shorthands)

    @property
    def capabilities(self) -> frozenset[Capability]:
        return _capabilities(self)

    def has(self, capability: Capability) -> bool:
        return capability in self.capabilities

    @property
    def title(self) -> str:
        return self.tag or self.name["en"]

    def display_name(self, lang: str) -> str:
        return self.name.get(lang) or self.name["en"]

    def languages(self) -> tuple[str, ...]:
        """The languages its texts are all translated into (:func:`languages`)."""
        return _languages(self)


# ---------------------------------------------------------------- a descriptor's own rules


def _naming(system: System) -> Iterator[str]:
    if not system.name.get("en"):
        yield "give `name` an English entry (`en`), every other language's fallback"
    if not system.rules_version.startswith(f"{system.id}-"):
        yield f"name its rules_version `{system.id}-<n>` (`{system.id}-1` to start)"
    for message in (*system.texts, *system.flavors):
        if message.context.split(".", 1)[0].split("|", 1)[0] != system.id:
            yield f"put the text {message.context!r} under its own id (`{system.id}.<event>`)"


def _paths(system: System) -> Iterator[str]:
    seen: set[str] = set()
    for entry in system.entries():
        if not entry.path.startswith("/"):
            yield f"begin the path {entry.path!r} with `/`"
        if "{" in entry.path:
            yield f"take the parameter out of {entry.path!r}: a request says it in its body"
        if entry.path in seen:
            yield f"two entries at {entry.path}: give each its own path"
        seen.add(entry.path)
    resolving = {endpoint.path for endpoint in system.endpoints}
    for entry in (*system.odds, *system.simulations):
        if isinstance(entry, Odds | Simulator) and entry.of and entry.of not in resolving:
            yield f"{entry.path} answers for {entry.of!r}: name one of its endpoints' paths"


def _outcomes(system: System) -> Iterator[str]:
    codes = narration.codes(system.texts)
    for endpoint in system.endpoints:
        for code in endpoint.outcome:
            if code not in codes:
                yield f"{endpoint.path}: its outcome {code!r} is none of its texts' event codes"


def _foundry(system: System) -> Iterator[str]:
    offered = [endpoint.path for endpoint in system.endpoints if endpoint.foundry]
    if offered and system.foundry is None:
        yield (
            f"{', '.join(offered)} offer `foundry` but the system has no Foundry pools: give it "
            "`foundry=` (its pools), or base those requests on rules.models.RollRequest"
        )
    if system.foundry is not None and not offered:
        yield (
            "it has Foundry pools but no endpoint offers `foundry`: base a request on "
            "rules.models.FoundryRollRequest (and its result on FoundryEnvelope), or drop `foundry=`"
        )


def _examples(entry: Entry) -> Iterator[str]:
    """Each example is a valid request, with a seed where the answer carries one (the document
    resolves the first: without a seed it would change on every build)."""
    models = [s.request for s in entry.shapes] if isinstance(entry, ShapedOdds) else [entry.request]
    for name, body in entry.examples.items():
        if entry.seeded and "seed" not in body:
            yield f"{entry.path}: give the example {name!r} a `seed`, so its answer stays the same"
        if not any(_valid(model, body) for model in models):
            yield f"{entry.path}: the example {name!r} is not a valid request of its model"


def _valid(model: type[BaseModel], body: Body) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return False
    return True


# ---------------------------------------------------------------- capabilities and languages


@cache
def _capabilities(system: System) -> frozenset[Capability]:
    declared = {
        Capability.FOUNDRY: system.foundry is not None,
        Capability.ODDS: bool(system.odds),
        Capability.SIMULATE: bool(system.simulations),
        Capability.COUNTED: any(m.plural is not None for m in system.texts),
        Capability.GENDERED: any(_has_field(e.request, "gender") for e in system.endpoints),
    }
    return frozenset(capability for capability, has in declared.items() if has)


def _has_field(model: type[BaseModel], name: str) -> bool:
    """Whether ``model`` or a model nested in it has a field ``name`` (read from its JSON schema,
    which names every nested model's properties)."""
    found = False

    def walk(node: Any) -> None:
        nonlocal found
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict) and name in properties:
                found = True
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(model.model_json_schema())
    return found


class _Untranslated(gettext.NullTranslations):
    """A catalog's fallback that marks a message the catalog lacks (:func:`languages`)."""

    def pgettext(self, context: str, message: str) -> str:
        return UNTRANSLATED

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return UNTRANSLATED


UNTRANSLATED: Final = "\x00untranslated"


@cache
def _languages(system: System) -> tuple[str, ...]:
    return languages((*system.texts, *system.flavors))


def languages(messages: Iterable[Message]) -> tuple[str, ...]:
    """The languages whose catalog translates every one of ``messages`` (English, the source, always
    does); any other language tells the missing ones in English."""
    messages = tuple(messages)
    out = [narration.DEFAULT]
    for lang in narration.LANGUAGES:
        if lang == narration.DEFAULT:
            continue
        tr = narration.translations(lang)
        tr.add_fallback(_Untranslated())
        if all(_translated(tr, m) for m in messages):
            out.append(lang)
    return tuple(out)


def _translated(tr: gettext.GNUTranslations, message: Message) -> bool:
    if message.plural is None:
        return tr.pgettext(message.context, message.text) != UNTRANSLATED
    return tr.npgettext(message.context, message.text, message.plural, 1) != UNTRANSLATED
