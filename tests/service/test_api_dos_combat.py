"""/dos/actions, /dos/initiative, /dos/attack, /dos/damage, /dos/maneuver, /dos/turn over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Api, assert_problem
from tests.rules.dos.test_combat_turn import EXAMPLE_6_DICE, big_turn, ignatius, kobold

IGNATIUS = {"dexterity": 25, "strength": 18, "skill": 2, "weapon": {"kind": "melee", "damage": 5}}
KOBOLD = {"dexterity": 9, "block": 1, "hp": 12, "max_hp": 12}
ENVELOPE = {"seed", "rng", "rolls", "unused_dice", "events"}


def ok(api: Api, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = api.post(path, body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    assert out.keys() >= ENVELOPE
    assert all(e["text"] for e in out["events"])
    return out


def test_actions_contract(api: Api) -> None:
    body = ok(
        api,
        "/dos/actions",
        {
            "combatants": [
                {"id": "ignatius", "speed": 32, "opponents": ["kobold"]},
                {"id": "kobold", "speed": 9, "opponents": ["ignatius"]},
            ]
        },
    )
    assert [{"id": a["id"], "actions": a["actions"]} for a in body["actions"]] == [
        {"id": "ignatius", "actions": 3},
        {"id": "kobold", "actions": 1},
    ]
    assert body["rolls"] == []


def test_initiative_contract_example_5(api: Api) -> None:
    body = ok(
        api,
        "/dos/initiative",
        {
            "combatants": [
                {"id": i, "speed": s}
                for i, s in [("Sarathi", 12), ("Lethi", 9), ("k1", 9), ("k2", 9), ("k3", 9)]
            ],
            "first": [],
            "dice": {
                "initiative.k1": [5, 3],
                "initiative.k2": [8],
                "initiative.k3": [3],
                "initiative.Sarathi": [8],
                "initiative.Lethi": [5, 10],
            },
        },
    )
    assert body["order"] == ["Sarathi", "k2", "Lethi", "k1", "k3"]
    lethi = body["entries"][1]
    assert lethi == {
        "id": "Lethi",
        "placed": False,
        "roll": 5,
        "total": 14,
        "rerolls": [{"roll": 10, "total": 19}],
    }


def test_attack_contract_example_6(api: Api) -> None:
    first = ok(
        api,
        "/dos/attack",
        {"attacker": IGNATIUS, "defender": KOBOLD, "dice": {"attack": [6, 8], "defense": [10, 8]}},
    )
    assert {"hit", "attack", "defense", "damage", "location", "defender"} <= first.keys()
    assert first["hit"] is False and first["defense"]["kind"] == "block"
    assert (first["attack"]["total"], first["defense"]["total"]) == (39, 27)
    assert first["attack"]["roll"]["dice"] and first["defense"]["roll"]["luck"] is True
    second = ok(
        api,
        "/dos/attack",
        {
            "attacker": IGNATIUS,
            "defender": first["defender"],
            "dice": {"attack": [4, 9], "defense": [4], "location": [6], "damage": [5]},
        },
    )
    assert second["hit"] is True
    assert second["damage"] == {
        "die": 5,
        "percent": 90,
        "base": 23,
        "halved": False,
        "armor": 0,
        "amount": 20,
        "kind": "serious",
        "applied_as": "serious",
    }
    assert second["location"] == "torso"
    d = second["defender"]
    assert (
        d["blocks_used"],
        d["hp"],
        d["incapacitated"],
        d["critical"],
        d["running"],
        d["stopped"],
    ) == (2, 0, True, False, False, False)
    third = ok(
        api,
        "/dos/attack",
        {
            "attacker": IGNATIUS,
            "defender": {**KOBOLD, "blocks_used": 2},
            "dice": {"attack": [1, 1], "damage": [9]},
        },
    )
    assert (third["hit"], third["defense"], third["damage"]) == (False, None, None)
    assert third["unused_dice"] == {"damage": [9]}


def test_damage_contract_example_7(api: Api) -> None:
    body = ok(
        api,
        "/dos/damage",
        {
            "strength": 18,
            "weapon": {"kind": "melee", "damage": 5},
            "armor": 0,
            "target": {"hp": 12, "max_hp": 12, "incapacitated": False},
            "dice": {"damage": [5]},
        },
    )
    assert (body["die"], body["percent"], body["amount"], body["kind"]) == (5, 90, 20, "serious")
    assert body["target"] == {
        "hp": 0,
        "max_hp": 12,
        "incapacitated": True,
        "critical": False,
        "beaten": False,
        "name": None,
        "gender": None,
    }
    gm = ok(api, "/dos/damage", {"amount": 4, "kind": "light", "target": {"hp": 0}})
    assert (gm["die"], gm["applied_as"], gm["target"]["incapacitated"]) == (None, "serious", True)


def test_maneuver_contract(api: Api) -> None:
    side = {"dexterity": 10, "strength": 12, "unarmed": 1, "dodge": 1}
    body = ok(
        api, "/dos/maneuver", {"kind": "grab", "a": side, "b": side, "dice": {"a": [8], "b": [3]}}
    )
    assert body["winner"] == "a" and body["success"] is True
    assert (body["a"]["total"], body["b"]["total"]) == (18, 13)


def test_turn_contract(api: Api) -> None:
    body = ok(
        api,
        "/dos/turn",
        {
            "combatants": [
                ignatius(declare=[{"action": "attack", "target": "k1", "count": 3}]),
                kobold(declare=[{"action": "attack", "target": "ignatius"}]),
            ],
            "order": ["ignatius", "k1"],
            "dice": {k: v for k, v in EXAMPLE_6_DICE.items() if not k.startswith("ignatius.3")},
        },
    )
    assert body["order"] == ["ignatius", "k1"] and body["initiative"] is None
    assert [r["skipped"] for r in body["results"]] == [
        None,
        None,
        "target_incapacitated",
        "incapacitated",
    ]
    k1 = body["combatants"][1]
    assert (k1["hp"], k1["incapacitated"], k1["blocks_used"]) == (0, True, 2)


@pytest.mark.parametrize(
    ("path", "body", "loc", "word"),
    [
        (
            "/dos/actions",
            {"combatants": [{"id": "a", "speed": 3, "opponents": ["zz"]}]},
            ["body", "combatants", 0, "opponents", 0],
            "zz",
        ),
        (
            "/dos/actions",
            {"combatants": [{"id": "a", "speed": 3}, {"id": "a", "speed": 4}]},
            ["body", "combatants", 1, "id"],
            "duplicate",
        ),
        (
            "/dos/actions",
            {"combatants": [{"id": "a", "speed": -3}]},
            ["body", "combatants", 0, "speed"],
            "greater",
        ),
        (
            "/dos/initiative",
            {"combatants": [{"id": "a", "speed": 3}], "first": ["b"]},
            ["body", "first", 0],
            "'b'",
        ),
        (
            "/dos/attack",
            {"attacker": IGNATIUS, "defender": {**KOBOLD, "blocks_used": 2}, "defense": "block"},
            ["body", "defense"],
            "no block left",
        ),
        (
            "/dos/attack",
            {"attacker": IGNATIUS, "defender": KOBOLD, "defense": "dodge"},
            ["body", "defense"],
            "no dodge left",
        ),
        (
            "/dos/attack",
            {
                "attacker": {**IGNATIUS, "weapon": {"kind": "thrown", "damage": 1}},
                "defender": KOBOLD,
            },
            ["body", "ranged"],
            "ranged",
        ),
        (
            "/dos/attack",
            {"attacker": IGNATIUS, "defender": {**KOBOLD, "blocks_used": 5}},
            ["body", "defender"],
            "blocks_used",
        ),
        ("/dos/damage", {"target": {"hp": 3}}, ["body"], "either"),
        (
            "/dos/turn",
            {"combatants": [ignatius(declare=[{"action": "attack", "target": "k7"}]), kobold()]},
            ["body", "combatants", 0, "declare", 0, "target"],
            "ignatius",
        ),
        (
            "/dos/turn",
            {
                "combatants": [
                    ignatius(declare=[{"action": "attack", "target": "k1", "count": 5}]),
                    kobold(),
                ]
            },
            ["body", "combatants", 0, "declare"],
            "has 3",
        ),
        (
            "/dos/turn",
            {"combatants": [ignatius(), ignatius()]},
            ["body", "combatants", 1, "id"],
            "duplicate",
        ),
        (
            "/dos/turn",
            {"combatants": [ignatius(speed=-1)]},
            ["body", "combatants", 0, "speed"],
            "combatant 'ignatius': Input should be greater",
        ),
        (
            "/dos/turn",
            {"combatants": [ignatius(), kobold(declare=[{"action": "flee"}])]},
            ["body", "combatants", 1, "declare", 0, "action"],
            "combatant 'k1'",
        ),
        (
            "/dos/actions",
            {"combatants": [{"id": "gob", "speed": 0}]},
            ["body", "combatants", 0, "speed"],
            "combatant 'gob'",
        ),
        (
            "/dos/turn",
            {"combatants": [ignatius(), kobold()], "dice": {"k1.1.attack": [3]}},
            ["body", "dice", "k1.1.attack"],
            "no dice",
        ),
    ],
)
def test_bad_inputs_are_problems_naming_the_culprit(
    api: Api, path: str, body: dict[str, Any], loc: list[Any], word: str
) -> None:
    problem = assert_problem(api.post(path, body), 422)
    assert problem["errors"][0]["loc"] == loc, problem
    assert word in problem["errors"][0]["msg"] + problem["detail"], problem


def test_turn_of_100_combatants(api: Api) -> None:
    # Its speed is measured by `make bench` (timed assertions in tests only measure the machine).
    r = api.post("/dos/turn", big_turn(3))
    assert r.status_code == 200, r.text
    assert len(r.json()["combatants"]) == 100


def test_turn_same_request_same_bytes_and_replay(api: Api) -> None:
    body = big_turn(11, 10)
    del body["seed"]
    first = api.post("/dos/turn", body)
    seed = first.json()["seed"]
    again = api.post("/dos/turn", {**body, "seed": seed})
    assert again.content == first.content


attack_case = st.fixed_dictionaries(
    {
        "dex": st.integers(0, 40),
        "block": st.integers(0, 3),
        "dodge": st.integers(0, 3),
        "used": st.integers(0, 4),
        "skill": st.integers(0, 3),
        "defense": st.sampled_from(["auto", "block", "dodge", "none"]),
        "running": st.booleans(),
        "seed": st.integers(0, 2**32),
    }
)


@settings(max_examples=25, deadline=None)
@given(attack_case)
def test_attack_never_500_and_deterministic(api: Api, case: dict[str, Any]) -> None:
    block, dodge = case["block"], case["dodge"]
    body = {
        "attacker": {**IGNATIUS, "skill": case["skill"]},
        "defender": {
            "dexterity": case["dex"],
            "block": block,
            "dodge": dodge,
            "blocks_used": min(case["used"], block + 1),
            "hp": 10,
            "running": case["running"],
        },
        "defense": case["defense"],
        "seed": case["seed"],
    }
    r = api.post("/dos/attack", body)
    if r.status_code != 200:
        assert_problem(r, 422, "invalid-request")
        return
    d = r.json()["defender"]
    assert d["blocks_used"] <= block + 1 and d["dodges_used"] <= dodge and d["hp"] >= 0
    assert api.post("/dos/attack", body).content == r.content
