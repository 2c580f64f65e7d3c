"""Properties of the combat replay (RDR-8, RDR-9): step and auto agree, dice never move, play ends."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import to_json

from rules.riders.models import CombatResult, Decision, Option
from tests.rules.riders.helpers import run

ELEMENTS = ["fire", "water", "earth", "lightning", "wind", "metal"]
DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


@st.composite
def items(draw: st.DrawFn, prefix: str) -> list[dict[str, Any]]:
    out = []
    for n in range(draw(st.integers(0, 4))):
        timing = draw(st.sampled_from(["pre", "counter", "counter", "damage"]))
        it: dict[str, Any] = {"id": f"{prefix}{n}", "name": f"Item {prefix}{n}", "timing": timing}
        it["bonus"] = draw(st.integers(-2, 6))
        dice = draw(st.sampled_from([None, "1d6", "2d6", "1d4"]))
        if dice is not None:
            it["dice"] = dice
        if timing == "pre":
            it["extra_rolloff_dice"] = draw(st.integers(0, 2))
        it["hide_shield"] = draw(st.booleans()) and draw(st.booleans())
        it["ranged"] = draw(st.booleans()) and draw(st.booleans())
        if timing == "damage" or draw(st.booleans()):
            it["damage"] = "pulls the loser"
        out.append(it)
    return out


@st.composite
def sides(draw: st.DrawFn, name: str) -> dict[str, Any]:
    riders = [
        {
            "id": f"{name}r{n}",
            "current": n == 0,
            "bonuses": draw(st.dictionaries(st.sampled_from(ELEMENTS), st.integers(0, 3))),
        }
        for n in range(draw(st.integers(0, 2)))
    ]
    pos = draw(
        st.none()
        | st.fixed_dictionaries(
            {"x": st.integers(-3, 3), "y": st.integers(-3, 3), "facing": st.sampled_from(DIRS)}
        )
    )
    return {
        "id": name,
        "element": draw(st.sampled_from(ELEMENTS)),
        "riders": riders,
        "fatigue": draw(st.integers(0, 3)),
        "rage": draw(st.integers(0, 3)),
        "terrain_bonus": draw(st.integers(0, 4)),
        "position": pos,
        "has_rider": bool(riders) or draw(st.booleans()),
        "items": draw(items(name[0])),
    }


situations = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10**6),
        "initiator": sides("ini"),
        "defender": sides("def"),
        "attack": st.fixed_dictionaries({"ranged": st.booleans()}),
    }
)


def as_json(d: dict[str, Any]) -> dict[str, Any]:
    """A decision of a result as a request would send it (without its null fields)."""
    assert list(d) == list(Decision.model_fields)
    return {key: value for key, value in d.items() if value is not None}


def allowed(d: dict[str, Any], options: list[Option]) -> bool:
    for o in options:
        if (o["choice"], o["item"], o["damage"]) == (d["choice"], d["item"], d["damage"]):
            directions = o["directions"]
            return directions is None or d["direction"] in directions
    return False


def comparable(res: CombatResult) -> dict[str, Any]:
    return {key: value for key, value in res.items() if key != "auto_filled"}


@settings(max_examples=60, deadline=None)
@given(situations)
def test_rdr8_rdr9_step_mode_replays_auto_mode(situation: dict[str, Any]) -> None:
    auto = run(auto=True, **situation)
    assert auto["finished"] and auto["awaiting"] is None
    taken = [as_json(d) for d in auto["decisions"]]
    assert auto["auto_filled"] == list(range(len(taken)))
    for k in range(len(taken)):
        step = run(decisions=taken[:k], **situation)
        assert not step["finished"] and step["awaiting"] is not None
        assert step["awaiting"]["decision"] == k
        assert step["awaiting"]["by"] == auto["decisions"][k]["by"]
        assert allowed(auto["decisions"][k], step["awaiting"]["choices"])
        assert step["rolls"] == auto["rolls"][: len(step["rolls"])]
    final = run(decisions=taken, **situation)
    assert final["auto_filled"] == []
    assert comparable(final) == comparable(auto)


@settings(max_examples=60, deadline=None)
@given(situations, st.data())
def test_rdr8_any_legal_play_is_accepted_and_ends(
    situation: dict[str, Any], data: st.DataObject
) -> None:
    taken: list[dict[str, Any]] = []
    previous = run(**situation)
    for _ in range(40):
        if previous["finished"]:
            break
        assert previous["awaiting"] is not None
        option = data.draw(st.sampled_from(previous["awaiting"]["choices"]))
        decision: dict[str, Any] = {"by": previous["awaiting"]["by"], "choice": option["choice"]}
        if option["item"] is not None:
            decision["item"] = option["item"]
        if option["damage"] is not None:
            decision["damage"] = option["damage"]
        if option["directions"] is not None:
            decision["direction"] = data.draw(st.sampled_from(option["directions"]))
        taken.append(decision)
        res = run(decisions=taken, **situation)
        assert (
            res["rolls"][: len(previous["rolls"])] == previous["rolls"]
        )  # shown dice never change
        assert res["events"][: len(previous["events"]) - 1] == previous["events"][:-1]
        previous = res
    assert previous["finished"]
    assert previous["winner"] is not None
    assert (previous["damage_skipped"] is None) == (
        len(previous["damage"]) == previous["damage_instances"]
    )
    again = run(decisions=taken, **situation)
    assert to_json(again) == to_json(previous)
