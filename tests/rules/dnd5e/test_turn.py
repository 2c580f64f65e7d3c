"""D5E-4, D5E-8, D5E-9: a turn plan against its budgets."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rules.dnd5e.models import TurnRequest
from tests.rules.dnd5e.helpers import run_turn
from tests.rules.dos.helpers import build


def move(feet: int) -> dict[str, Any]:
    return {"kind": "move", "feet": feet}


def act(name: str = "attack") -> dict[str, Any]:
    return {"kind": "action", "name": name}


def bonus(
    name: str = "offhand attack", feature: str | None = "Two-Weapon Fighting"
) -> dict[str, Any]:
    return {"kind": "bonus_action", "name": name, "feature": feature}


def interact(obj: str = "door", uses_action: bool = False) -> dict[str, Any]:
    return {"kind": "interaction", "object": obj, "uses_action": uses_action}


def rules_of(res: Any) -> list[tuple[str, int | None, str]]:
    return [(v["rule"], v["step"], v["code"]) for v in res["violations"]]


def test_d5e8_move_act_move_within_speed() -> None:
    res = run_turn(
        speed=30,
        steps=[move(10), interact("sword"), act(), move(20), {"kind": "speech", "text": "Run!"}],
    )
    assert res["valid"] and res["violations"] == []
    assert (
        res["budget"]["movement"],
        res["budget"]["movement_allowed"],
        res["budget"]["actions"],
    ) == (30, 30, 1)
    assert res["budget"]["free_interactions"] == 1


def test_d5e8_movement_beyond_speed() -> None:
    res = run_turn(speed=30, steps=[move(20), act(), move(15)])
    assert not res["valid"]
    assert rules_of(res) == [("D5E-8", 2, "movement_exceeds_speed")]


def test_d5e8_dash_adds_the_speed() -> None:
    res = run_turn(speed=30, steps=[move(30), act("Dash"), move(30)])
    assert res["valid"] and res["budget"]["movement_allowed"] == 60


def test_d5e9_cunning_action_bonus_dash_adds_the_speed() -> None:
    """The seed's own example of a bonus action: «ميزة "فعل البديهة" مثلاً تسمح للسّفاح بإجراء فعل
    إضافي.» ("The Cunning Action feature, for example, lets the rogue take a bonus action.") A Dash
    taken as that bonus action adds the speed to the movement budget as the Dash action does."""
    res = run_turn(speed=30, steps=[move(30), bonus("Dash", "Cunning Action"), move(30)])
    assert res["valid"] and res["violations"] == []
    assert (res["budget"]["movement"], res["budget"]["movement_allowed"]) == (60, 60)
    assert (res["budget"]["actions"], res["budget"]["bonus_actions"]) == (0, 1)
    # With the action too: attack, then Dash as the bonus action.
    res = run_turn(speed=30, steps=[act(), move(30), bonus(" dash ", "Cunning Action"), move(30)])
    assert res["valid"] and res["budget"]["movement_allowed"] == 60
    # Both Dashes: three times the speed.
    both = [act("Dash"), bonus("Dash", "Cunning Action"), move(90)]
    assert run_turn(speed=30, steps=both)["valid"]
    # Without a granting feature the bonus action is refused (D5E-9) and adds no movement.
    res = run_turn(speed=30, steps=[move(30), bonus("Dash", None), move(30)])
    assert res["budget"]["movement_allowed"] == 30
    assert rules_of(res) == [
        ("D5E-9", 1, "bonus_action_not_granted"),
        ("D5E-8", 2, "movement_exceeds_speed"),
    ]
    # Movement beyond the doubled budget is still too much.
    res = run_turn(speed=30, steps=[move(30), bonus("Dash", "Cunning Action"), move(35)])
    assert rules_of(res) == [("D5E-8", 2, "movement_exceeds_speed")]


def test_d5e8_one_action() -> None:
    res = run_turn(speed=30, steps=[act("attack"), act("dodge")])
    assert rules_of(res) == [("D5E-8", 1, "second_action")]


def test_d5e8_forgoing_everything_is_valid() -> None:
    res = run_turn(speed=30, steps=[])
    assert res["valid"] and res["budget"]["movement"] == 0


def test_d5e9_bonus_action_without_a_granting_feature_is_rejected() -> None:
    res = run_turn(speed=30, steps=[act(), bonus("hide", None)])
    assert rules_of(res) == [("D5E-9", 1, "bonus_action_not_granted")]
    assert run_turn(speed=30, steps=[act(), bonus("hide", "Cunning Action")])["valid"]


def test_d5e9_one_bonus_action() -> None:
    res = run_turn(speed=30, steps=[bonus(), bonus("dash", "Cunning Action")])
    assert rules_of(res) == [("D5E-9", 1, "second_bonus_action")]


def test_d5e9_second_interaction_without_the_action_is_rejected() -> None:
    res = run_turn(speed=30, steps=[interact("door"), act(), interact("potion")])
    assert rules_of(res) == [("D5E-9", 2, "second_interaction")]


def test_d5e9_second_interaction_as_the_action() -> None:
    ok = run_turn(speed=30, steps=[interact("door"), interact("lever", uses_action=True)])
    assert ok["valid"] and ok["budget"]["actions"] == 1 and ok["budget"]["free_interactions"] == 1
    res = run_turn(speed=30, steps=[interact("door"), interact("lever", uses_action=True), act()])
    assert rules_of(res) == [("D5E-8", 2, "second_action")]


def test_d5e9_one_reaction_per_round() -> None:
    react = {"kind": "reaction", "name": "opportunity attack"}
    assert run_turn(speed=30, steps=[react])["valid"]
    assert rules_of(run_turn(speed=30, steps=[react, react])) == [("D5E-9", 1, "second_reaction")]
    res = run_turn(speed=30, steps=[react], reaction_used=True)
    assert rules_of(res) == [("D5E-9", 0, "second_reaction")]


def test_d5e4_surprised_first_turn() -> None:
    steps = [move(5), act(), bonus(), interact(), {"kind": "reaction", "name": "shield"}]
    res = run_turn(speed=30, steps=steps, surprised=True)
    assert rules_of(res) == [
        ("D5E-4", 0, "surprised"),
        ("D5E-4", 1, "surprised"),
        ("D5E-9", 2, "actions_prevented"),
        ("D5E-4", 3, "surprised"),
        ("D5E-4", 4, "surprised"),
    ]
    # Speech is still free, and after the first turn the creature acts normally.
    assert run_turn(speed=30, steps=[{"kind": "speech"}], surprised=True)["valid"]
    assert run_turn(speed=30, steps=steps, surprised=True, first_turn=False)["valid"]


def test_incapacitated_takes_no_actions() -> None:
    res = run_turn(speed=30, steps=[move(10), act(), bonus()], incapacitated=True)
    assert rules_of(res) == [("D5E-8", 1, "incapacitated"), ("D5E-9", 2, "actions_prevented")]


def test_turn_rejects_unknown_step_kinds() -> None:
    with pytest.raises(ValidationError):
        build(TurnRequest, speed=30, steps=[{"kind": "teleport"}])


def test_turn_events_list_violations() -> None:
    res = run_turn(speed=30, steps=[act(), act()])
    assert [e["code"] for e in res["events"]] == ["dnd5e.turn.violation", "dnd5e.turn.invalid"]
    assert res["rolls"] == []
