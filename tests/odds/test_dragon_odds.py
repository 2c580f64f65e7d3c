"""Dragon odds against brute-force enumeration: every die of small rounds (up to 3 dice a side)
through the engine's own ``battle``, with joined allies and the dragon die's sweep."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import prod
from typing import Any

from rules.dice import DiceSource
from rules.dragon import odds
from rules.dragon.battle import battle
from rules.dragon.models import BattleRequest
from rules.dragon.system import VILLAGE
from tests.conftest import Api
from tests.odds.oracles import exact


def _every_roll(
    body: dict[str, Any], slots: dict[str, tuple[int, int]]
) -> list[tuple[Fraction, Any]]:
    """Every resolution of ``body`` with each slot's (sides, count) dice scripted in every way."""
    req = BattleRequest(**body)
    names = list(slots)
    out = []
    per_slot = [itertools.product(range(1, s + 1), repeat=c) for s, c in slots.values()]
    weight = Fraction(1, prod(s**c for s, c in slots.values()))
    for values in itertools.product(*per_slot):
        script = {n: list(v) for n, v in zip(names, values, strict=True)}
        out.append((weight, battle(req, DiceSource("x", script, None))))
    return out


def _pair_tally(results: list[tuple[Fraction, Any]], n: int) -> dict[str, Counter[Any]]:
    tally: dict[str, Counter[Any]] = {"winner": Counter(), "a": Counter(), "b": Counter()}
    for w, r in results:
        pair = r["pairs"][n]
        key = "interrupted" if pair["interrupted"] else pair["winner"]
        tally["winner"][key] += w
        if pair["winner"] == pair["a"]:
            tally["a"][pair["successes"]] += w
        elif pair["winner"] == pair["b"]:
            tally["b"][pair["successes"]] += w
    return tally


def test_pairs_with_a_joined_ally_agree_with_every_roll() -> None:
    body = {
        "dragon": {"age": 1, "battle": 2, "target": "tribe"},
        "entities": [
            {
                "id": "tribe",
                "controller": "gm",
                "kind": "group",
                "prosperity": 3,
                "level": 1,
                "die": 3,
                "target": "dragon",
            },
            {
                "id": "wolves",
                "controller": "player",
                "kind": "group",
                "prosperity": 1,
                "level": 1,
                "die": 2,
                "if_left_over": "join:dragon",
            },
        ],
    }
    answer = odds.battle_odds(odds.BattleOddsRequest(**body))
    results = _every_roll(
        body, {"pool.dragon": (8, 2), "pool.tribe": (3, 3), "pool.wolves": (2, 1)}
    )
    tally = _pair_tally(results, 0)
    (pair,) = answer["pairs"]
    assert pair["a_members"] == ["dragon", "wolves"]
    assert exact(pair["a_wins"]) == tally["winner"]["dragon"]
    assert exact(pair["b_wins"]) == tally["winner"]["tribe"]
    assert exact(pair["interrupted"]) == tally["winner"]["interrupted"]
    assert exact(pair["a_wins"]) + exact(pair["b_wins"]) + exact(pair["interrupted"]) == 1
    assert {e["value"]: exact(e["p"]) for e in pair["a_successes"]} == dict(tally["a"])
    assert {e["value"]: exact(e["p"]) for e in pair["b_successes"]} == dict(tally["b"])
    assert answer["sweep"] is None


def test_the_sweep_agrees_with_every_roll() -> None:
    body = {
        "dragon": {"age": 1, "battle": 1, "dragon_die": True, "target": "tribe"},
        "entities": [
            {
                "id": "tribe",
                "controller": "gm",
                "kind": "group",
                "prosperity": 2,
                "level": 1,
                "die": 3,
                "target": "dragon",
            },
            {
                "id": "wolves",
                "controller": "player",
                "kind": "group",
                "prosperity": 1,
                "level": 1,
                "die": 2,
                "target": "hero",
            },
            {
                "id": "hero",
                "controller": "gm",
                "kind": "individual",
                "prosperity": 1,
                "level": 1,
                "die": 2,
                "target": "wolves",
            },
        ],
    }
    answer = odds.battle_odds(odds.BattleOddsRequest(**body))
    slots = {
        "pool.dragon": (8, 1),
        "dragon_die": (12, 1),
        "pool.tribe": (3, 2),
        "pool.hero": (2, 1),
        "pool.wolves": (2, 1),
    }
    results = _every_roll(body, slots)
    sizes: Counter[int] = Counter()
    triggered = Fraction(0)
    for w, r in results:
        sizes[len(r["sweep"])] += w
        triggered += w if r["sweep_detail"]["triggered"] else 0
    sweep = answer["sweep"]
    assert sweep is not None
    assert exact(sweep["triggered"]) == triggered
    assert exact(sweep["sweep"]) == 1 - sizes[0]
    assert {e["value"]: exact(e["p"]) for e in sweep["sizes"]} == {
        n: p for n, p in sizes.items() if n
    }
    dragon_pair = _pair_tally(results, 0)
    assert exact(answer["pairs"][0]["a_wins"]) == dragon_pair["winner"]["dragon"]


def test_http_contract(api: Api) -> None:
    body = VILLAGE
    first = api.post("/dragon/odds", json=body)
    assert first.status_code == 200, first.text
    assert api.post("/dragon/odds", json=body).content == first.content
    assert api.post("/dragon/odds", json={**body, "seed": 3}).status_code == 422
