"""Exact odds against icepool 2.1, wherever icepool can state the rule (STYLE 12; issue 18): DoS
pools of several sizes (the multiset of base dice, the rule applied at the end, chains with
``explode``), dragon pairs' winners and successes for several die mixes, 5e checks with advantage
or disadvantage and attacks' damage for several weapons."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from rules.dnd5e import odds as dnd5e
from rules.dos.poolodds import pool_odds
from rules.dragon.odds import pair_odds
from tests.odds.oracles import exact

#: icepool's ``explode(depth=1)`` stops a chain after one extra die, so a cut roll holds a surviving
#: 10 and an extra 10 at least: every result below 30 is complete.
COMPLETE = 30


class CancelHighest(icepool.MultisetEvaluator):  # type: ignore[misc]
    """DOS-2, DOS-5, DOS-6 in icepool: the multiset of base dice, the rule applied at the end."""

    def next_state(self, state: Any, order: Any, outcome: int, count: int) -> Any:
        return (state or ()) + ((outcome, count),)

    def final_outcome(self, state: Any, *_: Any) -> Any:
        counts = dict(state or ())
        n = sum(counts.values())
        ones, tens = counts.get(1, 0), counts.get(10, 0)
        if ones > n - ones:
            return icepool.Die([("bad_luck", 0)])
        others = sorted((v for v, c in counts.items() if v != 1 for _ in range(c)), reverse=True)
        kept = others[ones:]
        surviving = kept.count(10)
        flag = "luck" if tens > n - tens else "none"
        chains = surviving @ icepool.d10.explode(depth=1) if surviving else icepool.Die([0])
        return chains.map(lambda c: (flag, sum(kept) + ones + c))


@pytest.mark.parametrize("n", [1, 3, 5, 6])
def test_dos_pool_agrees_with_icepool(n: int) -> None:
    die = CancelHighest().evaluate(icepool.d10.pool(n))
    odds = pool_odds(n)
    parts = dict(zip(("none", "luck", "bad_luck"), odds.flags(), strict=True))
    for (flag, v), q in die.items():
        if v < COMPLETE:
            p = Fraction(parts[flag].counts.get(v, 0), odds.denominator)
            assert p == Fraction(q, die.denominator()), (flag, v)


def _pair(a: list[int], b: list[int]) -> icepool.Die:
    """(winner, successes) of a dragon pair (DRG-9, DRG-10): the higher highest die wins, with
    one success per die above the loser's highest; equal highest dice interrupt."""

    def decide(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[str, int]:
        if max(x) == max(y):
            return ("interrupted", 0)
        if max(x) > max(y):
            return ("a", sum(1 for v in x if v > max(y)))
        return ("b", sum(1 for v in y if v > max(x)))

    pools = [icepool.Pool([icepool.Die(range(1, s + 1)) for s in side]) for side in (a, b)]
    return icepool.map(decide, pools[0].expand(), pools[1].expand())


@pytest.mark.parametrize(
    ("a", "b"), [([8, 8, 8], [6, 6]), ([8, 8, 12], [6, 6, 6]), ([20], [4, 4, 4]), ([6], [6])]
)
def test_dragon_pair_agrees_with_icepool(a: list[int], b: list[int]) -> None:
    die = _pair(a, b)
    answer = pair_odds(
        [(s, a.count(s)) for s in sorted(set(a))], [(s, b.count(s)) for s in sorted(set(b))]
    )
    p = {k: Fraction(q, die.denominator()) for k, q in die.items()}
    assert exact(answer["interrupted"]) == p.get(("interrupted", 0), 0)
    for side in ("a", "b"):
        wins = {v: q for (w, v), q in p.items() if w == side}
        assert exact(answer[f"{side}_wins"]) == sum(wins.values(), Fraction(0))  # type: ignore[literal-required]
        assert {e["value"]: exact(e["p"]) for e in answer[f"{side}_successes"]} == wins  # type: ignore[literal-required]


KEPT = {
    "": icepool.d20,
    "advantage": icepool.d20.highest(2, 1),
    "disadvantage": icepool.d20.lowest(2, 1),
}


@pytest.mark.parametrize("edge", sorted(KEPT))
@pytest.mark.parametrize(("modifier", "dc"), [(3, 15), (-1, 8), (7, 25)])
def test_dnd5e_check_agrees_with_icepool(edge: str, modifier: int, dc: int) -> None:
    body = {"modifier": modifier, "dc": dc, **({edge: True} if edge else {})}
    answer = dnd5e.check_odds(dnd5e.CheckOddsRequest(**body))
    kept = KEPT[edge]
    assert exact(answer["success"]) == Fraction((kept + modifier >= dc).probability(True))
    assert {e["value"]: exact(e["p"]) for e in answer["natural"]["result"]} == {
        v: Fraction(q, kept.denominator()) for v, q in kept.items()
    }


@pytest.mark.parametrize(
    ("formula", "dice", "attack"),
    [
        ("1d8+3", (1, 8, 3), (5, 15, "")),
        ("2d6+3", (2, 6, 3), (4, 12, "advantage")),
        ("1d12", (1, 12, 0), (2, 18, "disadvantage")),
    ],
)
def test_dnd5e_damage_agrees_with_icepool(
    formula: str, dice: tuple[int, int, int], attack: tuple[int, int, str]
) -> None:
    """D5E-11, D5E-12: a natural 20 hits with the dice doubled, a natural 1 misses, else the
    total against the AC; a miss deals 0 (a target with hp to spare: no other rule applies)."""
    (count, sides, modifier), (bonus, ac, edge) = dice, attack
    body = {
        "attack_bonus": bonus,
        "damage": [{"dice": formula, "type": "slashing"}],
        "target": {"ac": ac, "hp": 500, "max_hp": 500},
        **({edge: True} if edge else {}),
    }
    answer = dnd5e.attack_odds(dnd5e.AttackOddsRequest(**body))
    hit = (count @ icepool.Die(range(1, sides + 1))) + modifier
    crit = (2 * count @ icepool.Die(range(1, sides + 1))) + modifier

    def damage(natural: int) -> Any:
        if natural == 20:
            return crit
        return hit if natural != 1 and natural + bonus >= ac else icepool.Die([0])

    dealt = KEPT[edge].map(damage)
    assert {e["value"]: exact(e["p"]) for e in answer["damage"]["result"]} == {
        v: Fraction(q, dealt.denominator()) for v, q in dealt.items()
    }
