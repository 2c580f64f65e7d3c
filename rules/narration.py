"""Narration: an event's code and parameters told as a sentence, in the reader's language.

Resolvers record events as a code and parameters (``rules.events``); the texts live in gettext
catalogs, one per language (``rules/locale/<lang>/LC_MESSAGES/dragonroll.po``, compiled to ``.mo``),
and the service renders each event once, for the negotiated language, with the names the request
gave (``docs/narration.md``). A system's English source texts are in ``rules/<system>/text.py``,
written with the three markers below, which Babel extracts (``babel.cfg``):

- :func:`sentence` ``(code, text)``: the sentence of an event code. ``code|param=value`` is the
  sentence for the events of ``code`` whose ``param`` has that value (``true``/``false`` for a
  flag, ``none`` for null, ``*`` for any other value): a variant, for a flag or a choice that
  changes the whole sentence; several (``code|kind=block|running=true``) choose on several
  parameters.
- :func:`counted` ``(code#param, one, many)``: a counted phrase, ``{param}`` of ``code``'s sentence
  shown with the plural form its number takes ("1 die", "3 dice"), so one sentence holds several.
- :func:`term` ``(system.param=value, text)``: how a sentence shows a parameter's value
  ("right_leg" as "right leg"). ``system.role=<id>`` names a side the request gives no id or name;
  a field no parameter fills (``{target}``) is such a role: the name the request gives it, else
  the term. ``system.list=empty`` is how an empty list reads ("none").

A field is ``{param}``, or ``{param:spec}`` with a format spec (``+d``), or ``{param:pos}`` for a
position counted from 0 shown from 1, or ``{param:@table}`` for the value's term in another table
(``system.table=value``: a number read as a word, "a village" for change level 2). A string
parameter is shown as its name in the request, else as its term, else as itself; a list as its
items joined by ", ". In Arabic every value shown (not a term) is wrapped in Unicode isolates
(FSI ... PDI), so numbers and Latin names read left to right inside the right-to-left sentence. The
first letter of a sentence is made upper case.

Each language's catalog is compiled once per process into pieces per message (:class:`Catalog`),
so rendering an event is one pass over its fields.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel

#: The languages of the catalogs, English (the source language) first: the fallback.
LANGUAGES: Final = ("en", "pl", "fi", "ar")
DEFAULT: Final = "en"
#: The gettext domain and the folder of the catalogs.
DOMAIN: Final = "dragonroll"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
SYSTEMS: Final = ("dos", "dragon", "riders", "dnd5e")
#: First Strong Isolate and Pop Directional Isolate (Unicode bidi): a value inside them keeps its
#: own direction inside right-to-left text.
FSI: Final = "\u2068"
PDI: Final = "\u2069"
RTL: Final = frozenset({"ar"})


# ---------------------------------------------------------------- the markers (extracted by Babel)


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a system's texts: its context (the key) and its English text(s)."""

    context: str
    text: str
    plural: str | None = None


def sentence(context: str, text: str) -> Message:
    """An event's sentence (``code``) or a variant of it (``code|param=value``)."""
    return Message(context, text)


def counted(context: str, one: str, many: str) -> Message:
    """A counted phrase ``code#param``: English singular and plural."""
    return Message(context, one, many)


def term(context: str, text: str) -> Message:
    """How a value of a parameter reads (``system.param=value``)."""
    return Message(context, text)


# ---------------------------------------------------------------- templates


@cache
def parse(template: str) -> tuple[tuple[str, str | None, str], ...]:
    """``template`` as (literal, field or None, spec) pieces."""
    return tuple(
        (literal, field, spec or "")
        for literal, field, spec, _ in string.Formatter().parse(template)
    )


def fields(template: str) -> set[str]:
    """The parameter names a template shows."""
    return {field for _, field, _ in parse(template) if field is not None}


def codes(messages: Iterable[Message]) -> frozenset[str]:
    """The event codes that ``messages`` (a system's ``TEXTS``) give sentences for."""
    return frozenset(
        m.context.split("|", 1)[0]
        for m in messages
        if m.plural is None and "=" not in m.context.split("|", 1)[0]
    )


def source_messages() -> dict[str, Message]:
    """Every system's messages by context (the English source, ``rules/<system>/text.py``): its
    events' ``TEXTS`` and its Foundry rolls' ``FLAVORS``."""
    import importlib  # noqa: PLC0415 (the text modules are only needed to build a catalog)

    out: dict[str, Message] = {}
    for system in SYSTEMS:
        module = importlib.import_module(f"rules.{system}.text")
        for message in (*module.TEXTS, *module.FLAVORS):
            if message.context in out:
                raise ValueError(f"two messages with the context {message.context!r}")
            out[message.context] = message
    return out


# ---------------------------------------------------------------- catalogs, compiled


@dataclass(frozen=True, slots=True)
class Words:
    """A system's words for whoever a request does not name, and for an empty list."""

    roles: Mapping[str, str]
    empty: str


#: Shows one field of an event: (its value, or ``MISSING`` for a role, the event's parameters, the
#: request's names) -> text.
Show = Callable[[Any, Mapping[str, Any], Mapping[str, str]], str]
#: A template compiled for one language: a ``str.format`` string with one ``{}`` per field, and
#: each field's name and how it is shown (chosen once, when the catalog is built).
Compiled = tuple[str, tuple[tuple[str, Show], ...]]
#: The value of a field no parameter fills (a role: ``{target}``).
MISSING: Final = object()


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's sentences, compiled."""

    lang: str
    rtl: bool
    #: code -> its compiled sentence, for codes with one sentence.
    sentences: Mapping[str, Compiled]
    #: code -> (the params that choose, {their values: compiled sentence}), for codes with variants.
    variants: Mapping[str, tuple[tuple[str, ...], Mapping[tuple[str, ...], Compiled]]]
    #: The compiled catalog (``.mo``) the sentences were read from.
    translations: gettext.GNUTranslations


def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of ``lang`` (``rules/locale/<lang>/LC_MESSAGES/dragonroll.mo``)."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
        return gettext.GNUTranslations(f)


@cache
def catalog(lang: str) -> Catalog:
    """``lang``'s catalog, built once per process from the source texts and the compiled catalog."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for {lang!r}: one of {', '.join(LANGUAGES)}")
    tr = translations(lang)
    source = source_messages()
    terms: dict[tuple[str, str], dict[str, str]] = {}
    for context, message in source.items():
        if "=" in context and "|" not in context:
            system, table = context.split("=", 1)[0].split(".", 1)
            value = context.split("=", 1)[1]
            terms.setdefault((system, table), {})[value] = tr.pgettext(context, message.text)
    build = _Compiler(tr, source, terms, lang in RTL)
    sentences: dict[str, Compiled] = {}
    variants: dict[str, tuple[tuple[str, ...], dict[tuple[str, ...], Compiled]]] = {}
    for context, message in source.items():
        if message.plural is not None or ("=" in context and "|" not in context):
            continue
        code, *choices = context.split("|")
        compiled = build.sentence(code, tr.pgettext(context, message.text))
        if not choices:
            sentences[code] = compiled
            continue
        pairs = [choice.split("=", 1) for choice in choices]
        params = tuple(param for param, _ in pairs)
        known = variants.setdefault(code, (params, {}))
        if known[0] != params:
            raise ValueError(f"{context}: the variants of {code} choose on {known[0]}")
        known[1][tuple(value for _, value in pairs)] = compiled
    return Catalog(lang, lang in RTL, sentences, variants, tr)


@dataclass(frozen=True, slots=True)
class _Compiler:
    """Compiles one language's templates (see :data:`Compiled`)."""

    tr: gettext.GNUTranslations
    source: Mapping[str, Message]
    terms: Mapping[tuple[str, str], Mapping[str, str]]
    rtl: bool

    def sentence(self, code: str, template: str) -> Compiled:
        return self.compile(code, template, counted=True)

    def compile(self, code: str, template: str, *, counted: bool) -> Compiled:
        system = code.split(".", 1)[0]
        words = Words(
            self.terms.get((system, "role"), {}),
            self.terms.get((system, "list"), {}).get("empty", ""),
        )
        form: list[str] = []
        shows: list[tuple[str, Show]] = []
        for literal, field, spec in parse(template):
            form.append(literal.replace("{", "{{").replace("}", "}}"))
            if field is None:
                continue
            form.append("{}")
            phrase = self.source.get(f"{code}#{field}") if counted else None
            if phrase is not None:
                shows.append((field, _counted(self.forms(code, f"{code}#{field}", phrase), self)))
            else:
                table = self.terms.get((system, spec[1:] if spec[:1] == "@" else field))
                shows.append((field, _shower(field, spec, table, words, self.rtl)))
        return "".join(form), tuple(shows)

    def forms(self, code: str, context: str, phrase: Message) -> dict[int, Compiled]:
        """A counted phrase's forms, compiled, by the plural index of the language."""
        plural = self.tr.plural  # type: ignore[attr-defined]
        out: dict[int, Compiled] = {}
        for n in range(1000):
            index = plural(n)
            if index not in out:
                form = self.tr.npgettext(context, phrase.text, phrase.plural or phrase.text, n)
                out[index] = self.compile(code, form, counted=False)
        return out


def _counted(forms: Mapping[int, Compiled], compiler: _Compiler) -> Show:
    """A counted field: its phrase in the form its number takes."""
    plural = compiler.tr.plural  # type: ignore[attr-defined]

    def show(value: Any, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return _fill(forms[plural(value)], params, names)

    return show


def _shower(
    field: str, spec: str, table: Mapping[str, str] | None, words: Words, rtl: bool
) -> Show:
    """How ``field`` with ``spec`` and term ``table`` is shown (module docstring), chosen once.

    A closure per field, made when the catalog is built, so that rendering an event is one call per
    field. (Its speed against deciding per field per event was only timed on a loaded machine;
    docs/narration.md has the instruction counts of the whole.)
    """

    def isolate(text: str) -> str:
        return f"{FSI}{text}{PDI}" if rtl else text

    def show(value: Any, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
        kind = type(value)
        if kind is int:
            if not spec:
                return f"{FSI}{value}{PDI}" if rtl else str(value)
            if spec == "pos":
                return isolate(str(value + 1))
            if spec[0] == "@":
                word = table.get(str(value)) if table is not None else None
                return word if word is not None else isolate(str(value))
            return isolate(format(value, spec))
        if kind is str:
            name = names.get(value)
            if name is not None:
                return isolate(name)
            word = _word(value, table, words)
            return word if word is not None else isolate(value)  # a word: no isolates
        if kind is list or kind is tuple:
            if not value:
                return words.empty
            return isolate(", ".join([_item(v, names, words) for v in value]))
        if value is MISSING:
            return _role(field, names, words, rtl)
        key = _key(value)  # a flag or null: only ever a variant's key or a term
        word = _word(key, table, words)
        return word if word is not None else isolate(key)

    return show


# ---------------------------------------------------------------- rendering


def tell(result: Any, request: BaseModel, lang: str) -> None:
    """Narrate a resolver's result (a typed dict with ``events``) for ``request``."""
    narrate(result["events"], lang, names(request))


def narrate(events: list[Any], lang: str, names: Mapping[str, str]) -> None:
    """Fill in the ``text`` of each event (``{"code", "params", "text"}``), in ``lang``."""
    cat = catalog(lang)
    for event in events:
        event["text"] = render(cat, event["code"], event["params"], names)


def render(cat: Catalog, code: str, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The sentence of one event."""
    compiled = cat.sentences.get(code)
    if compiled is None:
        compiled = _variant(cat, code, params)
    text = _fill(compiled, params, names)
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def flavor(lang: str, context: str, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A Foundry roll's flavor (``<system>.foundry.<key>``, a system's ``FLAVORS``) in ``lang``,
    rendered as an event's sentence is (``rules.foundry``)."""
    return render(catalog(lang), context, params, names)


def _variant(cat: Catalog, code: str, params: Mapping[str, Any]) -> Compiled:
    """The variant of ``code`` its parameters choose: the exact one, else one with ``*`` there."""
    chosen, choices = cat.variants[code]
    key = tuple([_key(params.get(param)) for param in chosen])
    exact = choices.get(key)
    if exact is not None:
        return exact
    for pattern, compiled in choices.items():
        if all(p in {k, "*"} for p, k in zip(pattern, key, strict=True)):
            return compiled
    raise KeyError(f"{code}: no variant for {dict(zip(chosen, key, strict=True))}")


def _fill(compiled: Compiled, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
    form, shows = compiled
    return form.format(*[show(params.get(field, MISSING), params, names) for field, show in shows])


def _item(value: Any, names: Mapping[str, str], words: Words) -> str:
    """An item of a list: a number, or an id as its name, else its role's word, else itself."""
    if type(value) is str:
        return names.get(value) or words.roles.get(value) or value
    return str(value)


def _word(value: str, table: Mapping[str, str] | None, words: Words) -> str | None:
    if table is not None:
        word = table.get(value)
        if word is not None:
            return word
    return words.roles.get(value)


def _role(field: str, names: Mapping[str, str], words: Words, rtl: bool) -> str:
    """A field no parameter fills: who the request names by that role (``target``), else the
    role's term; an unknown field is an error in the catalog."""
    name = names.get(field)
    if name is not None:
        return f"{FSI}{name}{PDI}" if rtl else name
    word = words.roles.get(field)
    if word is None:
        raise KeyError(f"no parameter or role {field!r}")
    return word


def _key(value: Any) -> str:
    """A parameter's value as a variant or term key: flags as ``true``/``false``."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    return str(value)


# ---------------------------------------------------------------- names from the request


def names(request: BaseModel) -> dict[str, str]:
    """id -> name for everyone the request names, and role -> name (or id) for a model that sits
    in a field of its own: ``attacker`` (no id), the riders' ``initiator`` (an id, maybe a name)."""
    out: dict[str, str] = {}
    if not _names_anyone(type(request)):
        return out
    for key, model in _models(request, None):
        has_id, has_name, _ = _shape(type(model))
        name = model.name if has_name else None  # type: ignore[attr-defined]
        id_ = model.id if has_id else None  # type: ignore[attr-defined]
        if name is not None and id_ is not None:
            out[id_] = name
        label = name or id_
        if key is not None and label is not None:
            out[key] = label
    return out


def _models(value: Any, key: str | None) -> Iterator[tuple[str | None, BaseModel]]:
    """Every model inside ``value`` that may name someone, with the field it sits in alone
    (``None`` in a list or a dict)."""
    if isinstance(value, BaseModel):
        cls = type(value)
        if not _names_anyone(cls):
            return
        yield key, value
        for field in _shape(cls)[2]:
            yield from _models(getattr(value, field), field)
    elif isinstance(value, list | tuple | dict):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _models(item, None)


@cache
def _shape(cls: type[BaseModel]) -> tuple[bool, bool, tuple[str, ...]]:
    """Whether ``cls`` has an ``id`` and a ``name``, and its fields that may hold models."""
    fields = cls.model_fields
    nested = tuple(
        name
        for name, info in fields.items()
        if name not in {"dice", "seed"} and _models_in(info.annotation)
    )
    return "id" in fields, "name" in fields, nested


@cache
def _names_anyone(cls: type[BaseModel]) -> bool:
    """Whether a ``cls`` may name anyone: it has a ``name``, or a model inside it may."""
    has_id, has_name, nested = _shape(cls)
    return (
        has_name
        or has_id
        or any(_names_anyone(c) for f in nested for c in _models_in(cls.model_fields[f].annotation))
    )


def _models_in(annotation: Any) -> tuple[type[BaseModel], ...]:
    """The model classes an annotation may hold (``list[Side] | None`` -> ``(Side,)``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return (annotation,)
    return tuple(c for arg in getattr(annotation, "__args__", ()) for c in _models_in(arg))
