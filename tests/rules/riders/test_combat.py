"""RDR-1..10 with scripted dice and exact values."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from rules.errors import IllegalDecision, InvalidRequest
from rules.riders.models import DiceNotation, parse_dice
from tests.rules.riders.helpers import ROLL, blue, dec, item, red, request, rolled, run

CONCEDE_D = dec("defender", "concede")
CONCEDE_I = dec("initiator", "concede")
FATIGUE_I = dec("initiator", "damage", damage="fatigue")
FATIGUE_D = dec("defender", "damage", damage="fatigue")


def choices(res) -> list[dict]:  # type: ignore[no-untyped-def]
    assert res["awaiting"] is not None
    return [{k: v for k, v in o.items() if v is not None} for o in res["awaiting"]["choices"]]


# ---------------------------------------------------------------- RDR-1


def test_rdr1_combat_changes_nothing_but_the_damage() -> None:
    """Items used in combat are not actions: the state after differs only by the damage dealt."""
    ini = red(items=[item("lance", bonus=5)], position={"x": 3, "y": 3, "facing": "N"})
    dfd = blue(fatigue=1, rage=2, position={"x": 4, "y": 3, "facing": "S"})
    res = run(
        initiator=ini,
        defender=dfd,
        dice=rolled([1, 1], [1, 1, 1, 1]),
        decisions=[ROLL, dec("initiator", "use_item", item="lance"), CONCEDE_D, FATIGUE_I],
    )
    assert res["finished"] and res["winner"] == "initiator"
    req = request(initiator=ini, defender=dfd)
    # items stay listed; nothing else moves
    assert res["state"]["initiator"] == req.initiator.model_dump()
    assert res["state"]["defender"] == req.defender.model_copy(update={"fatigue": 2}).model_dump()


# ---------------------------------------------------------------- RDR-2


def test_rdr2_bonus_sums_current_and_delivered_riders_terrain_and_pre_items() -> None:
    ini = red(
        riders=[
            {"id": "ash", "current": True, "bonuses": {"water": 2, "earth": 5}},
            {"id": "bo", "current": False, "bonuses": {"water": 1}},
        ],
        terrain_bonus=3,
        items=[item("potion", "pre", bonus=1, dice="1d6"), item("lance", bonus=9)],
    )
    res = run(initiator=ini, dice=rolled([2, 3], potion=[4]))
    b = res["bonuses"]["initiator"]
    assert [(r["id"], r["bonus"]) for r in b["riders"]] == [("ash", 2), ("bo", 1)]
    assert (b["elemental"], b["elemental_counted"], b["terrain"]) == (3, True, 3)
    assert [(i["id"], i["dice"], i["value"]) for i in b["items"]] == [("potion", [4], 5)]
    assert b["total"] == 3 + 3 + 5 == 11
    assert res["rolloff"]["initiator"]["total"] == 5 + 11
    assert res["totals"]["initiator"] == 16
    assert res["bonuses"]["defender"]["total"] == 0


def test_rdr2_fatigue_3_cancels_elemental_bonuses_but_not_terrain_or_items() -> None:
    riders = [{"id": "ash", "bonuses": {"water": 4}}]
    items = [item("acid", "pre", bonus=2)]
    tired = run(
        initiator=red(fatigue=3, riders=riders, terrain_bonus=1, items=items),
        dice=rolled([1, 1]),
    )["bonuses"]["initiator"]
    assert (tired["elemental"], tired["elemental_counted"], tired["total"]) == (4, False, 1 + 2)
    fresh = run(
        initiator=red(fatigue=2, riders=riders, terrain_bonus=1, items=items),
        dice=rolled([1, 1]),
    )["bonuses"]["initiator"]
    assert (fresh["elemental_counted"], fresh["total"]) == (True, 4 + 1 + 2)


def test_rdr2_bonuses_are_against_the_opponents_element() -> None:
    riders = [{"id": "ash", "bonuses": {"water": 4, "metal": 1}}]
    vs_metal = run(
        initiator=red(riders=riders), defender=blue(element="metal"), dice=rolled([1, 1])
    )
    assert vs_metal["bonuses"]["initiator"]["total"] == 1


# ---------------------------------------------------------------- RDR-3


def test_rdr3_initiator_rolls_2d6_then_the_defender_decides() -> None:
    res = run(dice=rolled([5, 6]))
    assert res["rolloff"]["initiator"]["dice"] == [5, 6]
    assert res["totals"]["initiator"] == 11 and res["totals"]["defender"] is None
    assert not res["finished"] and res["awaiting"] is not None
    assert (res["awaiting"]["by"], res["awaiting"]["phase"], res["awaiting"]["decision"]) == (
        "defender",
        "rolloff",
        0,
    )
    assert choices(res) == [{"choice": "roll"}, {"choice": "concede"}]


def test_rdr3_ties_go_to_the_initiator() -> None:
    res = run(dice=rolled([3, 4], [5, 2]), decisions=[ROLL])
    assert (res["totals"]["initiator"], res["totals"]["defender"]) == (7, 7)
    assert res["presumptive_loser"] == "defender"
    assert res["awaiting"] is not None and res["awaiting"]["by"] == "defender"


def test_rdr3_lower_total_is_the_presumptive_loser() -> None:
    res = run(dice=rolled([1, 2], [1, 3]), decisions=[ROLL])
    assert res["presumptive_loser"] == "initiator"
    assert res["awaiting"] is not None
    assert (res["awaiting"]["by"], res["awaiting"]["phase"]) == ("initiator", "counterattack")
    assert choices(res) == [{"choice": "concede"}]


def test_rdr3_rage_adds_one_d6_per_level() -> None:
    res = run(
        initiator=red(rage=2),
        defender=blue(rage=1, items=[item("potion", "pre", extra_rolloff_dice=2)]),
        dice=rolled([1, 2, 3, 4], [6, 6, 6, 6, 6]),
        decisions=[ROLL],
    )
    ri, rd = res["rolloff"]["initiator"], res["rolloff"]["defender"]
    assert (ri["dice"], ri["rage_dice"], ri["sum"], ri["total"]) == ([1, 2, 3, 4], 2, 10, 10)
    assert (rd["dice"], rd["rage_dice"], rd["item_dice"], rd["total"]) == ([6] * 5, 1, 2, 30)
    assert res["presumptive_loser"] == "initiator"


def test_rdr3_rage_is_capped_so_a_pool_stays_within_100_dice() -> None:
    request(initiator=red(rage=98))
    with pytest.raises(ValidationError, match="at most 100"):
        request(initiator=red(rage=99))
    with pytest.raises(ValidationError, match="at most 100"):
        request(initiator=red(rage=90, items=[item("p", "pre", extra_rolloff_dice=9)]))


def test_rdr3_defender_conceding_draws_no_defender_dice() -> None:
    res = run(dice=rolled([1, 1], [6, 6]), decisions=[CONCEDE_D])
    assert "defender" not in res["rolloff"]
    assert res["unused_dice"] == {"rolloff.defender": [6, 6]}
    assert res["conceded"] is not None and res["conceded"]["without_rolling"]
    assert res["awaiting"] is not None and res["awaiting"]["by"] == "initiator"


# ---------------------------------------------------------------- RDR-4


def test_rdr4_presumptive_loser_may_concede_at_once() -> None:
    res = run(
        defender=blue(items=[item("lance", bonus=10)]),
        dice=rolled([6, 6], [1, 1]),
        decisions=[ROLL, CONCEDE_D],
    )
    assert res["counterattack"] == []
    assert res["conceded"] is not None
    assert (
        res["conceded"]["by"],
        res["conceded"]["phase"],
        res["conceded"]["without_rolling"],
    ) == (
        "defender",
        "counterattack",
        False,
    )
    assert (res["winner"], res["damage_instances"]) == ("initiator", 1)
    assert res["awaiting"] is not None and res["awaiting"]["phase"] == "damage"


# ---------------------------------------------------------------- RDR-5


def test_rdr5_lead_changes_twice_before_a_concession() -> None:
    ini = red(items=[item("lance", dice="1d6"), item("spear", bonus=1)])
    dfd = blue(items=[item("bolt", bonus=2), item("storm", dice="2d6")])
    res = run(
        initiator=ini,
        defender=dfd,
        dice=rolled([4, 4], [2, 3], storm=[1, 2], lance=[3]),
        decisions=[
            ROLL,  # 8 against 5: the defender is behind
            dec("defender", "use_item", item="bolt"),  # 7: still behind
            dec("defender", "use_item", item="storm"),  # 10: leads
            dec("initiator", "use_item", item="lance"),  # 11: leads again
            CONCEDE_D,
            FATIGUE_I,
        ],
    )
    steps = [
        (s["by"], s["item"]["id"], s["item"]["value"], s["total"], s["leader"], s["lead_changed"])
        for s in res["counterattack"]
    ]
    assert steps == [
        ("defender", "bolt", 2, 7, "initiator", False),
        ("defender", "storm", 3, 10, "defender", True),
        ("initiator", "lance", 3, 11, "initiator", True),
    ]
    assert (res["totals"]["initiator"], res["totals"]["defender"]) == (11, 10)
    assert res["conceded"] is not None
    assert (res["conceded"]["by"], res["conceded"]["decision"]) == ("defender", 4)
    assert (res["finished"], res["winner"]) == (True, "initiator")
    assert res["unused_dice"] == {}


def test_rdr5_an_item_must_make_the_total_strictly_higher() -> None:
    res = run(
        defender=blue(items=[item("bolt", bonus=2), item("mist", bonus=1)]),
        dice=rolled([4, 4], [3, 3]),
        decisions=[ROLL, dec("defender", "use_item", item="bolt")],
    )
    assert (res["totals"]["initiator"], res["totals"]["defender"]) == (8, 8)
    assert res["counterattack"][0]["lead_changed"] is False
    assert res["awaiting"] is not None and res["awaiting"]["by"] == "defender"  # still behind
    assert choices(res) == [{"choice": "use_item", "item": "mist"}, {"choice": "concede"}]


def test_rdr5_awaiting_lists_only_unused_counter_items() -> None:
    dfd = blue(
        items=[
            item("shield", "pre", bonus=0),
            item("bolt", bonus=1),
            item("hook", "damage", damage="pull"),
            item("mist", bonus=1),
        ]
    )
    res = run(defender=dfd, dice=rolled([6, 6], [1, 1]), decisions=[ROLL])
    assert choices(res) == [
        {"choice": "use_item", "item": "bolt"},
        {"choice": "use_item", "item": "mist"},
        {"choice": "concede"},
    ]


# ---------------------------------------------------------------- RDR-6


def _won_by_initiator(**fields):  # type: ignore[no-untyped-def]
    fields.setdefault("dice", rolled([6, 6], [1, 1]))
    decisions = fields.pop("decisions", [ROLL, CONCEDE_D])
    return run(decisions=decisions, **fields)


def test_rdr6_hide_shield_of_the_winner_skips_damage() -> None:
    res = _won_by_initiator(initiator=red(items=[item("hide", "pre", hide_shield=True)]))
    assert (res["finished"], res["damage"], res["damage_skipped"]) == (True, [], "hide_shield")
    assert res["awaiting"] is None


def test_rdr6_hide_shield_played_in_the_counterattack_counts_too() -> None:
    res = run(
        defender=blue(items=[item("hide", hide_shield=True, bonus=5)]),
        dice=rolled([3, 3], [1, 1]),
        decisions=[ROLL, dec("defender", "use_item", item="hide"), CONCEDE_I],
    )
    assert (res["winner"], res["damage_skipped"], res["damage"]) == ("defender", "hide_shield", [])


def test_rdr6_hide_shield_of_the_loser_does_not_skip() -> None:
    res = _won_by_initiator(defender=blue(items=[item("hide", "pre", hide_shield=True)]))
    assert res["damage_skipped"] is None and res["awaiting"] is not None


def test_rdr6_ranged_attack_of_the_loser_skips_damage() -> None:
    res = run(
        attack={"ranged": True},
        dice=rolled([1, 1], [6, 6]),
        decisions=[ROLL, CONCEDE_I],
    )
    assert (res["winner"], res["damage_skipped"], res["finished"]) == ("defender", "ranged", True)
    # The initiator's ranged attack does not protect the defender when the initiator wins.
    won = _won_by_initiator(attack={"ranged": True})
    assert won["damage_skipped"] is None


def test_rdr6_ranged_item_of_the_loser_skips_damage() -> None:
    res = _won_by_initiator(defender=blue(items=[item("sling", "pre", ranged=True)]))
    assert res["damage_skipped"] == "ranged"


def test_rdr6_fatigue_adds_one() -> None:
    res = _won_by_initiator(defender=blue(fatigue=1), decisions=[ROLL, CONCEDE_D, FATIGUE_I])
    assert res["damage"] == [
        {
            "kind": "fatigue",
            "decision": 2,
            "fatigue": 2,
            "rider_lost": False,
            "riders_lost": [],
            "rage": 0,
        }
    ]
    assert res["state"]["defender"]["fatigue"] == 2


def test_rdr6_fatigue_at_3_loses_the_rider_and_adds_rage() -> None:
    dfd = blue(
        fatigue=3,
        rage=1,
        riders=[{"id": "kai", "current": True}, {"id": "old", "current": False}],
    )
    res = _won_by_initiator(
        defender=dfd, dice=rolled([6, 6], [1, 1, 1]), decisions=[ROLL, CONCEDE_D, FATIGUE_I]
    )
    dmg = res["damage"][0]
    assert dmg["kind"] == "fatigue"
    assert (dmg["fatigue"], dmg["rider_lost"], dmg["riders_lost"], dmg["rage"]) == (
        3,
        True,
        ["kai"],
        2,
    )
    st = res["state"]["defender"]
    assert (st["fatigue"], st["rage"], st["has_rider"], [r["id"] for r in st["riders"]]) == (
        3,
        2,
        False,
        ["old"],
    )


@pytest.mark.parametrize(
    ("direction", "x", "y"),
    [
        ("N", 5, 6),
        ("NE", 6, 6),
        ("E", 6, 7),
        ("SE", 6, 8),
        ("S", 5, 8),
        ("SW", 4, 8),
        ("W", 4, 7),
        ("NW", 4, 6),
    ],
)
def test_rdr6_knockback_in_each_direction(direction: str, x: int, y: int) -> None:
    res = _won_by_initiator(
        defender=blue(position={"x": 5, "y": 7, "facing": "W"}),
        decisions=[
            ROLL,
            CONCEDE_D,
            dec("initiator", "damage", damage="knockback", direction=direction),
        ],
    )
    dmg = res["damage"][0]
    assert dmg["kind"] == "knockback"
    before, after = dmg["before"], dmg["after"]
    assert (dmg["direction"], before["x"], before["y"], after["x"], after["y"]) == (
        direction,
        5,
        7,
        x,
        y,
    )
    assert res["state"]["defender"]["position"] == {"x": x, "y": y, "facing": "W"}


def test_rdr6_swap_exchanges_places_and_facings() -> None:
    res = _won_by_initiator(
        initiator=red(position={"x": 1, "y": 2, "facing": "NE"}),
        defender=blue(position={"x": 2, "y": 2, "facing": "SW"}),
        decisions=[ROLL, CONCEDE_D, dec("initiator", "damage", damage="swap")],
    )
    assert res["state"]["initiator"]["position"] == {"x": 2, "y": 2, "facing": "SW"}
    assert res["state"]["defender"]["position"] == {"x": 1, "y": 2, "facing": "NE"}
    dmg = res["damage"][0]
    assert dmg["kind"] == "swap"
    assert dmg["winner"]["facing"] == "SW" and dmg["loser"]["facing"] == "NE"


def test_rdr6_damage_choices_depend_on_positions_and_damage_items() -> None:
    none = _won_by_initiator()
    assert choices(none) == [{"choice": "damage", "damage": "fatigue"}]
    full = _won_by_initiator(
        initiator=red(
            position={"x": 0, "y": 0, "facing": "E"},
            items=[
                item("hook", "damage", damage="Pull the loser next to you."),
                item("lance", damage="x"),
            ],
        ),
        defender=blue(position={"x": 1, "y": 0, "facing": "W"}),
    )
    all8 = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert choices(full) == [
        {"choice": "damage", "damage": "fatigue"},
        {"choice": "damage", "damage": "knockback", "directions": all8},
        {"choice": "damage", "damage": "swap"},
        {"choice": "damage", "damage": "item", "item": "hook"},
        {"choice": "damage", "damage": "item", "item": "lance"},
    ]


def test_rdr6_knockback_never_leaves_the_coordinate_bounds() -> None:
    res = _won_by_initiator(
        defender=blue(position={"x": 1_000_000, "y": -1_000_000, "facing": "N"})
    )
    knock = [o for o in choices(res) if o.get("damage") == "knockback"]
    assert knock == [{"choice": "damage", "damage": "knockback", "directions": ["S", "SW", "W"]}]


def test_rdr6_damage_item_is_used_in_place_of_the_others() -> None:
    res = _won_by_initiator(
        initiator=red(items=[item("hook", "damage", damage="Pull the loser next to you.")]),
        decisions=[ROLL, CONCEDE_D, dec("initiator", "damage", damage="item", item="hook")],
    )
    assert res["damage"] == [
        {
            "kind": "item",
            "decision": 2,
            "item": "hook",
            "name": "Hook",
            "effect": "Pull the loser next to you.",
        }
    ]
    assert res["state"]["defender"] == request().defender.model_dump()


# ---------------------------------------------------------------- RDR-7


def test_rdr7_conceding_without_rolling_takes_two_damage_instances() -> None:
    dfd = blue(fatigue=2, riders=[{"id": "kai"}], position={"x": 0, "y": 0, "facing": "N"})
    res = run(
        defender=dfd,
        dice=rolled([2, 2]),
        decisions=[
            CONCEDE_D,
            FATIGUE_I,
            dec("initiator", "damage", damage="knockback", direction="SE"),
        ],
    )
    assert (res["finished"], res["winner"], res["damage_instances"]) == (True, "initiator", 2)
    assert [d["kind"] for d in res["damage"]] == ["fatigue", "knockback"]
    st = res["state"]["defender"]
    assert st["fatigue"] == 3 and st["position"] is not None
    assert (st["position"]["x"], st["position"]["y"]) == (1, 1)
    assert res["totals"]["defender"] is None


def test_rdr7_two_fatigue_instances_cross_the_limit() -> None:
    res = run(
        defender=blue(fatigue=2, riders=[{"id": "kai"}]),
        dice=rolled([2, 2]),
        decisions=[CONCEDE_D, FATIGUE_I, FATIGUE_I],
    )
    first, second = res["damage"]
    assert first["kind"] == "fatigue" and second["kind"] == "fatigue"
    assert (first["fatigue"], first["rider_lost"]) == (3, False)
    assert (second["fatigue"], second["rider_lost"], second["rage"]) == (3, True, 1)


def test_rdr7_a_damage_item_cannot_be_used_for_both_instances() -> None:
    ini = red(items=[item("hook", "damage", damage="pull")])
    hook = dec("initiator", "damage", damage="item", item="hook")
    res = run(initiator=ini, dice=rolled([2, 2]), decisions=[CONCEDE_D, hook])
    assert choices(res) == [{"choice": "damage", "damage": "fatigue"}]
    with pytest.raises(IllegalDecision, match="already used"):
        run(initiator=ini, dice=rolled([2, 2]), decisions=[CONCEDE_D, hook, hook])


# ---------------------------------------------------------------- RDR-8


def test_rdr8_one_more_decision_replays_the_same_dice() -> None:
    fields = {
        "seed": "replay",
        "initiator": red(items=[item("lance", dice="2d6")]),
        "defender": blue(items=[item("bolt", dice="1d6", bonus=20)]),
        "dice": rolled([6, 6], [1, 1]),
    }
    steps = [
        ROLL,
        dec("defender", "use_item", item="bolt"),
        dec("initiator", "use_item", item="lance"),
    ]
    previous = run(**fields)["rolls"]
    for n in range(1, len(steps) + 1):
        rolls = run(decisions=steps[:n], **fields)["rolls"]
        assert rolls[: len(previous)] == previous
        previous = rolls
    assert [r["slot"] for r in previous] == [
        "rolloff.initiator",
        "rolloff.initiator",
        "rolloff.defender",
        "rolloff.defender",
        "item.bolt",
        "item.lance",
        "item.lance",
    ]


def test_rdr8_finished_combat_awaits_nothing() -> None:
    res = _won_by_initiator(decisions=[ROLL, CONCEDE_D, FATIGUE_I])
    assert (res["finished"], res["awaiting"]) == (True, None)
    assert len(res["decisions"]) == 3 and res["auto_filled"] == []


# ---------------------------------------------------------------- RDR-9


def test_rdr9_auto_policy() -> None:
    res = run(
        auto=True,
        initiator=red(items=[item("lance", bonus=1)]),
        defender=blue(items=[item("bolt", bonus=1), item("storm", bonus=5), item("mist", bonus=9)]),
        dice=rolled([4, 4], [2, 2]),
    )
    assert [{k: v for k, v in d.items() if v is not None} for d in res["decisions"]] == [
        ROLL,
        dec("defender", "use_item", item="bolt"),
        dec("defender", "use_item", item="storm"),  # 10 > 8: stops playing
        dec("initiator", "use_item", item="lance"),  # 9: still behind
        CONCEDE_I,
        FATIGUE_D,
    ]
    assert res["auto_filled"] == [0, 1, 2, 3, 4, 5]
    assert (res["winner"], res["state"]["initiator"]["fatigue"]) == ("defender", 1)


def test_rdr9_auto_fills_only_the_missing_decisions() -> None:
    res = run(auto=True, dice=rolled([4, 4]), decisions=[CONCEDE_D])
    assert res["auto_filled"] == [1, 2]
    assert [d["kind"] for d in res["damage"]] == ["fatigue", "fatigue"]


# ---------------------------------------------------------------- RDR-10


def _illegal(decisions, **fields) -> IllegalDecision:  # type: ignore[no-untyped-def]
    fields.setdefault("dice", rolled([6, 6], [1, 1]))
    with pytest.raises(IllegalDecision) as info:
        run(decisions=decisions, **fields)
    return info.value


def test_rdr10_item_used_twice() -> None:
    bolt = dec("defender", "use_item", item="bolt")
    err = _illegal([ROLL, bolt, bolt], defender=blue(items=[item("bolt", bonus=1)]))
    assert err.errors[0].loc == ("decisions", 2, "item")
    assert "already used" in err.detail and "expected from the defender: concede" in err.detail


def test_rdr10_item_not_owned() -> None:
    err = _illegal(
        [ROLL, dec("defender", "use_item", item="lance")], initiator=red(items=[item("lance")])
    )
    assert err.errors[0].loc == ("decisions", 1, "item")
    assert "not one of this side's items" in err.detail


def test_rdr10_pre_item_is_not_a_counter_item() -> None:
    err = _illegal(
        [ROLL, dec("defender", "use_item", item="p")], defender=blue(items=[item("p", "pre")])
    )
    assert "a pre item, not a counter item" in err.detail


def test_rdr10_winner_conceding() -> None:
    err = _illegal([ROLL, CONCEDE_I])
    assert err.errors[0].loc == ("decisions", 1, "by")
    assert "it is the defender's decision" in err.detail


def test_rdr10_damage_before_the_fight_is_decided() -> None:
    err = _illegal([ROLL, FATIGUE_I.copy() | {"by": "defender"}])
    assert err.errors[0].loc == ("decisions", 1, "choice")
    assert "'damage' is not possible here; expected from the defender: concede" in err.detail


def test_rdr10_knockback_without_a_direction() -> None:
    err = _illegal(
        [ROLL, CONCEDE_D, dec("initiator", "damage", damage="knockback")],
        defender=blue(position={"x": 0, "y": 0, "facing": "N"}),
    )
    assert err.errors[0].loc == ("decisions", 2, "direction")
    assert "knockback needs a `direction`" in err.detail


def test_rdr10_knockback_or_swap_without_positions() -> None:
    knock = dec("initiator", "damage", damage="knockback", direction="N")
    assert "the loser's position" in _illegal([ROLL, CONCEDE_D, knock]).detail
    swap = dec("initiator", "damage", damage="swap")
    err = _illegal([ROLL, CONCEDE_D, swap], defender=blue(position={"x": 0, "y": 0, "facing": "N"}))
    assert "both sides' positions" in err.detail


def test_rdr10_stray_fields_and_decisions_after_the_end() -> None:
    err = _illegal([dec("defender", "roll", direction="N")])
    assert err.errors[0].loc == ("decisions", 0, "direction")
    err = _illegal([ROLL, CONCEDE_D, FATIGUE_I, FATIGUE_I])
    assert err.errors[0].loc == ("decisions", 3)
    assert "the combat is over" in err.detail


def test_rdr10_defender_must_roll_or_concede_first() -> None:
    err = _illegal([dec("defender", "use_item", item="bolt")], defender=blue(items=[item("bolt")]))
    assert err.errors[0].loc == ("decisions", 0, "choice")
    assert "expected from the defender: roll, concede" in err.detail


# ---------------------------------------------------------------- items and ids


@pytest.mark.parametrize("text", ["1d6", "2d6", "100d1000", "12d20"])
def test_dice_notation_parses(text: str) -> None:
    count, sides = parse_dice(text)
    assert f"{count}d{sides}" == text


@pytest.mark.parametrize(
    "text",
    ["d6", "0d6", "1d1", "101d6", "1d1001", "1d6+1", "1D6", " 1d6", "1d6 ", "2*3d6", "1d06x", ""],
)
def test_dice_notation_is_strict(text: str) -> None:
    with pytest.raises(ValueError):
        parse_dice(text)
    with pytest.raises(ValidationError):
        request(initiator=red(items=[item("x", dice=text)]))


def test_dice_notation_pattern_is_what_parse_dice_reads() -> None:
    """Item's `dice` is checked by its schema pattern alone: it accepts exactly what parse_dice does."""
    notation = TypeAdapter(DiceNotation)
    counts = [*range(0, 120), 999, 1000, 1001, 9999]
    sides = [*range(0, 30), 99, 100, 101, 999, 1000, 1001, 1010, 9999]
    texts = [f"{c}d{s}" for c in counts for s in sides]
    texts += ["01d6", "1d06", "d6", "1d", "1d6\n", "1d6 ", "+1d6", "1d6+1", "1e2d6", "１d6"]
    for text in texts:
        try:
            parse_dice(text)
            parses = True
        except ValueError:
            parses = False
        try:
            notation.validate_python(text, strict=True)
            valid = True
        except ValidationError:
            valid = False
        assert valid == parses, text


def test_item_ids_are_unique_across_both_sides() -> None:
    with pytest.raises(InvalidRequest) as info:
        run(initiator=red(items=[item("lance")]), defender=blue(items=[item("lance")]))
    assert info.value.errors[0].loc == ("defender", "items", 0, "id")
    assert "already used by initiator.items[0]" in str(info.value)
    with pytest.raises(InvalidRequest) as info:
        run(defender=blue(items=[item("a"), item("b"), item("a")]))
    assert info.value.errors[0].loc == ("defender", "items", 2, "id")
    assert "already used by defender.items[0]" in str(info.value)


def test_items_are_checked_for_consistency() -> None:
    with pytest.raises(ValidationError, match="only applies to pre items"):
        request(initiator=red(items=[item("x", extra_rolloff_dice=1)]))
    with pytest.raises(ValidationError, match="must say what it does"):
        request(initiator=red(items=[item("x", "damage")]))
    with pytest.raises(ValidationError, match="marked current"):
        request(initiator=red(has_rider=False, riders=[{"id": "a"}]))


def test_rdr6_fatigue_at_3_without_a_rider_still_adds_rage() -> None:
    res = _won_by_initiator(
        defender=blue(fatigue=3, has_rider=False, riders=[{"id": "old", "current": False}]),
        decisions=[ROLL, CONCEDE_D, FATIGUE_I],
    )
    dmg = res["damage"][0]
    assert dmg["kind"] == "fatigue"
    assert (dmg["fatigue"], dmg["rider_lost"], dmg["riders_lost"], dmg["rage"]) == (3, False, [], 1)
    assert [r["id"] for r in res["state"]["defender"]["riders"]] == ["old"]


def test_rdr10_damage_choice_by_the_loser() -> None:
    err = _illegal([ROLL, CONCEDE_D, FATIGUE_D])
    assert err.errors[0].loc == ("decisions", 2, "by")
    assert "it is the initiator's decision, not the defender's" in err.detail
    assert "expected from the initiator: damage fatigue" in err.detail


def test_rdr10_damage_item_not_owned_or_without_damage() -> None:
    ini = red(items=[item("lance", bonus=1)])
    not_damage = dec("initiator", "damage", damage="item", item="lance")
    err = _illegal([ROLL, CONCEDE_D, not_damage], initiator=ini)
    assert err.errors[0].loc == ("decisions", 2, "item")
    assert "deals no combat damage" in err.detail
    foreign = dec("initiator", "damage", damage="item", item="bolt")
    err = _illegal([ROLL, CONCEDE_D, foreign], defender=blue(items=[item("bolt", damage="zap")]))
    assert "not one of the winner's items" in err.detail
