"""DRG-T1..T4: die sizes by age and level (the ladder beyond d20, explicit sizes), change levels."""

from __future__ import annotations

import pytest

from rules.dragon import battle
from rules.dragon.tables import change_level, ladder_die, step_up
from tests.rules.dragon.helpers import dragon, ent, request, run


@pytest.mark.parametrize(("age", "sides"), [(1, 8), (2, 10), (3, 12), (4, 12), (5, 20), (6, 20)])
def test_drg_t1_dragon_dice_by_age(age: int, sides: int) -> None:
    res = run(dragon=dragon("g", age=age, battle=1), entities=[ent("g", prosperity=0)], seed=1)
    pool = res["pools"][0]
    assert (pool["slot"], pool["sides"], len(pool["dice"])) == ("pool.dragon", sides, 1)


@pytest.mark.parametrize(("age", "sides"), [(1, 12), (2, 20), (3, 20), (4, 30), (5, 30), (6, 100)])
def test_drg_t2_dragon_die_by_age(age: int, sides: int) -> None:
    req = request(
        dragon=dragon("g", age=age, battle=1, dragon_die=True), entities=[ent("g", prosperity=0)]
    )
    assert battle.battle_slots(req)["dragon_die"] == sides
    res = run(**req.model_dump(exclude_none=True, exclude={"dice"}), seed=2)
    assert [(p["slot"], p["sides"]) for p in res["pools"]] == [
        ("pool.dragon", [8, 10, 12, 12, 20, 20][age - 1]),
        ("dragon_die", sides),
    ]


@pytest.mark.parametrize(
    ("level", "features", "sides"),
    [
        (1, 0, 4),
        (2, 0, 6),
        (3, 0, 8),
        (4, 0, 10),
        (5, 0, 12),
        (6, 0, 20),
        (6, 1, 30),
        (6, 2, 100),
        (5, 2, 30),
        (1, 1, 6),
        (6, 9, 100),  # past the top of the ladder: stays d100
    ],
)
def test_drg_t3_entity_die_by_level_and_features(level: int, features: int, sides: int) -> None:
    assert ladder_die(level, features) == sides
    req = request(
        dragon=dragon("g"),
        entities=[ent("g", prosperity=1, level=level, level_features=features)],
    )
    assert battle.battle_slots(req)["pool.g"] == sides


def test_drg_t3_explicit_die_size_replaces_the_table() -> None:
    req = request(
        dragon=dragon("g"),
        entities=[
            ent("g", prosperity=2, level=1, level_features=3, die=7),
            ent("h", kind="individual", prosperity=1, level=1, die=7, dragonslayer=True),
        ],
    )
    slots = battle.battle_slots(req)
    assert slots["pool.g"] == 7
    assert slots["slayer.h"] == 8  # one step above d7 is the next ladder size, d8
    res = run(
        **req.model_dump(exclude_none=True, exclude={"dice"}),
        dice={"pool.g": [7, 1], "pool.dragon": [1, 1]},
    )
    assert res["pools"][1]["sides"] == 7 and res["pools"][1]["dice"] == [7, 1]


@pytest.mark.parametrize(
    ("sides", "up"), [(4, 6), (6, 8), (12, 20), (20, 30), (30, 100), (100, 100), (7, 8), (500, 500)]
)
def test_drg_t3_one_step_up_the_ladder(sides: int, up: int) -> None:
    assert step_up(sides) == up


@pytest.mark.parametrize(
    ("result", "level"),
    [
        (1, None),
        (2, None),
        (3, 0),
        (4, 0),
        (5, 1),
        (6, 1),
        (7, 2),
        (10, 2),
        (11, 3),
        (16, 3),
        (17, 4),
        (24, 4),
        (25, 5),
        (30, 5),
        (31, 6),
        (100, 6),
    ],
)
def test_drg_t4_change_levels(result: int, level: int | None) -> None:
    assert change_level(result) == level


def test_slots_list_every_slot_the_request_may_draw_with_its_size() -> None:
    req = request(
        dragon=dragon("g1", age=6, dragon_die=True),
        entities=[
            ent("g1", prosperity=1, level=2, target="dragon"),
            ent("h", kind="individual", level=6, dragonslayer=True),
            ent("m", kind="group", level=6, dragonslayer=True),
            ent("old", aside=True),
        ],
    )
    assert battle.battle_slots(req) == {
        "pool.dragon": 20,
        "dragon_die": 100,
        "pool.g1": 6,
        "pool.h": 20,
        "slayer.h": 30,
        "pool.m": 20,
    }


def test_scripted_dice_of_a_waiting_entity_come_back_unused() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[ent("g1", prosperity=1, target="dragon"), ent("g2", prosperity=1)],
        dice={"pool.dragon": [3, 3], "pool.g1": [1], "pool.g2": [4]},
    )
    assert res["unused_dice"] == {"pool.g2": [4]}
    assert [(r["slot"], r["value"], r["source"]) for r in res["rolls"]] == [
        ("pool.dragon", 3, "dice"),
        ("pool.dragon", 3, "dice"),
        ("pool.g1", 1, "dice"),
    ]
