"""/riders/combat over HTTP: contract fields, step by step, auto, determinism, problems."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Api, assert_problem

RED = {
    "id": "red",
    "element": "fire",
    "riders": [{"id": "ash", "current": True, "bonuses": {"water": 2}}],
    "position": {"x": 0, "y": 0, "facing": "E"},
    "items": [{"id": "lance", "name": "Dragon Lance", "timing": "counter", "dice": "1d6"}],
}
BLUE = {
    "id": "blue",
    "element": "water",
    "fatigue": 3,
    "riders": [{"id": "kai", "current": True, "bonuses": {"fire": 3}}],
    "terrain_bonus": 2,
    "position": {"x": 1, "y": 0, "facing": "W"},
    "items": [{"id": "bolt", "name": "Bolt", "timing": "counter", "bonus": 3}],
}


def combat(**fields: Any) -> dict[str, Any]:
    return {"initiator": RED, "defender": BLUE, **fields}


def test_step_by_step_contract_fields(api: Api) -> None:
    dice = {"rolloff.initiator": [3, 3], "rolloff.defender": [2, 2], "item.lance": [4]}
    r = api.post("/riders/combat", combat(dice=dice))
    assert r.status_code == 200, r.text
    body = r.json()
    assert {
        "finished",
        "winner",
        "totals",
        "damage",
        "damage_skipped",
        "state",
        "awaiting",
        "seed",
        "rng",
        "rolls",
        "unused_dice",
        "events",
    } <= body.keys()
    assert (body["finished"], body["winner"], body["totals"]) == (
        False,
        None,
        {"initiator": 8, "defender": None},
    )
    assert body["awaiting"] == {
        "by": "defender",
        "decision": 0,
        "phase": "rolloff",
        "choices": [
            {"choice": "roll", "item": None, "damage": None, "directions": None},
            {"choice": "concede", "item": None, "damage": None, "directions": None},
        ],
    }
    # Bonus parts: the defender has 3 fatigue, so only its terrain counts.
    assert body["bonuses"]["defender"]["elemental_counted"] is False
    assert body["bonuses"]["defender"]["total"] == 2
    decisions = [
        {"by": "defender", "choice": "roll"},  # 8 against 6
        {"by": "defender", "choice": "use_item", "item": "bolt"},  # 9: leads
        {"by": "initiator", "choice": "use_item", "item": "lance"},  # 12: leads again
        {"by": "defender", "choice": "concede"},
        {"by": "initiator", "choice": "damage", "damage": "knockback", "direction": "NE"},
    ]
    end = api.post("/riders/combat", combat(dice=dice, decisions=decisions)).json()
    assert (end["finished"], end["winner"], end["awaiting"], end["damage_skipped"]) == (
        True,
        "initiator",
        None,
        None,
    )
    assert end["totals"] == {"initiator": 12, "defender": 9}
    assert end["damage"] == [
        {
            "kind": "knockback",
            "decision": 4,
            "direction": "NE",
            "before": {"x": 1, "y": 0},
            "after": {"x": 2, "y": -1},
        }
    ]
    assert end["state"]["defender"]["position"] == {"x": 2, "y": -1, "facing": "W"}
    assert end["state"]["initiator"] == RED | {
        "name": None,  # the names the request gives (none here) come back with the state
        "gender": None,
        "riders": [RED["riders"][0] | {"name": None, "gender": None}],
        "fatigue": 0,
        "rage": 0,
        "terrain_bonus": 0,
        "has_rider": True,
        "items": [
            RED["items"][0]
            | {
                "bonus": 0,
                "extra_rolloff_dice": 0,
                "hide_shield": False,
                "ranged": False,
                "damage": None,
            }
        ],
    }
    assert end["unused_dice"] == {}
    assert all(e["text"] for e in end["events"])


def test_auto_decisions_replay_byte_for_byte(api: Api) -> None:
    auto = api.post("/riders/combat", combat(seed="Hookshot", auto=True)).json()
    assert auto["finished"]
    replay = api.post("/riders/combat", combat(seed="Hookshot", decisions=auto["decisions"])).json()
    assert replay["auto_filled"] == []
    assert {k: v for k, v in replay.items() if k != "auto_filled"} == {
        k: v for k, v in auto.items() if k != "auto_filled"
    }


def test_same_request_same_seed_same_bytes(api: Api) -> None:
    req = combat(seed=42, auto=True)
    assert api.post("/riders/combat", req).content == api.post("/riders/combat", req).content


def test_illegal_decision_is_a_422_naming_the_decision(api: Api) -> None:
    decisions = [
        {"by": "defender", "choice": "roll"},
        {"by": "defender", "choice": "use_item", "item": "bolt"},
        {"by": "initiator", "choice": "use_item", "item": "lance"},
        {"by": "defender", "choice": "use_item", "item": "bolt"},
    ]
    dice = {"rolloff.initiator": [3, 3], "rolloff.defender": [2, 2], "item.lance": [4]}
    r = api.post("/riders/combat", combat(dice=dice, decisions=decisions))
    body = assert_problem(r, 422, "illegal-decision")
    assert body["errors"][0]["loc"] == ["body", "decisions", 3, "item"]
    assert "already used" in body["detail"]
    assert "expected from the defender: concede" in body["detail"]


def test_winner_conceding_is_illegal(api: Api) -> None:
    dice = {"rolloff.initiator": [6, 6], "rolloff.defender": [1, 1]}
    decisions = [{"by": "defender", "choice": "roll"}, {"by": "initiator", "choice": "concede"}]
    body = assert_problem(
        api.post("/riders/combat", combat(dice=dice, decisions=decisions)), 422, "illegal-decision"
    )
    assert body["errors"][0]["loc"] == ["body", "decisions", 1, "by"]


def test_bad_inputs_are_problems(api: Api) -> None:
    bad_dice = {**RED, "items": [{"id": "x", "name": "X", "timing": "counter", "dice": "1d6+2"}]}
    body = assert_problem(api.post("/riders/combat", combat(initiator=bad_dice)), 422)
    assert body["errors"][0]["loc"][:3] == ["body", "initiator", "items"]
    assert_problem(api.post("/riders/combat", combat(initiator=RED | {"rage": 99})), 422)
    assert_problem(api.post("/riders/combat", combat(initiator=RED | {"fatigue": 4})), 422)
    assert_problem(api.post("/riders/combat", combat(initiator=RED | {"element": "ice"})), 422)
    body = assert_problem(
        api.post("/riders/combat", combat(dice={"item.bolt": [1]})), 422, "dice-script"
    )
    assert "rolloff.initiator" in body["errors"][0]["msg"]
    assert_problem(
        api.post("/riders/combat", combat(dice={"rolloff.initiator": [7, 1]})), 422, "dice-script"
    )
    dup = {**BLUE, "items": [{"id": "lance", "name": "L", "timing": "counter"}]}
    body = assert_problem(api.post("/riders/combat", combat(defender=dup)), 422, "invalid-request")
    assert body["errors"][0]["loc"] == ["body", "defender", "items", 0, "id"]
    too_many = [{"by": "defender", "choice": "roll"}] * 1001
    assert_problem(api.post("/riders/combat", combat(decisions=too_many)), 422, "validation-error")


decision = st.fixed_dictionaries(
    {
        "by": st.sampled_from(["initiator", "defender"]),
        "choice": st.sampled_from(["use_item", "roll", "concede", "damage"]),
    },
    optional={
        "item": st.sampled_from(["lance", "bolt", "nope"]),
        "damage": st.sampled_from(["fatigue", "knockback", "swap", "item"]),
        "direction": st.sampled_from(["N", "SE", "W"]),
    },
)


@settings(max_examples=40, deadline=None)
@given(st.lists(decision, max_size=6), st.integers(0, 1000), st.booleans())
def test_any_decision_list_gives_200_or_a_problem(
    api: Api, decisions: list[dict[str, Any]], seed: int, auto: bool
) -> None:
    r = api.post("/riders/combat", combat(seed=seed, decisions=decisions, auto=auto))
    if r.status_code != 200:
        body = assert_problem(r, 422, "illegal-decision")
        loc = body["errors"][0]["loc"]
        assert loc[:2] == ["body", "decisions"]
        assert isinstance(loc[2], int) and loc[2] < len(decisions)
