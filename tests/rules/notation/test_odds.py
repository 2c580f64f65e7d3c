"""Exact odds of a notation (rules/notation/odds.py) against brute-force enumeration (the roller
itself, run on every script of dice) and against icepool (STYLE 12)."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest

from rules.dice import DiceSource
from rules.errors import DiceExhausted, LimitExceeded
from rules.notation.models import NotationOddsRequest, NotationRollRequest
from rules.notation.odds import notation_odds
from rules.notation.parser import DEPTH, SHORTHANDS, Dialect
from rules.notation.roll import Roller

ROLLER = Roller()


def odds(notation: str) -> dict[str, Any]:
    return dict(notation_odds(NotationOddsRequest(notation=notation), SHORTHANDS))


def exact(answer_list: list[dict[str, Any]]) -> dict[int, Fraction]:
    return {e["value"]: Fraction(e["p"]["exact"]) for e in answer_list}


def full(answer: dict[str, Any]) -> dict[int, Fraction]:
    """P(total = v) from ``at_most`` (which counts the tail as the roller does)."""
    cumulative = exact(answer["at_most"])
    out, before = {}, Fraction(0)
    for v in sorted(cumulative):
        out[v] = cumulative[v] - before
        before = cumulative[v]
    return out


def brute(notation: str, dialect: Dialect = "foundry") -> tuple[dict[int, Fraction], Fraction]:
    """Every script of dice the roller can take, each with its probability: the distribution of
    the total, and the mass of the rolls whose explosion chain was cut at the depth."""
    req = NotationRollRequest(notation=notation, dialect=dialect)
    slots = ROLLER.slots(req)
    parsed = ROLLER.notation(req)
    dist: dict[int, Fraction] = {}
    cut = Fraction(0)
    stack: list[dict[str, list[int]]] = [{slot: [] for slot in slots}]
    while stack:
        script = stack.pop()
        try:
            r = ROLLER.roll(req, DiceSource("s", script, slots))
        except DiceExhausted as short:
            for v in range(1, short.sides + 1):
                stack.append({**script, short.slot: [*script[short.slot], v]})
            continue
        p = Fraction(1)
        for die in r["rolls"]:  # each die of the size it was drawn at
            p /= die["sides"]
        dist[r["total"]] = dist.get(r["total"], Fraction(0)) + p
        for term, shown in zip(parsed.terms, r["terms"], strict=True):
            chained = term.explode is not None and not term.explode_once
            if chained and any(
                term.explode(d["value"]) and not d["exploded"] and d["status"] != "rerolled"
                for d in shown["dice"]
            ):
                cut += p
                break
    return dist, cut


BRUTE = [
    "1d6",
    "2d6+3",
    "3d4kh2",
    "4d4dl1",
    "4d4dl1dh1",
    "3d6kl1",
    "3d4ro<2",
    "2d4r<2",
    "2d4rr<2",
    "1d3r<3",
    "1d3rr<3",
    "1d2!",
    "1d3!",
    "2d3!",
    "2d3xo",
    "1d4!>2",
    "1d4r1!",
    "1d4rr1!",
    "3d4cs>=3",
    "4d4cs>=4df<=1",
    "3d4kh2cs>=3",
    "2dF+1",
    "3dFkh2",
    "2d6min2max5",
    "3d4min2kh2",
    "1d6*1d4",
    "(1d4+1)*(1d3-2)",
    "1d10/3",
    "-1d6/4",
    "2d4-1d6",
    "1d6!cs>=5",
    # keep/drop among exploding dice (each explosion a die of the pool), rerolls and all
    "2d3!kh1",
    "2d3!d1",
    "2d3xodh1",
    "2d3r1!kh1",
    "2d3ro1!dl1",
    "3d2!dh1dl1",
    "2dF!kh1",
    "2d3!kh1cs>=2",
    "2d3!min2kh1",
]


@pytest.mark.parametrize("notation", BRUTE)
def test_odds_match_every_roll_enumerated(notation: str) -> None:
    answer = odds(notation)
    dist, cut = brute(notation)
    assert full(answer) == dist
    assert Fraction(answer["total"]["tail"]["exact"]) == cut
    listed = exact(answer["total"]["result"])
    assert sum(listed.values()) + cut == 1
    assert answer["total"]["mean"] == pytest.approx(float(sum(v * p for v, p in dist.items())))
    least = exact(answer["at_least"])
    assert least == {v: sum(p for w, p in dist.items() if w >= v) for v in dist}


def icepool_of(die: Any) -> dict[int, Fraction]:
    d = die if isinstance(die, icepool.Die) else icepool.Die([die])
    return {int(v): Fraction(q, d.denominator()) for v, q in d.items() if q}


d4, d6, d8, d10, d20 = icepool.d4, icepool.d6, icepool.d8, icepool.d10, icepool.d20

ICEPOOL: list[tuple[str, Callable[[], Any]]] = [
    ("4d6kh3", lambda: d6.pool(4).highest(3).sum()),
    ("20d6kh10", lambda: d6.pool(20).highest(10).sum()),
    ("2d20kl1+5", lambda: d20.pool(2).lowest(1).sum() + 5),
    ("adv", lambda: d20.pool(2).highest(1).sum()),
    ("stat", lambda: d6.pool(4).highest(3).sum()),
    ("6d10dl2dh1", lambda: d10.pool(6)[2:5].sum()),  # noqa: PLW0108
    ("8d10cs>=7", lambda: 8 @ d10.map(lambda x: int(x >= 7))),
    ("8d10cs>=7df<=1", lambda: 8 @ d10.map(lambda x: 1 if x >= 7 else -1 if x <= 1 else 0)),
    ("5d10kh3cs>8", lambda: d10.map(lambda x: int(x > 8)).pool(5).highest(3).sum()),
    ("1d20rr<3", lambda: d20.reroll(lambda x: x < 3, depth="inf")),
    ("1d20r<3", lambda: d20.reroll(lambda x: x < 3, depth=1)),
    ("1d20rr<20", lambda: icepool.Die([20])),
    ("1d20ro<3", lambda: d20.reroll(lambda x: x < 3, depth=1)),
    ("4d6ro1kh3", lambda: d6.reroll([1], depth=1).pool(4).highest(3).sum()),
    ("4dF", lambda: 4 @ icepool.Die([-1, 0, 1])),
    ("3d8min3max6", lambda: 3 @ d8.map(lambda x: min(max(x, 3), 6))),
    ("(1d6+1)*1d4", lambda: (d6 + 1) * d4),
    ("1d20/3 + 2d6", lambda: d20 // 3 + 2 @ d6),
    ("10d10 - 10d6", lambda: 10 @ d10 - 10 @ d6),
    ("d%", lambda: icepool.d100),
]


@pytest.mark.parametrize(("notation", "die"), ICEPOOL, ids=[n for n, _ in ICEPOOL])
def test_odds_match_icepool(notation: str, die: Callable[[], Any]) -> None:
    answer = odds(notation)
    assert full(answer) == icepool_of(die())
    assert answer["total"]["tail"]["exact"] == "0/1"


def test_the_shape_of_an_answer() -> None:
    answer = odds("2d6")
    assert answer["formula"] == "2d6" and answer["notation"] == "2d6"
    assert answer["total"]["result"][0] == {
        "value": 2,
        "p": {"p": 1 / 36, "exact": "1/36"},
    }
    assert answer["total"]["percentiles"] == {"p5": 3, "p25": 5, "p50": 7, "p75": 9, "p95": 11}
    assert answer["at_least"][0] == {"value": 2, "p": {"p": 1.0, "exact": "1/1"}}
    assert answer["at_most"][-1] == {"value": 12, "p": {"p": 1.0, "exact": "1/1"}}
    assert [e["value"] for e in answer["at_least"]] == list(range(2, 13))


def test_a_long_explosion_tail_is_shown() -> None:
    answer = odds("3d6!")
    tail = Fraction(answer["total"]["tail"]["exact"])
    # one of 3 chains reaching the depth with a six: 1 - (1 - 6^-(DEPTH+1))^3
    assert tail == 1 - (1 - Fraction(1, 6 ** (DEPTH + 1))) ** 3


def test_20d6kh10_is_fast() -> None:
    odds("20d6kh10")  # warm the imports
    start = time.process_time()
    odds("20d6kh10")
    assert (time.process_time() - start) < 0.05


@pytest.mark.parametrize(
    ("notation", "fragment"),
    [
        ("1d1000 * 1d1000", "combines"),
        ("60d10 * 60d10", "combines up to 541 x 541"),
        ("20d10 * 20d10", "odds list at most"),
        ("100d20kh50", "keep/drop over 100 dice"),
        ("100d1000kh50", "keep/drop over 100 dice of 1000 values"),
        ("100d1000", "too large to compute exactly"),
        ("20d20!", "too long to send"),
    ],
)
def test_questions_too_large_are_refused(notation: str, fragment: str) -> None:
    start = time.process_time()
    with pytest.raises(LimitExceeded, match=fragment) as caught:
        odds(notation)
    assert caught.value.errors[0].loc == ("notation",)
    assert time.process_time() - start < 1


def pooled(die: Any, count: int, which: Any = None, depth: int = DEPTH) -> Any:
    """icepool's dice that explode into the pool (each explosion one more die)."""
    if which is None:
        return die.explode_to_pool(count, depth=depth)
    return die.explode_to_pool(count, which, depth=depth)


EXPLODING: list[tuple[Dialect, str, Callable[[], Any]]] = [
    ("foundry", "4d6!d1", lambda: pooled(d6, 4).lowest(drop=1).sum()),
    ("roll20", "4d6!d1", lambda: pooled(d6, 4).lowest(drop=1).sum()),
    ("foundry", "3d6x>4kh2", lambda: pooled(d6, 3, [5, 6]).highest(2).sum()),
    ("avrae", "4d6e6kh3", lambda: pooled(d6, 4).highest(3).sum()),
    ("avrae", "4d6e6pl1", lambda: pooled(d6, 4).lowest(drop=1).sum()),
    ("roll20", "3d6!<2kh2", lambda: pooled(d6, 3, [1, 2]).highest(2).sum()),
    ("foundry", "3d6x=3kl2", lambda: pooled(d6, 3, [3]).lowest(2).sum()),
    ("foundry", "3d6xokh2", lambda: pooled(d6, 3, depth=1).highest(2).sum()),
    ("foundry", "4d6xkh3dl1", lambda: pooled(d6, 4).highest(2).sum()),
    (
        "foundry",
        "4d6xkh3cs>4",
        lambda: pooled(d6, 4).highest(3).keep_outcomes(lambda o: o > 4).size(),
    ),
    ("roll20", "3d8!>7kh2", lambda: pooled(d8, 3, [7, 8]).highest(2).sum()),
    ("foundry", "2d20xkh1", lambda: pooled(d20, 2).highest(1).sum()),
]


@pytest.mark.parametrize(
    ("dialect", "notation", "die"), EXPLODING, ids=[f"{d} {n}" for d, n, _ in EXPLODING]
)
def test_keep_and_drop_among_exploding_dice_match_icepool(
    dialect: Dialect, notation: str, die: Callable[[], Any]
) -> None:
    request = NotationOddsRequest(notation=notation, dialect=dialect)
    answer: dict[str, Any] = dict(notation_odds(request, SHORTHANDS))
    assert full(answer) == icepool_of(die())
    explode = "xo" not in notation
    assert (Fraction(answer["total"]["tail"]["exact"]) > 0) == explode
