"""The d20 test (D5E-10): advantage keeps the higher of two d20s, disadvantage the lower, both cancel."""

from __future__ import annotations

from rules.dice import DiceSource
from rules.dnd5e.models import D20Mode, D20Roll

D20 = 20


def mode(advantage: bool | int, disadvantage: bool | int) -> D20Mode:
    """D5E-10: any advantage with any disadvantage cancels, whatever the number of sources."""
    adv, dis = bool(advantage), bool(disadvantage)
    if adv and not dis:
        return "advantage"
    if dis and not adv:
        return "disadvantage"
    return "normal"


def roll_d20(dice: DiceSource, slot: str, how: D20Mode, modifier: int) -> D20Roll:
    if how == "normal":
        d20s = [dice.roll(slot, D20)]
        natural = d20s[0]
    else:
        d20s = dice.roll_many(slot, D20, 2)
        natural = max(d20s) if how == "advantage" else min(d20s)
    return {
        "d20s": d20s,
        "mode": how,
        "natural": natural,
        "modifier": modifier,
        "total": natural + modifier,
    }
