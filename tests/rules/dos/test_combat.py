"""DOS-14..29 one endpoint at a time: actions, initiative, attack, damage, maneuvers; examples 4-7."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rules.dos import combat
from rules.dos.models import (
    ActionsRequest,
    AttackRequest,
    DamageRequest,
    InitiativeRequest,
    ManeuverRequest,
)
from rules.errors import InvalidRequest, LimitExceeded
from service.encoding import encode as to_json
from tests.rules.dos.helpers import build, source


def run_actions(combatants: list[dict[str, Any]]) -> dict[str, int]:
    req = build(ActionsRequest, combatants=combatants)
    res = combat.actions(req, source(req, combat.actions_slots))
    return {e["id"]: e["actions"] for e in res["actions"]}


def run_initiative(**fields: Any) -> Any:
    req = build(InitiativeRequest, **fields)
    return combat.initiative(req, source(req, combat.initiative_slots))


def run_attack(**fields: Any) -> Any:
    req = build(AttackRequest, **fields)
    return combat.attack(req, source(req, combat.attack_slots))


def run_damage(**fields: Any) -> Any:
    req = build(DamageRequest, **fields)
    return combat.damage(req, source(req, combat.damage_slots))


def run_maneuver(**fields: Any) -> Any:
    req = build(ManeuverRequest, **fields)
    return combat.maneuver(req, source(req, combat.maneuver_slots))


IGNATIUS = {"dexterity": 25, "strength": 18, "skill": 2, "weapon": {"kind": "melee", "damage": 5}}
KOBOLD = {"dexterity": 9, "block": 1, "hp": 12, "max_hp": 12}


# ---------------------------------------------------------------- DOS-14, worked example 4


def test_example_4_dos14_ignatius_and_the_kobold() -> None:
    assert run_actions(
        [
            {"id": "ignatius", "speed": 32, "opponents": ["kobold"]},
            {"id": "kobold", "speed": 9, "opponents": ["ignatius"]},
        ]
    ) == {"ignatius": 3, "kobold": 1}


def test_example_4_dos14_three_robbers() -> None:
    assert run_actions(
        [
            {"id": "ignatius", "speed": 32, "opponents": ["r1", "r2", "r3"]},
            {"id": "r1", "speed": 20, "opponents": ["ignatius"]},
            {"id": "r2", "speed": 18, "opponents": ["ignatius"]},
            {"id": "r3", "speed": 15, "opponents": ["ignatius"]},
        ]
    ) == {"ignatius": 1, "r1": 1, "r2": 1, "r3": 1}


def test_dos14_floors_and_no_opponent_gives_one() -> None:
    assert run_actions([{"id": "a", "speed": 27, "opponents": ["b"]}, {"id": "b", "speed": 9}]) == {
        "a": 3,
        "b": 1,
    }


@pytest.mark.parametrize(
    ("combatants", "loc"),
    [
        ([{"id": "a", "speed": 5, "opponents": ["x"]}], ("combatants", 0, "opponents", 0)),
        ([{"id": "a", "speed": 5}, {"id": "a", "speed": 6}], ("combatants", 1, "id")),
        ([{"id": "a", "speed": 5, "opponents": ["a"]}], ("combatants", 0, "opponents", 0)),
        (
            [{"id": "a", "speed": 5, "opponents": ["b", "b"]}, {"id": "b", "speed": 5}],
            ("combatants", 0, "opponents", 1),
        ),
    ],
)
def test_dos14_bad_ids_name_the_culprit(combatants: list[dict[str, Any]], loc: tuple) -> None:
    with pytest.raises(InvalidRequest) as err:
        run_actions(combatants)
    assert err.value.errors[0].loc == loc


def test_dos14_negative_speed_is_rejected() -> None:
    with pytest.raises(ValidationError):
        build(ActionsRequest, combatants=[{"id": "a", "speed": -1}])


# ---------------------------------------------------------------- DOS-15, worked example 5

PARTY = [
    {"id": "Sarathi", "speed": 12},
    {"id": "Lethi", "speed": 9},
    {"id": "k1", "speed": 9},
    {"id": "k2", "speed": 9},
    {"id": "k3", "speed": 9},
]
EXAMPLE_5 = {
    "initiative.k1": [5, 3],
    "initiative.k2": [8],
    "initiative.k3": [3],
    "initiative.Sarathi": [8],
    "initiative.Lethi": [5, 10],
}


def test_example_5_initiative_order() -> None:
    res = run_initiative(combatants=PARTY, dice=EXAMPLE_5)
    assert res["order"] == ["Sarathi", "k2", "Lethi", "k1", "k3"]
    totals = {e["id"]: e["total"] for e in res["entries"]}
    assert totals == {"Sarathi": 20, "Lethi": 14, "k1": 14, "k2": 17, "k3": 12}
    rerolls = {e["id"]: [(r["roll"], r["total"]) for r in e["rerolls"]] for e in res["entries"]}
    assert rerolls == {"Sarathi": [], "Lethi": [(10, 19)], "k1": [(3, 12)], "k2": [], "k3": []}
    assert res["unused_dice"] == {}


def test_example_5_hidden_hunter_goes_first() -> None:
    res = run_initiative(
        combatants=[{"id": "Baltir", "speed": 10}, *PARTY], first=["Baltir"], dice=EXAMPLE_5
    )
    assert res["order"] == ["Baltir", "Sarathi", "k2", "Lethi", "k1", "k3"]
    baltir = res["entries"][0]
    assert (baltir["placed"], baltir["roll"], baltir["total"]) == (True, None, None)
    assert not any(r["slot"] == "initiative.Baltir" for r in res["rolls"])


def test_dos15_reroll_only_orders_the_tied() -> None:
    # a and b tie at 15 above c (12); their rerolls (2+5=7, 1+5=6) fall below c's 12,
    # yet both stay ahead of c.
    res = run_initiative(
        combatants=[{"id": "a", "speed": 5}, {"id": "b", "speed": 5}, {"id": "c", "speed": 2}],
        dice={"initiative.a": [10, 2], "initiative.b": [10, 1], "initiative.c": [10]},
    )
    assert res["order"] == ["a", "b", "c"]


def test_dos15_ties_among_rerolls_roll_again() -> None:
    res = run_initiative(
        combatants=[{"id": "a", "speed": 1}, {"id": "b", "speed": 1}, {"id": "c", "speed": 1}],
        dice={"initiative.a": [4, 6, 2], "initiative.b": [4, 6, 9], "initiative.c": [4, 7]},
    )
    assert res["order"] == ["c", "b", "a"]
    assert [len(e["rerolls"]) for e in res["entries"]] == [2, 2, 1]


def test_dos15_endless_ties_are_a_limit() -> None:
    with pytest.raises(LimitExceeded):
        run_initiative(
            combatants=[{"id": "a", "speed": 1}, {"id": "b", "speed": 1}],
            dice={"initiative.a": [3] * 200, "initiative.b": [3] * 200},
        )


def test_dos15_first_must_be_combatants() -> None:
    with pytest.raises(InvalidRequest) as err:
        run_initiative(combatants=PARTY, first=["ghost"])
    assert err.value.errors[0].loc == ("first", 0)


def test_dos15_initiative_die_never_explodes() -> None:
    res = run_initiative(combatants=[{"id": "a", "speed": 3}], dice={"initiative.a": [10]})
    assert (res["entries"][0]["total"], len(res["rolls"])) == (13, 1)


# ---------------------------------------------------------------- DOS-17..20, worked example 6


def test_example_6_three_attacks_on_the_kobold() -> None:
    first = run_attack(
        attacker=IGNATIUS, defender=KOBOLD, dice={"attack": [6, 8], "defense": [10, 8]}
    )
    assert (first["attack"]["total"], first["defense"]["kind"], first["defense"]["total"]) == (
        39,
        "block",
        27,
    )
    assert first["defense"]["roll"]["luck"]
    assert (first["hit"], first["reason"], first["defender"]["blocks_used"]) == (False, "luck", 1)
    assert first["damage"] is None and first["location"] is None

    second = run_attack(
        attacker=IGNATIUS,
        defender=first["defender"],
        dice={"attack": [4, 9], "defense": [4], "location": [6], "damage": [5]},
    )
    assert (second["attack"]["total"], second["defense"]["total"]) == (38, 13)
    assert (second["hit"], second["reason"], second["defender"]["blocks_used"]) == (
        True,
        "total",
        2,
    )

    third = run_attack(attacker=IGNATIUS, defender=second["defender"], dice={"attack": [1, 1]})
    assert third["attack"]["roll"]["bad_luck"] and third["attack"]["total"] == 25
    assert third["defense"] is None  # no block left: auto defends with nothing
    assert (third["hit"], third["reason"]) == (False, "bad_luck")


def test_example_7_damage_20_incapacitates_the_kobold() -> None:
    res = run_attack(
        attacker=IGNATIUS,
        defender=KOBOLD,
        dice={"attack": [4, 9], "defense": [4], "location": [6], "damage": [5]},
    )
    dmg = res["damage"]
    assert (dmg["die"], dmg["percent"], dmg["base"], dmg["amount"], dmg["kind"]) == (
        5,
        90,
        23,
        20,
        "serious",
    )
    assert res["location"] == "torso"
    assert (
        res["defender"]["hp"],
        res["defender"]["incapacitated"],
        res["defender"]["critical"],
    ) == (
        0,
        True,
        False,
    )


def test_dos17_attack_modifier_applies_to_the_attack() -> None:
    res = run_attack(
        attacker=IGNATIUS,
        defender=KOBOLD,
        difficulty="hard",
        dice={"attack": [5, 5], "defense": [5], "location": [1], "damage": [6]},
    )
    assert (res["attack"]["modifier_percent"], res["attack"]["total"]) == (-20, 28)


def test_dos18_dodge_and_auto_choice() -> None:
    d = {"dexterity": 9, "block": 1, "dodge": 3, "hp": 10}
    res = run_attack(attacker=IGNATIUS, defender=d, dice={"attack": [2, 2], "defense": [5, 5, 5]})
    assert res["defense"]["kind"] == "dodge"  # auto: higher skill
    assert (res["defender"]["dodges_used"], res["defender"]["blocks_used"]) == (1, 0)
    tie = run_attack(
        attacker=IGNATIUS,
        defender={"dexterity": 9, "block": 2, "dodge": 2, "hp": 10},
        dice={"attack": [2, 2], "defense": [5, 5]},
    )
    assert tie["defense"]["kind"] == "block"  # auto: equal skill -> block


def test_dos18_uses_per_turn_are_bounded_by_the_model() -> None:
    with pytest.raises(ValidationError, match="block skill"):
        build(AttackRequest, attacker=IGNATIUS, defender={**KOBOLD, "blocks_used": 3})
    with pytest.raises(ValidationError, match="dodge skill"):
        build(AttackRequest, attacker=IGNATIUS, defender={**KOBOLD, "dodges_used": 1})


def test_dos18_a_defense_with_no_use_left_is_invalid() -> None:
    with pytest.raises(InvalidRequest) as err:
        run_attack(attacker=IGNATIUS, defender={**KOBOLD, "blocks_used": 2}, defense="block")
    assert err.value.errors[0].loc == ("defense",)
    with pytest.raises(InvalidRequest):
        run_attack(attacker=IGNATIUS, defender=KOBOLD, defense="dodge")


def test_dos19_no_defense_hits_unless_bad_luck() -> None:
    res = run_attack(
        attacker={**IGNATIUS, "dexterity": 0},
        defender={**KOBOLD, "dexterity": 500},
        defense="none",
        dice={"attack": [2, 2], "location": [10], "damage": [6]},
    )
    assert (res["hit"], res["reason"], res["defense"], res["location"]) == (
        True,
        "no_defense",
        None,
        "head",
    )
    assert res["defender"]["blocks_used"] == 0


def test_dos20_equal_totals_the_defender_holds() -> None:
    res = run_attack(
        attacker={**IGNATIUS, "dexterity": 10},
        defender={**KOBOLD, "dexterity": 14},
        dice={"attack": [4, 4], "defense": [4]},
    )
    assert (res["attack"]["total"], res["defense"]["total"], res["hit"], res["reason"]) == (
        18,
        18,
        False,
        "tie",
    )


# ---------------------------------------------------------------- DOS-21 ranged

ARCHER = {"dexterity": 20, "skill": 2, "weapon": {"kind": "shooting", "damage": 12}}


def test_dos21_ranged_is_a_simple_test_without_defense() -> None:
    res = run_attack(
        attacker=ARCHER,
        defender={**KOBOLD, "dodge": 2},
        ranged={"dc": 30},
        dice={"attack": [6, 5], "location": [9], "damage": [7]},
    )
    assert (res["attack"]["total"], res["attack"]["outcome"], res["hit"], res["reason"]) == (
        31,
        "success",
        True,
        "dc",
    )
    assert res["defense"] is None and res["location"] == "right_arm"
    assert (res["damage"]["base"], res["damage"]["amount"]) == (
        12,
        12,
    )  # shooting: weapon damage alone
    miss = run_attack(attacker=ARCHER, defender=KOBOLD, ranged={"dc": 31}, dice={"attack": [6, 5]})
    assert (miss["hit"], miss["reason"], miss["damage"]) == (False, "dc", None)


def test_dos21_gm_allowed_defense_with_penalty() -> None:
    res = run_attack(
        attacker=ARCHER,
        defender={**KOBOLD, "dodge": 2},
        ranged={"dc": 10},
        defense="dodge",
        defense_difficulty="very_hard",
        dice={"attack": [6, 5], "defense": [9, 9]},
    )
    assert res["defense"]["modifier_percent"] == -50
    assert res["defense"]["total"] == (9 + 18) // 2
    assert res["hit"] and res["defender"]["dodges_used"] == 1


def test_dos21_ranged_needs_a_dc_and_melee_refuses_one() -> None:
    with pytest.raises(InvalidRequest) as err:
        run_attack(attacker=ARCHER, defender=KOBOLD)
    assert err.value.errors[0].loc == ("ranged",)
    with pytest.raises(InvalidRequest):
        run_attack(attacker=IGNATIUS, defender=KOBOLD, ranged={"dc": 3})


def test_dos21_aim_skips_the_location_roll() -> None:
    res = run_attack(
        attacker=ARCHER,
        defender=KOBOLD,
        ranged={"dc": 0},
        aim="head",
        dice={"attack": [5, 5], "damage": [6]},
    )
    assert (res["location"], res["aimed"]) == ("head", True)
    assert not any(r["slot"] == "location" for r in res["rolls"])


# ---------------------------------------------------------------- DOS-22 running defender


def test_dos22_runner_defends_very_hard_and_may_stop() -> None:
    runner = {**KOBOLD, "running": True}
    res = run_attack(
        attacker={**IGNATIUS, "dexterity": 0},
        defender=runner,
        dice={"attack": [2, 2], "defense": [8], "run_stop": [5]},
    )
    assert res["defense"]["modifier_percent"] == -50 and res["defense"]["total"] == (9 + 8) // 2
    assert not res["hit"]
    assert (res["run_stop"]["die"], res["run_stop"]["stopped"]) == (5, True)
    assert (res["defender"]["running"], res["defender"]["stopped"]) == (False, True)
    keeps = run_attack(
        attacker={**IGNATIUS, "dexterity": 0},
        defender=runner,
        dice={"attack": [2, 2], "defense": [8], "run_stop": [6]},
    )
    assert (keeps["run_stop"]["stopped"], keeps["defender"]["running"]) == (False, True)


def test_dos22_no_stop_roll_when_the_defense_fails() -> None:
    res = run_attack(
        attacker=IGNATIUS,
        defender={**KOBOLD, "running": True},
        dice={"attack": [5, 5], "defense": [8], "location": [5], "damage": [2]},
    )
    assert res["hit"] and res["run_stop"] is None and res["defender"]["running"]


# ---------------------------------------------------------------- DOS-23..25 maneuvers

SIDE = {"dexterity": 10, "strength": 20, "unarmed": 1, "weapon": 2, "dodge": 1}


@pytest.mark.parametrize(
    ("kind", "a_total", "b_total"),
    [
        ("grab", 10 + 4, 10 + 3),  # dexterity + unarmed vs dexterity + dodge
        ("break_free", 20 + 4, 20 + 3),  # strength + unarmed both
        ("push", 20 + 4, 20 + 3),  # strength + unarmed both
        ("feint_push", 10 + 4 + 4, 10 + 3 + 3),  # dexterity + weapon both
    ],
)
def test_dos24_dos25_maneuvers_use_the_right_stats(kind: str, a_total: int, b_total: int) -> None:
    res = run_maneuver(kind=kind, a=SIDE, b=SIDE, dice={"a": [4, 4], "b": [3, 3]})
    assert (res["a"]["total"], res["b"]["total"], res["winner"], res["success"]) == (
        a_total,
        b_total,
        "a",
        True,
    )


def test_dos24_overrides_and_ties() -> None:
    res = run_maneuver(
        kind="break_free",
        a={**SIDE, "stat": "dexterity"},
        b={**SIDE, "strength": 14},
        dice={"a": [4], "b": [10, 2]},
    )
    assert res["a"]["stat"] == "dexterity"
    assert res["b"]["roll"]["luck"] and res["winner"] == "b"
    tie = run_maneuver(kind="push", a=SIDE, b=SIDE, dice={"a": [5], "b": [5]})
    assert (tie["winner"], tie["success"]) == (None, False)


def test_dos25_push_with_weapon_skill() -> None:
    res = run_maneuver(
        kind="push", a={**SIDE, "skill": "weapon"}, b=SIDE, dice={"a": [3, 3], "b": [9]}
    )
    assert (res["a"]["skill"], res["a"]["total"], res["b"]["total"]) == ("weapon", 26, 29)


# ---------------------------------------------------------------- DOS-26..29 damage


@pytest.mark.parametrize(
    ("die", "percent", "amount"),
    [
        (1, None, 1),
        (2, 30, 6),
        (3, 50, 11),
        (4, 70, 16),
        (5, 90, 20),
        (6, 100, 23),
        (7, 100, 23),
        (8, 100, 23),
        (9, 110, 25),
        (10, 120, 27),
    ],
)
def test_dos26_damage_table(die: int, percent: int | None, amount: int) -> None:
    res = run_damage(
        strength=18,
        weapon={"kind": "melee", "damage": 5},
        target={"hp": 100},
        dice={"damage": [die]},
    )
    assert (res["percent"], res["amount"], res["kind"]) == (percent, amount, "serious")


def test_dos26_kinds_of_base_damage() -> None:
    unarmed = run_damage(
        strength=18, weapon={"kind": "unarmed"}, target={"hp": 50}, dice={"damage": [6]}
    )
    assert (unarmed["base"], unarmed["amount"], unarmed["kind"]) == (18, 18, "light")
    thrown = run_damage(
        strength=18,
        weapon={"kind": "thrown", "damage": 5, "made_for_throwing": False},
        target={"hp": 50},
        dice={"damage": [5]},
    )
    assert (thrown["halved"], thrown["amount"]) == (True, 23 * 90 // 200)  # one floor: 10
    made = run_damage(
        strength=18,
        weapon={"kind": "thrown", "damage": 5},
        target={"hp": 50},
        dice={"damage": [5]},
    )
    assert (made["halved"], made["amount"]) == (False, 20)
    shot = run_damage(
        strength=18,
        weapon={"kind": "shooting", "damage": 9},
        target={"hp": 50},
        dice={"damage": [10]},
    )
    assert (shot["base"], shot["amount"]) == (9, 10)
    club = run_damage(
        strength=4,
        weapon={"kind": "melee", "damage": 2, "damage_kind": "light"},
        target={"hp": 50},
        dice={"damage": [6]},
    )
    assert club["kind"] == "light"


def test_dos26_armor_after_the_table_never_below_zero() -> None:
    res = run_damage(
        strength=18,
        weapon={"kind": "melee", "damage": 5},
        armor=4,
        target={"hp": 30},
        dice={"damage": [5]},
    )
    assert (res["amount"], res["target"]["hp"]) == (16, 14)
    soaked = run_damage(
        strength=1, weapon={"kind": "unarmed"}, armor=9, target={"hp": 3}, dice={"damage": [10]}
    )
    assert (soaked["amount"], soaked["applied_as"], soaked["target"]["hp"]) == (0, "none", 3)


def test_dos26_unarmed_weapon_damage_is_rejected() -> None:
    with pytest.raises(ValidationError, match="unarmed"):
        build(DamageRequest, weapon={"kind": "unarmed", "damage": 3}, target={"hp": 1})


def test_dos27_location_table() -> None:
    got = []
    for die in range(1, 11):
        res = run_attack(
            attacker=IGNATIUS,
            defender={**KOBOLD, "hp": 500, "max_hp": 500},
            defense="none",
            dice={"attack": [5, 5], "location": [die], "damage": [6]},
        )
        got.append(res["location"])
    assert got == [
        "left_leg",
        "left_leg",
        "right_leg",
        "right_leg",
        "torso",
        "torso",
        "torso",
        "left_arm",
        "right_arm",
        "head",
    ]


def test_dos28_light_damage_stops_at_zero_without_status() -> None:
    res = run_damage(
        strength=10, weapon={"kind": "unarmed"}, target={"hp": 4}, dice={"damage": [6]}
    )
    assert (res["applied_as"], res["target"]["hp"], res["target"]["incapacitated"]) == (
        "light",
        0,
        False,
    )


def test_dos28_light_damage_at_zero_counts_as_serious_with_no_refill() -> None:
    res = run_damage(
        strength=10,
        weapon={"kind": "unarmed"},
        target={"hp": 0, "max_hp": 12},
        dice={"damage": [6]},
        options={"light_at_zero": "no_refill"},
    )
    assert (res["kind"], res["applied_as"]) == ("light", "serious")
    assert (res["target"]["hp"], res["target"]["incapacitated"]) == (
        0,
        True,
    )  # the bar is not refilled


def test_dos28_serious_damage_to_zero_incapacitates() -> None:
    res = run_damage(amount=5, kind="serious", target={"hp": 5})
    assert (res["target"]["hp"], res["target"]["incapacitated"], res["target"]["critical"]) == (
        0,
        True,
        False,
    )
    above = run_damage(amount=4, kind="serious", target={"hp": 5})
    assert (above["target"]["hp"], above["target"]["incapacitated"]) == (1, False)


def test_dos28_damage_while_incapacitated_is_critical_as_an_option() -> None:
    res = run_damage(
        strength=3,
        weapon={"kind": "unarmed"},
        target={"hp": 0, "incapacitated": True},
        dice={"damage": [6]},
        options={"critical_wounds": "while_incapacitated"},
    )
    assert (res["kind"], res["applied_as"], res["target"]["critical"], res["target"]["hp"]) == (
        "light",
        "critical",
        True,
        0,
    )


def test_dos29_gm_set_damage_has_no_die_and_no_armor() -> None:
    res = run_damage(amount=7, kind="serious", armor=5, target={"hp": 10})
    assert (res["die"], res["percent"], res["amount"], res["target"]["hp"], res["rolls"]) == (
        None,
        None,
        7,
        3,
        [],
    )
    crit = run_damage(amount=2, kind="critical", target={"hp": 10})
    assert (crit["applied_as"], crit["target"]["critical"], crit["target"]["incapacitated"]) == (
        "critical",
        True,
        False,
    )


def test_dos29_needs_weapon_or_amount() -> None:
    with pytest.raises(ValidationError, match="either"):
        build(DamageRequest, target={"hp": 1})
    with pytest.raises(ValidationError, match="kind"):
        build(DamageRequest, amount=3, target={"hp": 1})
    with pytest.raises(ValidationError, match="max_hp"):
        build(DamageRequest, amount=3, kind="light", target={"hp": 5, "max_hp": 4})


# ---------------------------------------------------------------- properties


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(1, 12), min_size=1, max_size=12),
    st.integers(0, 4),
    st.integers(0, 10**9),
)
def test_initiative_order_is_by_total_with_first_ahead(
    speeds: list[int], placed: int, seed: int
) -> None:
    combatants = [{"id": f"c{i}", "speed": s} for i, s in enumerate(speeds)]
    first = [c["id"] for c in combatants[:placed]][::-1]
    res = run_initiative(combatants=combatants, first=first, seed=seed)
    assert sorted(res["order"]) == sorted(c["id"] for c in combatants)
    assert res["order"][: len(first)] == first
    entry = {e["id"]: e for e in res["entries"]}
    rolled = res["order"][len(first) :]
    for a, b in itertools.pairwise(rolled):
        ea, eb = entry[a], entry[b]
        assert ea["total"] is not None and eb["total"] is not None
        assert ea["total"] >= eb["total"]
        if ea["total"] == eb["total"]:  # tied: the rerolls decided, so both rerolled
            assert ea["rerolls"] and eb["rerolls"]
    assert to_json(res) == to_json(run_initiative(combatants=combatants, first=first, seed=seed))


damage_case = st.fixed_dictionaries(
    {
        "hp": st.integers(0, 30),
        "strength": st.integers(0, 30),
        "incapacitated": st.booleans(),
        "critical": st.booleans(),
        "kind": st.sampled_from(["unarmed", "melee", "thrown", "shooting"]),
        "armor": st.integers(0, 10),
        "die": st.integers(1, 10),
    }
)


@settings(max_examples=120, deadline=None)
@given(damage_case)
def test_damage_never_negative_never_heals_critical_sticks(case: dict[str, Any]) -> None:
    hp, incapacitated, critical = case["hp"], case["incapacitated"], case["critical"]
    kind, armor, die, strength = case["kind"], case["armor"], case["die"], case["strength"]
    weapon = {"kind": kind} if kind == "unarmed" else {"kind": kind, "damage": 4}
    res = run_damage(
        strength=strength,
        weapon=weapon,
        armor=armor,
        target={"hp": hp, "incapacitated": incapacitated, "critical": critical},
        dice={"damage": [die]},
    )
    t = res["target"]
    assert 0 <= t["hp"] <= hp and t["hp"] == max(0, hp - res["amount"])
    assert res["amount"] >= 0
    assert t["critical"] >= critical and t["incapacitated"] >= incapacitated
    if (
        res["amount"] > 0 and hp == 0 and res["kind"] == "serious"
    ):  # DOS-28: wounded with no hp left
        assert res["applied_as"] == "critical" and t["critical"]
    if res["applied_as"] == "critical":
        assert t["critical"]
    if die == 1:
        assert res["amount"] == max(0, 1 - armor)
