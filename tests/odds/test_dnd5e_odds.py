"""5e odds against brute-force enumeration through the engine: every d20 (pairs with advantage or
disadvantage) and every damage die, each case resolved by ``/dnd5e``'s own resolvers."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rules.dice import DiceSource
from rules.dnd5e import attack as engine
from rules.dnd5e import odds
from rules.dnd5e.models import AttackRequest, CheckRequest
from tests.conftest import Api
from tests.odds.oracles import exact


@pytest.mark.parametrize(
    "edge",
    [{}, {"advantage": True}, {"disadvantage": 2}, {"advantage": True, "disadvantage": True}],
)
@pytest.mark.parametrize("dc", [-5, 2, 14, 23, 30])
def test_check_agrees_with_every_d20(edge: dict[str, Any], dc: int) -> None:
    body = {"modifier": 3, "dc": dc, **edge}
    answer = odds.check_odds(odds.CheckOddsRequest(**body))
    req = CheckRequest(**body)
    two = bool(edge.get("advantage")) != bool(edge.get("disadvantage"))
    cases = list(itertools.product(range(1, 21), repeat=2 if two else 1))
    wins = sum(engine.check(req, DiceSource("x", {"d20": list(c)}, None))["success"] for c in cases)
    assert exact(answer["success"]) == Fraction(wins, len(cases))
    assert exact(answer["success"]) + exact(answer["failure"]) == 1


TARGETS = [
    {"ac": 14, "hp": 9, "max_hp": 9, "monster": True},
    {"ac": 12, "hp": 6, "max_hp": 6, "temp_hp": 3, "resistances": ["fire"]},
    {"ac": 16, "hp": 0, "max_hp": 8, "death_save_failures": 1, "vulnerabilities": ["slashing"]},
    {"ac": 10, "hp": 4, "max_hp": 4, "immunities": ["fire"]},
]


@pytest.mark.parametrize("target", TARGETS)
def test_attack_agrees_with_every_roll(target: dict[str, Any]) -> None:
    body = {
        "attack_bonus": 4,
        "damage": [
            {"dice": "1d4+1", "type": "slashing"},
            {"dice": "1d6-2", "type": "fire"},
            {"dice": "1d3", "type": "fire"},
        ],
        "target": target,
    }
    answer = odds.attack_odds(odds.AttackOddsRequest(**body))
    req = AttackRequest(**body)
    dealt: Counter[int] = Counter()
    hits = crits = drops = dies = Fraction(0)
    for natural in range(1, 21):
        times = 2 if natural == 20 else 1
        for rolls in itertools.product(range(1, 5), range(1, 7), range(1, 4), repeat=times):
            # slot damage.n draws part n's dice, then (critical) again: regroup by part
            script = {f"damage.{n}": list(rolls[n::3]) for n in range(3)}
            p = Fraction(1, 20 * (72**times))
            r = engine.attack(req, DiceSource("x", {"attack": [natural], **script}, None))
            hits += p if r["hit"] else 0
            crits += p if r["critical"] else 0
            dealt[r["damage_total"]] += p
            drops += p if target["hp"] > 0 and r["target"]["hp"] == 0 else 0
            dies += p if r["target"]["dead"] else 0
    assert exact(answer["hit"]) == hits
    assert exact(answer["critical"]) == crits
    assert {v["value"]: exact(v["p"]) for v in answer["damage"]["result"]} == {
        v: p for v, p in dealt.items() if p
    }
    assert exact(answer["drops_to_0"]) == drops
    assert exact(answer["dies"]) == dies


def test_http_contract(api: Api) -> None:
    body = {"attack_bonus": 5, "damage": [{"dice": "100d20", "type": "fire"}], "target": TARGETS[0]}
    r = api.post("/dnd5e/odds/attack", json=body)
    assert r.status_code == 422 and r.json()["type"].endswith("/limit-exceeded")
    r = api.post("/dnd5e/odds/check", json={"modifier": 1, "dc": 10, "dice": {"d20": [3]}})
    assert r.status_code == 422
    good = {**body, "damage": [{"dice": "2d6+1", "type": "fire"}]}
    first = api.post("/dnd5e/odds/attack", json=good)
    assert first.status_code == 200
    assert api.post("/dnd5e/odds/attack", json=good).content == first.content
