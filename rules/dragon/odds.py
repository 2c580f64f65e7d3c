"""Odds of a dragon battle round before anyone rolls (DRG-2..11): each pair's, by conditioning on the
loser's highest die, and the dragon die's sweep, over a round the engine resolved once for its
structure alone (docs/odds.md, "How the numbers are made").
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod
from typing import Annotated

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from rules.dice import DiceSource
from rules.dragon.battle import battle
from rules.dragon.models import DRAGON, BattleRequest, BattleResult
from rules.odds import NoDice, Prob, ValueProb, prob, prob_of

#: A party's dice: (die size, number of dice) per pool it rolled.
Dice = list[tuple[int, int]]


class BattleOddsRequest(NoDice, BattleRequest):
    """The `/dragon/battle` request without `seed` and `dice`."""


@with_config(ConfigDict(extra="forbid"))
class PairOdds(TypedDict):
    a: Annotated[str, Field(description="The pair's first party (as `/dragon/battle` pairs).")]
    b: str
    a_members: Annotated[list[str], Field(description="a and the parties joined to it (DRG-3).")]
    b_members: list[str]
    a_wins: Annotated[Prob, Field(description="Side a's highest die is higher (DRG-9).")]
    b_wins: Prob
    interrupted: Annotated[Prob, Field(description="Equal highest dice (DRG-10).")]
    a_successes: Annotated[
        list[ValueProb], Field(description="P(a wins with this many successes); sums to a_wins.")
    ]
    b_successes: Annotated[
        list[ValueProb], Field(description="P(b wins with this many successes); sums to b_wins.")
    ]


class PairChances(TypedDict):
    """What :func:`pair_odds` finds for one pair (the odds fields of :class:`PairOdds`)."""

    a_wins: Prob
    b_wins: Prob
    interrupted: Prob
    a_successes: list[ValueProb]
    b_successes: list[ValueProb]


@with_config(ConfigDict(extra="forbid"))
class SweepOdds(TypedDict):
    opponent: Annotated[str, Field(description="The dragon's opponent.")]
    triggered: Annotated[
        Prob, Field(description="The dragon die shows the dragon side's highest result.")
    ]
    sweep: Annotated[Prob, Field(description="At least one other entity is taken (DRG-11).")]
    sizes: Annotated[
        list[ValueProb],
        Field(description="P(the sweep takes this many entities, the opponent included)."),
    ]


@with_config(ConfigDict(extra="forbid"))
class BattleOdds(TypedDict):
    pairs: Annotated[list[PairOdds], Field(description="Every pair the round forms (DRG-2).")]
    sweep: Annotated[
        SweepOdds | None, Field(description="The dragon die's sweep; null without the dragon die.")
    ]


@dataclass(frozen=True)
class Round:
    """Who fights whom with which dice: the round resolved once with a throwaway seed, its dice
    never read; what the odds and their work (``rules.dragon.budget``)
    are counted over."""

    shape: BattleResult
    own: dict[str, Dice]
    dragon_die: int

    def pair_dice(self) -> list[tuple[Dice, Dice]]:
        """Each pair's two sides' dice, the dragon die with the dragon's side."""
        return [
            (self._dice(p["a_side"]["members"]), self._dice(p["b_side"]["members"]))
            for p in self.shape["pairs"]
        ]

    def _dice(self, members: list[str]) -> Dice:
        extra = [(self.dragon_die, 1)] if DRAGON in members and self.dragon_die else []
        return _side(members, self.own) + extra


def round_of(req: BattleRequest) -> Round:
    shape = battle(req, DiceSource("odds", None, None))
    own: dict[str, Dice] = {}
    dragon_die = 0
    for pool in shape["pools"]:
        if pool["slot"] == "dragon_die":
            dragon_die = pool["sides"]
            continue
        own.setdefault(pool["owner"], []).append((pool["sides"], len(pool["dice"])))
    return Round(shape, own, dragon_die)


def battle_odds(req: BattleOddsRequest) -> BattleOdds:
    r = round_of(req)
    shape, own, dragon_die = r.shape, r.own, r.dragon_die
    pairs: list[PairOdds] = []
    for p, (a_dice, b_dice) in zip(shape["pairs"], r.pair_dice(), strict=True):
        a_members, b_members = p["a_side"]["members"], p["b_side"]["members"]
        chances = pair_odds(a_dice, b_dice)
        pairs.append(
            {
                "a": p["a"],
                "b": p["b"],
                "a_members": a_members,
                "b_members": b_members,
                "a_wins": chances["a_wins"],
                "b_wins": chances["b_wins"],
                "interrupted": chances["interrupted"],
                "a_successes": chances["a_successes"],
                "b_successes": chances["b_successes"],
            }
        )
    sweep = _sweep_odds(req, shape, own, dragon_die) if dragon_die and shape["pairs"] else None
    return {"pairs": pairs, "sweep": sweep}


def _side(members: Iterable[str], own: dict[str, Dice]) -> Dice:
    return [d for m in members for d in own.get(m, [])]


# ---------------------------------------------------------------- a pair (DRG-9, DRG-10)


def _at_most(dice: Dice, m: int) -> int:
    """Rolls (of prod(s^c)) whose highest die is at most ``m`` (0 for no dice: highest 0)."""
    return prod(min(max(m, 0), s) ** c for s, c in dice)


def _above(dice: Dice, m: int) -> Sequence[int]:
    """Rolls by the number of dice above ``m``: independent binomials per die size, convolved."""
    out: Sequence[int] | None = None
    for s, c in dice:
        group = _binomial(c, max(s - m, 0), min(m, s))
        out = group if out is None else _convolve(out, group)
    return out if out is not None else [1]


@lru_cache(maxsize=4096)
def _binomial(count: int, high: int, low: int) -> tuple[int, ...]:
    """Ways for k of ``count`` dice to be among ``high`` faces (the rest among ``low``), by k
    (kept per process: a round of many like pairs asks for the same few)."""
    if high == 0:
        return (low**count,)
    highs, lows = _powers(high, count), _powers(low, count)
    return tuple(comb(count, k) * highs[k] * lows[count - k] for k in range(count + 1))


def _powers(base: int, n: int) -> list[int]:
    out = [1] * (n + 1)
    for k in range(1, n + 1):
        out[k] = out[k - 1] * base
    return out


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def pair_odds(a: Dice, b: Dice) -> PairChances:
    """P(a wins), P(b wins), P(interrupted), and the successes of each winner (DRG-9, DRG-10)."""
    total, tied, a_row, b_row = _pair_counts(tuple(a), tuple(b))

    def successes(row: tuple[int, ...]) -> list[ValueProb]:
        return [{"value": k, "p": prob_of(c, total)} for k, c in enumerate(row) if c]

    return {
        "a_wins": prob_of(sum(a_row), total),
        "b_wins": prob_of(sum(b_row), total),
        "interrupted": prob_of(tied, total),
        "a_successes": successes(a_row),
        "b_successes": successes(b_row),
    }


@lru_cache(maxsize=1024)
def _pair_counts(
    a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """(all rolls, tied rolls, rolls a wins by successes, rolls b wins by successes), by
    conditioning on the loser's highest die ``m`` (kept per process: a round's pairs are often
    alike, 100 pairs of 20 d20 against 20 d20 cost one)."""
    sides = {"a": list(a), "b": list(b)}
    total = prod(s**c for s, c in a) * prod(s**c for s, c in b)
    top = max([s for s, _ in a + b], default=0)
    wins: dict[str, list[int]] = {"a": [0], "b": [0]}
    tied = 0
    for m in range(0, top + 1):
        pa = _at_most(sides["a"], m) - _at_most(sides["a"], m - 1)
        pb = _at_most(sides["b"], m) - _at_most(sides["b"], m - 1)
        tied += pa * pb
        for winner, loser_at_m in (("a", pb), ("b", pa)):
            if not loser_at_m:
                continue
            counts = _above(sides[winner], m)
            row = wins[winner]
            row.extend([0] * (len(counts) - len(row)))
            for k in range(1, len(counts)):
                row[k] += loser_at_m * counts[k]
    return total, tied, tuple(wins["a"]), tuple(wins["b"])


# ---------------------------------------------------------------- the sweep (DRG-11)


def _highest(dice: Dice) -> dict[int, Fraction]:
    total = prod(s**c for s, c in dice)
    top = max([s for s, _ in dice], default=0)
    out = {}
    for m in range(0, top + 1):
        c = _at_most(dice, m) - _at_most(dice, m - 1)
        if c:
            out[m] = Fraction(c, total)
    return out


@dataclass(frozen=True)
class Sweep:
    """The parties of the dragon die's sweep (DRG-11) and their highest dice's distributions."""

    opponent: str
    dragon_allies: list[str]
    opponent_allies: list[str]
    #: The other entities in the battle, weakest first (the order they are added in).
    candidates: list[str]
    #: Parties whose highest die counts twice (enumerated jointly).
    twice: list[str]
    highest: dict[str, dict[int, Fraction]]
    dragon_dice: dict[int, Fraction]


def _values(dice: Dice) -> dict[int, Fraction]:
    """The values a party's highest die can take (every value up to its largest die: that die
    shows it and the others no more; none without dice), each with probability 0: their number is what the work
    function counts, without the distributions' fractions (most of a refusal's cost)."""
    top = max([s for s, _ in dice], default=0)
    return dict.fromkeys(range(1, top + 1), _NONE)


_NONE = Fraction(0)


def sweep_of(
    req: BattleRequest, shape: BattleResult, own: dict[str, Dice], *, exact: bool = True
) -> Sweep:
    """The sweep's parties; ``exact``: their highest dice's distributions, else only the values
    those take (``rules.dragon.budget``, which counts them before any fraction is made)."""
    highest = _highest if exact else _values
    first = shape["pairs"][0]
    dragon_allies = [m for m in first["a_side"]["members"] if m != DRAGON]
    opponent = first["b"]
    opponent_allies = [m for m in first["b_side"]["members"] if m != opponent]
    index = {e.id: i for i, e in enumerate(req.entities)}
    prosperity = {e.id: e.prosperity for e in req.entities}
    in_battle = {
        m for p in shape["pairs"] for m in [*p["a_side"]["members"], *p["b_side"]["members"]]
    }
    candidates = sorted(in_battle - {DRAGON, opponent}, key=lambda p: (prosperity[p], index[p]))
    return Sweep(
        opponent=opponent,
        dragon_allies=dragon_allies,
        opponent_allies=opponent_allies,
        candidates=candidates,
        twice=sorted(set(dragon_allies) | set(opponent_allies), key=candidates.index),
        highest={p: highest(own.get(p, [])) for p in in_battle},
        dragon_dice=highest(own.get(DRAGON, [])),
    )


def _sweep_odds(
    req: BattleRequest, shape: BattleResult, own: dict[str, Dice], sides: int
) -> SweepOdds:
    """P(triggered), P(sweep) and the sweep sizes (DRG-11; docs/odds.md, "How the numbers are
    made")."""
    sw = sweep_of(req, shape, own)
    opponent, dragon_allies, opponent_allies = sw.opponent, sw.dragon_allies, sw.opponent_allies
    candidates, twice, highest, dragon_dice = sw.candidates, sw.twice, sw.highest, sw.dragon_dice
    triggered = Fraction(0)
    sizes: dict[int, Fraction] = {}
    for values, weight in _joint([highest[p] for p in twice]):
        fixed = dict(zip(twice, values, strict=True))
        ally_top = max([fixed[p] for p in dragon_allies], default=0)
        opp = _max_with(highest[opponent], max([fixed[p] for p in opponent_allies], default=0))
        steps = [{fixed[c]: Fraction(1)} if c in fixed else highest[c] for c in candidates]
        for v in range(1, sides + 1):
            trigger = weight * sum((p for h, p in dragon_dice.items() if h <= v), Fraction(0))
            if v < ally_top or not trigger:
                continue
            triggered += trigger / sides
            for size, p in _taken(v, opp, steps).items():
                sizes[size] = sizes.get(size, Fraction(0)) + trigger / sides * p
    swept = sum((p for n, p in sizes.items() if n > 1), Fraction(0))
    return {
        "opponent": opponent,
        "triggered": prob(triggered),
        "sweep": prob(swept),
        "sizes": [{"value": n, "p": prob(p)} for n, p in sorted(sizes.items()) if n > 1 and p],
    }


def _joint(dists: list[dict[int, Fraction]]) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every joint value of independent distributions, with its probability (as many as the
    product of their sizes: ``rules.dragon.budget`` counts them first)."""
    return [
        (tuple(v for v, _ in combo), prod((p for _, p in combo), start=Fraction(1)))
        for combo in itertools.product(*(d.items() for d in dists))
    ]


def _max_with(d: dict[int, Fraction], floor: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for v, p in d.items():
        w = max(v, floor)
        out[w] = out.get(w, Fraction(0)) + p
    return out


def _taken(
    v: int, opponent: dict[int, Fraction], steps: list[dict[int, Fraction]]
) -> dict[int, Fraction]:
    """P(the sweep takes n entities) for dragon die ``v``: n = 1 + the candidates added while ``v``
    stays above the running sum (n = 1: nothing added, no sweep)."""
    running = opponent
    out: dict[int, Fraction] = {}
    for n, step in enumerate(steps, start=1):
        nxt: dict[int, Fraction] = {}
        stopped = Fraction(0)
        for r, p in running.items():
            for h, q in step.items():
                if r + h < v:
                    nxt[r + h] = nxt.get(r + h, Fraction(0)) + p * q
                else:
                    stopped += p * q
        if stopped:
            out[n] = stopped
        running = nxt
        if not running:
            return out
    rest = sum(running.values(), Fraction(0))
    if rest:
        out[len(steps) + 1] = rest
    return out
