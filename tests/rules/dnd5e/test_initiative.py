"""D5E-1..7: round, steps, surprise, initiative, groups, order and ties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import to_json

from rules.errors import DiceScriptError, InvalidRequest, LimitExceeded
from tests.rules.dnd5e.helpers import run_initiative


def c(id: str, side: str = "players", dex_mod: int = 0, **fields: Any) -> dict[str, Any]:
    return {"id": id, "side": side, "dex_mod": dex_mod, **fields}


def ambush(**options: Any) -> dict[str, Any]:
    """Two goblins hide from a fighter (passive 12) and a ranger (passive 15)."""
    return {
        "combatants": [
            c("fighter", dex_mod=1, passive_perception=12),
            c("ranger", dex_mod=3, passive_perception=15),
            c("g1", "gm", 2, group="goblins", hiding={"stealth_mod": 6}),
            c("g2", "gm", 2, group="goblins", hiding={"stealth_total": 15}),
        ],
        **options,
    }


def test_d5e1_a_round_is_six_seconds() -> None:
    res = run_initiative(combatants=[c("a")], dice={"initiative.a": [10]})
    assert res["round_seconds"] == 6


def test_d5e2_surprise_is_determined_before_initiative() -> None:
    res = run_initiative(
        **ambush(),
        dice={
            "stealth.g1": [9],
            "initiative.fighter": [4],
            "initiative.ranger": [8],
            "initiative.goblins": [12],
        },
    )
    assert [r["slot"] for r in res["rolls"]] == [
        "stealth.g1",
        "initiative.fighter",
        "initiative.ranger",
        "initiative.goblins",
    ]
    codes = [e["code"] for e in res["events"]]
    assert codes.index("dnd5e.surprise.unnoticed") < codes.index("dnd5e.initiative.rolled")


def test_d5e3_group_member_surprised_while_another_is_not() -> None:
    # g1 rolls 9 + 6 = 15, g2 gives 15. Fighter (12) notices neither: surprised. Ranger (15):
    # both tie its passive score, and a tie stays hidden: surprised too.
    res = run_initiative(
        **ambush(),
        dice={
            "stealth.g1": [9],
            "initiative.fighter": [4],
            "initiative.ranger": [8],
            "initiative.goblins": [12],
        },
    )
    assert res["stealth"]["g1"]["total"] == 15 and res["stealth"]["g1"]["d20s"] == [9]
    assert res["stealth"]["g2"]["total"] == 15 and res["stealth"]["g2"]["d20s"] == []
    assert res["surprised"] == ["fighter", "ranger"]
    # With ties noticed, the ranger notices both goblins; the fighter is still surprised.
    res = run_initiative(
        **ambush(options={"surprise_ties": "noticed"}),
        dice={
            "stealth.g1": [9],
            "initiative.fighter": [4],
            "initiative.ranger": [8],
            "initiative.goblins": [12],
        },
    )
    assert res["surprised"] == ["fighter"]
    ranger = res["surprise"][1]
    assert (ranger["reason"], ranger["noticed"], ranger["unnoticed"]) == (
        "noticed",
        ["g1", "g2"],
        [],
    )
    fighter = res["surprise"][0]
    assert (fighter["reason"], fighter["unnoticed"]) == ("unnoticed", ["g1", "g2"])


def test_d5e3_noticing_one_hider_is_enough() -> None:
    # g1 rolls 2 + 6 = 8 (below 12): the fighter notices g1, though not g2.
    res = run_initiative(**ambush(), dice={"stealth.g1": [2]}, seed="x")
    fighter = res["surprise"][0]
    assert (fighter["surprised"], fighter["noticed"], fighter["unnoticed"]) == (
        False,
        ["g1"],
        ["g2"],
    )
    assert res["surprised"] == []


def test_d5e3_one_member_of_the_players_group_surprised() -> None:
    # The seed: one member of a group can be surprised while the others are not.
    res = run_initiative(
        combatants=[
            c("k1", group="guards", passive_perception=10),
            c("k2", group="guards", passive_perception=16),
            c("thief", "gm", 4, hiding={"stealth_total": 14}),
        ],
        dice={"initiative.guards": [7], "initiative.thief": [10]},
    )
    assert res["surprised"] == ["k1"]
    assert [v["reason"] for v in res["surprise"]] == ["unnoticed", "noticed", "no_hiding_opponent"]
    assert res["order"][1]["id"] == "guards" and res["order"][1]["members"] == ["k1", "k2"]


def test_d5e3_an_opponent_in_plain_view_prevents_surprise() -> None:
    res = run_initiative(
        combatants=[
            c("hero", passive_perception=5),
            c("ogre", "gm"),
            c("imp", "gm", hiding={"stealth_total": 30}),
        ],
        seed=1,
    )
    assert res["surprise"][0]["reason"] == "no_hiding_opponent"
    assert res["surprise"][0]["unnoticed"] == ["imp"]
    assert res["surprised"] == []


def test_d5e3_the_gm_ruling_wins() -> None:
    res = run_initiative(
        combatants=[
            c("hero", passive_perception=30, surprised=True),
            c("sage", passive_perception=1, surprised=False),
            c("imp", "gm", hiding={"stealth_total": 10}),
        ],
        seed=1,
    )
    assert res["surprised"] == ["hero"]
    assert [v["reason"] for v in res["surprise"][:2]] == ["gm", "gm"]


def test_d5e4_surprised_first_round_restrictions() -> None:
    res = run_initiative(**ambush(), dice={"stealth.g1": [20]}, seed=2)
    assert res["surprise"][0]["restrictions"] == [
        "no_move",
        "no_action",
        "no_reaction_until_turn_ends",
    ]
    assert res["surprise"][2]["restrictions"] == []


def test_d5e5_initiative_is_a_dexterity_check() -> None:
    res = run_initiative(
        combatants=[
            c("a", dex_mod=3, initiative_bonus=5),
            c("b", dex_mod=-1, advantage=True),
            c("d", dex_mod=2, advantage=2, disadvantage=1),
            c("e", dex_mod=0, disadvantage=True),
        ],
        dice={
            "initiative.a": [10],
            "initiative.b": [4, 17],
            "initiative.d": [6],
            "initiative.e": [15, 9],
        },
    )
    totals = {e["id"]: (e["total"], e["roll"]["d20s"], e["roll"]["mode"]) for e in res["order"]}
    assert totals == {
        "a": (18, [10], "normal"),
        "b": (16, [4, 17], "advantage"),
        "d": (8, [6], "normal"),
        "e": (9, [15, 9], "disadvantage"),
    }


def test_d5e5_a_group_rolls_once_and_acts_together() -> None:
    res = run_initiative(
        combatants=[
            c("w1", "gm", 2, group="wolves"),
            c("hero", dex_mod=1),
            c("w2", "gm", 2, group="wolves"),
            c("w3", "gm", 2, group="wolves"),
        ],
        dice={"initiative.wolves": [11], "initiative.hero": [5]},
    )
    assert [(e["id"], e["members"], e["group"], e["total"]) for e in res["order"]] == [
        ("wolves", ["w1", "w2", "w3"], True, 13),
        ("hero", ["hero"], False, 6),
    ]
    assert [r["slot"] for r in res["rolls"]] == ["initiative.wolves", "initiative.hero"]


def test_d5e5_group_members_must_be_identical() -> None:
    with pytest.raises(InvalidRequest) as err:
        run_initiative(
            combatants=[c("w1", "gm", 2, group="wolves"), c("w2", "gm", 3, group="wolves")],
            seed=1,
        )
    assert err.value.errors[0].loc == ("combatants", 1, "dex_mod")


def test_d5e6_highest_total_first() -> None:
    res = run_initiative(
        combatants=[c("a"), c("b", dex_mod=5), c("d", dex_mod=-2)],
        dice={"initiative.a": [12], "initiative.b": [2], "initiative.d": [20]},
    )
    assert [(e["id"], e["total"]) for e in res["order"]] == [("d", 18), ("a", 12), ("b", 7)]


def test_d5e7_ties_by_d20_repeat_while_tied() -> None:
    res = run_initiative(
        combatants=[c("a", dex_mod=2), c("b", "gm", 1), c("d", "gm", 0), c("z")],
        dice={
            "initiative.a": [10],
            "initiative.b": [11],
            "initiative.d": [12],
            "initiative.z": [1],
            "tiebreak.a": [8, 3],
            "tiebreak.b": [8, 19],
            "tiebreak.d": [14],
        },
    )
    assert [(e["id"], e["total"], e["tiebreak"]) for e in res["order"]] == [
        ("d", 12, [14]),
        ("b", 12, [8, 19]),
        ("a", 12, [8, 3]),
        ("z", 1, []),
    ]
    assert [r["slot"] for r in res["rolls"]][4:] == [
        "tiebreak.a",
        "tiebreak.b",
        "tiebreak.d",
        "tiebreak.a",
        "tiebreak.b",
    ]


def test_d5e7_ties_by_dexterity_then_d20() -> None:
    res = run_initiative(
        combatants=[
            c("a", dex_mod=2, dexterity=14),
            c("b", "gm", 2, dexterity=15),
            c("d", "gm", 2, dexterity=14),
        ],
        tie_break="dexterity",
        dice={
            "initiative.a": [9],
            "initiative.b": [9],
            "initiative.d": [9],
            "tiebreak.a": [5],
            "tiebreak.d": [6],
        },
    )
    assert [e["id"] for e in res["order"]] == ["b", "d", "a"]
    assert [r["slot"] for r in res["rolls"]][3:] == ["tiebreak.a", "tiebreak.d"]


def test_d5e7_dexterity_mode_needs_scores() -> None:
    with pytest.raises(InvalidRequest, match="dexterity needs it"):
        run_initiative(combatants=[c("a", dexterity=10), c("b")], tie_break="dexterity", seed=1)


def test_d5e7_ties_by_given_order() -> None:
    res = run_initiative(
        combatants=[c("a"), c("w1", "gm", group="wolves"), c("b")],
        tie_break="given",
        tie_order=["b", "wolves", "a"],
        dice={"initiative.a": [9], "initiative.wolves": [9], "initiative.b": [9]},
    )
    assert [e["id"] for e in res["order"]] == ["b", "wolves", "a"]
    assert len(res["rolls"]) == 3


def test_d5e7_given_order_must_cover_the_tie() -> None:
    with pytest.raises(InvalidRequest, match="tie_order must list b") as err:
        run_initiative(
            combatants=[c("a"), c("b")],
            tie_break="given",
            tie_order=["a"],
            dice={"initiative.a": [9], "initiative.b": [9]},
        )
    assert err.value.errors[0].loc == ("tie_order",)


def test_d5e7_given_order_names_places() -> None:
    with pytest.raises(InvalidRequest, match="name the group"):
        run_initiative(
            combatants=[c("w1", "gm", group="wolves")], tie_break="given", tie_order=["w1"]
        )


def test_d5e7_given_mode_has_no_tiebreak_slot() -> None:
    with pytest.raises(DiceScriptError, match=r"draws no dice in slot 'tiebreak\.a'"):
        run_initiative(combatants=[c("a")], tie_break="given", dice={"tiebreak.a": [1]})


@pytest.mark.parametrize(
    ("combatants", "loc"),
    [
        ([c("a"), c("a")], ("combatants", 1, "id")),
        ([c("a"), c("b", group="a")], ("combatants", 1, "group")),
        (
            [c("a"), c("b", "gm", hiding={"stealth_total": 3})],
            ("combatants", 0, "passive_perception"),
        ),
    ],
)
def test_inconsistent_requests(combatants: list[dict[str, Any]], loc: tuple[Any, ...]) -> None:
    with pytest.raises(InvalidRequest) as err:
        run_initiative(combatants=combatants, seed=1)
    assert err.value.errors[0].loc == loc


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-5, 5), min_size=1, max_size=12),
    st.sampled_from(["d20", "dexterity"]),
    st.text(min_size=1, max_size=8, alphabet="abcdef"),
)
def test_order_is_a_permutation_sorted_by_total(mods: list[int], mode: str, seed: str) -> None:
    combatants = [c(f"c{i}", dex_mod=m, dexterity=10 + m) for i, m in enumerate(mods)]
    res = run_initiative(combatants=combatants, tie_break=mode, seed=seed)
    again = run_initiative(combatants=combatants, tie_break=mode, seed=seed)
    assert to_json(res) == to_json(again)
    assert sorted(e["id"] for e in res["order"]) == sorted(x["id"] for x in combatants)
    totals = [e["total"] for e in res["order"]]
    assert totals == sorted(totals, reverse=True)
    for e in res["order"]:
        assert 1 <= e["roll"]["natural"] <= 20


def test_d5e7_long_ties_do_not_recurse() -> None:
    # 600 rounds of equal rolls, then the tie splits: no recursion limit, exact draws.
    res = run_initiative(
        combatants=[c("a"), c("b"), c("d")],
        dice={
            "initiative.a": [10],
            "initiative.b": [10],
            "initiative.d": [10],
            "tiebreak.a": [5] * 600 + [1],
            "tiebreak.b": [5] * 600 + [2],
            "tiebreak.d": [5] * 600 + [3],
        },
    )
    assert [e["id"] for e in res["order"]] == ["d", "b", "a"]
    assert len(res["order"][0]["tiebreak"]) == 601 and res["unused_dice"] == {}


def test_d5e7_a_tie_that_never_separates_is_a_limit() -> None:
    with pytest.raises(LimitExceeded, match="still tied after 1000 rounds"):
        run_initiative(
            combatants=[c("a"), c("b")],
            dice={
                "initiative.a": [10],
                "initiative.b": [10],
                "tiebreak.a": [5] * 1000,
                "tiebreak.b": [5] * 1000,
            },
        )


def test_d5e3_passive_score_not_needed_with_an_opponent_in_view() -> None:
    res = run_initiative(
        combatants=[c("hero"), c("ogre", "gm"), c("imp", "gm", hiding={"stealth_total": 3})],
        seed=1,
    )
    assert (res["surprise"][0]["reason"], res["surprise"][0]["unnoticed"]) == (
        "no_hiding_opponent",
        [],
    )
