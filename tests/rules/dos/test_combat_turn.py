"""/dos/turn's engine: a whole turn (DOS-14..29), its slots, its bad inputs and its invariants."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dos import turn
from rules.dos.models import TurnRequest
from rules.errors import InvalidRequest, LimitExceeded
from service.encoding import encode as to_json
from tests.rules.dos.helpers import build, source


def run_turn(**fields: Any) -> Any:
    req = build(TurnRequest, **fields)
    return turn.turn(req, source(req, turn.turn_slots))


def ignatius(**extra: Any) -> dict[str, Any]:
    return {
        "id": "ignatius",
        "side": "heroes",
        "speed": 32,
        "dexterity": 25,
        "strength": 18,
        "skills": {"weapon": 2},
        "weapon": {"kind": "melee", "damage": 5},
        "hp": 30,
        **extra,
    }


def kobold(id_: str = "k1", **extra: Any) -> dict[str, Any]:
    return {
        "id": id_,
        "side": "kobolds",
        "speed": 9,
        "dexterity": 9,
        "strength": 6,
        "skills": {"block": 1, "unarmed": 1},
        "hp": 12,
        "max_hp": 12,
        **extra,
    }


EXAMPLE_6_DICE = {
    "ignatius.1.attack": [6, 8],
    "ignatius.1.defense": [10, 8],
    "ignatius.2.attack": [4, 9],
    "ignatius.2.defense": [4],
    "ignatius.2.location": [6],
    "ignatius.2.damage": [5],
    "ignatius.3.attack": [1, 1],
}


def test_examples_6_and_7_as_one_turn() -> None:
    res = run_turn(
        combatants=[
            ignatius(
                declare=[{"action": "attack", "target": "k1", "count": 3, "stop_when_down": False}]
            ),
            kobold(declare=[{"action": "attack", "target": "ignatius"}]),
        ],
        order=["ignatius", "k1"],
        dice=EXAMPLE_6_DICE,
    )
    assert [(a["id"], a["actions"]) for a in res["actions"]] == [("ignatius", 3), ("k1", 1)]
    attacks = [r["attack"] for r in res["results"] if r["actor"] == "ignatius"]
    assert [(a["hit"], a["reason"]) for a in attacks] == [
        (False, "luck"),
        (True, "total"),
        (False, "bad_luck"),
    ]
    assert [a["attack"]["total"] for a in attacks] == [39, 38, 25]
    assert attacks[0]["defense"]["total"] == 27 and attacks[1]["defense"]["total"] == 13
    assert attacks[2]["defense"] is None  # no block left
    assert attacks[1]["damage"]["amount"] == 20
    k1 = res["combatants"][1]
    assert (k1["hp"], k1["incapacitated"], k1["blocks_used"]) == (0, True, 2)
    # the incapacitated kobold takes no action
    assert [r["skipped"] for r in res["results"] if r["actor"] == "k1"] == ["incapacitated"]
    assert k1["actions_used"] == 0
    assert not any(r["slot"].startswith("k1.") for r in res["rolls"])


def test_dos28_damage_to_the_fallen_is_critical_when_not_stopped() -> None:
    dice = {
        **EXAMPLE_6_DICE,
        "ignatius.3.attack": [5, 5],
        "ignatius.3.location": [10],
        "ignatius.3.damage": [2],
    }
    res = run_turn(
        combatants=[
            ignatius(
                declare=[{"action": "attack", "target": "k1", "count": 3, "stop_when_down": False}]
            ),
            kobold(),
        ],
        order=["ignatius", "k1"],
        dice=dice,
    )
    third = res["results"][2]["attack"]
    assert (third["reason"], third["damage"]["applied_as"]) == ("no_defense", "critical")
    assert res["combatants"][1]["critical"]


def test_remaining_attacks_on_a_fallen_target_are_skipped_by_default() -> None:
    dice = {k: v for k, v in EXAMPLE_6_DICE.items() if not k.startswith("ignatius.3")}
    res = run_turn(
        combatants=[
            ignatius(declare=[{"action": "attack", "target": "k1", "count": 3}]),
            kobold(),
        ],
        order=["ignatius", "k1"],
        dice=dice,
    )
    assert [(r["n"], r["skipped"]) for r in res["results"]] == [
        (1, None),
        (2, None),
        (3, "target_incapacitated"),
    ]
    assert res["combatants"][0]["actions_used"] == 2


def test_example_5_initiative_inside_the_turn() -> None:
    party = [
        {"id": "Sarathi", "side": "p", "speed": 12, "dexterity": 10, "hp": 10},
        {"id": "Lethi", "side": "p", "speed": 9, "dexterity": 10, "hp": 10},
        *[{"id": k, "side": "k", "speed": 9, "dexterity": 9, "hp": 12} for k in ("k1", "k2", "k3")],
    ]
    res = run_turn(
        combatants=party,
        dice={
            "initiative.k1": [5, 3],
            "initiative.k2": [8],
            "initiative.k3": [3],
            "initiative.Sarathi": [8],
            "initiative.Lethi": [5, 10],
        },
    )
    assert res["order"] == ["Sarathi", "k2", "Lethi", "k1", "k3"]
    assert [c["initiative"] for c in res["combatants"]] == [1, 3, 4, 2, 5]


def test_dos22_runner_takes_all_actions_and_defends_very_hard() -> None:
    res = run_turn(
        combatants=[
            ignatius(declare=[{"action": "attack", "target": "k1"}]),
            kobold(declare=[{"action": "run"}]),
        ],
        order=["ignatius", "k1"],
        dice={"ignatius.1.attack": [1, 1], "ignatius.1.defense": [9], "ignatius.1.run_stop": [3]},
    )
    att = res["results"][0]["attack"]
    assert att["defense"]["modifier_percent"] == -50 and not att["hit"]
    assert att["run_stop"]["stopped"]
    k1 = res["combatants"][1]
    assert (k1["running"], k1["stopped"], k1["moved"]) == (False, True, 0)
    assert res["results"][1]["skipped"] == "stopped"


def test_dos22_runner_not_stopped_moves_its_speed() -> None:
    res = run_turn(combatants=[kobold(declare=[{"action": "run"}])], order=["k1"])
    assert (res["combatants"][0]["moved"], res["combatants"][0]["running"]) == (9, True)
    assert res["combatants"][0]["actions_used"] == 1


def test_dos23_step_a_quarter_of_speed_once() -> None:
    res = run_turn(
        combatants=[
            ignatius(declare=[{"action": "step"}, {"action": "attack", "target": "k1"}]),
            kobold(),
        ],
        order=["ignatius", "k1"],
        dice={"ignatius.2.attack": [1, 1], "ignatius.2.defense": [5]},
    )
    assert res["combatants"][0]["moved"] == 8 and res["results"][1]["n"] == 2
    with pytest.raises(InvalidRequest, match="one step"):
        run_turn(combatants=[ignatius(declare=[{"action": "step"}, {"action": "step"}]), kobold()])
    with pytest.raises(InvalidRequest, match="floor"):
        run_turn(combatants=[ignatius(declare=[{"action": "step", "metres": 9}]), kobold()])


def test_dos24_grab_in_a_turn_uses_the_target_dodge() -> None:
    res = run_turn(
        combatants=[
            kobold("k1", declare=[{"action": "grab", "target": "ignatius"}]),
            ignatius(skills={"weapon": 2, "dodge": 1}),
        ],
        order=["k1", "ignatius"],
        dice={"k1.1.a": [7], "k1.1.b": [2]},
    )
    m = res["results"][0]["maneuver"]
    assert (m["a"]["total"], m["b"]["total"], m["success"]) == (16, 27, False)
    assert (m["b"]["stat"], m["b"]["skill"]) == ("dexterity", "dodge")


def test_dos25_push_uses_weapon_combat_when_armed() -> None:
    res = run_turn(
        combatants=[ignatius(declare=[{"action": "push", "target": "k1"}]), kobold()],
        order=["ignatius", "k1"],
        dice={"ignatius.1.a": [3, 3], "ignatius.1.b": [4]},
    )
    m = res["results"][0]["maneuver"]
    assert (m["a"]["skill"], m["a"]["total"], m["b"]["skill"], m["b"]["total"], m["winner"]) == (
        "weapon",
        24,
        "unarmed",
        10,
        "a",
    )


def test_wait_marks_the_combatant() -> None:
    res = run_turn(
        combatants=[ignatius(declare=[{"action": "wait"}]), kobold()], order=["k1", "ignatius"]
    )
    assert res["combatants"][0]["waited"] and res["combatants"][0]["actions_used"] == 0


@pytest.mark.parametrize(
    ("fields", "loc", "words"),
    [
        (
            {"combatants": [ignatius(declare=[{"action": "attack", "target": "k9"}]), kobold()]},
            ("combatants", 0, "declare", 0, "target"),
            ["ignatius", "k9", "not a combatant"],
        ),
        (
            {
                "combatants": [
                    ignatius(declare=[{"action": "attack", "target": "k1", "count": 4}]),
                    kobold(),
                ]
            },
            ("combatants", 0, "declare"),
            ["ignatius", "4 actions", "has 3"],
        ),
        (
            {"combatants": [ignatius(), kobold(), kobold()]},
            ("combatants", 2, "id"),
            ["duplicate", "k1"],
        ),
        (
            {"combatants": [ignatius(opponents=["ghost"]), kobold()]},
            ("combatants", 0, "opponents", 0),
            ["ignatius", "ghost"],
        ),
        (
            {"combatants": [ignatius(), kobold()], "order": ["k1"]},
            ("order",),
            ["missing", "ignatius"],
        ),
        (
            {"combatants": [ignatius(declare=[{"action": "run"}, {"action": "step"}]), kobold()]},
            ("combatants", 0, "declare", 0, "action"),
            ["alone"],
        ),
        (
            {
                "combatants": [
                    ignatius(declare=[{"action": "attack", "target": "k1", "defense": "dodge"}]),
                    kobold(),
                ]
            },
            ("combatants", 0, "declare", 0, "defense"),
            ["k1", "dodge"],
        ),
        (
            {
                "combatants": [
                    ignatius(declare=[{"action": "attack", "target": "ignatius"}]),
                    kobold(),
                ]
            },
            ("combatants", 0, "declare", 0, "target"),
            ["itself"],
        ),
        (
            {
                "combatants": [
                    ignatius(
                        weapon={"kind": "shooting", "damage": 3},
                        declare=[{"action": "attack", "target": "k1"}],
                    ),
                    kobold(),
                ]
            },
            ("combatants", 0, "declare", 0, "ranged"),
            ["ranged"],
        ),
    ],
)
def test_bad_turns_name_the_combatant_and_field(fields: dict, loc: tuple, words: list) -> None:
    with pytest.raises(InvalidRequest) as err:
        run_turn(**fields)
    assert err.value.errors[0].loc == loc
    for word in words:
        assert word in err.value.errors[0].msg


def test_declared_actions_are_capped() -> None:
    many = [
        kobold(
            f"k{i}",
            speed=1000,
            opponents=[],
            declare=[{"action": "attack", "target": "k0", "count": 11}],
        )
        for i in range(1, 100)
    ]
    with pytest.raises(LimitExceeded):
        run_turn(combatants=[kobold("k0"), *many])


def test_slots_are_documented_names() -> None:
    req = build(
        TurnRequest,
        combatants=[
            ignatius(
                declare=[
                    {"action": "step"},
                    {"action": "attack", "target": "k1", "count": 2},
                    {"action": "grab", "target": "k1"},
                ]
            ),
            kobold(),
        ],
        first=["k1"],
    )
    slots = set(turn.turn_slots(req))
    assert "initiative.ignatius" in slots and "initiative.k1" not in slots
    assert {"ignatius.2.attack", "ignatius.3.damage", "ignatius.4.a", "ignatius.4.b"} <= slots
    assert "ignatius.1.attack" not in slots


def big_turn(seed: int, n: int = 100) -> dict[str, Any]:
    combatants = []
    for i in range(n):
        side = "a" if i % 2 else "b"
        foe = f"c{i - 1}" if i % 2 else f"c{i + 1}"
        combatants.append(
            {
                "id": f"c{i}",
                "side": side,
                "speed": 10 + i % 7,
                "dexterity": 10 + i % 5,
                "strength": 10,
                "skills": {"weapon": 2 + i % 3, "block": 1, "dodge": i % 2},
                "weapon": {"kind": "melee", "damage": 4},
                "hp": 15,
                "opponents": [foe],
                "declare": [{"action": "attack", "target": foe}],
            }
        )
    return {"combatants": combatants, "seed": seed}


def test_a_turn_of_100_combatants_resolves() -> None:
    # Its speed is measured by `make bench` (timed assertions in tests only measure the machine).
    res = run_turn(**big_turn(1))
    assert len(res["combatants"]) == 100
    assert len(res["order"]) == 100


# ---------------------------------------------------------------- properties

combatant_st = st.fixed_dictionaries(
    {
        "speed": st.integers(1, 40),
        "dexterity": st.integers(0, 30),
        "strength": st.integers(0, 30),
        "skills": st.fixed_dictionaries(
            {
                "weapon": st.integers(0, 4),
                "unarmed": st.integers(0, 3),
                "block": st.integers(0, 3),
                "dodge": st.integers(0, 3),
            }
        ),
        "hp": st.integers(0, 20),
        "incapacitated": st.booleans(),
        "defense": st.sampled_from(["auto", "block", "none"]),
        "plan": st.sampled_from(["attack", "attack_all", "grab", "run", "wait", "step"]),
    }
)


def to_request(raw: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    combatants = []
    n = len(raw)
    for i, r in enumerate(raw):
        c = {k: v for k, v in r.items() if k != "plan"}
        c["id"] = f"c{i}"
        c["side"] = "a" if i % 2 else "b"
        c["weapon"] = {"kind": "melee", "damage": 3}
        foe = f"c{(i + 1) % n}"
        plan = r["plan"]
        if n == 1 or plan in ("run", "wait", "step"):
            c["declare"] = [] if n == 1 else [{"action": plan}]
        elif plan == "grab":
            c["declare"] = [{"action": "grab", "target": foe}]
        else:
            c["declare"] = [
                {"action": "attack", "target": foe, "count": 1, "stop_when_down": plan == "attack"}
            ]
        combatants.append(c)
    return {"combatants": combatants, "seed": seed}


@settings(max_examples=60, deadline=None)
@given(st.lists(combatant_st, min_size=1, max_size=8), st.integers(0, 10**6))
def test_turn_invariants(raw: list[dict[str, Any]], seed: int) -> None:
    fields = to_request(raw, seed)
    try:
        res = run_turn(**fields)
    except InvalidRequest:
        return  # e.g. more actions declared than the speeds allow
    by_id = {c["id"]: c for c in fields["combatants"]}
    for state in res["combatants"]:
        skills = by_id[state["id"]]["skills"]
        assert state["blocks_used"] <= skills["block"] + 1
        assert state["dodges_used"] <= skills["dodge"]
        assert state["hp"] >= 0
        if by_id[state["id"]]["incapacitated"]:
            assert state["actions_used"] == 0
    for r in res["results"]:
        if by_id[r["actor"]]["incapacitated"]:
            assert r["skipped"] == "incapacitated"
    again = run_turn(**fields)
    assert to_json(again) == to_json(res)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_fallen_mid_turn_take_no_action(seed: int) -> None:
    res = run_turn(**big_turn(seed, 20))
    fell_at: dict[str, int] = {}
    for i, r in enumerate(res["results"]):
        if r["attack"] and r["attack"]["damage"] and r["target"] and r["target"] not in fell_at:
            state = next(c for c in res["combatants"] if c["id"] == r["target"])
            if state["incapacitated"]:
                fell_at.setdefault(r["target"], i)
    for i, r in enumerate(res["results"]):
        if r["actor"] in fell_at and i > fell_at[r["actor"]]:
            assert r["skipped"] == "incapacitated"
    json.loads(to_json(res))


def test_dos16_everyone_acts_in_initiative_order() -> None:
    res = run_turn(
        combatants=[
            ignatius(declare=[{"action": "step"}]),
            kobold("k1", declare=[{"action": "step"}]),
            kobold("k2", declare=[{"action": "wait"}]),
        ],
        first=["k2"],
        dice={"initiative.ignatius": [1], "initiative.k1": [10]},
    )
    assert res["order"] == ["k2", "ignatius", "k1"]  # 32 + 1 = 33 > 9 + 10 = 19
    assert [r["actor"] for r in res["results"]] == res["order"]
    assert res["initiative"] is not None and res["initiative"][2]["placed"]
