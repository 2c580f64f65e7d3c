"""Every notation of issue 35's lists ("Defects", "Refused, and common", "Readings that differ from
every peer", and the keeps among exploding dice and avrae's set operators its last round left),
in each dialect that has it: ``/dice/roll`` answers 200 with a total the odds allow, and
``/dice/odds`` answers the exact distribution that icepool (an independent computation) gives. One
list, one test: a refusal anywhere fails it."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest

from rules.notation.parser import DEPTH, Dialect
from tests.conftest import Api
from tests.rules.notation.test_odds import full, icepool_of, pooled

d6, d8, d10, d20 = icepool.d6, icepool.d8, icepool.d10, icepool.d20
fate = icepool.Die([-1, 0, 1])
BOTH: tuple[Dialect, ...] = ("foundry", "roll20")
ALL: tuple[Dialect, ...] = ("foundry", "roll20", "avrae")


def counting(success: Callable[[int], bool], failure: Callable[[int], bool]) -> Any:
    return lambda x: 1 if success(x) else -1 if failure(x) else 0


def fate_rerolled_then_exploding() -> Any:
    """``dFrr!``: the base die rerolled until it is not -1 (0 or +1), then a +1 explodes into
    plain Fate dice (which are not rerolled)."""
    return icepool.Die([0, 1 + fate.explode([1], depth=DEPTH - 1)])


def highest_and_lowest(*dice: int) -> int:
    """avrae's ``kh1kl1``: d20 picks among equal dice the earliest, as the highest and as the
    lowest, so dice all alike keep one."""
    return max(dice) + min(dice) if max(dice) != min(dice) else max(dice)


# (dialects, notation, the distribution by icepool)
LISTS: list[tuple[tuple[Dialect, ...], str, Callable[[], Any]]] = [
    # Defects: Fate dice with a bare reroll; a Fate term without a count before a modifier
    (("foundry",), "4dFr", lambda: 4 @ fate.reroll([-1], depth=1)),  # once
    (("roll20",), "4dFr", lambda: 4 @ fate.reroll([-1], depth="inf")),  # again and again
    (("foundry",), "4dFro", lambda: 4 @ fate.reroll([-1], depth=1)),
    (("foundry",), "4dFrr!", lambda: 4 @ fate_rerolled_then_exploding()),
    (("foundry",), "dFcs>0", lambda: fate.map(lambda x: int(x > 0))),
    (("foundry",), "1dFcs>0", lambda: fate.map(lambda x: int(x > 0))),
    (("foundry",), "dFr", lambda: fate.reroll([-1], depth=1)),
    (BOTH, "dFkh1", lambda: fate),
    (("foundry",), "dFx", lambda: fate.explode([1], depth=DEPTH)),
    (BOTH, "dF!", lambda: fate.explode([1], depth=DEPTH)),
    (("foundry",), "dFmin0", lambda: fate.map(lambda x: max(x, 0))),
    # Refused, and common: Roll20's success counting by a bare comparison, f for failures
    (("roll20",), "8d10>=7", lambda: 8 @ d10.map(lambda x: int(x >= 7))),
    (("roll20",), "8d10>7f1", lambda: 8 @ d10.map(counting(lambda x: x >= 7, lambda x: x == 1))),
    (("roll20",), "10d10>8f1", lambda: 10 @ d10.map(counting(lambda x: x >= 8, lambda x: x == 1))),
    (("roll20",), "4d6>4f<3", lambda: 4 @ d6.map(counting(lambda x: x >= 4, lambda x: x <= 3))),
    (("roll20",), "2d6=6", lambda: 2 @ d6.map(lambda x: int(x == 6))),
    # bare d: drop the lowest (among the explosions too)
    (BOTH, "4d6d1", lambda: d6.pool(4).lowest(drop=1).sum()),
    (BOTH, "20d20d", lambda: d20.pool(20).lowest(drop=1).sum()),
    (BOTH, "4d6!d1", lambda: pooled(d6, 4).lowest(drop=1).sum()),
    # avrae/d20's operators
    (("avrae",), "1d20mi10", lambda: d20.map(lambda x: max(x, 10))),
    (("avrae",), "8d6mi2", lambda: 8 @ d6.map(lambda x: max(x, 2))),
    (("avrae",), "10d6ma1", lambda: icepool.Die([10])),
    (("avrae",), "4d6pl1", lambda: d6.pool(4).lowest(drop=1).sum()),
    (("avrae",), "4d6ph1", lambda: d6.pool(4).highest(drop=1).sum()),
    (("avrae",), "8d6e6", lambda: 8 @ d6.explode(depth=DEPTH)),
    # pools and groups with keep/drop
    (BOTH, "{1d20, 1d20}kh", lambda: d20.pool(2).highest(1).sum()),
    (("avrae",), "(1d20, 1d20)kh1", lambda: d20.pool(2).highest(1).sum()),
    (
        ("foundry",),
        "{1d8x, 1d6x}kh",
        lambda: icepool.highest(d8.explode(depth=DEPTH), d6.explode(depth=DEPTH)),
    ),
    (
        BOTH,
        "{1d8!, 1d6!}kh",
        lambda: icepool.highest(d8.explode(depth=DEPTH), d6.explode(depth=DEPTH)),
    ),
    (BOTH, "{4d6, 3d8 - 1}kh", lambda: icepool.highest(4 @ d6, 3 @ d8 - 1)),
    # compounding
    (("roll20",), "3d6!!", lambda: 3 @ d6.explode(depth=DEPTH)),
    (("roll20",), "2d6!!>4", lambda: 2 @ d6.explode([4, 5, 6], depth=DEPTH)),
    # functions
    (BOTH, "floor(1d6/2)", lambda: d6 // 2),
    # Foundry's other counters
    (("foundry",), "20d20cs", lambda: 20 @ d20.map(lambda x: int(x == 20))),
    (("foundry",), "6d6cf<=3", lambda: 6 @ d6.map(lambda x: int(x <= 3))),
    (("foundry",), "6d6cs>3df<2", lambda: 6 @ d6.map(counting(lambda x: x > 3, lambda x: x < 2))),
    # labels and comments
    (ALL, "1d20+5 [attack]", lambda: d20 + 5),
    (ALL, "1d8[Hunter's Mark]", lambda: d8),
    (("avrae",), "1d20+5 to hit", lambda: d20 + 5),
    # Readings: each dialect's own
    (("avrae", "foundry"), "1d20rr<20", lambda: icepool.Die([20])),
    (("roll20",), "1d20r<19", lambda: icepool.Die([20])),
    (("roll20",), "4d10cs>7", lambda: 4 @ d10),
    (("foundry",), "4d10cs>7", lambda: 4 @ d10.map(lambda x: int(x > 7))),
    (("foundry",), "1d20r1", lambda: d20.reroll([1], depth=1)),
    (("roll20",), "1d20r1", lambda: d20.reroll([1], depth="inf")),
    (("avrae",), "4d6k3", lambda: 4 @ d6.map(lambda x: x if x == 3 else 0)),
    (BOTH, "4d6k3", lambda: d6.pool(4).highest(3).sum()),
    (("roll20",), "4D6K3", lambda: d6.pool(4).highest(3).sum()),  # Roll20 reads any case
    # keep/drop among exploding dice; avrae's set operators in their order
    (("foundry",), "3d6x>4kh2", lambda: pooled(d6, 3, [5, 6]).highest(2).sum()),
    (("roll20",), "3d6!>5kh2", lambda: pooled(d6, 3, [5, 6]).highest(2).sum()),
    (("avrae",), "4d6e6kh3", lambda: pooled(d6, 4).highest(3).sum()),
    (("avrae",), "3d6e>4kh2", lambda: pooled(d6, 3, [5, 6]).highest(2).sum()),
    (
        ("avrae",),
        "10d6k1ph1",
        lambda: (10 @ d6.map(lambda x: int(x == 1))).map(lambda n: max(0, n - 1)),
    ),
    (("avrae",), "4d6kh1kl1", lambda: icepool.map(highest_and_lowest, d6, d6, d6, d6)),
]
CASES = [(dialect, notation, die) for dialects, notation, die in LISTS for dialect in dialects]


@pytest.mark.parametrize(
    ("dialect", "notation", "die"), CASES, ids=[f"{d} {n}" for d, n, _ in CASES]
)
def test_every_listed_notation_rolls_and_has_exact_odds(
    api: Api, dialect: Dialect, notation: str, die: Callable[[], Any]
) -> None:
    rolled = api.post("/dice/roll", json={"notation": notation, "dialect": dialect, "seed": 35})
    assert rolled.status_code == 200, rolled.text
    answer = api.post("/dice/odds", json={"notation": notation, "dialect": dialect})
    assert answer.status_code == 200, answer.text
    odds = answer.json()
    assert odds["dialect"] == dialect == rolled.json()["dialect"]
    assert odds["formula"] == rolled.json()["formula"]
    dist = full(odds)
    assert dist == icepool_of(die())
    assert dist.get(rolled.json()["total"], Fraction(0)) > 0
