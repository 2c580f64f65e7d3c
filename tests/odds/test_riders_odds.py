"""Riders odds against brute-force enumeration of every roll-off and item die through the engine's
own ``resolve_combat`` (``auto``: the side behind plays its counter item, RDR-9)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from rules.dice import DiceSource
from rules.riders import odds
from rules.riders.combat import resolve_combat
from rules.riders.models import CombatRequest
from tests.conftest import Api
from tests.odds.oracles import exact

FIRE = {"id": "red", "element": "fire", "terrain_bonus": 1}
WATER = {
    "id": "blue",
    "element": "water",
    "fatigue": 1,
    "riders": [{"id": "r1", "bonuses": {"fire": 2}}],
    "items": [{"id": "spear", "name": "Spear", "timing": "pre", "bonus": -1}],
}


def _every(body: dict[str, Any], slots: dict[str, tuple[int, int]]) -> list[tuple[Fraction, Any]]:
    req = CombatRequest(**body)
    out = []
    combos = [itertools.product(range(1, s + 1), repeat=c) for s, c in slots.values()]
    weight = Fraction(1)
    for s, c in slots.values():
        weight /= s**c
    for values in itertools.product(*combos):
        script = {name: list(v) for name, v in zip(slots, values, strict=True)}
        out.append((weight, resolve_combat(req, DiceSource("x", script, None))))
    return out


@pytest.mark.parametrize("holder", ["initiator", "defender"])
def test_rolloff_and_a_counter_item_agree_with_every_roll(holder: str) -> None:
    counter = {"id": "wand", "name": "Wand", "timing": "counter", "bonus": 1, "dice": "1d2"}
    ini, dfd = dict(FIRE), dict(WATER)
    target = ini if holder == "initiator" else dfd
    target["items"] = [*target.get("items", []), counter]
    body = {"initiator": ini, "defender": dfd, "auto": True}
    answer = odds.combat_odds(odds.CombatOddsRequest(**body))
    results = _every(
        body, {"rolloff.initiator": (6, 2), "rolloff.defender": (6, 2), "item.wand": (2, 1)}
    )
    presumptive = sum((w for w, r in results if r["presumptive_loser"] == "initiator"), Fraction(0))
    final = sum((w for w, r in results if r["winner"] == holder), Fraction(0))
    assert exact(answer["defender_wins"]) == presumptive
    assert exact(answer["initiator_wins"]) + exact(answer["defender_wins"]) == 1
    (item,) = answer["counters"]
    ahead = answer["initiator_wins"] if holder == "initiator" else answer["defender_wins"]
    assert exact(ahead) + exact(item["turns"]) == final
    assert exact(item["given_behind"]) == exact(item["turns"]) / (1 - exact(ahead))


def test_http_contract(api: Api) -> None:
    body = {"initiator": FIRE, "defender": WATER}
    first = api.post("/riders/odds", json=body)
    assert first.status_code == 200, first.text
    assert api.post("/riders/odds", json=body).content == first.content
    assert api.post("/riders/odds", json={**body, "dice": {}}).status_code == 422
    big = {**FIRE, "items": [{"id": "x", "name": "X", "timing": "counter", "dice": "100d1000"}]}
    r = api.post("/riders/odds", json={"initiator": big, "defender": WATER})
    assert r.status_code == 422 and r.json()["type"].endswith("/limit-exceeded")
