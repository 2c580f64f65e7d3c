"""Validation problems say what is wrong and where, in words a caller can act on (DESIGN.md,
"Errors"): one error at the field, not pydantic's internal labels for the members of a union."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Api, assert_problem

ATTACK = {
    "attack_bonus": 5,
    "damage": [{"dice": "1d8", "type": "slashing"}],
    "target": {"ac": 15, "hp": 20, "max_hp": 20},
}
SEED_RULE = (
    "a seed is 1-128 printable ASCII characters (space included) or an integer within "
    "+-9007199254740991; send a larger integer as a string"
)


def refused(api: Api, path: str, body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    problem = assert_problem(api.post(path, json=body), 422, "validation-error")
    return problem["detail"], problem["errors"]


@pytest.mark.parametrize("seed", ["", "x" * 129, "é", 2**53, -(2**53), 10**128, 1.5, True, [1]])
def test_a_bad_seed_is_one_error_at_seed_that_says_what_a_seed_is(api: Api, seed: Any) -> None:
    detail, errors = refused(api, "/dos/roll", {"pool": 1, "seed": seed})
    assert errors == [
        {"loc": ["body", "seed"], "msg": SEED_RULE, "type": "seed_invalid", "lang": "en"}
    ]
    assert detail == f"seed: {SEED_RULE}"


@pytest.mark.parametrize("edge", [101, -1, "yes", None])
def test_a_bad_advantage_is_one_error_at_the_field(api: Api, edge: Any) -> None:
    detail, errors = refused(api, "/dnd5e/attack", {**ATTACK, "advantage": edge})
    assert [(e["loc"], e["type"]) for e in errors] == [(["body", "advantage"], "edge_invalid")]
    assert detail == "advantage: true, false, or a number of sources from 0 to 100"


def test_a_step_of_an_unknown_kind_names_the_kinds(api: Api) -> None:
    detail, errors = refused(api, "/dnd5e/turn", {"speed": 30, "steps": [{"kind": "fly"}]})
    assert errors[0]["loc"] == ["body", "steps", 0]
    assert detail == (
        "steps.0: 'kind' is 'fly', which is not one of 'move', 'action', 'bonus_action', "
        "'interaction', 'reaction', 'speech'"
    )


def test_a_step_without_its_kind_says_so(api: Api) -> None:
    detail, _ = refused(api, "/dnd5e/turn", {"speed": 30, "steps": [{"feet": 5}]})
    assert detail == "steps.0: the field 'kind' is missing: it says which kind this is"


def test_unknown_and_missing_fields(api: Api) -> None:
    detail, errors = refused(api, "/dos/test", {"stat": 1, "skill": 1, "dc": 1, "sead": 3})
    assert detail == "sead: unknown field: it is not part of this request's schema"
    detail, errors = refused(api, "/dos/test", {"stat": 1, "skill": 1})
    assert detail == "dc: required field is missing"
    assert errors == [
        {"loc": ["body", "dc"], "msg": "required field is missing", "type": "missing", "lang": "en"}
    ]


def test_a_non_object_where_an_object_goes_is_told_in_json_words(api: Api) -> None:
    weapon = {"dexterity": 30, "strength": 25, "skill": 5, "weapon": 6}
    body = {"attacker": weapon, "defender": {"dexterity": 20, "hp": 30, "max_hp": 30}}
    detail, _ = refused(api, "/dos/attack", body)
    assert detail == "attacker.weapon: Input should be an object"  # not "instance of Weapon"


def test_a_named_combatant_keeps_its_name_in_our_words(api: Api) -> None:
    """``NamedCombatant`` puts "combatant '<id>': " before pydantic's message; the wording we put
    in place of pydantic's keeps it."""
    fighter = {"id": "k1", "speed": 3, "opponents": ["k2"]}
    body = {"combatants": [{**fighter, "sped": 1}, {"id": "k2", "speed": 2}]}
    _, errors = refused(api, "/dos/actions", body)
    assert (
        errors[0]["msg"] == "combatant 'k1': unknown field: it is not part of this request's schema"
    )
    body = {"combatants": [{"id": "k1", "opponents": ["k2"]}, {"id": "k2", "speed": 2}]}
    _, errors = refused(api, "/dos/actions", body)
    assert errors[0]["msg"] == "combatant 'k1': required field is missing"
