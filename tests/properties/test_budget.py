"""The work budget (``rules.budget``, docs/hardening.md): every endpoint counts its base dice from the
request before any die is drawn; at the budget a request resolves, just over it is a 422
``limit-exceeded`` naming the field; and the largest answer the default budget lets through stays
under :data:`MAX_ANSWER`.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.budget import BASE_DICE, MAX_ANSWER, MAX_DICE
from rules.registry import SYSTEMS
from rules.system import Endpoint, System
from service.settings import Settings
from tests.conftest import Api
from tests.properties.strategies import PROFILE, RESOLVING

#: The largest answer the default budget lets through (docs/hardening.md; rules.budget.MAX_ANSWER,
#: checked before resolving). Measured: about 2.3 MB (/dos/turn: 1,000 attacks of three dice a
#: side), 1.9 MB (/dos/complex: 1,000 attempts of 10 dice); before the budget 19 MB and 13.6 MB.
assert MAX_ANSWER == 4 * 1024 * 1024


def _fighter(id_: str, side: str, speed: int, skill: int, **extra: Any) -> dict[str, Any]:
    return {
        "id": id_,
        "side": side,
        "speed": speed,
        "dexterity": 10,
        "strength": 10,
        "skills": {"weapon": skill, "block": skill, "dodge": skill, "unarmed": skill},
        "weapon": {"kind": "melee", "damage": 1},
        "hp": 1_000_000,
        **extra,
    }


def duel(count: int, skill: int) -> dict[str, Any]:
    """A /dos/turn of two: ``a`` attacks ``b`` ``count`` times: 2 + count x (2 x skill + 3) dice."""
    attack = {"action": "attack", "target": "b", "count": count, "stop_when_down": False}
    return {
        "combatants": [
            _fighter("a", "x", 1000, skill, declare=[attack]),
            _fighter("b", "y", 1, skill),
        ]
    }


def melee(count: int, skill: int) -> dict[str, Any]:
    """A /dos/turn of 100: ``a0`` attacks ``b1`` ``count`` times, each of 99 others attacks it once."""
    a = _fighter("a0", "a", 1_000_000, skill)
    a["declare"] = [{"action": "attack", "target": "b1", "count": count, "stop_when_down": False}]
    others = [
        _fighter(f"b{i}", "b", 1, skill, declare=[{"action": "attack", "target": "a0"}])
        for i in range(1, 100)
    ]
    return {"combatants": [a, *others]}


def dragon(entities: int, prosperity: int, dragon_die: bool = False) -> dict[str, Any]:
    """A /dragon/battle: a 100-die dragon against ``entities`` entities of ``prosperity`` dice."""
    return {
        "dragon": {"age": 6, "battle": 100, "target": "e0", "dragon_die": dragon_die},
        "entities": [
            {
                "id": f"e{i}",
                "controller": "gm",
                "kind": "individual",
                "prosperity": prosperity,
                "level": 6,
                "target": "dragon",
            }
            for i in range(entities)
        ],
    }


def riders(items: int, last: int) -> dict[str, Any]:
    """A /riders/combat: the initiator's ``items`` pre items of 100d6, the defender's one of
    ``last``d6: 4 + 100 x items + last dice."""

    def item(id_: str, n: int) -> dict[str, Any]:
        return {"id": id_, "name": id_, "timing": "pre", "dice": f"{n}d6"}

    return {
        "auto": True,
        "initiator": {
            "id": "i",
            "element": "fire",
            "items": [item(f"p{n}", 100) for n in range(items)],
        },
        "defender": {"id": "d", "element": "water", "items": [item("q", last)]},
    }


def roller(n: int) -> dict[str, Any]:
    return {"combatants": [{"id": f"c{i}", "speed": 5} for i in range(n)]}


def fifth(n: int) -> dict[str, Any]:
    return {"combatants": [{"id": f"c{i}", "side": "gm", "dex_mod": 1} for i in range(n)]}


def strike(dice: int) -> dict[str, Any]:
    """A /dnd5e/attack of one d20 and ``dice`` d6 of damage: 1 + 2 x dice."""
    return {
        "attack_bonus": 5,
        "target": {"ac": 10, "hp": 100, "max_hp": 100},
        "damage": [{"dice": f"{dice}d6", "type": "fire"}],
    }


def pool(skill: int) -> dict[str, Any]:
    return {"stat": 1, "skill": skill, "dc": 5}


def side(skill: int) -> dict[str, Any]:
    return {"dexterity": 5, "strength": 5, "unarmed": skill}


FISTS = {"dexterity": 5, "skill": 20, "weapon": {"kind": "unarmed"}}


def defender(skill: int) -> dict[str, Any]:
    return {"hp": 20, "dexterity": 5, "block": skill}


#: Every resolving endpoint of the registry with its examples: each one's budget edge is read from
#: its own descriptor (its ``work`` function), so a system added to the registry is covered here
#: with no line, whatever its work grows with (or none: a constant cost).
ENDPOINTS = [(s, e) for s in SYSTEMS for e in s.endpoints if e.examples]


@pytest.mark.parametrize(
    ("system", "endpoint"), ENDPOINTS, ids=[s.prefix + e.path for s, e in ENDPOINTS]
)
def test_each_example_resolves_at_its_own_work_and_is_refused_one_die_under(
    system: System, endpoint: Endpoint
) -> None:
    """At a budget of exactly the dice its descriptor says an example costs, it resolves; one base
    die under, it is a 422 naming the field the work function names (a request that rolls no dice
    resolves at a budget of 0)."""
    path = system.prefix + endpoint.path
    for name, body in endpoint.examples.items():
        work = endpoint.work(endpoint.request.model_validate(body))
        assert work.unit == BASE_DICE and work.budget is None, (path, name)
        at = Api(max_dice=work.dice, log_level="warning").post(path, json={**body, "seed": "edge"})
        assert at.status_code == 200, (path, name, at.text[:500])
        if work.dice == 0:
            assert at.json()["rolls"] == [], (path, name)
            continue
        under = Api(max_dice=work.dice - 1, log_level="warning")
        refused = under.post(path, json={**body, "seed": "edge"})
        problem = refused.json()
        assert refused.status_code == 422 and problem["type"].endswith("limit-exceeded"), path
        assert problem["errors"][0]["loc"] == ["body", *work.loc], (path, name)
        assert f"the budget is {work.dice - 1:,} base dice" in problem["detail"]


#: Hand-made edges of the endpoints whose work grows with a request, named by path: at or just
#: under the budget, and the next request over it (the examples above test every endpoint).
#: path -> (budget, a body at or just under it, the next body over it, the field named)
EDGES: dict[str, tuple[int, dict[str, Any], dict[str, Any], list[str | int]]] = {
    "/dos/roll": (40, {"pool": 40}, {"pool": 41}, ["pool"]),
    "/dos/test": (40, pool(40), pool(41), ["skill"]),
    "/dos/opposed": (
        40,
        {"a": {"stat": 1, "skill": 25}, "b": {"stat": 1, "skill": 15}},
        {"a": {"stat": 1, "skill": 25}, "b": {"stat": 1, "skill": 16}},
        ["a", "skill"],
    ),
    "/dos/complex": (
        MAX_DICE,
        {**pool(100), "dc": 10**6, "attempts": 100, "successes_needed": 100},
        {**pool(100), "dc": 10**6, "attempts": 101, "successes_needed": 101},
        ["attempts"],
    ),
    "/dos/actions": (0, {"combatants": [{"id": "a", "speed": 5}]}, {}, []),
    "/dos/initiative": (40, roller(40), roller(41), ["combatants"]),
    "/dos/attack": (
        40,
        {"attacker": FISTS, "defender": defender(17)},
        {"attacker": FISTS, "defender": defender(18)},
        ["attacker", "skill"],
    ),
    "/dos/damage": (
        0,
        {"amount": 3, "kind": "light", "target": {"hp": 10}},
        {"weapon": {"kind": "melee", "damage": 2}, "strength": 3, "target": {"hp": 10}},
        ["weapon"],
    ),
    "/dos/maneuver": (
        40,
        {"kind": "grab", "a": side(30), "b": side(10)},
        {"kind": "grab", "a": side(30), "b": side(11)},
        ["a"],
    ),
    "/dos/turn": (MAX_DICE, duel(49, 100), duel(50, 100), ["combatants"]),
    "/dragon/battle": (
        MAX_DICE,
        dragon(99, 100),
        dragon(99, 100, dragon_die=True),
        ["entities"],
    ),
    "/riders/combat": (MAX_DICE, riders(99, 96), riders(99, 97), ["initiator", "items"]),
    "/dnd5e/initiative": (40, fifth(40), fifth(41), ["combatants"]),
    "/dnd5e/turn": (0, {"speed": 30, "steps": [{"kind": "move", "feet": 30}]}, {}, []),
    "/dnd5e/check": (1, {"dc": 10}, {"dc": 10, "advantage": True}, ["advantage"]),
    "/dnd5e/attack": (41, strike(20), strike(21), ["damage"]),
    "/dnd5e/death-save": (1, {}, {"disadvantage": 2}, ["advantage"]),
    # 3 dice x (1 + 10 explosions each) against 4 x 11
    "/dice/roll": (33, {"notation": "3d6!"}, {"notation": "4d6!"}, ["notation"]),
}


def test_the_hand_made_edges_are_of_served_endpoints() -> None:
    assert set(EDGES) <= set(RESOLVING)  # odds and simulations bound their own work


@pytest.mark.parametrize("path", sorted(EDGES))
def test_at_the_budget_resolves_just_over_is_refused(path: str) -> None:
    budget, under, over, loc = EDGES[path]
    api = Api(max_dice=budget, log_level="warning")
    ok = api.post(path, json={**under, "seed": "edge"})
    assert ok.status_code == 200, ok.text[:1000]
    if not over:  # an endpoint that rolls no dice: even a budget of 0 lets it through
        assert budget == 0 and ok.json()["rolls"] == []
        return
    refused = api.post(path, json={**over, "seed": "edge"})
    assert refused.status_code == 422, refused.text[:1000]
    problem = refused.json()
    assert problem["type"].endswith("limit-exceeded")
    assert problem["errors"][0]["loc"] == ["body", *loc]
    assert f"the budget is {budget:,} base dice" in problem["detail"]
    assert problem["detail"].startswith(".".join(str(p) for p in loc) + ": ")
    # the same request fits a larger budget: the refusal is the budget's, nothing else
    assert (
        Api(max_dice=budget + 10_000, log_level="warning")
        .post(path, json={**over, "seed": "edge"})
        .status_code
        == 200
    )


def test_the_budget_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().max_dice == MAX_DICE
    monkeypatch.setenv("DRAGONROLL_MAX_DICE", "123")
    assert Settings().max_dice == 123
    api = Api(max_dice=Settings().max_dice, log_level="warning")
    assert api.post("/dos/roll", json={"pool": 100, "seed": 1}).status_code == 200
    body = {**pool(2), "attempts": 61, "successes_needed": 1, "seed": 1}  # 122 dice
    assert api.post("/dos/complex", json=body).status_code == 200
    assert api.post("/dos/complex", json={**body, "attempts": 62}).status_code == 422


@pytest.fixture(scope="module")
def default_api() -> Api:
    """The default budgets (the test), the CPU limit out of their way: on a loaded machine a request
    just inside a budget can pass 1.5 s of CPU; the limit has its own tests (tests/service/test_lanes*)."""
    return Api(log_level="warning", job_cpu_seconds=60)


#: Heavy requests: (path, body) families whose size grows with the dice they ask for.
heavy = st.one_of(
    st.builds(
        lambda attempts, skill: (
            "/dos/complex",
            {**pool(skill), "dc": 10**6, "attempts": attempts, "successes_needed": attempts},
        ),
        st.integers(1, 1000),
        st.integers(0, 100),
    ),
    st.builds(
        lambda count, skill: ("/dos/turn", melee(count, skill)),
        st.integers(1, 901),
        st.integers(0, 100),
    ),
    st.builds(
        lambda count, skill: ("/dos/turn", duel(count, skill)),
        st.integers(1, 1000),
        st.integers(0, 100),
    ),
    st.builds(
        lambda n, p: ("/dragon/battle", dragon(n, p)), st.integers(1, 100), st.integers(0, 100)
    ),
    st.builds(
        lambda n, last: ("/riders/combat", riders(n, last)), st.integers(0, 99), st.integers(1, 100)
    ),
    st.builds(lambda n: ("/dnd5e/attack", strike(n)), st.integers(1, 100)),
)


def test_the_largest_answers_stay_under_the_stated_size(default_api: Api) -> None:
    """Requests at and around the default budget: each resolves to an answer under MAX_ANSWER or is
    refused as over the budget; the worst known cases are always among them."""
    worst = [
        ("/dos/turn", melee(901, 3)),
        ("/dos/complex", {**pool(10), "dc": 10**6, "attempts": 1000, "successes_needed": 1000}),
    ]
    sizes: list[int] = []

    def one(path: str, body: dict[str, Any], seed: str | int) -> None:
        r = default_api.post(path, json={**body, "seed": seed})
        if r.status_code == 422:
            assert r.json()["type"].endswith("limit-exceeded"), r.text
            return
        assert r.status_code == 200, r.text[:1000]
        sizes.append(len(r.content))
        assert len(r.content) < MAX_ANSWER, (path, len(r.content))

    for path, body in worst:
        one(path, body, "worst")
    assert min(sizes) > MAX_ANSWER // 4  # the worst cases are close enough to the bound to matter

    @PROFILE
    @given(case=heavy, seed=st.integers(0, 2**32))
    def run(case: tuple[str, dict[str, Any]], seed: int) -> None:
        one(*case, seed)

    run()


def test_no_answer_over_4_mib_even_where_the_estimate_counts_dice_only() -> None:
    """``/dos/complex`` counts its dice, not its answer's bytes: with the dice budget raised by an
    operator, 1,000 attempts of 100 dice in Arabic would answer about 14 MB. The encoded answer is
    refused at the 4 MiB bound (``rules.budget.check_answer``), never sent."""
    # the answer bound is the test: the CPU limit (tests/service/test_lanes*.py) out of its way
    api = Api(max_dice=10_000_000, log_level="warning", job_cpu_seconds=60)
    body = {"seed": "big", "stat": 10, "skill": 100, "attempts": 1000, "successes_needed": 1000}
    body |= {"dc": 5000, "lang": "ar"}
    r = api.post("/dos/complex", body)
    assert r.status_code == 422, r.text[:300]
    problem = r.json()
    assert problem["type"].endswith("/limit-exceeded"), problem
    assert "4 MiB" in problem["detail"] and f"{MAX_ANSWER:,}" in problem["detail"], problem
    assert len(r.content) < 2_000
