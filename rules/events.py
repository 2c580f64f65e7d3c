"""Events: what happened, in order, each a stable code and its parameters (STYLE 8), its ``text`` left
empty for the service to narrate in the reader's language (``rules.narration``); and the trace
every result ends with (its dice and its events).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from rules.dice import DiceSource
from rules.models import Envelope, Event, FoundryEnvelope


class EventLog:
    """Collects events during a resolution; lists them at the end, their texts to be narrated."""

    __slots__ = ("_codes", "_events")

    def __init__(self, codes: Collection[str]) -> None:
        self._codes = codes
        self._events: list[Event] = []

    def add(self, code: str, **params: Any) -> None:
        if code not in self._codes:
            raise KeyError(f"no text for event code {code!r}")
        self._events.append({"code": code, "params": params, "text": ""})

    def render(self) -> list[Event]:
        return self._events

    @property
    def codes(self) -> list[str]:
        return [event["code"] for event in self._events]


def trace(dice: DiceSource, log: EventLog) -> Envelope:
    """The envelope fields of a result: call it last, once every die has been drawn.

    It refuses a resolution that ran out of scripted dice (DESIGN.md, "Scripted dice").
    ``rules_version`` is left empty, in its place: it is the descriptor's (``System.rules_version``,
    written there only), and whoever serves the system stamps it (``service.endpoints``).
    """
    dice.settle()
    return {
        "seed": dice.seed,
        "rng": dice.rng,
        "rules_version": "",
        "rolls": dice.records(),
        "unused_dice": dice.unused(),
        "events": log.render(),
    }


def foundry_trace(dice: DiceSource, log: EventLog) -> FoundryEnvelope:
    """:func:`trace`, for a result based on ``FoundryEnvelope``: its ``foundry`` is left out, for
    whoever serves the system to add when the request asks for it."""
    return cast(FoundryEnvelope, trace(dice, log))
