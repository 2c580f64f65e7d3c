"""DRG-1..17, rule by rule, with scripted dice and exact expectations."""

from __future__ import annotations

import pytest

from rules.dragon.models import BattleResult
from rules.errors import IllegalDecision, InvalidRequest
from rules.narration import narrate
from rules.registry import TEXTS
from tests.rules.dragon.helpers import dragon, ent, prosperity, run


def pair_tuples(res: BattleResult) -> list[tuple[str, str, str | None, int, bool]]:
    return [(p["a"], p["b"], p["winner"], p["successes"], p["interrupted"]) for p in res["pairs"]]


# ---------------------------------------------------------------- who fights whom


def test_drg1_drg2_crossed_targets_resolved_by_strength_free_entities_first() -> None:
    # s1 (player) and g2 (gm) both have prosperity 3: the free g2 chooses first and takes s1,
    # so s1 (which wanted g3) is paired with g2; g3's target s1 is then taken: g3 is left over.
    res = run(
        dragon=dragon("g4"),
        entities=[
            ent("s1", "player", prosperity=3, target="g3"),
            ent("g2", prosperity=3, target="s1"),
            ent("g3", prosperity=1, target="s1"),
            ent("g4", prosperity=1, target="dragon"),
        ],
        seed="x",
    )
    assert res["order"] == ["dragon", "g2", "s1", "g3", "g4"]
    assert [(p["a"], p["b"]) for p in res["pairs"]] == [("dragon", "g4"), ("g2", "s1")]
    assert [(x["id"], x["action"]) for x in res["left_over"]] == [("g3", "wait")]


def test_drg2_equal_prosperity_of_one_side_goes_in_request_order() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", prosperity=1, target="dragon"),
            ent("s1", "player", prosperity=2, target="g3"),
            ent("s2", "player", prosperity=2, target="g3"),
            ent("g3", prosperity=1, target="s2"),
        ],
        seed="x",
    )
    assert res["order"] == ["dragon", "s1", "s2", "g1", "g3"]
    assert [(p["a"], p["b"]) for p in res["pairs"]] == [("dragon", "g1"), ("s1", "g3")]
    assert [(x["id"], x["action"]) for x in res["left_over"]] == [("s2", "wait")]


def test_drg2_a_party_targeting_the_dragon_after_it_paired_is_left_over() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[ent("g1", target="dragon"), ent("g2", prosperity=5, target="dragon")],
        seed="x",
    )
    assert [(p["a"], p["b"]) for p in res["pairs"]] == [("dragon", "g1")]
    assert res["left_over"][0]["id"] == "g2"
    narrate(res["events"], "en", {}, TEXTS)
    assert (
        "already paired"
        in res["events"][[e["code"] for e in res["events"]].index("dragon.left_over.wait")]["text"]
    )


def test_drg2_a_party_passed_over_then_taken_by_a_weaker_one_is_not_left_over() -> None:
    # The dragon takes a5 and s6 takes x1; p4 (target a5, already paired) is passed over; c3 then
    # takes p4, still unpaired: p4 fights c3 and is not also left over (it would otherwise join s6
    # as well and roll its pool twice).
    res = run(
        dragon=dragon("a5"),
        entities=[
            ent("a5", prosperity=5, target="dragon"),
            ent("s6", "player", prosperity=6, target="x1"),
            ent("p4", "player", prosperity=4, target="a5", if_left_over="join:s6"),
            ent("c3", prosperity=3, target="p4"),
            ent("x1", prosperity=1, target="s6"),
        ],
        seed="x",
    )
    assert [(p["a"], p["b"]) for p in res["pairs"]] == [
        ("dragon", "a5"),
        ("s6", "x1"),
        ("c3", "p4"),
    ]
    assert res["left_over"] == []
    assert [p["slot"] for p in res["pools"]].count("pool.p4") == 1
    assert res["pairs"][1]["a_side"]["members"] == ["s6"]


def test_drg3_left_over_entity_joins_an_ally_and_adds_its_dice() -> None:
    # g3 is left over and joins g2: its 4 beats s1's 3, which g2 alone (2) would not.
    res = run(
        dragon=dragon("g4"),
        entities=[
            ent("s1", "player", prosperity=3, target="g2"),
            ent("g2", prosperity=3, target="s1"),
            ent("g3", prosperity=1, target="s1", if_left_over="join:g2"),
            ent("g4", prosperity=1, target="dragon"),
        ],
        dice={
            "pool.dragon": [1, 1],
            "pool.g4": [1],
            "pool.g2": [2, 1, 1],
            "pool.g3": [4],
            "pool.s1": [3, 3, 1],
        },
    )
    pair = res["pairs"][1]
    assert (pair["a"], pair["b"]) == ("g2", "s1")
    assert pair["a_side"]["members"] == ["g2", "g3"]
    assert pair["a_side"]["dice"] == [2, 1, 1, 4] and pair["a_side"]["highest"] == 4
    assert (pair["winner"], pair["loser"], pair["successes"]) == ("g2", "s1", 1)
    assert [(x["id"], x["action"], x["ally"]) for x in res["left_over"]] == [("g3", "join", "g2")]
    assert prosperity(res)["s1"] == 2
    assert prosperity(res)["g3"] == 1  # the joined party shares neither the win nor a loss
    # the dragon and g4 tie at 1: interrupted
    assert res["pairs"][0]["interrupted"]


def test_drg3_join_to_an_ally_not_in_a_pair_falls_back_to_wait() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", prosperity=3, target="dragon"),
            ent("g2", prosperity=2, target="dragon"),
            ent("g3", prosperity=1, target="dragon", if_left_over="join:g2"),
        ],
        seed="x",
    )
    by_id = {x["id"]: x for x in res["left_over"]}
    assert by_id["g3"]["action"] == "wait" and by_id["g3"]["ally"] == "g2"
    assert "not in a pair" in (by_id["g3"]["note"] or "")
    assert [p["owner"] for p in res["pools"]] == ["dragon", "g1"]


def test_drg3_auto_win_outside_the_battle_rolls_nothing() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", target="dragon"),
            ent("s1", "player", target="g1", if_left_over="auto_win:the mill"),
        ],
        seed="x",
    )
    assert [(x["id"], x["action"], x["against"]) for x in res["left_over"]] == [
        ("s1", "auto_win", "the mill")
    ]
    assert "s1" not in [p["owner"] for p in res["pools"]]
    assert "dragon.left_over.auto_win" in [e["code"] for e in res["events"]]


def test_drg4_an_entity_standing_aside_takes_no_part() -> None:
    res = run(
        dragon=dragon("slayer"),
        entities=[
            ent("tribe", prosperity=5, aside=True, target="dragon"),
            ent("slayer", prosperity=1, parent="tribe", dragonslayer=True, target="dragon"),
        ],
        seed="x",
    )
    assert res["order"] == ["dragon", "slayer"]
    assert "tribe" not in [p["owner"] for p in res["pools"]]
    assert prosperity(res)["tribe"] == 5


# ---------------------------------------------------------------- dice


def test_drg5_entity_rolls_prosperity_dice_of_its_level_for_player_and_gm() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", prosperity=3, level=4, target="dragon"),
            ent("s1", "player", prosperity=2, level=2, target="g2"),
            ent("g2", prosperity=1, level=6, target="s1"),
        ],
        seed="x",
    )
    sizes = {p["owner"]: (p["sides"], len(p["dice"])) for p in res["pools"]}
    assert sizes == {"dragon": (8, 2), "g1": (10, 3), "s1": (6, 2), "g2": (20, 1)}


def test_drg5_prosperity_zero_rolls_nothing_and_loses() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[ent("g1", prosperity=0, target="dragon")],
        dice={"pool.dragon": [1, 1]},
    )
    assert pair_tuples(res) == [("dragon", "g1", "dragon", 2, False)]
    assert res["pairs"][0]["b_side"]["highest"] == 0
    assert "dragon.pool.empty" in [e["code"] for e in res["events"]]


def test_drg5_prosperity_zero_dragonslayer_rolls_no_extra_die_either() -> None:
    res = run(
        dragon=dragon("hero"),
        entities=[ent("hero", kind="individual", prosperity=0, dragonslayer=True, target="dragon")],
        dice={"pool.dragon": [1, 1]},
    )
    assert [p["slot"] for p in res["pools"]] == ["pool.dragon"]
    assert res["pairs"][0]["winner"] == "dragon"


def test_drg5_both_sides_roll_nothing_interrupts() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", prosperity=1, target="dragon"),
            ent("s1", "player", prosperity=0, target="g2"),
            ent("g2", prosperity=0, target="s1"),
        ],
        seed="x",
    )
    assert res["pairs"][1]["interrupted"] and res["pairs"][1]["winner"] is None


def test_drg6_dragon_rolls_battle_plus_features_used() -> None:
    res = run(
        dragon=dragon("g1", age=5, battle=3, features_used=2),
        entities=[ent("g1", target="dragon")],
        seed="x",
    )
    assert (res["pools"][0]["slot"], res["pools"][0]["sides"], len(res["pools"][0]["dice"])) == (
        "pool.dragon",
        20,
        5,
    )


def test_drg7_the_dragon_die_is_one_more_die_of_its_own_size() -> None:
    res = run(
        dragon=dragon("g1", age=4, battle=1, dragon_die=True),
        entities=[ent("g1", prosperity=1, target="dragon")],
        dice={"pool.dragon": [2], "dragon_die": [30], "pool.g1": [3]},
    )
    assert [(p["slot"], p["sides"], p["dice"]) for p in res["pools"]][:2] == [
        ("pool.dragon", 12, [2]),
        ("dragon_die", 30, [30]),
    ]
    assert res["pairs"][0]["a_side"]["dice"] == [2, 30]
    assert res["pairs"][0]["winner"] == "dragon"


def test_drg8_individual_dragonslayer_rolls_one_extra_die_a_step_higher() -> None:
    res = run(
        dragon=dragon("hero"),
        entities=[
            ent(
                "hero", kind="individual", prosperity=1, level=3, dragonslayer=True, target="dragon"
            )
        ],
        dice={"pool.dragon": [8, 1], "pool.hero": [2], "slayer.hero": [10]},
    )
    assert [(p["slot"], p["sides"]) for p in res["pools"]] == [
        ("pool.dragon", 8),
        ("pool.hero", 8),
        ("slayer.hero", 10),
    ]
    assert res["pairs"][0]["b_side"]["dice"] == [2, 10]
    # only the 10 beats 8
    assert (res["pairs"][0]["winner"], res["pairs"][0]["successes"]) == ("hero", 1)
    assert res["slayers_revealed"] == []  # already a dragonslayer


def test_drg8_group_dragonslayer_minority_has_no_extra_die() -> None:
    res = run(
        dragon=dragon("m"),
        entities=[
            ent("m", prosperity=1, level=2, level_features=1, dragonslayer=True, target="dragon")
        ],
        seed="x",
    )
    assert [(p["slot"], p["sides"]) for p in res["pools"]] == [("pool.dragon", 8), ("pool.m", 8)]


# ---------------------------------------------------------------- resolving a pair


def test_drg9_successes_count_only_dice_strictly_above_the_losers_highest() -> None:
    res = run(
        dragon=dragon("g1", battle=4),
        entities=[ent("g1", prosperity=5, level=2, target="dragon")],
        dice={"pool.dragon": [7, 5, 5, 6], "pool.g1": [5, 1, 2, 3, 4]},
    )
    assert pair_tuples(res) == [("dragon", "g1", "dragon", 2, False)]
    assert prosperity(res)["g1"] == 3


def test_drg9_entity_pair_winner_by_higher_single_die() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", prosperity=1, target="dragon"),
            ent("s1", "player", prosperity=3, level=2, target="g2"),
            ent("g2", prosperity=2, level=3, target="s1"),
        ],
        dice={"pool.dragon": [1, 1], "pool.g1": [1], "pool.s1": [6, 6, 1], "pool.g2": [8, 2]},
    )
    assert pair_tuples(res)[1] == ("s1", "g2", "g2", 1, False)
    assert prosperity(res)["s1"] == 2


def test_drg10_equal_highest_dice_interrupt_with_no_consequences() -> None:
    res = run(
        dragon=dragon("g1", wounds=0),
        entities=[ent("g1", prosperity=2, level=3, target="dragon")],
        dice={"pool.dragon": [8, 1], "pool.g1": [8, 8]},
    )
    assert pair_tuples(res) == [("dragon", "g1", None, 0, True)]
    assert res["prosperity_changes"] == [] and res["wounds"]["gained"] == 0
    assert res["dragon_changes"] == [] and res["slayers_revealed"] == []
    assert "dragon.pair.interrupted" in [e["code"] for e in res["events"]]


def _two_pairs_and_a_waiting_party() -> list[dict[str, object]]:
    """g1 fights the dragon, s1 and g2 each other; g3 has no target and waits."""
    return [
        ent("g1", prosperity=2, target="dragon"),
        ent("s1", "player", prosperity=2, target="g2"),
        ent("g2", prosperity=2, target="s1"),
        ent("g3", prosperity=1),
    ]


def _codes(res: BattleResult) -> list[str]:
    return [e["code"] for e in res["events"]]


def test_drg10_drg13_a_tie_spares_its_pair_even_the_dragon_die_point() -> None:
    """«Tasapelissä taistelu keskeytyy syystä tai toisesta, joka kuvataan kerronnassa. Tästä ei
    koidu osapuolille muita seurauksia»: the dragon (dragon die used) and g1 tie at 4; g1 and g5,
    joined to it, lose nothing, not even the dragon die's extra point. The die was used: the
    parties outside that pair (s1 and g2, whose pair was won; g3 waiting) and the location still
    pay it, and the others still make their destruction change."""
    res = run(
        dragon=dragon("g1", age=2, battle=1, dragon_die=True),
        entities=[
            *_two_pairs_and_a_waiting_party(),
            ent("g5", prosperity=1, target="dragon", if_left_over="join:g1"),
        ],
        location={"id": "hill", "prosperity": 3},
        dice={
            "pool.dragon": [4],
            "dragon_die": [3],
            "pool.g1": [4, 1],
            "pool.g5": [2],
            "pool.s1": [4, 1],
            "pool.g2": [3, 1],
        },
    )
    assert pair_tuples(res) == [("dragon", "g1", None, 0, True), ("g2", "s1", "s1", 1, False)]
    assert res["pairs"][0]["b_side"]["members"] == ["g1", "g5"]
    assert [(c["id"], c["before"], c["after"], c["reason"]) for c in res["prosperity_changes"]] == [
        ("g2", 2, 1, "lost_pair"),
        ("s1", 2, 1, "dragon_die"),
        ("g2", 1, 0, "dragon_die"),
        ("g3", 1, 0, "dragon_die"),
        ("hill", 3, 2, "dragon_die"),
    ]
    assert prosperity(res) == {"g1": 2, "s1": 1, "g2": 0, "g3": 0, "g5": 1}
    assert res["dragon_changes"] == [] and res["wounds"]["gained"] == 0
    assert res["destruction_change"] is not None and res["destruction_change"]["result"] == 3
    [spared] = [e for e in res["events"] if e["code"] == "dragon.pair.spared"]
    assert spared["params"] == {"a": "dragon", "b": "g1", "ids": ["g1", "g5"], "names": "g1, g5"}
    narrate([spared], "en", {}, TEXTS)
    assert spared["text"] == (
        "The fight of the dragon and g1 was broken off: g1 and g5 lose nothing to the dragon die "
        "either."
    )


def test_drg10_a_tied_location_party_loses_nothing_to_the_dragon_die() -> None:
    """«Tästä ei koidu osapuolille muita seurauksia»: the town, the location and the dragon's
    opponent, ties: it keeps its prosperity as an entity and as the location."""
    res = run(
        dragon=dragon("town", battle=1, dragon_die=True),
        entities=[ent("town", prosperity=3, target="dragon")],
        location={"id": "town", "prosperity": 3},
        dice={"pool.dragon": [4], "dragon_die": [2], "pool.town": [4, 1, 1]},
    )
    assert res["pairs"][0]["interrupted"] and res["prosperity_changes"] == []
    assert "dragon.location.spared" in _codes(res) and "dragon.location.party" not in _codes(res)
    assert res["next_state"]["location"] == {"id": "town", "prosperity": 3}
    assert prosperity(res) == {"town": 3}


# ---------------------------------------------------------------- the sweep


def _sweep_battle(dragon_die: int, **more: object) -> BattleResult:
    return run(
        dragon=dragon("g1", age=3, battle=2, dragon_die=True),
        entities=[
            ent("g1", prosperity=5, level=2, target="dragon"),
            ent("s1", "player", prosperity=1, target="g2"),
            ent("g2", prosperity=2, target="s1"),
            ent("g4", prosperity=3, target="s2"),
            ent("s2", "player", prosperity=3, target="g4"),
        ],
        location={"id": "vale", "prosperity": 4},
        dice={
            "pool.dragon": [5, 3],
            "dragon_die": [dragon_die],
            "pool.g1": [6, 2, 1, 1, 1],
            "pool.g4": [4, 4, 4],
            "pool.s2": [1, 1, 1],
            "pool.g2": [3, 1],
            "pool.s1": [4],
        },
        **more,
    )


def test_drg11_sweep_takes_the_opponent_and_two_weakest_but_stops_before_a_third() -> None:
    res = _sweep_battle(15)
    assert res["order"] == ["dragon", "g1", "g4", "s2", "g2", "s1"]
    # 15 > 6 + 4 (s1) = 10, 15 > 10 + 3 (g2) = 13, but not > 13 + 4 (g4) = 17
    assert res["sweep"] == ["g1", "s1", "g2"]
    assert res["sweep_detail"] is not None and res["sweep_detail"]["triggered"]
    assert [
        (s["id"], s["highest"], s["running_sum"], s["added"]) for s in res["sweep_detail"]["steps"]
    ] == [
        ("s1", 4, 10, True),
        ("g2", 3, 13, True),
        ("g4", 4, 17, False),
    ]
    # successes: the dragon's dice (5, 3, 15) above each one's highest
    assert [(d["id"], d["successes"]) for d in res["defeated"]] == [("g1", 1), ("s1", 2), ("g2", 2)]
    assert pair_tuples(res) == [
        ("dragon", "g1", "dragon", 1, False),
        ("g4", "s2", "g4", 3, False),
        ("g2", "s1", None, 0, False),
    ]
    assert res["pairs"][0]["swept"] and not res["pairs"][2]["resolved"]
    # the swept losses, then DRG-13's extra 1 for every party and the location
    assert prosperity(res) == {"g1": 3, "s1": 0, "g2": 0, "g4": 2, "s2": 0}
    assert res["next_state"]["location"] is not None
    assert res["next_state"]["location"]["prosperity"] == 3


def test_drg11_sweep_not_triggered_when_the_dragon_die_is_not_the_highest() -> None:
    res = run(
        dragon=dragon("g1", age=3, battle=2, dragon_die=True),
        entities=[ent("g1", prosperity=1, target="dragon"), ent("g2", prosperity=1)],
        dice={"pool.dragon": [9, 2], "dragon_die": [8], "pool.g1": [1]},
    )
    assert res["sweep"] == []
    assert res["sweep_detail"] is not None and not res["sweep_detail"]["triggered"]
    assert res["sweep_detail"]["steps"] == []
    assert pair_tuples(res) == [("dragon", "g1", "dragon", 3, False)]
    assert "dragon.sweep.not_triggered" in [e["code"] for e in res["events"]]


def test_drg11_sweep_ties_count_as_the_highest_but_fails_without_a_weakest_to_add() -> None:
    res = _sweep_battle(10, seed="x")
    # 10 >= 5: triggered; but 10 is not > 6 + 4: nobody is added, the pair resolves normally
    assert (
        res["sweep"] == [] and res["sweep_detail"] is not None and res["sweep_detail"]["triggered"]
    )
    assert [(s["id"], s["added"]) for s in res["sweep_detail"]["steps"]] == [("s1", False)]
    assert pair_tuples(res)[0] == ("dragon", "g1", "dragon", 1, False)
    assert res["pairs"][2]["resolved"]  # g2 against s1 is fought
    assert pair_tuples(res)[2] == ("g2", "s1", "s1", 1, False)


# ---------------------------------------------------------------- consequences


def test_drg12_loser_loses_successes_not_below_zero_and_the_player_gets_a_change() -> None:
    res = run(
        dragon=dragon("g1", age=5, battle=3),
        entities=[ent("g1", prosperity=2, level=2, target="dragon")],
        dice={"pool.dragon": [17, 12, 9], "pool.g1": [6, 6]},
    )
    assert pair_tuples(res) == [("dragon", "g1", "dragon", 3, False)]
    assert [(c["id"], c["before"], c["after"], c["reason"]) for c in res["prosperity_changes"]] == [
        ("g1", 2, 0, "lost_pair")
    ]
    assert [
        (c["by"], c["result"], c["level"], c["scale"], c["against"]) for c in res["dragon_changes"]
    ] == [("player", 17, 4, "a big city", ["g1"])]
    assert res["destruction_change"] is None


def test_drg12_no_change_for_the_player_when_entities_fight_each_other() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[
            ent("g1", prosperity=1, target="dragon"),
            ent("s1", "player", prosperity=1, level=3, target="g2"),
            ent("g2", prosperity=1, target="s1"),
        ],
        dice={"pool.dragon": [1, 1], "pool.g1": [1], "pool.s1": [8], "pool.g2": [2]},
    )
    assert pair_tuples(res)[1] == ("g2", "s1", "s1", 1, False)  # gm first on equal prosperity
    assert prosperity(res)["g2"] == 0
    assert res["dragon_changes"] == []


def test_drg13_dragon_die_costs_every_party_and_the_location_one_more() -> None:
    res = run(
        dragon=dragon("g1", age=2, battle=1, dragon_die=True),
        entities=[
            *_two_pairs_and_a_waiting_party(),  # g3 waits: still a party of the battle
            ent("old", prosperity=4, aside=True),  # aside: not a party
        ],
        location={"id": "hill", "prosperity": 3},
        dice={
            "pool.dragon": [9],
            "dragon_die": [4],
            "pool.g1": [1, 1],
            "pool.s1": [3, 3],
            "pool.g2": [3, 1],
        },
    )
    assert res["sweep"] == []
    assert [
        (c["id"], c["what"], c["before"], c["after"], c["reason"])
        for c in res["prosperity_changes"]
    ] == [
        ("g1", "entity", 2, 0, "lost_pair"),
        ("g1", "entity", 0, 0, "dragon_die"),
        ("g3", "entity", 1, 0, "dragon_die"),
        ("hill", "location", 3, 2, "dragon_die"),
    ]  # s1 and g2 tied: their interrupted pair suffers nothing, not even the extra point (DRG-10)
    assert res["destruction_change"] is not None
    assert (res["destruction_change"]["by"], res["destruction_change"]["result"]) == ("others", 4)
    assert (res["destruction_change"]["level"], res["destruction_change"]["scale"]) == (
        0,
        "an individual",
    )
    assert res["pairs"][1]["interrupted"]


def test_drg13_location_that_is_a_party_loses_only_once() -> None:
    res = run(
        dragon=dragon("town", battle=1, dragon_die=True),
        entities=[ent("town", prosperity=3, target="dragon")],
        location={"id": "town", "prosperity": 3},
        dice={"pool.dragon": [1], "dragon_die": [2], "pool.town": [1, 1, 1]},
    )
    assert [(c["id"], c["what"], c["reason"]) for c in res["prosperity_changes"]] == [
        ("town", "entity", "lost_pair"),
        ("town", "entity", "dragon_die"),
    ]
    assert res["destruction_change"] is not None and res["destruction_change"]["level"] is None
    assert res["next_state"]["location"] is not None
    assert res["next_state"]["location"]["prosperity"] == 3


def test_drg14_group_loss_reveals_a_minority_dragonslayer_and_wounds_the_dragon() -> None:
    res = run(
        dragon=dragon("tribe", battle=3, wounds=0),
        entities=[
            ent("tribe", prosperity=4, level=2, target="dragon", slayer_prosperity=2),
            ent("ally", "player", prosperity=1, target="tribe"),
        ],
        dice={"pool.dragon": [2, 3, 1], "pool.tribe": [6, 1, 1, 1]},
        continues=True,
    )
    assert pair_tuples(res)[0] == ("dragon", "tribe", "tribe", 1, False)
    assert (res["wounds"]["before"], res["wounds"]["gained"], res["wounds"]["after"]) == (0, 1, 1)
    assert not res["dragon_defeated"]
    [rev] = res["slayers_revealed"]
    assert (
        rev["id"],
        rev["kind"],
        rev["feature"],
        rev["new_entity"],
        rev["prosperity"],
        rev["sides"],
    ) == (
        "tribe",
        "group",
        None,
        "tribe-slayer",
        2,
        8,
    )
    ns = res["next_state"]
    assert [e["id"] for e in ns["entities"]] == ["tribe", "tribe-slayer", "ally"]
    tribe, slayer, ally = ns["entities"]
    assert tribe["aside"] and tribe["prosperity"] == 4
    assert (
        slayer["parent"],
        slayer["dragonslayer"],
        slayer["level"],
        slayer["level_features"],
    ) == (
        "tribe",
        True,
        2,
        1,
    )
    assert (slayer["target"], slayer["kind"], slayer["controller"]) == ("dragon", "group", "gm")
    assert ns["dragon"]["target"] == "tribe-slayer" and ns["dragon"]["wounds"] == 1
    assert ally["target"] == "tribe-slayer"
    assert "dragon.slayer.revealed" in [e["code"] for e in res["events"]]
    assert res["dragon_changes"] == []
    assert prosperity(res)["ally"] == 1


def test_drg14_individual_loss_reveals_the_dragonslayer_feature() -> None:
    res = run(
        dragon=dragon("hero", battle=2),
        entities=[ent("hero", kind="individual", prosperity=1, level=3, target="dragon")],
        dice={"pool.dragon": [2, 3], "pool.hero": [8]},
    )
    [rev] = res["slayers_revealed"]
    assert (rev["id"], rev["kind"], rev["feature"], rev["new_entity"]) == (
        "hero",
        "individual",
        "dragonslayer",
        None,
    )
    assert res["next_state"]["entities"][0]["dragonslayer"]
    assert res["wounds"]["after"] == 1


def test_drg14_default_minority_prosperity_is_the_parents() -> None:
    res = run(
        dragon=dragon("tribe", battle=3),
        entities=[ent("tribe", prosperity=4, level=2, target="dragon")],
        dice={"pool.dragon": [2, 3, 1], "pool.tribe": [6, 1, 1, 1]},
    )
    assert res["slayers_revealed"][0]["prosperity"] == 4


def test_drg15_wounds_reaching_battle_defeat_the_dragon_whatever_continues_says() -> None:
    res = run(
        dragon=dragon("hero", battle=2, wounds=1),
        entities=[ent("hero", kind="individual", prosperity=1, level=3, target="dragon")],
        dice={"pool.dragon": [2, 3], "pool.hero": [8]},
        continues=True,
    )
    assert res["wounds"]["after"] == 2 and res["dragon_defeated"] and res["battle_ended"]
    narrate(res["events"], "en", {}, TEXTS)
    [text] = [e["text"] for e in res["events"] if e["code"] == "dragon.defeated"]
    assert "may never attack hero the same way again" in text


def test_drg15_a_defeated_dragon_may_not_go_on() -> None:
    with pytest.raises(IllegalDecision) as err:
        run(dragon=dragon("g1", battle=2, wounds=2), entities=[ent("g1")], seed="x")
    assert err.value.errors[0].loc == ("dragon", "wounds")


def test_drg16_one_round_by_default_continues_on_request() -> None:
    ended = run(dragon=dragon("g1"), entities=[ent("g1", target="dragon")], seed="x")
    goes_on = run(
        dragon=dragon("g1"), entities=[ent("g1", target="dragon")], seed="x", continues=True
    )
    assert ended["battle_ended"] and not goes_on["battle_ended"]
    assert goes_on["hoard_gained"] == 0 and goes_on["hoard"]["amount"] == ended["hoard"]["amount"]
    assert goes_on["next_state"]["round"] == 2


def _hoard_events(res: BattleResult) -> list[tuple[str, dict[str, object]]]:
    return [(e["code"], e["params"]) for e in res["events"] if e["code"].startswith("dragon.hoard")]


def _hoard_battle(**more: object) -> BattleResult:
    """A dragon beats g1 (level 4, prosperity 1); s1 beats hero (level 4, prosperity 2, a
    dragonslayer); the lord (level 6) waits and does not count."""
    return run(
        dragon=dragon("g1", battle=2),
        entities=[
            ent("g1", prosperity=1, level=4, target="dragon"),
            ent("s1", "player", prosperity=1, target="hero"),
            ent("hero", kind="individual", prosperity=2, level=4, dragonslayer=True, target="s1"),
            ent("lord", prosperity=1, level=6),
        ],
        dice={
            "pool.dragon": [8, 8],
            "pool.g1": [1],
            "pool.s1": [4],
            "pool.hero": [1, 1],
            "slayer.hero": [2],
        },
        **more,
    )


def test_drg17_hoard_from_the_strongest_enemy_by_strength_order() -> None:
    """«Taistelun loputtua pelaaja saa hoardia vahvimman vihollisen tason verran -1
    (lohikäärmeentappaja nostaa tätä).» The strongest is the first in the strength order:
    «lohikäärme on vahvin, muilla entiteeteillä prosperity määrää, tasatilanteissa vapaat päättävät
    ensin». (The hero, prosperity 2, comes before g1; a dragonslayer, it counts level 4 + 1.)"""
    res = _hoard_battle()
    assert res["hoard"]["enemies"] == ["g1", "hero"]
    assert (res["hoard"]["strongest"], res["hoard"]["level"], res["hoard"]["dragonslayer"]) == (
        "hero",
        5,
        True,
    )
    assert res["hoard"]["amount"] == 4 and res["hoard_gained"] == 4
    assert _hoard_events(res) == [
        ("dragon.hoard.by_strength", {"id": "hero", "prosperity": 2, "level": 4}),
        ("dragon.hoard.dragonslayer", {"id": "hero", "own": 4, "level": 5}),
        ("dragon.hoard", {"amount": 4, "strongest": "hero", "level": 5}),
    ]
    narrate(res["events"], "en", {}, TEXTS)
    texts = [e["text"] for e in res["events"] if e["code"].startswith("dragon.hoard")]
    assert "the first in the order of strength, with prosperity 2" in texts[0]
    assert "counts one level higher, 5 instead of 4" in texts[1]


def test_drg17_strength_order_is_prosperity_not_level() -> None:
    """«muilla entiteeteillä prosperity määrää»: the big tribe (prosperity 5, level 2) is stronger
    than the lord (prosperity 1, level 5), whatever their levels."""
    res = run(
        dragon=dragon("big", battle=2),
        entities=[
            ent("big", prosperity=5, level=2, target="dragon"),
            ent("s1", "player", prosperity=1, target="lord"),
            ent("lord", kind="individual", prosperity=1, level=5, target="s1"),
        ],
        seed="x",
    )
    assert (res["hoard"]["strongest"], res["hoard"]["level"], res["hoard"]["amount"]) == (
        "big",
        2,
        1,
    )
    assert _hoard_events(res)[0] == (
        "dragon.hoard.by_strength",
        {"id": "big", "prosperity": 5, "level": 2},
    )


def test_drg17_option_highest_level_keeps_the_rule_files_reading() -> None:
    """`strongest_enemy: highest_level` (rules/dragon.md): the first of the highest level, a
    dragonslayer counting one higher (the hero's 4 + 1 beats g1's 4; the waiting lord's 6 does
    not count)."""
    res = _hoard_battle(options={"strongest_enemy": "highest_level"})
    assert (res["hoard"]["strongest"], res["hoard"]["level"], res["hoard"]["amount"]) == (
        "hero",
        5,
        4,
    )
    assert _hoard_events(res) == [
        ("dragon.hoard.by_level", {"id": "hero", "level": 5}),
        ("dragon.hoard.dragonslayer", {"id": "hero", "own": 4, "level": 5}),
        ("dragon.hoard", {"amount": 4, "strongest": "hero", "level": 5}),
    ]
    fields = {
        "dragon": dragon("big", battle=2),
        "entities": [
            ent("big", prosperity=5, level=2, target="dragon"),
            ent("s1", "player", prosperity=1, target="lord"),
            ent("lord", kind="individual", prosperity=1, level=5, target="s1"),
        ],
        "seed": "x",
    }
    by_level = run(**fields, options={"strongest_enemy": "highest_level"})
    by_strength = run(**fields, options={"strongest_enemy": "strength_order"})
    assert (by_level["hoard"]["strongest"], by_level["hoard"]["level"]) == ("lord", 5)
    assert (by_strength["hoard"]["strongest"], by_strength["hoard"]["level"]) == ("big", 2)
    assert by_level["hoard"]["amount"] == 4 and by_strength["hoard"]["amount"] == 1


def test_drg17_hoard_is_gained_even_on_a_loss_unless_on_win() -> None:
    fields = {
        "dragon": dragon("tribe", battle=3),
        "entities": [ent("tribe", prosperity=1, level=3, target="dragon")],
        "dice": {"pool.dragon": [1, 1, 1], "pool.tribe": [5]},
    }
    always = run(**fields)
    on_win = run(**fields, options={"hoard": "on_win"})
    # the tribe revealed its dragonslayer when it won: level 3 + 1 - 1 = 3
    assert (always["hoard"]["dragon_won"], always["hoard"]["level"], always["hoard_gained"]) == (
        False,
        4,
        3,
    )
    assert (on_win["hoard"]["amount"], on_win["hoard_gained"]) == (0, 0)


def test_drg17_hoard_never_below_zero() -> None:
    res = run(
        dragon=dragon("g1"),
        entities=[ent("g1", level=1, target="dragon")],
        dice={"pool.dragon": [8, 8], "pool.g1": [1, 1]},
    )
    assert (res["hoard"]["level"], res["hoard"]["amount"]) == (1, 0)


# ---------------------------------------------------------------- bad situations


@pytest.mark.parametrize(
    ("entities", "dragon_target", "loc", "words"),
    [
        ([ent("g1"), ent("g1")], "g1", ("entities", 1, "id"), "twice"),
        ([ent("dragon"), ent("g1")], "g1", ("entities", 0, "id"), "dragon"),
        ([ent("g1", target="nobody")], "g1", ("entities", 0, "target"), "not in the battle"),
        ([ent("g1")], "ghost", ("dragon", "target"), "not an entity"),
        ([ent("g1"), ent("s1", "player")], "s1", ("dragon", "target"), "subjugated"),
        (
            [ent("g1", aside=True), ent("g2", target="dragon")],
            "g1",
            ("dragon", "target"),
            "aside",
        ),
        (
            [ent("g1"), ent("s1", "player", if_left_over="join:g1")],
            "g1",
            ("entities", 1, "if_left_over"),
            "not its ally",
        ),
        (
            [ent("g1", if_left_over="join:dragon")],
            "g1",
            ("entities", 0, "if_left_over"),
            "not its ally",
        ),
        ([ent("g1", parent="nope")], "g1", ("entities", 0, "parent"), "nope"),
        (
            [ent("g1", parent="g2"), ent("g2", parent="g3"), ent("g3", parent="g1")],
            "g1",
            ("entities", 0, "parent"),
            "cycle",
        ),
        ([ent("g1", parent="g1")], "g1", ("entities", 0, "parent"), "own parent"),
        (
            [ent("g1", prosperity=2, slayer_prosperity=3)],
            "g1",
            ("entities", 0, "slayer_prosperity"),
            "0 .. the group",
        ),
        (
            [ent("g1", kind="individual", slayer_prosperity=0)],
            "g1",
            ("entities", 0, "slayer_prosperity"),
            "individual",
        ),
        ([ent("g1"), ent("g2", target="g1")], "g1", ("entities", 1, "target"), "ally"),
    ],
)
def test_bad_situations_name_the_entity_and_field(
    entities: list[dict[str, object]], dragon_target: str, loc: tuple[object, ...], words: str
) -> None:
    with pytest.raises(InvalidRequest) as err:
        run(dragon=dragon(dragon_target), entities=entities, seed="x")
    locs = [e.loc for e in err.value.errors]
    assert loc in locs, locs
    assert any(words in e.msg for e in err.value.errors if e.loc == loc), err.value.errors
