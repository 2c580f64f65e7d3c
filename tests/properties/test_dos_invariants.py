"""Dragons of Shadows invariants (DOS-1..13) over random pools and seeds, on the engine directly."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.dice import DiceSource
from rules.dos import checks
from rules.dos.models import (
    DIFFICULTY_PERCENT,
    ComplexRequest,
    OpposedRequest,
    PoolRequest,
    PoolRoll,
    TestRequest,
)
from tests.properties.strategies import ENGINE_PROFILE as PROFILE
from tests.properties.strategies import seeds

stats = st.integers(-1_000_000, 1_000_000)
skills = st.integers(0, 100)
small_skills = st.integers(0, 12)
modifiers = st.one_of(
    st.fixed_dictionaries({}),
    st.fixed_dictionaries({"difficulty": st.sampled_from(sorted(DIFFICULTY_PERCENT))}),
    st.fixed_dictionaries({"modifier_percent": st.integers(-100, 100)}),
)


def resolve(resolver: Any, slots: Any, model: Any, body: dict[str, Any]) -> Any:
    req = model.model_validate(body)
    return resolver(req, DiceSource(req.seed, req.dice, slots(req)))


def check_pool(pool: PoolRoll, size: int) -> None:
    base = [d for d in pool["dice"] if not d["extra"]]
    extra = [d for d in pool["dice"] if d["extra"]]
    values = [d["value"] for d in base]
    assert len(base) == size
    assert all(1 <= d["value"] <= 10 for d in pool["dice"])
    ones, tens = values.count(1), values.count(10)
    assert pool["luck"] == (tens > size - tens)  # DOS-6
    assert pool["bad_luck"] == (ones > size - ones)  # DOS-5
    assert not (pool["luck"] and pool["bad_luck"])
    cancelled = [d for d in base if d["cancelled"]]
    if ones > size - ones:  # DOS-2: more ones than others cancel the whole pool
        assert len(cancelled) == size
    else:  # each 1 cancels one other die, never a 1, the highest first
        assert len(cancelled) == ones
        assert all(d["value"] != 1 for d in cancelled)
        kept = [d["value"] for d in base if not d["cancelled"] and d["value"] != 1]
        assert not cancelled or not kept or min(d["value"] for d in cancelled) >= max(kept)
    surviving_tens = sum(1 for d in base if d["value"] == 10 and not d["cancelled"])
    chain_ends = sum(1 for d in extra if d["value"] != 10)
    assert chain_ends == surviving_tens  # DOS-3: one chain per surviving 10, each ends below 10
    assert pool["result"] == sum(d["value"] for d in base if not d["cancelled"]) + sum(
        d["value"] for d in extra
    )  # DOS-4
    assert pool["result"] >= 0


@PROFILE
@given(size=skills, seed=seeds)
def test_pool_invariants(size: int, seed: str | int) -> None:
    result = resolve(checks.roll, checks.roll_slots, PoolRequest, {"pool": size, "seed": seed})
    check_pool(result["roll"], size)
    assert [r["value"] for r in result["rolls"]] == [
        d["value"] for d in result["roll"]["dice"]
    ]  # DOS-7 order
    assert {r["slot"] for r in result["rolls"]} <= {"roll"}


@PROFILE
@given(stat=stats, skill=skills, dc=stats, mod=modifiers, seed=seeds)
def test_simple_test_invariants(
    stat: int, skill: int, dc: int, mod: dict[str, Any], seed: str | int
) -> None:
    body = {"stat": stat, "skill": skill, "dc": dc, "seed": seed, **mod}
    r = resolve(checks.test, checks.test_slots, TestRequest, body)
    check_pool(r["roll"], skill)
    assert (
        r["total"] == (stat + r["roll"]["result"]) * (100 + r["modifier_percent"]) // 100
    )  # DOS-8
    assert r["margin"] == r["total"] - dc
    expected = (
        "luck"
        if r["roll"]["luck"]
        else "bad_luck"
        if r["roll"]["bad_luck"]
        else "success"
        if r["total"] > dc
        else "failure"
    )
    assert r["outcome"] == expected  # DOS-11
    assert r["success"] == (r["outcome"] in ("success", "luck"))


@PROFILE
@given(
    a=st.fixed_dictionaries({"stat": stats, "skill": small_skills}),
    b=st.fixed_dictionaries({"stat": stats, "skill": small_skills}),
    seed=seeds,
)
def test_opposed_invariants(a: dict[str, int], b: dict[str, int], seed: str | int) -> None:
    r = resolve(
        checks.opposed, checks.opposed_slots, OpposedRequest, {"a": a, "b": b, "seed": seed}
    )
    check_pool(r["a"]["roll"], a["skill"])
    check_pool(r["b"]["roll"], b["skill"])
    if r["a"]["roll"]["luck"] != r["b"]["roll"]["luck"]:  # DOS-12
        assert r["winner"] == ("a" if r["a"]["roll"]["luck"] else "b")
    elif r["a"]["roll"]["bad_luck"] != r["b"]["roll"]["bad_luck"]:
        assert r["winner"] == ("b" if r["a"]["roll"]["bad_luck"] else "a")
    elif r["a"]["total"] == r["b"]["total"]:
        assert r["winner"] is None
    else:
        assert r["winner"] == ("a" if r["a"]["total"] > r["b"]["total"] else "b")


@PROFILE
@given(
    stat=st.integers(-50, 50),
    skill=small_skills,
    dc=st.integers(-20, 60),
    attempts=st.integers(1, 30),
    data=st.data(),
    seed=seeds,
)
def test_complex_test_invariants(
    *, stat: int, skill: int, dc: int, attempts: int, data: st.DataObject, seed: str | int
) -> None:
    needed = data.draw(st.integers(1, attempts))
    body = {
        "stat": stat,
        "skill": skill,
        "dc": dc,
        "attempts": attempts,
        "successes_needed": needed,
        "seed": seed,
    }
    r = resolve(checks.complex_test, checks.complex_slots, ComplexRequest, body)
    assert 1 <= len(r["attempts"]) <= attempts
    assert [a["n"] for a in r["attempts"]] == list(range(1, len(r["attempts"]) + 1))
    assert r["successes"] == sum(a["success"] for a in r["attempts"])
    assert r["success"] == (r["successes"] >= needed)
    if r["success"]:  # DOS-13: stops at the success that completes the test
        assert r["attempts"][-1]["success"] and r["successes"] == needed
    else:
        assert len(r["attempts"]) == attempts
    assert r["partial"] == (not r["success"] and r["successes"] > 0)
    assert all(roll["slot"].startswith("attempt.") for roll in r["rolls"])
