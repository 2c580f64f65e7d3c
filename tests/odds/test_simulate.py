"""Simulations: the same request gives the same bytes, every example run replays through the
resolving endpoints with its seed, rates agree with the exact odds, bounds are 422s."""

from __future__ import annotations

import copy
from typing import Any

from rules.dragon.system import VILLAGE
from rules.odds import wilson
from rules.riders.system import DUEL
from tests.conftest import Api
from tests.odds.oracles import exact, within

FIGHT: dict[str, Any] = {
    "seed": "cellar",
    "runs": 40,
    "combatants": [
        {
            "id": "ignatius", "side": "heroes", "speed": 12, "dexterity": 25, "strength": 18,
            "skills": {"weapon": 2, "block": 1}, "weapon": {"kind": "melee", "damage": 5},
            "hp": 30, "declare": [{"action": "attack", "target": "k1"}],
        },
        {
            "id": "k1", "side": "kobolds", "speed": 9, "dexterity": 14, "strength": 10,
            "skills": {"unarmed": 3}, "hp": 12, "declare": [{"action": "attack", "target": "ignatius"}],
        },
        {
            "id": "k2", "side": "kobolds", "speed": 9, "dexterity": 14, "strength": 10,
            "skills": {"unarmed": 3}, "hp": 12, "declare": [{"action": "attack", "target": "ignatius"}],
        },
    ],
}  # fmt: skip


def _replay_dos(api: Api, seed: str, length: int) -> str:
    """Play a DoS run turn by turn through `/dos/turn`, as the simulation documents it."""
    combatants = copy.deepcopy(FIGHT["combatants"])
    order = None
    for t in range(1, length + 1):
        body: dict[str, Any] = {"seed": f"{seed}/{t}", "combatants": combatants}
        if order is not None:
            body["order"] = order
        r = api.post("/dos/turn", json=body).json()
        order = r["order"]
        states = {s["id"]: s for s in r["combatants"]}
        for c in combatants:
            s = states[c["id"]]
            c.update(hp=s["hp"], incapacitated=s["incapacitated"], critical=s["critical"])
        down = {c["id"] for c in combatants if c["incapacitated"]}
        for c in combatants:
            foes = [f["id"] for f in combatants if f["side"] != c["side"] and f["id"] not in down]
            for d in c["declare"]:
                if d["target"] in down and foes:
                    d["target"] = foes[0]
    standing = {c["side"] for c in combatants if not c["incapacitated"]}
    return standing.pop() if len(standing) == 1 else "draw"


def test_dos_runs_replay_through_the_turn_endpoint(api: Api) -> None:
    first = api.post("/dos/simulate", json=FIGHT)
    assert first.status_code == 200, first.text
    assert api.post("/dos/simulate", json=FIGHT).content == first.content
    body = first.json()
    assert sum(o["runs"] for o in body["outcomes"]) == FIGHT["runs"]
    for ex in body["examples"]:
        assert _replay_dos(api, ex["seed"], ex["length"]) == ex["outcome"]


def test_dragon_runs_replay_through_the_battle_endpoint(api: Api) -> None:
    req = {**VILLAGE, "seed": 5, "runs": 60, "rerolls": 1}
    body = api.post("/dragon/simulate", json=req).json()
    for ex in body["examples"]:
        state: dict[str, Any] = dict(VILLAGE)
        for r in range(1, ex["length"] + 1):
            step = {**state, "seed": f"{ex['seed']}/{r}", "continues": r <= 1}
            result = api.post("/dragon/battle", json=step).json()
            state = result["next_state"]
        ending = (
            "dragon_defeated" if result["dragon_defeated"]
            else "dragon_won" if result["hoard"]["dragon_won"] else "not_won"
        )  # fmt: skip
        assert ending == ex["outcome"]
        assert result["battle_ended"]


def test_riders_rates_agree_with_the_exact_odds(api: Api) -> None:
    plain = {"initiator": DUEL["initiator"], "defender": {**DUEL["defender"], "items": []}}
    runs = 400
    sim = api.post("/riders/simulate", json={**plain, "seed": "duel", "runs": runs}).json()
    odds = api.post("/riders/odds", json=plain).json()
    won = next(o for o in sim["outcomes"] if o["outcome"] == "initiator")
    assert within(exact(odds["initiator_wins"]), won["runs"], runs)
    low, high = wilson(won["runs"], runs)
    assert won["ci95"] == [low, high] and low <= won["rate"] <= high
    for ex in sim["examples"]:
        replay = api.post("/riders/combat", json={**plain, "auto": True, "seed": ex["seed"]}).json()
        assert replay["winner"] == ex["outcome"]
        assert len(replay["decisions"]) == ex["length"]


def test_bounds_and_refusals(api: Api) -> None:
    r = api.post("/riders/simulate", json={**DUEL, "runs": 1001})
    assert r.status_code == 422
    r = api.post("/riders/simulate", json={**DUEL, "runs": 3, "dice": {"rolloff.initiator": [1]}})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "dice"]
    heavy = copy.deepcopy(FIGHT)
    heavy["runs"] = 1000
    heavy["max_turns"] = 100
    heavy["combatants"][0]["skills"]["weapon"] = 100
    heavy["combatants"][0]["declare"][0]["count"] = 10
    r = api.post("/dos/simulate", json=heavy)
    assert r.status_code == 422 and r.json()["type"].endswith("/limit-exceeded")
    unseeded = api.post("/riders/simulate", json={**DUEL, "runs": 2}).json()
    assert isinstance(unseeded["seed"], str) and len(unseeded["seed"]) == 32


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert abs(low - 0.4038) < 1e-4 and abs(high - 0.5962) < 1e-4
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
