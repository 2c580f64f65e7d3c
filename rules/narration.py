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
  ("right_leg" as "right leg"); ``system.role=<id>`` names a side the request gives no id or name; a field no
  parameter fills (``{target}``) is such a role: the name the request gives it, else the term.

A field is ``{param}``, or ``{param:spec}`` with a format spec (``+d``), or ``{param:pos}`` for a
position counted from 0 shown from 1, or ``{param:@table}`` for the value's term in another table
(``system.table=value``: a number read as a word, "a village" for change level 2). A string parameter is shown as its name in the request, else
as its term, else as itself; a list as its items joined by ", ". In Arabic every shown value is
wrapped in Unicode isolates (FSI ... PDI), so numbers and Latin names read left to right inside the
right-to-left sentence. An empty list reads as the term ``system.list=empty`` ("none"). The first
letter of a sentence is made upper case.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Iterable, Iterator, Mapping
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


#: A template parsed once: (literal, field or None, spec) pieces.
Pieces = tuple[tuple[str, str | None, str], ...]


@cache
def parse(template: str) -> Pieces:
    """``template`` as pieces; cached, since a catalog holds few distinct templates."""
    return tuple(
        (literal, field, spec or "")
        for literal, field, spec, _ in string.Formatter().parse(template)
    )


def fields(template: str) -> set[str]:
    """The parameter names a template shows."""
    return {field for _, field, _ in parse(template) if field is not None}


# ---------------------------------------------------------------- catalogs


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's texts, looked up by context, ready to render."""

    lang: str
    #: code -> template, for codes with one sentence.
    sentences: Mapping[str, str]
    #: code -> (params, {values: template}), for codes with variants.
    variants: Mapping[str, tuple[tuple[str, ...], Mapping[tuple[str, ...], str]]]
    #: "code#param" -> (one, many) as the source gives them; rendered through ``translations``.
    counted: Mapping[str, tuple[str, str]]
    #: (system, param) -> {value: text}
    terms: Mapping[tuple[str, str], Mapping[str, str]]
    translations: gettext.NullTranslations


def source_messages() -> dict[str, Message]:
    """Every system's messages by context (the English source, ``rules/<system>/text.py``)."""
    import importlib  # noqa: PLC0415 (the text modules are only needed to build a catalog)

    out: dict[str, Message] = {}
    for system in SYSTEMS:
        for message in importlib.import_module(f"rules.{system}.text").TEXTS:
            if message.context in out:
                raise ValueError(f"two messages with the context {message.context!r}")
            out[message.context] = message
    return out


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (``rules/locale/<lang>/LC_MESSAGES/dragonroll.mo``)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


@cache
def catalog(lang: str) -> Catalog:
    """``lang``'s catalog, built once per process from the source texts and the compiled catalog."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for {lang!r}: one of {', '.join(LANGUAGES)}")
    tr = translations(lang)
    sentences: dict[str, str] = {}
    variants: dict[str, tuple[tuple[str, ...], dict[tuple[str, ...], str]]] = {}
    plural: dict[str, tuple[str, str]] = {}
    terms: dict[tuple[str, str], dict[str, str]] = {}
    for context, message in source_messages().items():
        if message.plural is not None:
            plural[context] = (message.text, message.plural)
            continue
        text = tr.pgettext(context, message.text)
        if "=" in context and "|" not in context:
            key, value = context.split("=", 1)
            system, param = key.split(".", 1)
            terms.setdefault((system, param), {})[value] = text
        elif "|" in context:
            code, *choices = context.split("|")
            pairs = [choice.split("=", 1) for choice in choices]
            params = tuple(param for param, _ in pairs)
            known = variants.setdefault(code, (params, {}))
            if known[0] != params:
                raise ValueError(f"{context}: the variants of {code} choose on {known[0]}")
            known[1][tuple(value for _, value in pairs)] = text
        else:
            sentences[context] = text
    return Catalog(lang, sentences, variants, plural, terms, tr)


# ---------------------------------------------------------------- rendering


def tell(result: Any, request: BaseModel, lang: str) -> None:
    """Narrate a resolver's result (a typed dict or a dataclass with ``events``) for ``request``."""
    events = result["events"] if isinstance(result, dict) else result.events
    narrate(events, lang, names(request))


def narrate(events: list[Any], lang: str, names: Mapping[str, str]) -> None:
    """Fill in the ``text`` of each event (``{"code", "params", "text"}``), in ``lang``."""
    cat = catalog(lang)
    for event in events:
        event["text"] = render(cat, event["code"], event["params"], names)


def render(cat: Catalog, code: str, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The sentence of one event."""
    template = cat.sentences.get(code)
    if template is None:
        template = _variant(cat, code, params)
    text = _Event(cat, code, params, names).fill(template, phrases=True)
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _variant(cat: Catalog, code: str, params: Mapping[str, Any]) -> str:
    """The variant of ``code`` its parameters choose: the exact one, else one with ``*`` there."""
    chosen, choices = cat.variants[code]
    key = tuple([_key(params.get(param)) for param in chosen])
    exact = choices.get(key)
    if exact is not None:
        return exact
    for pattern, template in choices.items():
        if all(p in {k, "*"} for p, k in zip(pattern, key, strict=True)):
            return template
    raise KeyError(f"{code}: no variant for {dict(zip(chosen, key, strict=True))}")


@dataclass(frozen=True, slots=True)
class _Event:
    """One event being told: its catalog, code, parameters and the request's names."""

    cat: Catalog
    code: str
    params: Mapping[str, Any]
    names: Mapping[str, str]

    def fill(self, template: str, *, phrases: bool) -> str:
        """``template`` with its fields filled; a counted field as its phrase (``phrases``: not
        inside the phrase itself, where the field is the number)."""
        out: list[str] = []
        for literal, field, spec in parse(template):
            out.append(literal)
            if field is None:
                continue
            if field not in self.params:  # a role the request may name: {target}
                out.append(self.role(field))
                continue
            value = self.params[field]
            context = f"{self.code}#{field}"
            phrase = self.cat.counted.get(context) if phrases else None
            if phrase is None:
                out.append(self.show(field, spec, value))
            else:
                form = self.cat.translations.npgettext(context, phrase[0], phrase[1], value)
                out.append(self.fill(form, phrases=False))
        return "".join(out)

    def show(self, param: str, spec: str, value: Any) -> str:
        """One parameter as a sentence shows it (module docstring)."""
        if spec[:1] == "@" or (type(value) is str and value not in self.names):
            word = self.term(spec[1:] if spec[:1] == "@" else param, _key(value))
            if word is not None:
                return word  # a word of the language: no isolates
        if isinstance(value, list | tuple):
            if not value:
                return self.term("list", "empty") or ""
            shown = ", ".join([self.plain(param, spec, v) for v in value])
        else:
            shown = self.plain(param, spec, value)
        return f"{FSI}{shown}{PDI}" if self.cat.lang in RTL else shown

    def plain(self, param: str, spec: str, value: Any) -> str:
        if spec[:1] == "@":
            return self.term(spec[1:], _key(value)) or _key(value)
        if type(value) is int:
            if spec == "pos":
                return str(value + 1)
            return format(value, spec) if spec else str(value)
        if type(value) is str:
            return self.names.get(value) or self.term(param, value) or value
        return _key(value)

    def role(self, field: str) -> str:
        """A field no parameter fills: who the request names by that role (``target``), else the
        role's term; an unknown field is an error in the catalog."""
        name = self.names.get(field)
        if name is not None:
            return f"{FSI}{name}{PDI}" if self.cat.lang in RTL else name
        word = self.term("role", field)
        if word is None:
            raise KeyError(f"{self.code}: no parameter or role {field!r}")
        return word

    def term(self, param: str, value: str) -> str | None:
        """The catalog's word for ``value`` of ``param`` (``system.param=value``, else the role)."""
        system = self.code.split(".", 1)[0]
        terms = self.cat.terms.get((system, param))
        if terms is not None and value in terms:
            return terms[value]
        roles = self.cat.terms.get((system, "role"))
        return roles.get(value) if roles is not None else None


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
    for key, model in _models(request, None):
        name = getattr(model, "name", None)
        id_ = getattr(model, "id", None)
        name = name if isinstance(name, str) else None
        id_ = id_ if isinstance(id_, str) else None
        if name is not None and id_ is not None:
            out[id_] = name
        label = name or id_
        if key is not None and label is not None:
            out[key] = label
    return out


def _models(value: Any, key: str | None) -> Iterator[tuple[str | None, BaseModel]]:
    """Every model inside ``value``, with the field it sits in alone (``None`` in a list)."""
    if isinstance(value, BaseModel):
        yield key, value
        for field in _nested(type(value)):
            yield from _models(getattr(value, field), field)
    elif isinstance(value, list | tuple | dict):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _models(item, None)


@cache
def _nested(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``cls`` that may hold a model (looked up once per class)."""
    return tuple(
        name
        for name, info in cls.model_fields.items()
        if name not in {"dice", "seed"} and _may_hold_model(info.annotation)
    )


def _may_hold_model(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_may_hold_model(arg) for arg in getattr(annotation, "__args__", ()))


def codes(messages: Iterable[Message]) -> frozenset[str]:
    """The event codes that ``messages`` (a system's ``TEXTS``) give sentences for."""
    return frozenset(
        m.context.split("|", 1)[0]
        for m in messages
        if m.plural is None and "=" not in m.context.split("|", 1)[0]
    )
