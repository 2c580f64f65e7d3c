"""Events: what happened, in order, each with a stable code and its parameters (STYLE 8); and the
trace every result ends with (its dice and its events).

Resolvers record events as a code and parameters; turning them into sentences is a separate step,
done by each system's generated sentences (``rules/<system>/sentences.py``, from its texts in
``rules/<system>/text.py``; see ``rules/textgen.py``). The ``Event`` a response shows is in
``rules/models.py`` with the other envelope types: this module is compiled (mypyc), and result types
stay Python classes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, cast

from rules.dice import DiceSource
from rules.models import RULES_VERSION, Envelope, Event

#: The decimal text of the numbers most parameters hold (dice, totals, counts): made once, not per
#: sentence.
_DECIMAL: Final = [str(n) for n in range(1001)]


class EventLog:
    """Collects events during a resolution; renders them at the end."""

    __slots__ = ("_events", "_sentences")

    def __init__(self, sentences: Mapping[str, Callable[[dict[str, Any]], str]]) -> None:
        self._sentences = sentences
        self._events: list[tuple[str, dict[str, Any]]] = []

    def add(self, code: str, **params: Any) -> None:
        if code not in self._sentences:
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


def show(value: object) -> str:
    """A parameter as a sentence shows it: ints, strings and bools as ``str()`` does, lists as
    "6, 10, 10" (an empty one as "none"), ``None`` as "none" (``rules.textgen.render_text`` is the
    reference)."""
    kind = type(value)
    if kind is str:
        return cast(str, value)
    if kind is int:
        n = cast(int, value)
        return _DECIMAL[n] if 0 <= n <= 1000 else str(n)
    if kind is bool:
        return str(value)
    if value is None:
        return "none"
    # A tuple of types, not `list | tuple`: compiled, the union is an object made on every call.
    if isinstance(value, (list, tuple)):
        return ", ".join([show(v) for v in value]) or "none"
    return format(value, "")


def trace(dice: DiceSource, log: EventLog) -> Envelope:
    """The envelope fields of a result: call it last, once every die has been drawn.

    It refuses a resolution that ran out of scripted dice (DESIGN.md, "Scripted dice").
    """
    dice.settle()
    return {
        "seed": dice.seed,
        "rng": dice.rng,
        "rules_version": RULES_VERSION,
        "rolls": dice.records(),
        "unused_dice": dice.unused(),
        "events": log.render(),
    }
