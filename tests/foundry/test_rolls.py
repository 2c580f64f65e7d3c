"""Foundry-ready rolls (issue 17, docs/foundry.md): every golden request sent again with
``"foundry": true``, and property-generated requests of every endpoint."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from rules.registry import having
from rules.system import Capability
from tests.conftest import Api
from tests.foundry.checks import check_answer
from tests.foundry.notation import parse
from tests.properties.strategies import PROFILE, RESOLVING, bodies, seeded, seeds

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*/*.request.json"))
#: The resolving endpoints whose request offers ``foundry`` (its schema says so): those of the
#: systems with Foundry rolls (a capability, ``having``), but not an endpoint that draws for a client
#: (``/dice/draw``); odds and simulations draw no dice of their own, and a system without Foundry
#: rolls refuses the field.
FOUNDRY = [
    s.prefix + e.path
    for s in having(Capability.FOUNDRY)
    for e in s.endpoints
    if "foundry" in e.request.model_json_schema()["properties"]
]
assert set(FOUNDRY) <= set(RESOLVING)
#: Their golden requests.
SPECS = [
    spec
    for spec in (json.loads(f.read_text(encoding="utf-8")) for f in GOLDEN)
    if spec["path"] in FOUNDRY
]
OK = [s for s in SPECS if s.get("status", 200) == 200]

#: Our own number for a pool, by endpoint: slot -> where the plain answer states it.
OURS: dict[str, Callable[[dict[str, Any], str], int]] = {
    "/dos/test": lambda a, slot: a["total"],
    "/dos/roll": lambda a, slot: a["roll"]["result"],
    "/dos/opposed": lambda a, slot: a[slot]["total"],
    "/dos/complex": lambda a, slot: a["attempts"][int(slot.split(".")[1]) - 1]["total"],
    "/dnd5e/check": lambda a, slot: a["total"],
    "/dnd5e/death-save": lambda a, slot: a["total"],
    "/dnd5e/attack": lambda a, slot: (
        a["attack"]["total"] if slot == "attack" else a["damage"][int(slot[7:])]["total"]
    ),
}


def foundry(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "foundry": True}


@pytest.mark.parametrize("spec", OK, ids=[s["path"] for s in OK])
def test_golden_rolls_pass_every_check(api: Api, spec: dict[str, Any]) -> None:
    plain = api.post(spec["path"], json=spec["body"])
    r = api.post(spec["path"], json=foundry(spec["body"]))
    assert r.status_code == 200, r.text
    rolls = check_answer(r.json())
    # The plain answer's bytes, then the one key.
    assert r.content.startswith(plain.content[:-1] + b',"foundry":{"rolls":[')
    if spec["path"] in OURS:
        for roll in rolls:
            slot = roll["options"]["dragonroll"]["slot"]
            assert roll["total"] == OURS[spec["path"]](plain.json(), slot)


def test_every_golden_answer_that_draws_dice_has_rolls(api: Api) -> None:
    for spec in OK:
        answer = api.post(spec["path"], json=foundry(spec["body"])).json()
        assert bool(answer["foundry"]["rolls"]) == bool(answer["rolls"]), spec["path"]


def test_a_dos_pool_shows_cancelled_and_exploded_dice_by_generation(api: Api) -> None:
    # 10, 1, 10, 5: the 1 cancels the first 10 (highest, first rolled); the second 10 explodes
    # into 10 then 3 (two generations), the first of its chain marked as exploding further.
    body = {
        "stat": 20,
        "skill": 4,
        "dc": 10,
        "modifier_percent": -10,
        "dice": {"check": [10, 1, 10, 5, 10, 3]},
    }
    answer = api.post("/dos/test", json=foundry(body)).json()
    (roll,) = check_answer(answer)
    die = roll["terms"][0]
    assert die["number"] == 4 and die["modifiers"] == []
    assert [(r["result"], r["active"]) for r in die["results"]] == [
        (10, False),
        (1, True),
        (10, True),
        (5, True),
        (10, True),
        (3, True),
    ]
    assert die["results"][0]["discarded"] and die["results"][2]["exploded"]
    assert die["results"][4]["exploded"] and "exploded" not in die["results"][5]
    assert roll["formula"] == "4d10 + 20 - 5"  # 49 x 90% = 44.1, floored
    assert roll["total"] == answer["total"] == (20 + 29) * 90 // 100


def test_a_dos_explosion_lists_the_first_generation_first() -> None:
    from rules.dos.foundry import pool_term

    term = pool_term({"dice": [10, 10, 4], "size": 3}, set(), {0: [10, 2], 1: [7]})
    assert [r["result"] for r in term["results"]] == [10, 10, 4, 10, 7, 2]


def test_luck_and_bad_luck_are_in_the_flavor(api: Api) -> None:
    lucky = {"stat": 1, "skill": 3, "dc": 100, "dice": {"check": [10, 10, 2, 3, 4]}}
    (roll,) = check_answer(api.post("/dos/test", json=foundry(lucky)).json())
    assert roll["options"]["flavor"].endswith("luck!")


def test_advantage_keeps_the_higher_d20_and_discards_the_other(api: Api) -> None:
    body = {"modifier": 2, "dc": 10, "advantage": True, "dice": {"d20": [4, 17]}}
    (roll,) = check_answer(api.post("/dnd5e/check", json=foundry(body)).json())
    assert roll["formula"] == "2d20kh + 2" and roll["total"] == 19
    assert roll["terms"][0]["results"][0] == {"result": 4, "active": False, "discarded": True}
    body = {"modifier": -1, "dc": 10, "disadvantage": True, "dice": {"d20": [4, 17]}}
    (roll,) = check_answer(api.post("/dnd5e/check", json=foundry(body)).json())
    assert roll["formula"] == "2d20kl - 1" and roll["total"] == 3


def test_the_dragon_winner_counts_its_successes(api: Api) -> None:
    spec = next(s for s in OK if s["path"] == "/dragon/battle")
    answer = api.post("/dragon/battle", json=foundry(spec["body"])).json()
    rolls = check_answer(answer)
    won = [e["params"] for e in answer["events"] if e["code"] == "dragon.pair.won"]
    for p in won:
        mine = [r for r in rolls if r["options"]["dragonroll"]["slot"] == f"pool.{p['winner']}"]
        assert sum(r["total"] for r in mine) == p["successes"]


def test_the_grammar_refuses_what_is_not_notation() -> None:
    assert parse("2d20kh + 5 - 1") == [
        ("dice", 2, 20, ["kh"]),
        ("op", "+"),
        ("number", 5),
        ("op", "-"),
        ("number", 1),
    ]
    assert parse("4dF") == [("dice", 4, "F", [])]
    assert parse("3d6cs>4") == [("dice", 3, 6, ["cs>4"])]
    assert parse("(3d6x + 2d20r<3) / 2") == [
        ("group", [("dice", 3, 6, ["x"]), ("op", "+"), ("dice", 2, 20, ["r<3"])], "3d6x + 2d20r<3"),
        ("op", "/"),
        ("number", 2),
    ]
    assert parse("4d6kh3 + 1d8[fire] * - 2") == [
        ("dice", 4, 6, ["kh3"]),
        ("op", "+"),
        ("dice", 1, 8, [], "fire"),
        ("op", "*"),
        ("op", "-"),
        ("number", 2),
    ]
    assert parse("8d10cs>=7df<=1") == [("dice", 8, 10, ["cs>=7", "df<=1"])]
    assert parse("3d6min2max5xo>4rr=1dl1") == [
        ("dice", 3, 6, ["min2", "max5", "xo>4", "rr=1", "dl1"])
    ]
    for bad in (
        "",
        "d20",
        "2d20 +5",
        "2d20kh +",
        "1d6*2",
        "2d20y",
        "2d20r",
        "2d20dl",
        "3d6cs4",
        "(1d6 + 2",
        "1d6)",
        "1d6[]",
        "()",
    ):
        with pytest.raises(ValueError):
            parse(bad)


@pytest.mark.parametrize("path", FOUNDRY)
def test_generated_requests_give_rolls_that_pass_every_check(api: Api, path: str) -> None:
    @settings(PROFILE, max_examples=10)
    @given(body=bodies(path), seed=seeds)
    def run(body: Any, seed: str | int) -> None:
        r = api.post(path, json=foundry(seeded(body, seed)))
        if r.status_code == 200:
            check_answer(r.json())

    run()


def test_a_joined_partys_dice_count_for_its_ally(api: Api) -> None:
    # clan is left over and joins tribe (DRG-3): tribe's 6 and clan's 5 and 6 beat the dragon's 4.
    body = {
        "seed": "join",
        "dragon": {"age": 3, "battle": 2, "target": "tribe"},
        "entities": [
            {
                "id": "tribe",
                "controller": "gm",
                "kind": "group",
                "prosperity": 4,
                "level": 2,
                "target": "dragon",
            },
            {
                "id": "clan",
                "controller": "gm",
                "kind": "group",
                "prosperity": 3,
                "level": 2,
                "if_left_over": "join:tribe",
            },
        ],
        "location": {"id": "vale", "prosperity": 5},
        "dice": {"pool.dragon": [3, 4], "pool.tribe": [6, 3, 1, 1], "pool.clan": [5, 6, 2]},
    }
    rolls = check_answer(api.post("/dragon/battle", json=foundry(body)).json())
    by_slot = {r["options"]["dragonroll"]["slot"]: r for r in rolls}
    assert [by_slot[s]["total"] for s in ("pool.dragon", "pool.tribe", "pool.clan")] == [0, 1, 2]
    assert by_slot["pool.clan"]["formula"] == "3d6cs>4"
