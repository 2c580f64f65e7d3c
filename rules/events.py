"""Events: what happened, in order, each with a stable code and its parameters (STYLE 8).

Resolvers record events as a code and parameters; turning them into sentences is a separate step that
looks the code up in its system's texts (``rules/<system>/text.py``). The ``Event`` a response shows is
in ``rules/models.py`` with the other envelope types: this module is compiled (mypyc), and result
types stay Python classes.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Mapping
from typing import Any

from rules.models import Event


class EventLog:
    """Collects events during a resolution; renders them at the end."""

    __slots__ = ("_events", "_sentences", "_texts")

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = texts
        self._sentences = compiled(texts)
        self._events: list[tuple[str, dict[str, Any]]] = []

    def add(self, code: str, **params: Any) -> None:
        if code not in self._texts:
            raise KeyError(f"no text for event code {code!r}")
        self._events.append((code, params))

    def render(self) -> list[Event]:
        sentences = self._sentences
        return [
            {"code": code, "params": params, "text": sentences[code](params)}
            for code, params in self._events
        ]

    @property
    def codes(self) -> list[str]:
        return [code for code, _ in self._events]


#: A text as a function of an event's parameters (the dict ``EventLog.add`` recorded).
Sentence = Callable[[dict[str, Any]], str]
#: Compiled texts, by the identity of the texts mapping (kept alive here, so the identity is unique).
_COMPILED: dict[int, tuple[Mapping[str, str], dict[str, Sentence]]] = {}


def compiled(texts: Mapping[str, str]) -> dict[str, Sentence]:
    """Each text as a function of the event's parameters, built once per mapping of texts.

    ``str.format_map`` parses its template on every call; a system's texts are fixed, so each is
    turned once into an f-string over its fields (``sentence``). Rendering is about three times faster
    and gives exactly the text ``render_text`` gives (a test checks every template of every system).
    """
    entry = _COMPILED.get(id(texts))
    if entry is None or entry[0] is not texts:
        entry = _COMPILED[id(texts)] = (texts, {code: sentence(t) for code, t in texts.items()})
    return entry[1]


def render_text(template: str, params: dict[str, Any]) -> str:
    """The reference rendering of a text: ``str.format_map`` over the shown parameters."""
    return template.format_map(_display(params))


def sentence(template: str) -> Sentence:
    """``template`` as a function of the parameters (see ``compiled``).

    Fields must be plain names (``{total}``, ``{percent:+d}``): a field with a format spec gets the
    value as it is, any other goes through ``_show`` (lists as "6, 10, 10", ``None`` as "none";
    ints, strings and bools as they are, without a call). A template with anything else (an index,
    an attribute, a conversion) is rendered by ``render_text``.
    """
    parts: list[str] = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts.append(_literal(literal))
        if field is None:
            continue
        if conversion or not field.isidentifier() or not set(spec or "") <= _SPEC_CHARS:
            return functools.partial(render_text, template)
        value = f"p[{field!r}]"  # an identifier: its repr is the name in single quotes
        if spec:
            parts.append("{" + value + ":" + spec + "}")
        else:
            parts.append("{(v if (v := " + value + ").__class__ in _PLAIN else _show(v))}")
    # Only the systems' own fixed texts reach here, never input: the generated source is one
    # f-string over the parameters dict, its literal text escaped.
    fn: Sentence = eval('lambda p: f"' + "".join(parts) + '"', {"_show": _show, "_PLAIN": _PLAIN})
    return fn


#: What a format spec of a text may hold (``+d``, ``>3``, ``,``): nothing that ends the f-string.
_SPEC_CHARS = frozenset("+-# 0123456789<>=^,._%bcdeEfFgGnosxX")


def _literal(text: str) -> str:
    """``text`` as the literal part of a double-quoted f-string."""
    escaped = text.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return escaped.replace("{", "{{").replace("}", "}}")


#: Parameter types a sentence shows as ``str()`` shows them (the common case, tested first).
_PLAIN = frozenset({int, str, bool})


def _display(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as a sentence shows them: lists as "6, 10, 10", ``None`` as "none".

    Most parameters are ints and strings, shown as they are: only the others are converted.
    """
    shown = params
    for key, value in params.items():
        if type(value) not in _PLAIN and (value is None or isinstance(value, list | tuple)):
            if shown is params:
                shown = dict(params)
            shown[key] = _show(value)
    return shown


def _show(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, list | tuple):
        return ", ".join([str(v) if type(v) in _PLAIN else str(_show(v)) for v in value]) or "none"
    if value is None:
        return "none"
    return value
