"""/dnd5e/* over HTTP: contract fields, determinism, replay and bad input as problem+json."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Api, assert_problem

ATTACK: dict[str, Any] = {
    "attack_bonus": 5,
    "damage": [{"dice": "1d8+3", "type": "slashing"}, {"dice": "2d6", "type": "fire"}],
    "target": {"ac": 15, "hp": 12, "max_hp": 30, "temp_hp": 3, "resistances": ["fire"]},
}
AMBUSH: dict[str, Any] = {
    "combatants": [
        {"id": "fighter", "side": "players", "dex_mod": 1, "passive_perception": 12},
        {"id": "ranger", "side": "players", "dex_mod": 3, "passive_perception": 16},
        {"id": "g1", "side": "gm", "dex_mod": 2, "group": "goblins", "hiding": {"stealth_mod": 6}},
        {"id": "g2", "side": "gm", "dex_mod": 2, "group": "goblins", "hiding": {"stealth_mod": 6}},
    ],
}


def test_initiative_contract(api: Api) -> None:
    r = api.post(
        "/dnd5e/initiative",
        AMBUSH
        | {
            "dice": {
                "stealth.g1": [9],
                "stealth.g2": [8],
                "initiative.fighter": [14],
                "initiative.ranger": [10],
                "initiative.goblins": [11],
                "tiebreak.fighter": [3],
                "tiebreak.ranger": [17],
                "tiebreak.goblins": [5],
            }
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"seed", "rng", "rolls", "unused_dice", "events", "order", "surprised"} <= body.keys()
    assert [{k: e[k] for k in ("id", "members", "total")} for e in body["order"]] == [
        {"id": "fighter", "members": ["fighter"], "total": 15},
        {"id": "ranger", "members": ["ranger"], "total": 13},
        {"id": "goblins", "members": ["g1", "g2"], "total": 13},
    ]
    assert [e["tiebreak"] for e in body["order"]] == [[], [17], [5]]
    # goblins 15 and 14 against the fighter's 12 and the ranger's 16
    assert body["surprised"] == ["fighter"]
    assert body["unused_dice"] == {"tiebreak.fighter": [3]}


def test_initiative_tie_rolls(api: Api) -> None:
    r = api.post(
        "/dnd5e/initiative",
        {
            "combatants": [
                {"id": "a", "side": "players", "dex_mod": 0},
                {"id": "b", "side": "gm", "dex_mod": 0},
            ],
            "dice": {
                "initiative.a": [5],
                "initiative.b": [5],
                "tiebreak.a": [2],
                "tiebreak.b": [9],
            },
        },
    )
    body = r.json()
    assert [(e["id"], e["tiebreak"]) for e in body["order"]] == [("b", [9]), ("a", [2])]


def test_turn_contract(api: Api) -> None:
    r = api.post(
        "/dnd5e/turn",
        {
            "speed": 30,
            "steps": [
                {"kind": "move", "feet": 10},
                {"kind": "bonus_action", "name": "hide"},
                {"kind": "interaction", "object": "door"},
                {"kind": "interaction", "object": "torch"},
            ],
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["valid"] is False
    assert [(v["rule"], v["step"], v["code"]) for v in body["violations"]] == [
        ("D5E-9", 1, "bonus_action_not_granted"),
        ("D5E-9", 3, "second_interaction"),
    ]
    assert body["rolls"] == []


def test_check_contract(api: Api) -> None:
    r = api.post(
        "/dnd5e/check",
        {"modifier": 4, "dc": 15, "advantage": True, "disadvantage": 2, "dice": {"d20": [11]}},
    )
    body = r.json()
    assert (body["d20s"], body["total"], body["success"]) == ([11], 15, True)


def test_attack_contract(api: Api) -> None:
    r = api.post(
        "/dnd5e/attack",
        ATTACK | {"dice": {"attack": [20], "damage.0": [8, 8], "damage.1": [6, 6, 6, 6]}},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["hit"], body["critical"]) == (True, True)
    assert body["attack"]["d20s"] == [20] and body["attack"]["total"] == 25
    # slashing 8 + 8 + 3 = 19; fire 24 halved = 12; 31 damage: 3 temp, 12 hp, 16 left over < 30
    assert body["damage_total"] == 31
    assert body["target"] == {
        "hp": 0,
        "temp_hp": 0,
        "unconscious": True,
        "dead": False,
        "death_save_failures": 0,
        "massive_damage": False,
    }


def test_death_save_contract(api: Api) -> None:
    body = api.post("/dnd5e/death-save", {"failures": 2, "dice": {"d20": [1]}}).json()
    assert (body["d20s"], body["failures"], body["dead"]) == ([1], 3, True)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/dnd5e/attack", ATTACK),
        ("/dnd5e/initiative", AMBUSH),
        ("/dnd5e/check", {"modifier": 1, "dc": 12, "advantage": 1}),
        ("/dnd5e/death-save", {"successes": 1}),
    ],
)
def test_same_request_same_seed_same_bytes(api: Api, path: str, body: dict[str, Any]) -> None:
    req = body | {"seed": "Mordenkainen"}
    first = api.post(path, req)
    assert first.status_code == 200, first.text
    assert first.content == api.post(path, req).content
    unseeded = api.post(path, body).json()
    replay = api.post(path, body | {"seed": unseeded["seed"]}).json()
    assert replay == unseeded


@pytest.mark.parametrize(
    ("dice", "msg"),
    [
        ("12d", "damage.0.dice: at position 4: expected the number of sides after 'd'"),
        ("2d6+", "damage.0.dice: at position 5: expected a dice term (such as 2d6) or a number"),
        ("101d6", "damage.0.dice: at position 1: a dice term rolls 1 to 100 dice, not 101"),
        ("1d1001", "damage.0.dice: at position 3: a die's sides is 2 to 1,000, not 1001"),
        ("1d6; import os", "damage.0.dice: at position 4: expected '+', '-' or the end, found ';'"),
    ],
)
def test_bad_notation_is_a_422_naming_position(api: Api, dice: str, msg: str) -> None:
    body = ATTACK | {"damage": [{"dice": dice, "type": "fire"}]}
    problem = assert_problem(api.post("/dnd5e/attack", body), 422, "validation-error")
    assert problem["detail"].startswith(msg)
    assert problem["errors"][0]["loc"] == ["body", "damage", 0, "dice"]


def test_scripted_die_out_of_range_for_the_part(api: Api) -> None:
    r = api.post("/dnd5e/attack", ATTACK | {"dice": {"attack": [15], "damage.1": [7]}})
    problem = assert_problem(r, 422, "dice-script")
    assert problem["errors"][0]["loc"] == ["body", "dice", "damage.1", 0]


def test_unknown_slot_is_rejected(api: Api) -> None:
    r = api.post("/dnd5e/attack", ATTACK | {"dice": {"damage.2": [1]}})
    assert_problem(r, 422, "dice-script")


def test_inconsistent_initiative(api: Api) -> None:
    body = {"combatants": [{"id": "a", "side": "gm", "dex_mod": 0}] * 2}
    problem = assert_problem(api.post("/dnd5e/initiative", body), 422, "invalid-request")
    assert problem["errors"][0]["loc"] == ["body", "combatants", 1, "id"]


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        (
            "/dnd5e/initiative",
            {"combatants": [{"id": f"c{i}", "side": "gm", "dex_mod": 0} for i in range(101)]},
            ["body", "combatants"],
        ),
        (
            "/dnd5e/attack",
            ATTACK | {"damage": [{"dice": "1d4", "type": "fire"}] * 21},
            ["body", "damage"],
        ),
        ("/dnd5e/check", {"modifier": 1_000_001, "dc": 1}, ["body", "modifier"]),
        ("/dnd5e/check", {"dc": 1, "advantage": 101}, ["body", "advantage"]),
        (
            "/dnd5e/attack",
            ATTACK | {"damage": [{"dice": "1d4", "type": "psionic"}]},
            ["body", "damage", 0, "type"],
        ),
        ("/dnd5e/death-save", {"failures": 3}, ["body", "failures"]),
        ("/dnd5e/turn", {"speed": 30, "steps": [{"kind": "fly"}]}, ["body", "steps", 0]),
    ],
)
def test_limits_and_schema(api: Api, path: str, body: dict[str, Any], loc: list[Any]) -> None:
    problem = assert_problem(api.post(path, body), 422, "validation-error")
    assert problem["errors"][0]["loc"][: len(loc)] == loc


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    dice=st.text(alphabet="0123456789d+- ", max_size=12),
    bonus=st.integers(-2_000_000, 2_000_000),
    hp=st.integers(-5, 50),
)
def test_never_a_500(api: Api, dice: str, bonus: int, hp: int) -> None:
    body = {
        "attack_bonus": bonus,
        "damage": [{"dice": dice, "type": "cold"}],
        "target": {"ac": 10, "hp": hp, "max_hp": 20},
    }
    r = api.post("/dnd5e/attack", body)
    assert r.status_code in (200, 422), r.text


def test_endless_tie_is_a_limit_not_a_500(api: Api) -> None:
    body = {
        "combatants": [
            {"id": "a", "side": "gm", "dex_mod": 0},
            {"id": "b", "side": "gm", "dex_mod": 0},
        ],
        "dice": {
            "initiative.a": [5],
            "initiative.b": [5],
            "tiebreak.a": [3] * 1000,
            "tiebreak.b": [3] * 1000,
        },
    }
    assert_problem(api.post("/dnd5e/initiative", body), 422, "limit-exceeded")


def test_readme_examples_hold(api: Api) -> None:
    """The values quoted in docs/systems/dnd5e.md (seeded, so they pin the streams too)."""
    init = api.post(
        "/dnd5e/initiative",
        {
            "seed": "ambush",
            "combatants": [
                {"id": "fighter", "side": "players", "dex_mod": 1, "passive_perception": 12},
                {"id": "rogue", "side": "players", "dex_mod": 4, "passive_perception": 16},
                {
                    "id": "g1",
                    "side": "gm",
                    "dex_mod": 2,
                    "group": "goblins",
                    "hiding": {"stealth_mod": 6},
                },
                {
                    "id": "g2",
                    "side": "gm",
                    "dex_mod": 2,
                    "group": "goblins",
                    "hiding": {"stealth_mod": 6},
                },
            ],
        },
    ).json()
    assert [s["total"] for s in init["stealth"].values()] == [17, 25]
    assert init["surprised"] == ["fighter", "rogue"]
    assert [(e["id"], e["members"], e["total"]) for e in init["order"]] == [
        ("goblins", ["g1", "g2"], 19),
        ("rogue", ["rogue"], 17),
        ("fighter", ["fighter"], 13),
    ]
    check = api.post(
        "/dnd5e/check", {"seed": "lockpick", "modifier": 5, "dc": 15, "advantage": True}
    ).json()
    assert (check["d20s"], check["total"], check["success"]) == ([10, 12], 17, True)
    attack = api.post(
        "/dnd5e/attack",
        {
            "seed": "greataxe",
            "attack_bonus": 5,
            "dice": {"attack": [20]},
            "damage": [{"dice": "1d12+3", "type": "slashing"}, {"dice": "2d6", "type": "fire"}],
            "target": {"ac": 13, "hp": 9, "max_hp": 22, "temp_hp": 2, "resistances": ["fire"]},
        },
    ).json()
    assert [(p["rolls"], p["critical_rolls"], p["total"]) for p in attack["damage"]] == [
        ([2], [2], 7),
        ([1, 6], [2, 2], 11),
    ]
    assert attack["damage_total"] == 12
    assert attack["target"]["hp"] == 0 and attack["target"]["unconscious"] is True
    save = api.post("/dnd5e/death-save", {"seed": "grim", "successes": 1, "failures": 2}).json()
    assert (save["d20s"], save["failures"], save["dead"]) == ([3], 3, True)
