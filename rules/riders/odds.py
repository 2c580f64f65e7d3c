"""Odds of a Dragon Riders roll-off before anyone rolls (RDR-2, RDR-3, RDR-5): each side's total summed
exactly (``rules.odds.dice``), the initiator winning ties (RDR-3), and for each counter item the
chance it alone turns the roll-off (RDR-5). docs/odds.md, "How the numbers are made".
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from rules.odds import Counts, Distribution, NoDice, Prob, dice, distribution, prob
from rules.riders.models import (
    BASE_ROLLOFF_DICE,
    MAX_FATIGUE,
    CombatRequest,
    Item,
    Side,
    parse_dice,
)

D6 = 6


class CombatOddsRequest(NoDice, CombatRequest):
    """The `/riders/combat` request without `seed` and `dice`."""


@with_config(ConfigDict(extra="forbid"))
class CounterOdds(TypedDict):
    side: Annotated[str, Field(description="`initiator` or `defender`: who holds the item.")]
    item: Annotated[str, Field(description="The counter item's id.")]
    turns: Annotated[
        Prob,
        Field(description="The side is behind after the roll-off and this item puts it ahead."),
    ]
    given_behind: Annotated[
        Prob | None, Field(description="The same, knowing the side is behind; null if it never is.")
    ]


@with_config(ConfigDict(extra="forbid"))
class CombatOdds(TypedDict):
    initiator_wins: Annotated[
        Prob, Field(description="The initiator's total is at least the defender's.")
    ]
    defender_wins: Annotated[Prob, Field(description="The defender's total is higher (RDR-3).")]
    initiator_total: Annotated[Distribution, Field(description="Dice + bonus (RDR-2, RDR-3).")]
    defender_total: Distribution
    counters: Annotated[
        list[CounterOdds], Field(description="Every counter item of either side, in request order.")
    ]


def total(me: Side, foe: Side) -> Counts:
    """A side's roll-off total (RDR-2, RDR-3)."""
    elemental = sum(r.bonuses.get(foe.element, 0) for r in me.riders)
    flat = (elemental if me.fatigue < MAX_FATIGUE else 0) + me.terrain_bonus
    pre = [i for i in me.items if i.timing == "pre"]
    count = BASE_ROLLOFF_DICE + me.rage + sum(i.extra_rolloff_dice for i in pre)
    out = dice(count, D6)
    for item in pre:
        out = out.plus(value(item))
    return out.mapped(lambda v: v + flat)


def value(item: Item) -> Counts:
    flat = Counts({item.bonus: 1}, 1)
    if item.dice is None:
        return flat
    count, sides = parse_dice(item.dice)
    return flat.plus(dice(count, sides))


def combat_odds(req: CombatOddsRequest) -> CombatOdds:
    sides = {"initiator": req.initiator, "defender": req.defender}
    ini, dfd = total(req.initiator, req.defender), total(req.defender, req.initiator)
    defender_wins = _chance(dfd, ini, lambda d, i: d > i)
    counters: list[CounterOdds] = []
    for name, me in sides.items():
        mine, theirs = (ini, dfd) if name == "initiator" else (dfd, ini)
        behind = defender_wins if name == "initiator" else 1 - defender_wins
        # the initiator is behind below the defender's total; the defender also on a tie (RDR-3)
        margin = 1 if name == "initiator" else 0
        for item in me.items:
            if item.timing != "counter":
                continue
            turns = _turns(mine, theirs, value(item), margin)
            counters.append(
                {
                    "side": name,
                    "item": item.id,
                    "turns": prob(turns),
                    "given_behind": prob(turns / behind) if behind else None,
                }
            )
    return {
        "initiator_wins": prob(1 - defender_wins),
        "defender_wins": prob(defender_wins),
        "initiator_total": distribution(ini),
        "defender_total": distribution(dfd),
        "counters": counters,
    }


def _chance(a: Counts, b: Counts, keep: Callable[[int, int], bool]) -> Fraction:
    found = sum(c * d for v, c in a.counts.items() for w, d in b.counts.items() if keep(v, w))
    return Fraction(found, a.denominator * b.denominator)


def _turns(mine: Counts, theirs: Counts, item: Counts, margin: int) -> Fraction:
    """P(mine <= theirs - margin and mine + item > theirs): behind, then strictly ahead (RDR-5)."""
    values = sorted(item.counts)
    above = [0] * (len(values) + 1)  # above[i]: the item's rolls with a value >= values[i]
    for i in range(len(values) - 1, -1, -1):
        above[i] = above[i + 1] + item.counts[values[i]]
    found = 0
    for m, c in mine.counts.items():
        for t, e in theirs.counts.items():
            if m <= t - margin:
                found += c * e * above[bisect_right(values, t - m)]
    return Fraction(found, mine.denominator * theirs.denominator * item.denominator)
