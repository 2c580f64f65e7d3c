"""DoS odds against oracles: brute-force enumeration through the engine (pools of 0-5 dice, chains
to depth 2), seeded Monte Carlo through the resolvers, and the HTTP contract (exact sums, seed and
dice refused, limits, same request same bytes). icepool: tests/odds/test_icepool.py; 10^6
resolutions: tests/odds/test_monte_carlo.py."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction
from math import factorial
from typing import Any

import pytest

from rules.dice import DiceSource
from rules.dos import checks, combat
from rules.dos import odds as dos
from rules.dos.models import AttackRequest, OpposedRequest, TestRequest
from rules.dos.odds import AttackOddsRequest, OpposedOddsRequest, TestOddsRequest
from rules.dos.pool import roll_pool
from rules.dos.poolodds import pool_odds
from rules.dos.sentences import SENTENCES
from rules.events import EventLog
from tests.conftest import Api
from tests.odds.oracles import RUNS, exact, within

#: Results up to this are complete with chains of at most 2 extra dice: a deeper chain alone adds
#: 10 + 10 + 1 to a surviving 10.
COMPLETE = 30
CHAIN = {v: Fraction(1, 10) for v in range(1, 10)} | {
    10 + v: Fraction(1, 100) for v in range(1, 10)
}


@functools.cache
def brute_pool(n: int) -> Counter[tuple[str, int]]:
    """P(flag, result) by enumeration: every base multiset through the engine's ``roll_pool``, each
    surviving ten's chain by hand to depth 2."""
    out: Counter[tuple[str, int]] = Counter()
    for combo in itertools.combinations_with_replacement(range(1, 11), n):
        weight = Fraction(factorial(n), 10**n)
        for c in Counter(combo).values():
            weight /= factorial(c)
        dice = DiceSource("oracle", {"s": [*combo, *[1] * n]}, None)
        roll = roll_pool(dice, "s", n, EventLog(SENTENCES))
        chains = sum(1 for d in roll["dice"] if d["extra"])
        dist = Counter({roll["result"] - chains: weight})  # each chain's scripted 1 taken off
        for _ in range(chains):
            nxt: Counter[int] = Counter()
            for a, p in dist.items():
                for b, q in CHAIN.items():
                    nxt[a + b] += p * q
            dist = nxt
        flag = "luck" if roll["luck"] else "bad_luck" if roll["bad_luck"] else "none"
        for v, p in dist.items():
            out[(flag, v)] += p
    return out


@pytest.mark.parametrize("n", range(6))
def test_pool_agrees_with_enumeration(n: int) -> None:
    brute = brute_pool(n)
    odds = pool_odds(n)
    for flag, part in zip(("none", "luck", "bad_luck"), odds.flags(), strict=True):
        for v in range(COMPLETE + 1):
            assert Fraction(part.counts.get(v, 0), part.denominator) == brute[(flag, v)], (flag, v)
    assert sum(Fraction(p.mass, p.denominator) for p in odds.flags()) == 1
    assert Fraction(odds.tail, odds.denominator) < Fraction(1, 10**15)


def _sum_is_one(*probs: dict[str, Any]) -> None:
    assert sum(exact(p) for p in probs) == 1


def test_simple_test_outcomes_agree_with_the_engine_at_small_pools() -> None:
    """Failure and bad luck are decided at results below 30: exact against enumeration."""
    for n, stat, dc in ((1, 5, 8), (3, 10, 25), (5, 0, 22)):
        brute = brute_pool(n)
        odds = dos.test_odds(TestOddsRequest(stat=stat, skill=n, dc=dc))
        o = odds["outcomes"]
        _sum_is_one(o["success"], o["failure"], o["luck"], o["bad_luck"])
        fail = sum(p for (f, v), p in brute.items() if f == "none" and stat + v <= dc)
        assert exact(o["failure"]) == fail
        assert exact(o["bad_luck"]) == sum(p for (f, _), p in brute.items() if f == "bad_luck")


def _monte_carlo(resolve: Any, make: Any, runs: int) -> Counter[Any]:
    found: Counter[Any] = Counter()
    for i in range(runs):
        found[resolve(make(), DiceSource(f"mc/{i}", None, None))] += 1
    return found


def test_thirty_dice_test_agrees_with_seeded_monte_carlo() -> None:
    body = {"stat": 10, "skill": 30, "dc": 200, "difficulty": "hard"}
    odds = dos.test_odds(TestOddsRequest(**body))
    found = _monte_carlo(
        lambda r, d: checks.test(r, d)["outcome"], lambda: TestRequest(**body), RUNS
    )
    for name, p in odds["outcomes"].items():
        assert within(exact(p), found[name], RUNS), name


def test_opposed_agrees_with_seeded_monte_carlo() -> None:
    body = {"a": {"stat": 30, "skill": 12}, "b": {"stat": 35, "skill": 10, "difficulty": "easy"}}
    odds = dos.opposed_odds(OpposedOddsRequest(**body))
    _sum_is_one(odds["a_wins"], odds["b_wins"], odds["tie"])
    found = _monte_carlo(
        lambda r, d: checks.opposed(r, d)["winner"], lambda: OpposedRequest(**body), RUNS
    )
    for key, name in (("a", "a_wins"), ("b", "b_wins"), (None, "tie")):
        assert within(exact(odds[name]), found[key], RUNS), name  # type: ignore[literal-required]


ATTACK = {
    "attacker": {
        "dexterity": 25,
        "strength": 18,
        "skill": 20,
        "weapon": {"kind": "melee", "damage": 5},
    },
    "defender": {"dexterity": 30, "block": 15, "hp": 40, "armor": 3},
}


def test_attack_agrees_with_seeded_monte_carlo() -> None:
    odds = dos.attack_odds(AttackOddsRequest(**ATTACK))
    assert odds["defense"] == "block"
    _sum_is_one(odds["hit"], odds["missed"])
    _sum_is_one(*(v["p"] for v in odds["damage"]["result"]))
    results = [
        combat.attack(AttackRequest(**ATTACK), DiceSource(f"mc/{i}", None, None))
        for i in range(RUNS)
    ]
    assert within(exact(odds["hit"]), sum(r["hit"] for r in results), RUNS)
    down = sum(r["defender"]["incapacitated"] for r in results)
    assert within(exact(odds["incapacitated"]), down, RUNS)
    dealt = Counter(r["damage"]["amount"] if r["damage"] else 0 for r in results)
    for entry in odds["damage"]["result"]:
        assert within(exact(entry["p"]), dealt[entry["value"]], RUNS), entry["value"]


def test_ranged_attack_and_no_defense() -> None:
    ranged = {
        "attacker": {"dexterity": 20, "skill": 3, "weapon": {"kind": "shooting", "damage": 12}},
        "defender": {"dexterity": 10, "hp": 5},
        "ranged": {"dc": 30},
    }
    odds = dos.attack_odds(AttackOddsRequest(**ranged))
    test = dos.test_odds(TestOddsRequest(stat=20, skill=3, dc=30))
    assert odds["defense"] is None
    assert exact(odds["hit"]) == exact(test["succeeds"])
    none = {**ATTACK, "defense": "none"}
    odds = dos.attack_odds(AttackOddsRequest(**none))
    assert exact(odds["missed"]) == exact(
        dos.test_odds(TestOddsRequest(stat=0, skill=20, dc=0))["outcomes"]["bad_luck"]
    )


def test_http_contract(api: Api) -> None:
    first = api.post("/dos/odds/attack", json=ATTACK)
    assert first.status_code == 200
    assert api.post("/dos/odds/attack", json=ATTACK).content == first.content
    for extra in ({"seed": "x"}, {"dice": {"attack": [1]}}):
        r = api.post("/dos/odds/test", json={"stat": 1, "skill": 2, "dc": 3, **extra})
        assert r.status_code == 422
        assert r.json()["errors"][0]["loc"] == ["body", next(iter(extra))]
    r = api.post("/dos/odds/test", json={"stat": 1, "skill": 71, "dc": 3})
    assert r.status_code == 422
    assert r.json()["type"].endswith("/limit-exceeded")
    r = api.post("/dos/odds/attack", json={**ATTACK, "ranged": {"dc": 3}})
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == ["body", "ranged"]
