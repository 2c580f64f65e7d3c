"""The notations that remained (issue 44): data references (Foundry's ``@path``, Roll20's
``@{...}``), Roll20's grouped successes and matches, Foundry's nested dice; each read as its tool
documents it, with exact odds (every script of the dice enumerated) or a documented refusal."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from rules.dice import DiceSource
from rules.errors import InvalidRequest
from rules.notation.models import NotationOddsRequest, NotationRollRequest
from rules.notation.odds import notation_odds
from rules.notation.roll import Roller

ROLLER = Roller()


def roll(**body: Any) -> Any:
    req = NotationRollRequest(**body)
    return ROLLER.roll(req, DiceSource(req.seed or "s", req.dice, ROLLER.slots(req)))


def refused(**body: Any) -> str:
    with pytest.raises(InvalidRequest) as info:
        roll(**body)
    return str(info.value)


def odds(**body: Any) -> dict[int, Fraction]:
    answer = notation_odds(NotationOddsRequest(**body), {})
    return {r["value"]: Fraction(r["p"]["exact"]) for r in answer["total"]["result"]}


def enumerated(**body: Any) -> dict[int, Fraction]:
    """The roll's totals over every script of its dice (terms of fixed dice counts only)."""
    req = NotationRollRequest(**body)
    parsed = ROLLER.notation(req)
    slots = ROLLER.slots(req)
    faces = [range(1, t.sides + 1) for t in parsed.terms for _ in range(t.count)]
    seen: dict[int, int] = {}
    for values in product(*faces):
        script: dict[str, list[int]] = {}
        i = 0
        for t in parsed.terms:
            script[t.slot] = list(values[i : i + t.count])
            i += t.count
        total = ROLLER.roll(req, DiceSource("s", script, slots))["total"]
        seen[total] = seen.get(total, 0) + 1
    n = sum(seen.values())
    return {v: Fraction(c, n) for v, c in seen.items()}


# ---------------------------------------------------------------- data references


def test_foundrys_data_paths() -> None:
    """Foundry VTT, "Dice" (https://foundryvtt.com/article/dice/): "/r 1d20 + @abilities.str.mod"
    reads the roll data's nested value."""
    data = {"abilities": {"str": {"mod": 3}}, "prof": 2}
    result = roll(notation="/r 1d20 + @abilities.str.mod + @prof", data=data, dice={"term.0": [10]})
    assert (result["formula"], result["total"]) == ("1d20 + 3 + 2", 15)
    assert result["notation"] == "/r 1d20 + @abilities.str.mod + @prof"


def test_roll20s_attribute_calls() -> None:
    """Roll20's Dice Reference: "+@{selected|Strength_modifier}"; each | a level of data."""
    data = {"selected": {"strength_mod": -1}, "bonus": 2}
    result = roll(
        notation="/r 1d20+@{selected|strength_mod}+@{bonus}",
        dialect="roll20",
        data=data,
        dice={"term.0": [10]},
    )
    assert (result["formula"], result["total"]) == ("1d20 + -1 + 2", 11)


def test_a_formula_in_the_data_is_put_in_as_text() -> None:
    result = roll(notation="@dmg + 1", data={"dmg": "2d6"}, dice={"term.0": [3, 4]})
    assert (result["formula"], result["total"]) == ("2d6 + 1", 8)
    assert odds(notation="1d4 + @m", data={"m": 2}) == {v: Fraction(1, 4) for v in (3, 4, 5, 6)}


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"notation": "1d20 + @abilities.dex.mod", "data": {"abilities": {}}}, "does not hold"),
        ({"notation": "1d20 + @prof"}, "does not hold"),
        ({"notation": "1d20 + @{strength}", "dialect": "roll20"}, "does not hold"),
        ({"notation": "1d20 + @{x}", "dialect": "roll20", "data": {"x": 2.5}}, "whole number"),
        ({"notation": "1d20 + @x", "data": {"x": [1]}}, "a number or a formula"),
        ({"notation": "1d20 + @x", "data": {"x": "@y"}}, "more data"),
    ],
)
def test_a_missing_or_bad_reference_is_a_422_naming_it(body: dict[str, Any], said: str) -> None:
    message = refused(**body)
    assert said in message and "column 8" in message, message


# ---------------------------------------------------------------- Roll20's grouped successes


def test_roll20s_grouped_successes_count_each_expressions_total() -> None:
    """Roll20's Dice Reference, "Grouped Roll Modifiers": {4d6+2d8, 3d20+3, 5d10+1}>40 counts one
    success for each sub-roll total of 40 or more (Roll20's > holds its target)."""
    script = {"term.0": [6, 3, 1], "term.1": [8, 7]}
    result = roll(notation="{3d6, 2d8}>10", dialect="roll20", dice=script)
    (pool,) = result["pools"]
    assert [i["total"] for i in pool["items"]] == [10, 15]
    assert result["total"] == pool["total"] == 2


def test_grouped_successes_and_failures_by_hand() -> None:
    script = {"term.0": [6, 3, 1], "term.1": [1, 1], "term.2": [5]}
    result = roll(notation="{3d6, 2d8, 1d6}>10f<3", dialect="roll20", dice=script)
    (pool,) = result["pools"]
    assert [i["total"] for i in pool["items"]] == [10, 2, 5]
    assert result["total"] == 1 - 1 + 0
    assert result["formula"] == "{3d6, 2d8, 1d6}>10f<3"


@pytest.mark.parametrize("notation", ["{1d6, 1d6}>4", "{1d6, 1d4+1, 2d4}>5f<3", "{1d6, 1d6}=3"])
def test_the_odds_of_grouped_successes_are_every_roll_enumerated(notation: str) -> None:
    assert odds(notation=notation, dialect="roll20") == enumerated(
        notation=notation, dialect="roll20"
    )


@pytest.mark.parametrize("notation", ["{4d6+3d8}k4", "{3d20+5}>21", "{2d6!}>4"])
def test_a_group_of_one_expression_with_a_modifier_is_refused_in_roll20(notation: str) -> None:
    """Roll20 reads it die by die; the group's pool of one total would be a silent misread."""
    assert "die by die" in refused(notation=notation, dialect="roll20")


# ---------------------------------------------------------------- Roll20's matches


def test_roll20s_matches_by_hand() -> None:
    """Roll20's Dice Reference, "Dice Matching": m marks the values two or more dice show (the
    total unchanged), mt totals how many values matched; a number after it is the dice a match
    takes, a comparison the values that may match (as the dice-roller-parser grammar reads it)."""
    script = {"term.0": [2, 5, 2, 6, 5]}
    marked = roll(notation="5d6m", dialect="roll20", dice=script)
    assert (marked["total"], marked["terms"][0]["matches"]) == (20, [2, 5])
    counted = roll(notation="5d6mt", dialect="roll20", dice=script)
    assert (counted["total"], counted["terms"][0]["matches"]) == (2, [2, 5])
    three = roll(notation="6d6mt3>3", dialect="roll20", dice={"term.0": [2, 2, 2, 6, 6, 6]})
    assert (three["total"], three["terms"][0]["matches"]) == (1, [6])
    assert three["formula"] == "6d6mt3>3"


@pytest.mark.parametrize("notation", ["4d6mt", "5d4mt", "5d4mt3", "4d6mt>4", "3d6m"])
def test_the_odds_of_matches_are_every_roll_enumerated(notation: str) -> None:
    assert odds(notation=notation, dialect="roll20") == enumerated(
        notation=notation, dialect="roll20"
    )


@pytest.mark.parametrize("notation", ["5d6kh3mt", "5d6!mt", "5d6r1m", "5d10>7mt"])
def test_matches_with_other_modifiers_are_refused(notation: str) -> None:
    assert "not read here" in refused(notation=notation, dialect="roll20")


# ---------------------------------------------------------------- nested dice


def test_foundrys_nested_dice_roll_their_count_first() -> None:
    """Foundry VTT's "Dice" article: a parenthesised expression before d is evaluated first and
    gives the number of dice, (2d6)d6; Roll20 reads computed dice alike."""
    result = roll(notation="(2d6)d6 + 1", dice={"term.0": [1, 2], "term.1": [6, 5, 4]})
    assert result["total"] == 16 and result["formula"] == "(2d6)d6 + 1"
    assert [len(t["dice"]) for t in result["terms"]] == [2, 3]
    none = roll(notation="(1d2-1)d6 + 1", dialect="roll20", dice={"term.0": [1]})
    assert none["total"] == 1 and none["terms"][1]["dice"] == []


@pytest.mark.parametrize(
    ("notation", "dialect"),
    [("(1d4)d6", "foundry"), ("(1d3+1)d4 - 1", "roll20"), ("(1d2)d6", "foundry")],
)
def test_the_odds_of_nested_dice(notation: str, dialect: str) -> None:
    """Every script of the count's dice, then of as many dice as it gave, enumerated."""
    req = NotationRollRequest(notation=notation, dialect=dialect)
    parsed = ROLLER.notation(req)
    count, term = parsed.terms
    seen: dict[int, Fraction] = {}
    for first in range(1, count.sides + 1):
        n = ROLLER.roll(req, DiceSource("s", {count.slot: [first], term.slot: [1] * 12}, None))
        dice = len(n["terms"][1]["dice"])
        for values in product(range(1, term.sides + 1), repeat=dice):
            script = {count.slot: [first], term.slot: list(values)}
            total = ROLLER.roll(req, DiceSource("s", script, None))["total"]
            weight = Fraction(1, count.sides) * Fraction(1, term.sides**dice)
            seen[total] = seen.get(total, Fraction(0)) + weight
    assert odds(notation=notation, dialect=dialect) == seen


@pytest.mark.parametrize(
    ("notation", "said"), [("(1d4)d6kh1", "modifiers on nested dice"), ("(1d200)d6", "0 to 100")]
)
def test_what_nested_dice_do_not_read(notation: str, said: str) -> None:
    assert said in refused(notation=notation)
