"""What a table pastes (issue 44): each tool's chat command taken off and reported, avrae's
``adv``/``dis`` as d20 applies them (rolled by d20 itself on the same dice), avrae's ``!rr`` and
``!rrr``, and the ``repeat`` field, each repetition replayable alone by its seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import d20  # type: ignore[import-untyped]
import d20.expression  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DiceSource
from rules.errors import InvalidRequest
from rules.notation.models import NotationRollRequest
from rules.notation.roll import Roller

ROLLER = Roller()


def roll(**body: Any) -> Any:
    req = NotationRollRequest(**body)
    return ROLLER.roll(req, DiceSource(req.seed or "s", req.dice, ROLLER.slots(req)))


def refused(**body: Any) -> str:
    req = NotationRollRequest(**body)
    with pytest.raises(InvalidRequest) as info:
        ROLLER.roll(req, DiceSource("s", None, None))
    return str(info.value)


@pytest.mark.parametrize(
    ("dialect", "text", "command", "mode", "formula"),
    [
        # Foundry VTT, "Dice": /roll and /r roll in the chat's selected mode; /gmroll /gmr,
        # /blindroll /broll /br, /selfroll /sr, /publicroll /pr (https://foundryvtt.com/article/dice/)
        ("foundry", "/r 2d20kh + 5", "/r", None, "2d20kh1 + 5"),
        ("foundry", "/roll 1d20 # sneak", "/roll", None, "1d20"),
        ("foundry", "/gmr 1d20+3", "/gmr", "gmroll", "1d20 + 3"),
        ("foundry", "/gmroll 1d20", "/gmroll", "gmroll", "1d20"),
        ("foundry", "/br 1d100", "/br", "blindroll", "1d100"),
        ("foundry", "/broll 1d100", "/broll", "blindroll", "1d100"),
        ("foundry", "/blindroll 1d100", "/blindroll", "blindroll", "1d100"),
        ("foundry", "/sr 4d6kh3", "/sr", "selfroll", "4d6kh3"),
        ("foundry", "/selfroll 4d6kh3", "/selfroll", "selfroll", "4d6kh3"),
        ("foundry", "/pr 1d20", "/pr", "publicroll", "1d20"),
        ("foundry", "/publicroll 1d20", "/publicroll", "publicroll", "1d20"),
        ("foundry", "I hit [[/r 1d8 + 3]]", "[[/r ]]", None, "1d8 + 3"),
        # Roll20, "Dice Reference" and "Text Chat": /roll, /r; /gmroll, /gr; inline [[ ]]
        # (https://help.roll20.net/hc/en-us/articles/360037773133-Dice-Reference)
        ("roll20", "/r 1d20+5", "/r", "publicroll", "1d20 + 5"),
        ("roll20", "/roll 1d20 + 3", "/roll", "publicroll", "1d20 + 3"),
        ("roll20", "/gmroll 1d20+5", "/gmroll", "gmroll", "1d20 + 5"),
        ("roll20", "/gr 1d20+5", "/gr", "gmroll", "1d20 + 5"),
        ("roll20", "[[2d6+3]]", "[[ ]]", None, "2d6 + 3"),
        ("roll20", "I attack [[1d20+5]] for damage", "[[ ]]", None, "1d20 + 5"),
        # avrae, cogs5e/dice/cog.py: !r / !roll (alone: 1d20); inline [[ ]]
        ("avrae", "!r 1d20+5 to hit", "!r", None, "1d20 + 5"),
        ("avrae", "!roll 1d8+2+1d6", "!roll", None, "1d8 + 2 + 1d6"),
        ("avrae", "!r", "!r", None, "1d20"),
        ("avrae", "[[1d20 + 6]]", "[[ ]]", None, "1d20 + 6"),
    ],
)
def test_each_tools_chat_command_is_taken_off_and_reported(
    dialect: str, text: str, command: str, mode: str | None, formula: str
) -> None:
    result = roll(notation=text, dialect=dialect)
    assert (result["command"], result["mode"], result["formula"]) == (command, mode, formula)
    assert result["notation"] == text


def test_the_text_around_a_roll_is_its_comment() -> None:
    assert roll(notation="/roll 1d20 # sneak")["comment"] == "sneak"
    assert roll(notation="I attack [[1d20+5]]!", dialect="roll20")["comment"] == "I attack !"
    assert roll(notation="!r 1d20+5 to hit", dialect="avrae")["comment"] == "to hit"


@pytest.mark.parametrize(
    ("dialect", "text", "where"),
    [
        ("roll20", "/gmr 1d20", "foundry"),  # Foundry's command, not Roll20's
        ("foundry", "!r 1d20", "avrae"),
        ("foundry", "1d20+5 adv", "avrae"),
        ("roll20", "[[1d6]] and [[1d8]]", None),
        ("avrae", "!rr 0 1d6", None),
        ("avrae", "!rr 101 1d6", None),
        ("avrae", "!rr six 1d6", None),
        ("avrae", "!rrr 3 1d20 hard", None),
        ("foundry", "/gmr", None),
    ],
)
def test_what_is_not_read_is_a_422_naming_who_reads_it(
    dialect: str, text: str, where: str | None
) -> None:
    message = refused(notation=text, dialect=dialect)
    assert "column" in message
    if where is not None:
        assert f'"dialect": "{where}"' in message


def d20_advantaged(notation: str, adv: Any, values: list[int]) -> int:
    """d20 itself rolling ``notation`` at ``adv``, on ``values`` (its randrange replaced)."""
    supply: Iterator[int] = iter(values)

    def randrange(size: int, *rest: Any) -> int:
        return next(supply) - 1

    with mock.patch.object(d20.expression.random, "randrange", randrange):
        result = d20.roll(notation, advantage=adv, allow_comments=True)
    assert next(supply, None) is None, "d20 drew fewer dice than we did"
    return int(result.total)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(
        [
            "1d20+5",
            "1d20 + 5 to hit",
            "(1d20+2)*2",
            "1d20mi10 + 7",
            "1d20kh1k>5 - 1",
            "-1d20 + 30",
            "5 + 1d20",
            "2d20 + 1",
            "1d8 + 1d20",
            "(1d20, 1d20)kh1 + 3",
        ]
    ),
    st.sampled_from(["adv", "dis"]),
    st.integers(0, 10**6),
)
def test_avraes_adv_and_dis_roll_as_d20_rolls_them(expr: str, word: str, seed: int) -> None:
    """avrae's string_search_adv takes the word out; d20 applies it to a leftmost 1d20 only."""
    result = roll(notation=f"!r {expr} {word}", dialect="avrae", seed=seed)
    values = [r["value"] for r in result["rolls"]]
    adv = d20.AdvType.ADV if word == "adv" else d20.AdvType.DIS
    assert d20_advantaged(expr, adv, values) == result["total"], (expr, values)
    leftmost = expr.lstrip("(-").startswith("1d20")
    assert result["advantage"] == (word if leftmost else None)


def test_adv_on_a_rerolled_d20_is_refused() -> None:
    """d20 keeps the higher of 2d20 before ro1 rerolls the kept die; here rerolls come first."""
    assert "not read" in refused(notation="!r 1d20ro1+5 adv", dialect="avrae")


def test_each_repetition_replays_alone_by_its_seed() -> None:
    repeated = roll(notation="4d6kh3", seed="table", repeat=6)
    assert repeated["repeat"] == 6 and len(repeated["repetitions"]) == 6
    assert repeated["terms"] == [] and repeated["pools"] == []
    assert repeated["total"] == sum(r["total"] for r in repeated["repetitions"])
    for i, repetition in enumerate(repeated["repetitions"], start=1):
        assert repetition["seed"] == f"table/{i}"
        alone = roll(notation="4d6kh3", seed=f"table/{i}")
        assert (alone["total"], alone["terms"]) == (repetition["total"], repetition["terms"])
    # every die drawn is in rolls, repetition after repetition (slots as in one roll)
    assert [r["slot"] for r in repeated["rolls"]] == ["term.0"] * 24


def test_a_script_is_read_on_across_the_repetitions() -> None:
    values = [6, 6, 6, 1, 1, 1, 1, 2]
    result = roll(notation="4d6kh3", repeat=2, dice={"term.0": values})
    assert [r["total"] for r in result["repetitions"]] == [18, 4]
    assert all(r["source"] == "dice" for r in result["rolls"])


def test_avraes_multiroll_and_iterroll() -> None:
    multi = roll(notation="!rr 6 4d6kh3", dialect="avrae", seed=3)
    assert (multi["repeat"], multi["command"], multi["dc"]) == (6, "!rr 6", None)
    assert multi["successes"] is None
    same = roll(notation="4d6kh3", dialect="avrae", seed=3, repeat=6)
    assert same["repetitions"] == multi["repetitions"]
    # !rrr N dice DC: a success is a total of at least the DC (avrae's _roll_many)
    it = roll(notation="!rrr 10 1d20+5 15 adv", dialect="avrae", seed=4)
    totals = [r["total"] for r in it["repetitions"]]
    assert it["dc"] == 15 and it["successes"] == sum(t >= 15 for t in totals)
    assert it["formula"] == "2d20kh1 + 5" and it["advantage"] == "adv"
    assert "repeat is 3" in refused(notation="!rr 6 1d6", dialect="avrae", repeat=3)


def test_repeats_count_in_the_work() -> None:
    once = ROLLER.work(NotationRollRequest(notation="4d6kh3"))
    six = ROLLER.work(NotationRollRequest(notation="4d6kh3", repeat=6))
    assert six.dice == 6 * once.dice
    assert six.answer > 5 * (once.answer - 1_500)


def test_the_odds_of_repetitions() -> None:
    """One repetition's odds as before; the sum's, a power of them; the DC's count, a binomial."""
    from fractions import Fraction

    from rules.notation.models import NotationOddsRequest
    from rules.notation.odds import notation_odds

    once = notation_odds(NotationOddsRequest(notation="4d6kh3"), {})
    six = notation_odds(NotationOddsRequest(notation="4d6kh3", repeat=6), {})
    assert six["total"] == once["total"] and once["sum"] is None
    assert six["sum"] is not None and abs(six["sum"]["mean"] - 6 * once["total"]["mean"]) < 1e-9
    assert [r["value"] for r in six["sum"]["result"]] == list(range(18, 109))
    it = notation_odds(NotationOddsRequest(notation="!rrr 5 1d20+5 15", dialect="avrae"), {})
    assert it["dc"] == 15 and it["successes"] is not None
    p = Fraction(11, 20)  # 1d20 + 5 reaches 15 on 10 to 20
    assert Fraction(it["successes"][5]["p"]["exact"]) == p**5
    assert Fraction(it["successes"][0]["p"]["exact"]) == (1 - p) ** 5


def test_a_repeated_roll_is_one_foundry_roll_a_repetition() -> None:
    from tests.conftest import Api
    from tests.foundry.checks import VALIDATOR

    body = {"notation": "2d6!+1", "dialect": "roll20", "seed": "z", "repeat": 3, "foundry": True}
    answer = Api().post("/dice/roll", json=body).json()
    rolls = answer["foundry"]["rolls"]
    assert len(rolls) == 3
    for roll, repetition in zip(rolls, answer["repetitions"], strict=True):
        VALIDATOR.validate(roll)
        assert roll["total"] == repetition["total"]
    assert sum(r["drawn"] for r in answer["repetitions"]) == len(answer["rolls"])


@pytest.mark.parametrize(
    ("text", "instead"),
    [
        # Dice Maiden's README (https://github.com/Humblemonk/DiceMaiden, "Basic Usage" and
        # "Advanced Rolling Options"): read in no dialect, refused with the equivalent
        ("6 4d6 k3", '\'4d6kh3\' with "dialect": "foundry" and "repeat": 6'),
        ("10d10 t8", "'10d10cs>=8'"),
        ("5d10 t8 f1", "'5d10cs>=8df<=1'"),
        ("3d6 e6", "'3d6xo6'"),
        ("3d6 ie", "'3d6x6'"),
        ("4d6 d1", "'4d6dl1'"),
        ("4d6 kl3", "'4d6kl3'"),
        ("4d6 r2", "'4d6r<=2'"),
        ("4d6 ir2", "'4d6rr<=2'"),
        ("10d6 e6 k8 +4", "'10d6xo6kh8 + 4'"),
    ],
)
@pytest.mark.parametrize("dialect", ["foundry", "roll20", "avrae"])
def test_dice_maidens_strings_are_refused_with_what_to_write(
    text: str, instead: str, dialect: str
) -> None:
    message = refused(notation=text, dialect=dialect)
    assert "Dice Maiden's" in message and instead in message, message


def test_the_equivalents_given_for_dice_maiden_read_as_it_means() -> None:
    """10d10 t8 counts the dice of 8 or more (its README); the pointer's notation does."""
    counted = roll(notation="10d10cs>=8", dice={"term.0": [8, 9, 10, 7, 1, 2, 3, 8, 8, 5]})
    assert counted["total"] == 5


@pytest.mark.parametrize(
    ("dialect", "text", "said"),
    [
        ("roll20", "1d20+5 adv", "avrae's"),
        ("foundry", "1d20+5 dis", '"dialect": "avrae"'),
        ("avrae", "1d20 1d4", "reads as dice"),
        ("roll20", "2d6 + 3 1d6 fire", "reads as dice"),
    ],
)
def test_a_comment_that_is_dice_is_refused(dialect: str, text: str, said: str) -> None:
    assert said in refused(notation=text, dialect=dialect)


def test_roll20s_text_after_a_roll_is_its_comment() -> None:
    """Roll20's Dice Reference, "Including Additional Information": /roll 1d20+5 Roll for
    Initiative."""
    result = roll(notation="/roll 1d20+5 Roll for Initiative", dialect="roll20")
    assert (result["formula"], result["comment"]) == ("1d20 + 5", "Roll for Initiative")


def test_a_sum_too_wide_to_list_is_null_not_a_refusal() -> None:
    """99 repetitions of 1d200 sum to 19,603 values, past the 5,000 an answer lists: one
    repetition's odds still stand."""
    from rules.notation.models import NotationOddsRequest
    from rules.notation.odds import notation_odds

    wide = notation_odds(NotationOddsRequest(notation="1d200", repeat=99), {})
    assert wide["sum"] is None and wide["repeat"] == 99 and len(wide["total"]["result"]) == 200


@pytest.mark.parametrize(
    ("dialect", "text"), [("roll20", "/roll 4d6 kh3"), ("avrae", "4d6 kh3"), ("avrae", "3d6 !!")]
)
def test_a_modifier_after_a_space_is_refused_not_dropped(dialect: str, text: str) -> None:
    """4d6 kh3 would sum the four dice with "kh3" a comment: refused, with where to write it."""
    assert "against its dice term" in refused(notation=text, dialect=dialect)
