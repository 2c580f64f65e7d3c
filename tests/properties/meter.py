"""Work measured while the engine answers (tests/properties/test_work.py): the dice drawn and the
odds terms enumerated, counted as they happen, never estimated.

- base dice: every die a :class:`~rules.dice.DiceSource` draws, a pool (``roll_many``) whole, a
  single ``roll`` when it is the first of its slot in that source (a pool's extra dice on 10s and
  tie-break rerolls draw again in their slot: the rules bound them, the budgets do not count them);
- odds terms: calls counted with a profiler hook (``sys.setprofile``), so the real loops are
  measured: a Fraction product, sum or quotient (``fractions``' own functions), a big-integer
  polynomial term (the dragon pairs' binomial terms, convolution products and rows), a rule call
  per enumerated outcome (the DoS and 5e odds).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import pytest

from rules.dice.source import DiceSource
from rules.dragon.budget import SWEEP_STEP


@dataclass
class Meter:
    dice: int = 0
    calls: dict[str, int] = field(default_factory=dict)
    terms: int = 0


@contextmanager
def counting_dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[Meter]:
    """Count the base dice every source draws while the block runs."""
    meter = Meter()
    seen: dict[int, set[str]] = {}
    init, roll, roll_many = DiceSource.__init__, DiceSource.roll, DiceSource.roll_many

    def new_init(self: DiceSource, *args: Any, **kwargs: Any) -> None:
        seen[id(self)] = set()
        init(self, *args, **kwargs)

    def new_roll(self: DiceSource, slot: str, sides: int) -> int:
        drawn = seen.setdefault(id(self), set())
        if slot not in drawn:
            drawn.add(slot)
            meter.dice += 1
        return roll(self, slot, sides)

    def new_roll_many(self: DiceSource, slot: str, sides: int, count: int) -> list[int]:
        seen.setdefault(id(self), set()).add(slot)
        meter.dice += count
        return roll_many(self, slot, sides, count)

    monkeypatch.setattr(DiceSource, "__init__", new_init)
    monkeypatch.setattr(DiceSource, "roll", new_roll)
    monkeypatch.setattr(DiceSource, "roll_many", new_roll_many)
    yield meter


#: Fraction arithmetic, as ``fractions.Fraction``'s operators run it.
FRACTION_OPS = {"_add", "_sub", "_mul", "_div"}


@contextmanager
def counting_calls(terms: Callable[[str, str, FrameType, Any], int]) -> Iterator[Meter]:
    """Count, with a profiler hook, what ``terms(event, name, frame, arg)`` makes of each Python
    call and return while the block runs (``meter.terms``), and every call by name."""
    meter = Meter()

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        name = frame.f_code.co_name
        if event == "call":
            meter.calls[name] = meter.calls.get(name, 0) + 1
        meter.terms += terms(event, name, frame, arg)

    sys.setprofile(hook)
    try:
        yield meter
    finally:
        sys.setprofile(None)


def dragon_terms(event: str, name: str, frame: FrameType, arg: Any) -> int:
    """A /dragon/odds step (``rules.dragon.budget``): a Fraction operation of the sweep
    (:data:`~rules.dragon.budget.SWEEP_STEP` steps); a binomial's terms, a convolution's products
    and a winner's row of the pairs (``rules.dragon.odds``)."""
    if event == "call":
        if name in FRACTION_OPS and frame.f_code.co_filename.endswith("fractions.py"):
            return SWEEP_STEP
        if name == "_binomial":
            return int(frame.f_locals["count"]) + 1
        if name == "_convolve":
            return len(frame.f_locals["a"]) * len(frame.f_locals["b"])
    elif name == "_above" and frame.f_code.co_filename.endswith("odds.py"):
        return len(arg)
    return 0
