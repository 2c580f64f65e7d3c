"""/dragon/battle over HTTP: contract fields, determinism, next_state replay, bad input."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Api, assert_problem


def ent(id: str, controller: str = "gm", **more: Any) -> dict[str, Any]:
    base = {"id": id, "controller": controller, "kind": "group", "prosperity": 2, "level": 2}
    return {**base, **more}


BATTLE: dict[str, Any] = {
    "dragon": {"age": 3, "battle": 3, "features_used": 1, "dragon_die": True, "target": "tribe"},
    "entities": [
        ent("tribe", prosperity=4, target="dragon", slayer_prosperity=2),
        ent("hero", kind="individual", prosperity=1, level=3, dragonslayer=True, target="wolves"),
        ent("wolves", "player", prosperity=2, target="hero"),
    ],
    "location": {"id": "vale", "prosperity": 5},
    "round": 1,
    "seed": "Smaug",
}


def test_contract_fields(api: Api) -> None:
    r = api.post("/dragon/battle", BATTLE)
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"seed", "rng", "rolls", "unused_dice", "events"} <= body.keys()
    assert {"pairs", "sweep", "hoard_gained", "dragon_defeated", "next_state"} <= body.keys()
    for pair in body["pairs"]:
        assert {"a", "b", "winner", "successes", "interrupted"} <= pair.keys()
    assert set(body["next_state"]) == {"dragon", "entities", "location", "round"}
    assert body["seed"] == "Smaug" and body["rng"] == "sha256-v1"
    assert all(e["code"].startswith("dragon.") and e["text"] for e in body["events"])
    slots = {roll["slot"] for roll in body["rolls"]}
    assert slots <= {
        "pool.dragon",
        "dragon_die",
        "pool.tribe",
        "pool.hero",
        "slayer.hero",
        "pool.wolves",
    }


def test_scripted_sweep_over_http(api: Api) -> None:
    req = {
        **BATTLE,
        "dice": {
            "pool.dragon": [5, 3, 2, 1],
            "dragon_die": [15],
            "pool.tribe": [6, 1, 1, 1],
            "pool.wolves": [4, 1],
            "pool.hero": [3],
            "slayer.hero": [2],
        },
    }
    body = api.post("/dragon/battle", req).json()
    # 15 > 6 + 3 (hero, prosperity 1) = 9, 15 > 9 + 4 (wolves) = 13: both swept
    assert body["sweep"] == ["tribe", "hero", "wolves"]
    assert body["pairs"][0] == {**body["pairs"][0], "winner": "dragon", "successes": 1}
    assert body["hoard_gained"] == 1  # tribe, first in strength order: level 2 - 1 (DRG-17)
    assert body["dragon_defeated"] is False
    assert body["unused_dice"] == {}


def test_same_request_same_seed_same_bytes(api: Api) -> None:
    assert api.post("/dragon/battle", BATTLE).content == api.post("/dragon/battle", BATTLE).content


def test_next_state_replays_as_the_next_round(api: Api) -> None:
    first = {
        "dragon": {"age": 1, "battle": 3, "target": "tribe"},
        "entities": [
            ent("tribe", prosperity=3, target="dragon"),
            ent("s1", "player", prosperity=1, target="tribe"),
        ],
        "dice": {"pool.dragon": [1, 2, 3], "pool.tribe": [6, 1, 1]},
        "continues": True,
    }
    one = api.post("/dragon/battle", first).json()
    assert one["slayers_revealed"][0]["new_entity"] == "tribe-slayer"
    state = one["next_state"]
    assert state["round"] == 2 and state["dragon"]["wounds"] == 1
    two = api.post(
        "/dragon/battle",
        {**state, "dice": {"pool.dragon": [8, 8, 1], "pool.tribe-slayer": [1, 2, 3]}},
    )
    assert two.status_code == 200, two.text
    body = two.json()
    assert body["round"] == 2
    assert body["order"] == ["dragon", "tribe-slayer", "s1"]  # the parent stands aside
    assert body["pairs"][0]["b"] == "tribe-slayer" and body["pairs"][0]["winner"] == "dragon"
    assert body["pairs"][0]["successes"] == 2
    # a third round from the second's state is accepted too
    three = api.post("/dragon/battle", {**body["next_state"], "seed": 3})
    assert three.status_code == 200, three.text


def test_unknown_slot_is_rejected_and_listed(api: Api) -> None:
    problem = assert_problem(
        api.post("/dragon/battle", {**BATTLE, "dice": {"pool.nobody": [1]}}), 422, "dice-script"
    )
    assert problem["errors"][0]["loc"] == ["body", "dice", "pool.nobody"]
    assert "pool.tribe" in problem["errors"][0]["msg"]


def test_script_out_of_range_for_the_dragon_die(api: Api) -> None:
    problem = assert_problem(
        api.post("/dragon/battle", {**BATTLE, "dice": {"dragon_die": [21]}}), 422, "dice-script"
    )
    assert "d20" in problem["detail"]


def _with_entities(*entities: dict[str, Any], target: str = "g1") -> dict[str, Any]:
    return {"dragon": {"age": 1, "battle": 2, "target": target}, "entities": list(entities)}


@pytest.mark.parametrize(
    ("body", "kind", "loc"),
    [
        (
            {"dragon": {"age": 7, "battle": 2, "target": "g1"}, "entities": [ent("g1")]},
            "validation-error",
            ["body", "dragon", "age"],
        ),
        (
            _with_entities(ent("g1", prosperity=-1)),
            "validation-error",
            ["body", "entities", 0, "prosperity"],
        ),
        (_with_entities(ent("g1"), ent("g1")), "invalid-request", ["body", "entities", 1, "id"]),
        (
            _with_entities(ent("g1", target="ghost")),
            "invalid-request",
            ["body", "entities", 0, "target"],
        ),
        (
            _with_entities(ent("g1"), target="ghost"),
            "invalid-request",
            ["body", "dragon", "target"],
        ),
        (
            _with_entities(ent("g1"), ent("s1", "player", if_left_over="join:g1")),
            "invalid-request",
            ["body", "entities", 1, "if_left_over"],
        ),
        (
            _with_entities(ent("g1", parent="nope")),
            "invalid-request",
            ["body", "entities", 0, "parent"],
        ),
        (
            _with_entities(ent("g1", parent="g2"), ent("g2", parent="g1")),
            "invalid-request",
            ["body", "entities", 0, "parent"],
        ),
        (
            _with_entities(ent("dragon"), ent("g1")),
            "invalid-request",
            ["body", "entities", 0, "id"],
        ),
        (
            _with_entities(ent("g1", if_left_over="flee")),
            "validation-error",
            ["body", "entities", 0, "if_left_over"],
        ),
        (
            {
                "dragon": {"age": 1, "battle": 2, "wounds": 2, "target": "g1"},
                "entities": [ent("g1")],
            },
            "illegal-decision",
            ["body", "dragon", "wounds"],
        ),
        (
            {
                "dragon": {"age": 1, "battle": 60, "features_used": 41, "target": "g1"},
                "entities": [ent("g1")],
            },
            "validation-error",
            ["body", "dragon"],
        ),
        ({**_with_entities(ent("g1")), "round": 1001}, "validation-error", ["body", "round"]),
        (
            {**_with_entities(ent("g1")), "round": 1000, "continues": True},
            "limit-exceeded",
            ["body", "continues"],
        ),
        (
            {**_with_entities(ent("g1")), "options": {"hoard": "sometimes"}},
            "validation-error",
            ["body", "options", "hoard"],
        ),
    ],
)
def test_bad_input_is_a_problem_naming_the_field(
    api: Api, body: dict[str, Any], kind: str, loc: list[object]
) -> None:
    problem = assert_problem(api.post("/dragon/battle", body), 422, kind)
    locs = [e["loc"] for e in problem["errors"]]
    assert any(x[: len(loc)] == loc for x in locs), locs


def test_too_many_entities(api: Api) -> None:
    entities = [ent(f"g{i}") for i in range(101)]
    problem = assert_problem(api.post("/dragon/battle", _with_entities(*entities)), 422)
    assert problem["errors"][0]["loc"][:2] == ["body", "entities"]


def test_a_full_battle_revealing_one_more_entity_is_a_limit_not_a_crash(api: Api) -> None:
    entities = [ent("g0", prosperity=1, target="dragon")] + [ent(f"g{i}") for i in range(1, 100)]
    body = {
        **_with_entities(*entities, target="g0"),
        "dice": {"pool.dragon": [1, 1], "pool.g0": [6]},
    }
    assert_problem(api.post("/dragon/battle", body), 422, "limit-exceeded")


@st.composite
def _battle(draw: st.DrawFn) -> dict[str, Any]:
    """A consistent battle (unique ids, targets on the other side), sometimes slightly broken."""
    n = draw(st.integers(1, 7))
    rest = draw(st.lists(st.sampled_from(["player", "gm"]), min_size=n - 1, max_size=n - 1))
    sides = ["gm", *rest]
    ids = [f"e{i}" for i in range(n)]
    entities: list[dict[str, Any]] = []
    for i, (eid, side) in enumerate(zip(ids, sides, strict=True)):
        foes = [x for x, s in zip(ids, sides, strict=True) if s != side]
        friends = [x for x, s in zip(ids, sides, strict=True) if s == side and x != eid]
        e: dict[str, Any] = {
            "id": eid,
            "controller": side,
            "kind": draw(st.sampled_from(["individual", "group"])),
            "prosperity": draw(st.integers(0, 6)),
            "level": draw(st.integers(1, 6)),
            "level_features": draw(st.integers(0, 3)),
            "dragonslayer": draw(st.booleans()),
        }
        if draw(st.booleans()):
            e["die"] = draw(st.integers(2, 120))
        targets = foes + (["dragon"] if side == "gm" else [])
        if targets and draw(st.integers(0, 4)):
            e["target"] = draw(st.sampled_from(targets))
        allies = friends + (["dragon"] if side == "player" else [])
        if allies and draw(st.booleans()):
            e["if_left_over"] = "join:" + draw(st.sampled_from(allies))
        elif draw(st.booleans()):
            e["if_left_over"] = "auto_win:the mill"
        if i > 0 and draw(st.integers(0, 5)) == 0:
            e["parent"] = ids[draw(st.integers(0, i - 1))]
        entities.append(e)
    battle = draw(st.integers(1, 5))
    body: dict[str, Any] = {
        "dragon": {
            "age": draw(st.integers(1, 6)),
            "battle": battle,
            "wounds": draw(st.integers(0, battle - 1)),
            "features_used": draw(st.integers(0, 3)),
            "dragon_die": draw(st.booleans()),
            "target": "e0",
        },
        "entities": entities,
        "seed": draw(st.integers(0, 10**6)),
        "continues": draw(st.booleans()),
        "options": {
            "hoard": draw(st.sampled_from(["always", "on_win"])),
            "strongest_enemy": draw(st.sampled_from(["highest_level", "strength_order"])),
        },
    }
    if draw(st.booleans()):
        where = draw(st.sampled_from(["here", *ids]))
        body["location"] = {"id": where, "prosperity": draw(st.integers(0, 5))}
    if draw(st.integers(0, 9)) == 0:  # break something now and then
        broken = draw(st.sampled_from(["e0", "ghost", "dragon"]))
        body["entities"][-1] = {**body["entities"][-1], "target": broken}
    return body


_request = _battle()


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=_request)
def test_any_schema_valid_battle_is_resolved_or_a_4xx_and_deterministic(
    api: Api, body: dict[str, Any]
) -> None:
    r = api.post("/dragon/battle", body)
    assert r.status_code in (200, 422), r.text
    if r.status_code != 200:
        assert r.headers["content-type"].startswith("application/problem+json")
        return
    assert api.post("/dragon/battle", body).content == r.content
    out = r.json()
    # invariants: prosperity never negative, at most one wound a round, each party paired once
    assert all(e["prosperity"] >= 0 for e in out["next_state"]["entities"])
    assert out["wounds"]["gained"] in (0, 1)
    members = [p["a"] for p in out["pairs"]] + [p["b"] for p in out["pairs"]]
    assert len(members) == len(set(members))
    assert out["pairs"][0]["a"] == "dragon"
    assert out["hoard"]["amount"] >= 0
    for p in out["pairs"]:
        if p["winner"] is not None:  # DRG-9: the winner's highest die is always a success
            assert p["successes"] >= 1 and not p["interrupted"]
    detail = out["sweep_detail"]
    if out["sweep"]:  # DRG-11: every added entity still left the dragon die strictly higher
        added = [s for s in detail["steps"] if s["added"]]
        assert all(detail["dragon_die"] > s["running_sum"] for s in added)
        assert out["sweep"] == [detail["opponent"]] + [s["id"] for s in added]
    # the state it returns is a valid request for the next round (or a defeated/limit problem)
    again = api.post("/dragon/battle", {**out["next_state"], "seed": 1})
    assert again.status_code in (200, 422), again.text
    if again.status_code == 422:
        assert again.json()["type"].rsplit("/", 1)[1] in ("illegal-decision", "limit-exceeded")
