"""D5E-10..16: d20 tests, attacks, damage, hit points, dying and death saves."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from pydantic_core import to_json

from rules.dnd5e.models import AttackRequest
from rules.errors import DiceScriptError
from rules.narration import narrate
from rules.registry import TEXTS
from tests.rules.dnd5e.helpers import run_attack, run_check, run_death_save, target
from tests.rules.dos.helpers import build

SWORD = [{"dice": "1d8+3", "type": "slashing"}]


# ---------------------------------------------------------------- D5E-10


def test_d5e10_meets_or_beats_the_dc() -> None:
    assert run_check(modifier=3, dc=15, dice={"d20": [12]})["success"]
    res = run_check(modifier=3, dc=15, dice={"d20": [11]})
    assert (res["d20s"], res["total"], res["success"]) == ([11], 14, False)


def test_d5e10_advantage_and_disadvantage() -> None:
    adv = run_check(modifier=0, dc=10, advantage=True, dice={"d20": [3, 17]})
    assert (adv["d20s"], adv["natural"], adv["total"], adv["mode"]) == (
        [3, 17],
        17,
        17,
        "advantage",
    )
    dis = run_check(modifier=0, dc=10, disadvantage=True, dice={"d20": [3, 17]})
    assert (dis["natural"], dis["total"], dis["success"]) == (3, 3, False)


@pytest.mark.parametrize(("adv", "dis"), [(True, True), (3, 1), (1, 5), (True, 2)])
def test_d5e10_both_cancel_regardless_of_count(adv: Any, dis: Any) -> None:
    res = run_check(modifier=1, dc=10, advantage=adv, disadvantage=dis, dice={"d20": [7]})
    assert (res["d20s"], res["mode"], res["total"]) == ([7], "normal", 8)


def test_d5e10_zero_count_is_no_source() -> None:
    res = run_check(modifier=0, dc=10, advantage=2, disadvantage=0, dice={"d20": [7, 9]})
    assert (res["mode"], res["total"]) == ("advantage", 9)


def test_d5e10_checks_have_no_automatic_results() -> None:
    assert not run_check(modifier=0, dc=21, dice={"d20": [20]})["success"]
    assert run_check(modifier=10, dc=11, dice={"d20": [1]})["success"]


# ---------------------------------------------------------------- D5E-11


def test_d5e11_hit_meets_ac() -> None:
    res = run_attack(
        attack_bonus=5, damage=SWORD, target=target(ac=15), dice={"attack": [10], "damage.0": [4]}
    )
    assert (res["hit"], res["critical"], res["attack"]["total"], res["damage_total"]) == (
        True,
        False,
        15,
        7,
    )
    miss = run_attack(
        attack_bonus=5, damage=SWORD, target=target(ac=16), dice={"attack": [10], "damage.0": [4]}
    )
    assert (miss["hit"], miss["damage"], miss["damage_total"]) == (False, [], 0)
    assert miss["unused_dice"] == {"damage.0": [4]}
    assert miss["target"]["hp"] == 20


def test_d5e11_natural_20_hits_any_ac() -> None:
    res = run_attack(
        attack_bonus=-5,
        damage=SWORD,
        target=target(ac=40),
        dice={"attack": [20], "damage.0": [2, 5]},
    )
    assert (res["hit"], res["critical"], res["attack"]["total"]) == (True, True, 15)


def test_d5e11_natural_1_misses_any_ac() -> None:
    res = run_attack(attack_bonus=50, damage=SWORD, target=target(ac=5), dice={"attack": [1]})
    assert (res["hit"], res["critical"], res["attack"]["total"]) == (False, False, 51)


def test_d5e11_advantage_on_the_attack() -> None:
    res = run_attack(
        attack_bonus=0, advantage=True, damage=[], target=target(ac=30), dice={"attack": [20, 2]}
    )
    assert (res["attack"]["d20s"], res["attack"]["natural"], res["critical"]) == ([20, 2], 20, True)
    res = run_attack(
        attack_bonus=0, disadvantage=True, damage=[], target=target(ac=3), dice={"attack": [20, 2]}
    )
    assert (res["attack"]["natural"], res["hit"]) == (2, False)


# ---------------------------------------------------------------- D5E-12


def test_d5e12_several_parts_and_terms() -> None:
    res = run_attack(
        attack_bonus=5,
        damage=[{"dice": "1d8+1d6+4", "type": "slashing"}, {"dice": "2d6", "type": "fire"}],
        target=target(hp=50, max_hp=50),
        dice={"attack": [15], "damage.0": [8, 1], "damage.1": [3, 4]},
    )
    assert [(p["rolls"], p["modifier"], p["total"]) for p in res["damage"]] == [
        ([8, 1], 4, 13),
        ([3, 4], 0, 7),
    ]
    assert res["damage_total"] == 20 and res["target"]["hp"] == 30


def test_d5e12_critical_rolls_dice_twice_and_modifiers_once() -> None:
    res = run_attack(
        attack_bonus=5,
        damage=[{"dice": "1d8+1d6+4", "type": "slashing"}, {"dice": "2d6-1", "type": "fire"}],
        target=target(hp=50, max_hp=50),
        dice={"attack": [20], "damage.0": [8, 1, 2, 6], "damage.1": [3, 4, 5, 6]},
    )
    p0, p1 = res["damage"]
    assert (p0["rolls"], p0["critical_rolls"], p0["modifier"], p0["total"]) == (
        [8, 1],
        [2, 6],
        4,
        21,
    )
    assert (p1["rolls"], p1["critical_rolls"], p1["modifier"], p1["total"]) == (
        [3, 4],
        [5, 6],
        -1,
        17,
    )
    assert res["damage_total"] == 38
    assert [r["sides"] for r in res["rolls"]] == [20, 8, 6, 8, 6, 6, 6, 6, 6]


def test_d5e12_damage_never_below_zero() -> None:
    res = run_attack(
        attack_bonus=5,
        damage=[{"dice": "1d4-5", "type": "piercing"}, {"dice": "1d4-2d4", "type": "cold"}],
        target=target(),
        dice={"attack": [15], "damage.0": [3], "damage.1": [1, 4, 4]},
    )
    assert [(p["rolls"], p["total"]) for p in res["damage"]] == [([3], 0), ([1, -4, -4], 0)]
    assert res["damage_total"] == 0 and res["target"]["hp"] == 20


def test_d5e12_bad_formula_is_a_validation_error() -> None:
    with pytest.raises(
        ValidationError, match="at position 4: expected the number of sides after 'd'"
    ):
        build(
            AttackRequest, attack_bonus=0, damage=[{"dice": "12d", "type": "fire"}], target=target()
        )


def test_d5e12_mixed_dice_part_accepts_any_size_and_checks_each() -> None:
    with pytest.raises(DiceScriptError, match="draws a d6 there"):
        run_attack(
            attack_bonus=0,
            damage=[{"dice": "1d8+1d6", "type": "fire"}],
            target=target(ac=1),
            dice={"attack": [10], "damage.0": [8, 7]},
        )


# ---------------------------------------------------------------- D5E-13


def hit_for(total_dice: list[int], formula: str, kind: str = "fire", **tgt: Any) -> Any:
    return run_attack(
        attack_bonus=0,
        damage=[{"dice": formula, "type": kind}],
        target=target(ac=1, hp=100, max_hp=100) | tgt,
        dice={"attack": [10], "damage.0": total_dice},
    )


def test_d5e13_resistance_halves_rounding_down() -> None:
    res = hit_for([5, 2], "2d6", resistances=["fire", "fire"])
    assert (res["by_type"][0]["rolled"], res["by_type"][0]["total"], res["damage_total"]) == (
        7,
        3,
        3,
    )
    assert res["by_type"][0]["applied"] == ["resistance"]


def test_d5e13_vulnerability_doubles() -> None:
    assert hit_for([5, 2], "2d6", vulnerabilities=["fire"])["damage_total"] == 14


def test_d5e13_immunity_is_zero() -> None:
    res = hit_for([5, 2], "2d6", immunities=["fire"], vulnerabilities=["fire"])
    assert (res["damage_total"], res["by_type"][0]["applied"]) == (0, ["immunity"])


def test_d5e13_resistance_then_vulnerability() -> None:
    # 7 -> 3 -> 6 (vulnerability first would give 14 -> 7)
    res = hit_for([5, 2], "2d6", resistances=["fire"], vulnerabilities=["fire"])
    assert (res["damage_total"], res["by_type"][0]["applied"]) == (
        6,
        ["resistance", "vulnerability"],
    )


def test_d5e13_only_matching_types_and_parts_of_a_type_summed() -> None:
    res = run_attack(
        attack_bonus=0,
        damage=[
            {"dice": "1d4", "type": "fire"},
            {"dice": "1d6", "type": "slashing"},
            {"dice": "1d4", "type": "fire"},
        ],
        target=target(ac=1, hp=100, max_hp=100, resistances=["fire"]),
        dice={"attack": [10], "damage.0": [3], "damage.1": [5], "damage.2": [2]},
    )
    # fire 3 + 2 = 5 -> 2; slashing 5
    assert [(t["type"], t["rolled"], t["total"]) for t in res["by_type"]] == [
        ("fire", 5, 2),
        ("slashing", 5, 5),
    ]
    assert res["damage_total"] == 7


# ---------------------------------------------------------------- D5E-14


def test_d5e14_temporary_hit_points_absorb_first() -> None:
    res = hit_for([6], "1d6+4", hp=100, temp_hp=7)
    assert (res["target"]["temp_hp"], res["target"]["hp"]) == (0, 97)
    res = hit_for([6], "1d6+4", temp_hp=12)
    assert (res["target"]["temp_hp"], res["target"]["hp"]) == (2, 100)


def test_d5e14_zero_hp_unconscious() -> None:
    res = run_attack(
        attack_bonus=0,
        damage=SWORD,
        target=target(ac=1, hp=5, max_hp=20),
        dice={"attack": [10], "damage.0": [8]},
    )
    assert res["target"] == {
        "hp": 0,
        "temp_hp": 0,
        "unconscious": True,
        "dead": False,
        "death_save_failures": 0,
        "massive_damage": False,
    }


def test_d5e14_massive_damage_kills_outright() -> None:
    # 6 hp, max 12: 18 damage leaves 12 over = max -> dead; 17 leaves 11 -> unconscious.
    dead = run_attack(
        attack_bonus=0,
        damage=[{"dice": "1d8+10", "type": "fire"}],
        target=target(ac=1, hp=6, max_hp=12, temp_hp=0),
        dice={"attack": [10], "damage.0": [8]},
    )
    assert (
        dead["target"]["hp"],
        dead["target"]["dead"],
        dead["target"]["unconscious"],
        dead["target"]["massive_damage"],
    ) == (
        0,
        True,
        False,
        True,
    )
    alive = run_attack(
        attack_bonus=0,
        damage=[{"dice": "1d8+10", "type": "fire"}],
        target=target(ac=1, hp=6, max_hp=12),
        dice={"attack": [10], "damage.0": [7]},
    )
    assert (alive["target"]["dead"], alive["target"]["unconscious"]) == (False, True)


def test_d5e14_massive_damage_counts_after_temp_hp() -> None:
    res = hit_for([8], "1d8+10", hp=6, max_hp=12, temp_hp=1)
    assert (res["target"]["dead"], res["target"]["unconscious"]) == (False, True)


def test_d5e14_a_monster_dies_at_zero() -> None:
    res = hit_for([8], "1d8", hp=5, max_hp=30, monster=True)
    assert (res["target"]["hp"], res["target"]["dead"], res["target"]["unconscious"]) == (
        0,
        True,
        False,
    )


# ---------------------------------------------------------------- D5E-15


def test_d5e15_damage_at_zero_adds_a_failure() -> None:
    res = hit_for([3], "1d6", hp=0, max_hp=20)
    assert (
        res["target"]["death_save_failures"],
        res["target"]["dead"],
        res["target"]["unconscious"],
    ) == (
        1,
        False,
        True,
    )


def test_d5e15_critical_at_zero_adds_two() -> None:
    res = run_attack(
        attack_bonus=0,
        damage=[{"dice": "1d4", "type": "piercing"}],
        target=target(hp=0, max_hp=20),
        dice={"attack": [20], "damage.0": [1, 1]},
    )
    assert (res["target"]["death_save_failures"], res["target"]["dead"]) == (2, False)


def test_d5e15_third_failure_kills() -> None:
    res = hit_for([3], "1d6", hp=0, max_hp=20, death_save_failures=2)
    assert (
        res["target"]["death_save_failures"],
        res["target"]["dead"],
        res["target"]["unconscious"],
    ) == (
        3,
        True,
        False,
    )


def test_d5e15_massive_damage_at_zero_kills() -> None:
    res = hit_for([6], "1d6+14", hp=0, max_hp=20)
    assert (
        res["target"]["dead"],
        res["target"]["massive_damage"],
        res["target"]["death_save_failures"],
    ) == (
        True,
        True,
        0,
    )


def test_d5e15_zero_damage_at_zero_adds_nothing() -> None:
    res = hit_for([3], "1d6", hp=0, max_hp=20, immunities=["fire"])
    assert (res["target"]["death_save_failures"], res["target"]["unconscious"]) == (0, True)


def test_target_hp_cannot_exceed_max() -> None:
    with pytest.raises(ValidationError, match=r"hp \(21\) is more than max_hp \(20\)"):
        build(AttackRequest, attack_bonus=0, damage=[], target=target(hp=21))


# ---------------------------------------------------------------- D5E-16


@pytest.mark.parametrize(
    ("roll", "before", "after", "flags"),
    [
        (10, (0, 0), (1, 0), (True, False, False, 0)),
        (9, (0, 0), (0, 1), (False, False, False, 0)),
        (15, (2, 1), (0, 0), (True, True, False, 0)),
        (2, (1, 2), (1, 3), (False, False, True, 0)),
        (1, (0, 0), (0, 2), (False, False, False, 0)),
        (1, (2, 2), (2, 3), (False, False, True, 0)),
        (20, (1, 2), (0, 0), (True, False, False, 1)),
    ],
)
def test_d5e16_death_saves(
    roll: int, before: tuple[int, int], after: tuple[int, int], flags: tuple[bool, bool, bool, int]
) -> None:
    res = run_death_save(successes=before[0], failures=before[1], dice={"d20": [roll]})
    assert (res["successes"], res["failures"]) == after
    assert (res["success"], res["stable"], res["dead"], res["hp"]) == flags
    assert res["conscious"] == (roll == 20)


def test_d5e16_third_success_stabilises_and_resets_both_counts() -> None:
    """SRD 5.1, death saving throws, in the project's words: on the third success the creature is
    stable and both the successes and the failures go back to 0; regaining any hit points resets
    them too. So the counts a client sends back for the next save are 0 and 0, not 3 and 1."""
    res = run_death_save(successes=2, failures=1, dice={"d20": [15]})
    assert (res["success"], res["stable"], res["dead"], res["conscious"]) == (
        True,
        True,
        False,
        False,
    )
    assert (res["successes"], res["failures"]) == (0, 0)
    assert [e["code"] for e in res["events"]] == [
        "dnd5e.death_save.success",
        "dnd5e.death_save.stable",
        "dnd5e.death_save.reset",
    ]
    assert res["events"][0]["params"]["successes"] == 3
    assert res["events"][2]["params"] == {"successes": 3, "failures": 1}
    # Regaining hit points (a natural 20 restores 1) resets both counts as well.
    healed = run_death_save(successes=1, failures=2, dice={"d20": [20]})
    assert (healed["hp"], healed["successes"], healed["failures"], healed["stable"]) == (
        1,
        0,
        0,
        False,
    )
    assert healed["events"][-1]["params"] == {"successes": 1, "failures": 2}
    # A success short of the third keeps counting; a third failure keeps its count (dead).
    assert (run_death_save(successes=1, failures=1, dice={"d20": [12]})["successes"]) == 2
    dead = run_death_save(successes=2, failures=2, dice={"d20": [3]})
    assert (dead["dead"], dead["successes"], dead["failures"]) == (True, 2, 3)
    assert "dnd5e.death_save.reset" not in [e["code"] for e in dead["events"]]


def test_d5e16_modifier_counts_but_natural_1_is_still_two_failures() -> None:
    assert run_death_save(modifier=2, dice={"d20": [8]})["success"]
    res = run_death_save(modifier=20, dice={"d20": [1]})
    assert (res["success"], res["failures"]) == (False, 2)


# ---------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "attack_bonus": st.integers(-10, 20),
            "damage": st.lists(
                st.fixed_dictionaries(
                    {
                        "dice": st.sampled_from(["1d8+3", "2d6", "1d8+1d6+4", "d20-1", "3d4-2d4"]),
                        "type": st.sampled_from(["fire", "cold", "slashing"]),
                    }
                ),
                max_size=3,
            ),
            "target": st.fixed_dictionaries(
                {
                    "ac": st.integers(1, 30),
                    "hp": st.integers(0, 40),
                    "max_hp": st.just(40),
                    "temp_hp": st.integers(0, 10),
                    "monster": st.booleans(),
                    "resistances": st.lists(st.sampled_from(["fire", "cold"]), max_size=2),
                }
            ),
            "seed": st.text(alphabet="abcxyz 019", min_size=1, max_size=6),
        }
    )
)
def test_attack_invariants(fields: dict[str, Any]) -> None:
    res = run_attack(**fields)
    assert to_json(res) == to_json(run_attack(**fields))
    hp, temp = fields["target"]["hp"], fields["target"]["temp_hp"]
    assert res["damage_total"] >= 0
    assert res["damage_total"] == sum(t["total"] for t in res["by_type"])
    assert 0 <= res["target"]["hp"] <= hp and 0 <= res["target"]["temp_hp"] <= temp
    absorbed = (temp - res["target"]["temp_hp"]) + (hp - res["target"]["hp"])
    assert absorbed <= res["damage_total"]
    assert not (res["target"]["dead"] and res["target"]["unconscious"])
    if res["target"]["hp"] > 0:
        assert not res["target"]["dead"] and not res["target"]["unconscious"]
    if res["critical"]:
        assert all(len(p["critical_rolls"]) == len(p["rolls"]) for p in res["damage"])
    if not res["hit"]:
        assert res["damage"] == [] and res["damage_total"] == 0


def test_d5e12_events_show_both_rolls_on_a_critical() -> None:
    res = run_attack(
        attack_bonus=0, damage=SWORD, target=target(), dice={"attack": [20], "damage.0": [2, 7]}
    )
    narrate(res["events"], "en", {}, TEXTS)
    part = [e for e in res["events"] if e["code"] == "dnd5e.damage.critical"]
    assert part[0]["params"]["rolls"] == [2] and part[0]["params"]["critical_rolls"] == [7]
    assert part[0]["text"] == (
        "Damage 1 (1d8+3 slashing): dice 2 and, for the critical, 7; modifier +3 once, 12 in all."
    )
