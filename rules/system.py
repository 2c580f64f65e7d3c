"""What a game system is, for everything that serves it: the descriptor (STYLE 21).

Each system package exports one :class:`System` (``rules/<system>/system.py``, ``rules.<x>.SYSTEM``);
``rules.registry.SYSTEMS`` lists them, and that list is the only place that names the systems. The
routes, the narration catalogs, the Foundry rolls, the OpenAPI examples and ``GET /systems`` are
built from it, so a system is one package plus one line there (docs/development.md, "Adding a
system").

**Capabilities.** What a system may or may not have is a :class:`Capability`, and each is declared
by the descriptor's own contents, never beside them (STYLE 22): Foundry rolls by ``foundry`` (its
pools), odds by ``odds``, simulations by ``simulations``, counted phrases by a :func:`counted`
message among its ``texts``, gendered names by a ``gender`` field in a request. A capability a
system lacks is an empty field here, and everything derived says so: ``System.capabilities`` (what
``GET /systems`` lists and the tests parametrize over: ``rules.registry.having``), the requests (only a
system with Foundry rolls bases them on ``rules.models.FoundryRollRequest``, checked when the
descriptor is built), the routes (a 404 for a path it has not).

Pure data and functions: nothing here imports the web layer.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, Final, Protocol

from pydantic import BaseModel

from rules import narration
from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.models import FoundryRollRequest
from rules.narration import Message

#: A request body, as JSON.
Body = Mapping[str, Any]


class Resolver(Protocol):
    """``resolve(request, dice) -> result`` (STYLE 1)."""

    def __call__(self, req: Any, dice: DiceSource, /) -> Any: ...


class Capability(StrEnum):
    """Something a system may have beyond resolving, each declared by its descriptor's fields."""

    #: Foundry VTT rolls (``foundry: true`` in its requests; ``System.foundry``, its pools).
    FOUNDRY = "foundry"
    #: Exact odds of a resolving endpoint's request, no die drawn (``System.odds``).
    ODDS = "odds"
    #: Seeded simulations of whole fights (``System.simulations``).
    SIMULATE = "simulate"
    #: Counted phrases ("1 die", "3 dice"): a ``narration.counted`` message among its texts.
    COUNTED = "counted"
    #: Participants named with a grammatical gender: a ``gender`` field in one of its requests.
    GENDERED = "gendered"


@dataclass(frozen=True, eq=False)
class Endpoint:
    """One resolving endpoint: ``POST /<system><path>``."""

    path: str
    summary: str
    description: str
    request: type[Any]
    result: type[Any]
    resolve: Resolver
    #: The slots a request draws (checked against a ``dice`` script), and their documentation.
    slots: Callable[[Any], SlotSpec]
    slot_doc: str
    #: The base dice a request can roll (``rules.budget``), checked before resolving.
    work: Callable[[Any], Work]
    #: Name -> request body; the first is the OpenAPI document's example (resolved there).
    examples: Mapping[str, Body]
    #: The event codes that tell this endpoint's outcome: an answer's events with one of them, in
    #: order, are its outcome in one line (``GET /systems`` lists them; the playground and the
    #: Owlbear extension show them, already in the reader's language).
    outcome: Sequence[str] = ()


@dataclass(frozen=True, eq=False)
class Shape:
    """One question a shaped odds endpoint answers: a body with any of ``keys`` (and none of
    another shape's) is a ``request``, answered by ``answer``."""

    name: str
    keys: frozenset[str]
    request: type[Any]
    answer: Callable[[Any], Any]
    #: what a request of this shape costs (``rules.budget.Work``), checked before answering
    work: Callable[[Any], Any] | None = None


@dataclass(frozen=True, eq=False)
class Odds:
    """An odds endpoint (``POST /<system><path>``, no die drawn) or a simulation (``seeded``: runs
    drawn from their own seeds, a request without one gets a new one).

    ``of``: the path of the resolving endpoint it answers for (``GET /systems`` lists it there);
    ``shapes``: a body answered as whichever of them its keys say (then ``request`` and ``answer``
    are unused, ``of`` is empty); ``work``: the base dice it may roll, checked as a resolver's is
    (none by default: odds draw no die, a simulation bounds its own runs)."""

    path: str
    summary: str
    description: str
    result: Any
    examples: Mapping[str, Body]
    request: type[Any] | None = None
    answer: Callable[[Any], Any] | None = None
    of: str = ""
    seeded: bool = False
    slot_doc: str = "none: odds draw no dice (`seed` and `dice` are refused)."
    shapes: Sequence[Shape] = ()
    work: Callable[[Any], Work] | None = None

    def shape(self, name: str, keys: frozenset[str]) -> Shape:
        """This question as one shape of a shaped odds endpoint: a body with any of ``keys`` is
        answered as this endpoint answers it (its request model, answer and work function)."""
        assert self.request is not None and self.answer is not None, self.path
        return Shape(name, keys, self.request, self.answer, self.work)


#: A system's Foundry pools: ``pools(request, result, say) -> list[rules.foundry.Pool]``.
Pools = Callable[..., list[Any]]


@dataclass(frozen=True, eq=False)
class System:
    """A game system as the service serves it (or ``game=False``: an entry without a game, the
    general dice roller, whose paths are its own)."""

    #: The event codes' and catalog contexts' first part, and the path prefix (``/<id>``) unless
    #: ``path`` says otherwise.
    id: str
    #: Display name by language; English (``en``) at least, the fallback for any other.
    name: Mapping[str, str]
    #: What a replay may rely on (docs/dice.md, "Rules versions"): the same request and seed give
    #: the same bytes within one version of this system. Bumped whenever an answer of this system
    #: could change for the same request and seed (a rule, a draw order, an event, a text in any
    #: language, a Foundry flavor). Written here only: the service stamps it on every answer
    #: (``rules_version``, which the engine's ``rules.events.trace`` leaves empty), ``GET /systems``
    #: lists it.
    rules_version: str
    endpoints: Sequence[Endpoint]
    #: The English source of the events' sentences and of the Foundry rolls' flavors (the catalogs
    #: translate them; a language's catalog without one says it in English).
    texts: Sequence[Message]
    flavors: Sequence[Message] = ()
    #: What the game is, in an English phrase a first reader tells the systems apart by (the MCP
    #: tools' descriptions open with it, ``service.mcp_tools``).
    about: str = ""
    odds: Sequence[Odds] = ()
    simulations: Sequence[Odds] = ()
    foundry: Pools | None = None
    #: The OpenAPI tag (the English name by default).
    tag: str = ""
    game: bool = True
    #: The path prefix when it is not ``/<id>`` (the dice roller: ``notation`` served at ``/dice``).
    path: str = ""
    #: Engine modules of its own compiled with mypyc (``rules.registry.compiled()``, setup.py).
    compiled: Sequence[str] = field(default=())
    #: A system that reads dice notation with shorthands (``adv``): this descriptor as a deployment
    #: with more of them serves it, ``with_shorthands(extra) -> System`` (``extra`` from the
    #: settings, ``DRAGONROLL_DICE_SHORTHANDS``; :meth:`configured`). None: the same everywhere.
    with_shorthands: Callable[[Mapping[str, str]], System] | None = None

    def __post_init__(self) -> None:
        """Refuse a descriptor with Foundry pools none of its requests can ask for, or a request
        offering ``foundry`` in a system without them (:class:`Capability`): a system has pools
        iff at least one endpoint offers them (an endpoint that draws for a client, ``/dice/draw``,
        offers none beside one that rolls, ``/dice/roll``)."""
        offering = [e for e in self.endpoints if issubclass(e.request, FoundryRollRequest)]
        if self.foundry is None and offering:
            raise ValueError(
                f"{self.id}{offering[0].path}: its request offers `foundry` but the system has no "
                "Foundry pools"
            )
        if self.foundry is not None and not offering:
            raise ValueError(
                f"{self.id}: it has Foundry pools but no request offers `foundry` (base one on "
                "rules.models.FoundryRollRequest)"
            )

    @property
    def prefix(self) -> str:
        return self.path or f"/{self.id}"

    def configured(self, shorthands: Mapping[str, str]) -> System:
        """This system as a deployment with the extra dice ``shorthands`` serves it: a descriptor
        of its own, whose functions read them (each app builds its own: two apps in one process
        keep their own settings); itself when there are none or it reads no notation."""
        if not shorthands or self.with_shorthands is None:
            return self
        return self.with_shorthands(shorthands)

    @property
    def capabilities(self) -> frozenset[Capability]:
        """What this system has, read from its descriptor's fields (:class:`Capability`)."""
        return _capabilities(self)

    def has(self, capability: Capability) -> bool:
        return capability in self.capabilities

    @property
    def title(self) -> str:
        return self.tag or self.name["en"]

    def display_name(self, lang: str) -> str:
        return self.name.get(lang) or self.name["en"]

    def languages(self) -> tuple[str, ...]:
        """The languages this system's texts are all translated into (:func:`languages`)."""
        return _languages(self)


class _Untranslated(gettext.NullTranslations):
    """A catalog's fallback that marks a message the catalog lacks (:func:`languages`)."""

    def pgettext(self, context: str, message: str) -> str:
        return UNTRANSLATED

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return UNTRANSLATED


UNTRANSLATED: Final = "\x00untranslated"


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


def _has_field(model: type[Any], name: str) -> bool:
    """Whether ``model`` or a model nested in it (in a list, a union, an optional) has a field
    ``name``: read from its JSON schema, which names every nested model's properties."""
    schema = model.model_json_schema() if issubclass(model, BaseModel) else {}
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

    walk(schema)
    return found


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


# ---------------------------------------------------------------- what every odds endpoint says

#: The end of every odds endpoint's description.
ODDS_DOC = (
    "Takes the resolving endpoint's request without `seed` and `dice` (either is a 422) and "
    'answers without drawing a die. Every probability is `{"p": float, "exact": "n/d"}`, '
    "`exact` in lowest terms; the outcomes of one question sum to exactly 1."
)
#: The end of every simulation's description, and its slots.
SIMULATE_DOC = (
    " Takes the resolving endpoint's request plus `runs` (1-1000); `dice` is refused; without a "
    "`seed` the service makes one and returns it. Run i is seeded `{seed}/{i}`. The answer: each "
    "ending's count, rate and 95% Wilson score interval, the mean length, and example runs (the "
    "first of each ending, the longest) to replay. The dice a simulation may roll are bounded "
    "(a 422 `limit-exceeded` beyond)."
)
SIMULATE_SLOTS = (
    "a run draws the resolving endpoint's own slots from its own seeds (`{seed}/{i}`, and per "
    "turn or round `{seed}/{i}/{t}`); `dice` is refused."
)
