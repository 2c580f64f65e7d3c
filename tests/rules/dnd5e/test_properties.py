"""Properties across the dnd5e resolvers: any schema-valid request resolves or raises a typed error;
the same request and seed give the same bytes; enumeration oracles for D5E-10."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from pydantic_core import to_json

from rules.errors import RulesError
from tests.rules.dnd5e.helpers import run_check, run_initiative, run_turn

IDS = ["a", "b", "c", "d", "e", "f"]


@st.composite
def combatants(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for cid in draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=6, unique=True)):
        c: dict[str, Any] = {
            "id": cid,
            "side": draw(st.sampled_from(["players", "gm"])),
            "dex_mod": draw(st.integers(-1, 1)),
        }
        if draw(st.booleans()):
            c["group"] = draw(st.sampled_from(["g1", "g2"]))
            c["dex_mod"] = 0
            c["side"] = "gm"
        if draw(st.booleans()):
            c["hiding"] = draw(
                st.sampled_from([{"stealth_total": 12}, {"stealth_mod": 2}, {"stealth_mod": 0}])
            )
        if draw(st.booleans()):
            c["passive_perception"] = draw(st.integers(8, 16))
        if draw(st.integers(0, 4)) == 0:
            c["surprised"] = draw(st.booleans())
        c["dexterity"] = 10 if "group" in c else draw(st.integers(8, 12))
        out.append(c)
    return out


@settings(max_examples=150, deadline=None)
@given(
    combatants(),
    st.sampled_from(["d20", "dexterity", "given"]),
    st.lists(st.sampled_from([*IDS, "g1", "g2"]), unique=True, max_size=8),
    st.sampled_from(["hidden", "noticed"]),
    st.integers(0, 50),
)
def test_initiative_resolves_or_raises_a_typed_error(
    cs: list[dict[str, Any]], mode: str, order: list[str], ties: str, seed: int
) -> None:
    places = {c.get("group", c["id"]) for c in cs}
    fields = {
        "combatants": cs,
        "tie_break": mode,
        "tie_order": [p for p in order if p in places],
        "options": {"surprise_ties": ties},
        "seed": seed,
    }
    try:
        res = run_initiative(**fields)
    except (RulesError, ValidationError):
        return
    assert to_json(res) == to_json(run_initiative(**fields))
    members = [m for e in res["order"] for m in e["members"]]
    assert sorted(members) == sorted(c["id"] for c in cs)
    totals = [e["total"] for e in res["order"]]
    assert totals == sorted(totals, reverse=True)
    for v in res["surprise"]:
        assert v["surprised"] == (v["id"] in res["surprised"])
        assert bool(v["restrictions"]) == v["surprised"]
        if v["reason"] == "unnoticed":
            assert v["noticed"] == [] and v["unnoticed"]


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 60),
    st.lists(
        st.one_of(
            st.fixed_dictionaries({"kind": st.just("move"), "feet": st.integers(0, 40)}),
            st.fixed_dictionaries(
                {"kind": st.just("action"), "name": st.sampled_from(["attack", "dash"])}
            ),
            st.fixed_dictionaries(
                {
                    "kind": st.just("bonus_action"),
                    "name": st.just("x"),
                    "feature": st.one_of(st.none(), st.just("Cunning Action")),
                }
            ),
            st.fixed_dictionaries(
                {
                    "kind": st.just("interaction"),
                    "object": st.just("o"),
                    "uses_action": st.booleans(),
                }
            ),
            st.fixed_dictionaries({"kind": st.just("reaction"), "name": st.just("r")}),
        ),
        max_size=8,
    ),
    st.booleans(),
    st.booleans(),
)
def test_turn_valid_iff_within_every_budget(
    speed: int, steps: list[dict[str, Any]], surprised: bool, incapacitated: bool
) -> None:
    res = run_turn(speed=speed, steps=steps, surprised=surprised, incapacitated=incapacitated)
    b = res["budget"]
    ungranted = any(s["kind"] == "bonus_action" and s["feature"] is None for s in steps)
    blocked = (surprised or incapacitated) and (
        b["actions"] or b["bonus_actions"] or b["reactions"]
    )
    frozen = surprised and (b["movement"] or b["free_interactions"])
    within = (
        b["movement"] <= b["movement_allowed"]
        and b["actions"] <= 1
        and b["bonus_actions"] <= 1
        and b["free_interactions"] <= 1
        and b["reactions"] <= 1
        and not ungranted
        and not blocked
        and not frozen
    )
    assert res["valid"] == within
    assert all(v["rule"] in ("D5E-4", "D5E-8", "D5E-9") for v in res["violations"])


def _success_rate(modifier: int, dc: int, **edge: bool) -> Fraction:
    """Brute force: every scripted d20 (pair) through the real endpoint."""
    two = edge.get("advantage", False) != edge.get("disadvantage", False)
    cases = (
        [[a, b] for a in range(1, 21) for b in range(1, 21)] if two else [[a] for a in range(1, 21)]
    )
    wins = sum(
        run_check(modifier=modifier, dc=dc, dice={"d20": d}, **edge)["success"] for d in cases
    )
    return Fraction(wins, len(cases))


def test_d5e10_advantage_oracle() -> None:
    # P(one d20 + 3 >= 15) = 9/20; advantage 1 - (11/20)^2; disadvantage (9/20)^2.
    assert _success_rate(3, 15) == Fraction(9, 20)
    assert _success_rate(3, 15, advantage=True) == 1 - Fraction(11, 20) ** 2
    assert _success_rate(3, 15, disadvantage=True) == Fraction(9, 20) ** 2
    assert _success_rate(3, 15, advantage=True, disadvantage=True) == Fraction(9, 20)
