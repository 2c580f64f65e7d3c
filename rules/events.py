"""Events: what happened, in order, each with a stable code and its parameters (STYLE 8).

Resolvers record events as a code and parameters; turning them into sentences is a separate step that
looks the code up in its system's texts (``rules/<system>/text.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from rules.record import Record


@dataclass
class Event(Record):
    code: Annotated[str, Field(description="Stable code of what happened, such as `dos.luck`.")]
    params: Annotated[
        dict[str, Any], Field(description="The event's parameters (ids, values, dice).")
    ]
    text: Annotated[
        str, Field(description="One English sentence for people; a VTT may post it to chat.")
    ]


class EventLog:
    """Collects events during a resolution; renders them at the end."""

    __slots__ = ("_events", "_texts")

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = texts
        self._events: list[tuple[str, dict[str, Any]]] = []

    def add(self, code: str, **params: Any) -> None:
        if code not in self._texts:
            raise KeyError(f"no text for event code {code!r}")
        self._events.append((code, params))

    def render(self) -> list[Event]:
        texts = self._texts
        return [
            Event(code, params, texts[code].format_map(_display(params)))
            for code, params in self._events
        ]

    @property
    def codes(self) -> list[str]:
        return [code for code, _ in self._events]


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
    if isinstance(value, list | tuple):
        return ", ".join([str(v) if type(v) in _PLAIN else str(_show(v)) for v in value]) or "none"
    if value is None:
        return "none"
    return value
