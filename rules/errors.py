"""Typed engine errors.

The engine raises these when a request is well-formed JSON of the right shape but cannot be resolved as
written. The service maps each class to one RFC 9457 problem ``type`` and status (see
``service/problems.py``); nothing here knows about HTTP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class FieldError:
    """One problem with one field of the request. ``loc`` is the path inside the body."""

    loc: Loc
    msg: str


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""

    kind = "unresolvable"
    title = "The request cannot be resolved as written"

    def __init__(self, detail: str, errors: Sequence[FieldError] = ()) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = tuple(errors)


class InvalidRequest(RulesError):
    """Fields that are each valid but do not fit together (an unknown id, a duplicate, a cycle)."""

    kind = "invalid-request"
    title = "The request is not consistent"

    @classmethod
    def at(cls, loc: Loc, msg: str) -> InvalidRequest:
        return cls(msg, [FieldError(loc, msg)])


class DiceScriptError(RulesError):
    """Scripted dice that cannot be used: a value out of range or an unknown slot."""

    kind = "dice-script"
    title = "The scripted dice cannot be used"


class DiceExhausted(DiceScriptError):
    """A scripted slot ran out before the resolution was complete."""

    kind = "dice-exhausted"
    title = "The scripted dice ran out"

    def __init__(self, slot: str, sides: int, needed: int, given: int) -> None:
        self.slot = slot
        self.sides = sides
        self.needed = needed
        self.given = given
        more = "value" if needed == 1 else "values"
        detail = (
            f"dice.{slot} ran out: it holds {given} value(s), and the resolution needed at least "
            f"{needed} more d{sides} {more} for slot '{slot}'"
        )
        super().__init__(detail, [FieldError(("dice", slot), detail)])


class LimitExceeded(RulesError):
    """A request within its schema that would still take more than a limit allows."""

    kind = "limit-exceeded"
    title = "A limit of the service was exceeded"


class IllegalDecision(RulesError):
    """A decision that is not legal at the point where it is taken (step-by-step resolutions)."""

    kind = "illegal-decision"
    title = "The decision is not legal at this point"
