"""The dice source every resolver draws from.

A :class:`DiceSource` hands out dice by slot: scripted values first (dice rolled at a physical table
or by the VTT), then the slot's ``sha256-v1`` stream. It records every die in draw order and what was
left of the script, so a response can show every die and any client can replay it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from rules.dice.stream import RNG, SlotStream, seed_text
from rules.errors import DiceExhausted, DiceScriptError, FieldError

if TYPE_CHECKING:  # rules.models imports this package (for RNG): the type only, at check time
    from rules.models import Roll

Source = Literal["seed", "dice"]

#: What an endpoint knows of its slots: slot name -> die size, or ``None`` where the size varies.
SlotSpec = Mapping[str, int | None]

_LISTED_SLOTS = 12


@dataclass(frozen=True, slots=True)
class DieRecord:
    """One die drawn: its slot, its size, its value and where it came from."""

    slot: str
    sides: int
    value: int
    source: Source


class DiceSource:
    """Dice by slot for one resolution.

    ``slots`` lists the slots the resolution may draw from; scripts for any other slot are rejected,
    so a typo in a slot name never silently leaves a die to the seed. When ``slots`` is ``None`` every
    slot is accepted (engine use without a request).
    """

    __slots__ = ("_rolls", "_script", "_seed_text", "_short", "_streams", "_used", "rng", "seed")

    def __init__(
        self,
        seed: str | int,
        script: Mapping[str, Sequence[int]] | None = None,
        slots: SlotSpec | None = None,
    ) -> None:
        self.seed = seed
        self.rng = RNG
        self._seed_text = seed_text(seed)
        self._streams: dict[str, SlotStream] = {}
        self._script: dict[str, Sequence[int]] = dict(script) if script else {}
        self._used: dict[str, int] = {}
        self._short: dict[str, tuple[int, int]] = {}
        # Each die as the response shows it (``Roll``, keys in its order): made once, when drawn.
        self._rolls: list[Roll] = []
        if self._script:
            _check_script(self._script, slots)

    def roll(self, slot: str, sides: int) -> int:
        if slot in self._script:
            return self._scripted(slot, sides)
        value = (self._streams.get(slot) or self._stream(slot)).die(sides)
        self._rolls.append({"slot": slot, "sides": sides, "value": value, "source": "seed"})
        return value

    def roll_many(self, slot: str, sides: int, count: int) -> list[int]:
        if slot in self._script:
            return [self._scripted(slot, sides) for _ in range(count)]
        values = (self._streams.get(slot) or self._stream(slot)).dice(sides, count)
        # A loop, not a list comprehension: in Python 3.11 a comprehension is a call of its own,
        # about a fifth of this method's time for a pool of 2-5 dice.
        record = self._rolls.append
        for value in values:
            record({"slot": slot, "sides": sides, "value": value, "source": "seed"})
        return values

    def reseeded(self, seed: str) -> DiceSource:
        """A source drawing its unscripted dice from ``seed``'s streams, sharing this one's script
        (what is left of it) and its record of every die: a repeated roll's repetition i draws
        from ``{seed}/{i}`` (rules/notation/roll.py), its dice in this source's ``rolls``."""
        other = DiceSource(seed)
        other._script, other._used, other._short = self._script, self._used, self._short
        other._rolls = self._rolls
        return other

    def _scripted(self, slot: str, sides: int) -> int:
        """The slot's next scripted value; once the script ran out, the seed's (see ``settle``)."""
        script = self._script[slot]
        used = self._used.get(slot, 0)
        if used < len(script):
            value = script[used]
            self._used[slot] = used + 1
            if not 1 <= value <= sides:
                msg = (
                    f"dice.{slot}[{used}] is {value}, but slot '{slot}' draws a d{sides} there: "
                    f"values must be 1..{sides}"
                )
                raise DiceScriptError(msg, [FieldError(("dice", slot, used), msg)])
            self._rolls.append({"slot": slot, "sides": sides, "value": value, "source": "dice"})
            return value
        # The script ran out: keep resolving with the seed to learn how many more values the
        # resolution needs, then refuse it (see ``settle``).
        needed, first_sides = self._short.get(slot, (0, sides))
        self._short[slot] = (needed + 1, first_sides)
        value = self._stream(slot).die(sides)
        self._rolls.append({"slot": slot, "sides": sides, "value": value, "source": "seed"})
        return value

    def _stream(self, slot: str) -> SlotStream:
        stream = self._streams.get(slot)
        if stream is None:
            stream = self._streams[slot] = SlotStream(self._seed_text, slot)
        return stream

    def settle(self) -> None:
        for slot, (needed, sides) in self._short.items():
            raise DiceExhausted(slot, sides, needed, len(self._script[slot]))

    @property
    def rolls(self) -> list[DieRecord]:
        return [
            DieRecord(r["slot"], r["sides"], r["value"], cast(Source, r["source"]))
            for r in self._rolls
        ]

    def records(self) -> list[Roll]:
        """Every die drawn, in draw order, as the response's ``rolls`` shows it: the source's own
        list (``trace`` hands it to the result, once the last die has been drawn)."""
        return self._rolls

    def unused(self) -> dict[str, list[int]]:
        left: dict[str, list[int]] = {}
        for slot, values in self._script.items():
            used = self._used.get(slot, 0)
            if used < len(values):
                left[slot] = list(values[used:])
        return left


def _check_script(script: Mapping[str, Sequence[int]], slots: SlotSpec | None) -> None:
    errors: list[FieldError] = []
    for slot, values in script.items():
        if slots is not None and slot not in slots:
            known = sorted(slots)
            listed = ", ".join(known[:_LISTED_SLOTS]) + (
                " ..." if len(known) > _LISTED_SLOTS else ""
            )
            errors.append(
                FieldError(
                    ("dice", slot),
                    f"this request draws no dice in slot '{slot}'; its slots are: {listed or 'none'}",
                )
            )
            continue
        sides = slots.get(slot) if slots is not None else None
        if sides is None:
            continue
        for i, value in enumerate(values):
            if not 1 <= value <= sides:
                errors.append(
                    FieldError(
                        ("dice", slot, i),
                        f"slot '{slot}' draws d{sides}: {value} is not in 1..{sides}",
                    )
                )
    if errors:
        raise DiceScriptError("; ".join(e.msg for e in errors[:5]), errors)
