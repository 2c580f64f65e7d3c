"""Rolling a notation with scripted dice (rules/notation/roll.py): every die in draw order, each
term's dice marked, the totals; the draw order of rerolls and explosions; the budget."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import DiceSource
from rules.errors import DiceExhausted, InvalidRequest
from rules.notation.models import NotationRollRequest
from rules.notation.parser import DEPTH
from rules.notation.roll import Roller

ROLLER = Roller()


def roll(notation: str, **script: list[int]) -> dict[str, Any]:
    req = NotationRollRequest(notation=notation)
    dice = {f"term.{k[1:]}": v for k, v in script.items()}  # t0=[...] -> term.0
    return dict(ROLLER.roll(req, DiceSource("s", dice, ROLLER.slots(req))))


def marks(result: dict[str, Any], term: int = 0) -> list[tuple[int, str]]:
    return [(d["value"], d["status"]) for d in result["terms"][term]["dice"]]


def test_keep_highest_drops_the_lowest() -> None:
    r = roll("4d6kh3", t0=[3, 6, 1, 5])
    assert marks(r) == [(3, "kept"), (6, "kept"), (1, "dropped"), (5, "kept")]
    assert r["total"] == 14 and r["formula"] == "4d6kh3"
    assert [d["value"] for d in r["rolls"]] == [3, 6, 1, 5]


@pytest.mark.parametrize(
    ("notation", "kept", "total"),
    [
        ("4d6kl1", [1], 1),
        ("4d6dl1", [3, 6, 5], 14),
        ("4d6dh1", [3, 1, 5], 9),
        ("4d6dl1dh1", [3, 5], 8),
        ("4d6kh3kl1", [3], 3),
    ],
)
def test_keep_and_drop(notation: str, kept: list[int], total: int) -> None:
    r = roll(notation, t0=[3, 6, 1, 5])
    assert [v for v, s in marks(r) if s == "kept"] == kept
    assert r["total"] == total


def test_ties_keep_the_earlier_die() -> None:
    r = roll("3d6kh1", t0=[4, 6, 6])
    assert marks(r) == [(4, "dropped"), (6, "kept"), (6, "dropped")]


def test_explosions_are_drawn_breadth_first_as_foundry_draws_them() -> None:
    # base 6, 6, 1; the first 6 draws a 6 (index 3), the second a 2 (index 4); then index 3
    # explodes again: a 5 (index 5)
    r = roll("3d6!", t0=[6, 6, 1, 6, 2, 5])
    assert marks(r) == [
        (6, "exploded"),
        (6, "exploded"),
        (1, "kept"),
        (6, "exploded"),
        (2, "kept"),
        (5, "kept"),
    ]
    assert r["total"] == 26
    codes = [e["code"] for e in r["events"]]
    assert codes == ["notation.exploded", "notation.rolled", "notation.total"]
    assert r["events"][0]["params"]["count"] == 3


def test_explode_once_and_on_a_comparison() -> None:
    r = roll("2d6xo", t0=[6, 3, 6])
    assert marks(r) == [(6, "exploded"), (3, "kept"), (6, "kept")]
    r = roll("2d6!>4", t0=[5, 2, 6, 1])
    assert marks(r) == [(5, "exploded"), (2, "kept"), (6, "exploded"), (1, "kept")]
    assert r["total"] == 14


def test_an_explosion_chain_stops_at_the_depth() -> None:
    r = roll("1d2!", t0=[2] * (DEPTH + 1))
    dice = r["terms"][0]["dice"]
    assert len(dice) == DEPTH + 1 and r["total"] == 2 * (DEPTH + 1)
    assert [d["exploded"] for d in dice] == [True] * DEPTH + [False]


def test_rerolls_again_and_again_and_once() -> None:
    # base 1, 5, 2; the 1 is rerolled (a 2, index 3), the 2 (a 6, index 4), then index 3 (a 4)
    r = roll("3d6rr<3", t0=[1, 5, 2, 2, 6, 4])
    assert marks(r) == [
        (1, "rerolled"),
        (5, "kept"),
        (2, "rerolled"),
        (2, "rerolled"),
        (6, "kept"),
        (4, "kept"),
    ]
    assert r["total"] == 15
    assert r["events"][0] == {
        "code": "notation.rerolled",
        "params": {"term": 0, "notation": "3d6rr<3", "dice": [1, 2, 2]},
        "text": "",
    }
    once = roll("3d6ro<3", t0=[1, 5, 2, 2, 1])
    assert marks(once) == [(1, "rerolled"), (5, "kept"), (2, "rerolled"), (2, "kept"), (1, "kept")]
    assert once["total"] == 8


def test_a_reroll_chain_ends_on_a_face_that_stands() -> None:
    # the depth's reroll is a d5 of the faces that stand (2..6): its 1 is a 2
    r = roll("1d6rr", t0=[1] * DEPTH + [1])
    assert [s for _, s in marks(r)] == ["rerolled"] * DEPTH + ["kept"]
    assert r["total"] == 2
    assert [d["sides"] for d in r["rolls"]] == [6] * DEPTH + [5]
    r = roll("1d6rr<6", t0=[1] * DEPTH)  # one face stands: the depth's reroll draws nothing
    assert r["total"] == 6 and len(r["rolls"]) == DEPTH


def test_reroll_until_is_always_the_face_that_stands() -> None:
    """avrae/d20's own test: ``1d20rr<20`` is always 20 (it rerolls until, with no cap)."""
    for seed in range(30):
        req = NotationRollRequest(notation="1d20rr<20", seed=seed)
        assert ROLLER.roll(req, DiceSource(seed, None, ROLLER.slots(req)))["total"] == 20


def test_rerolls_then_explosions_then_keep() -> None:
    # 1 rerolled into 6, which explodes into 3; keep the highest 2 of 4, 6, 3 (the active dice)
    r = roll("2d6r1!kh2", t0=[1, 4, 6, 3])
    assert marks(r) == [(1, "rerolled"), (4, "kept"), (6, "exploded"), (3, "dropped")]
    assert r["total"] == 10


def test_min_and_max_per_die() -> None:
    r = roll("3d8min3max6", t0=[1, 8, 5])
    assert [d["counts"] for d in r["terms"][0]["dice"]] == [3, 6, 5]
    assert [d["value"] for d in r["terms"][0]["dice"]] == [1, 8, 5]
    assert r["total"] == 14


def test_success_counting_less_failures() -> None:
    r = roll("6d10cs>=7df<=1", t0=[7, 1, 10, 3, 1, 8])
    assert marks(r) == [
        (7, "success"),
        (1, "failure"),
        (10, "success"),
        (3, "kept"),
        (1, "failure"),
        (8, "success"),
    ]
    assert r["total"] == 1
    event = r["events"][0]
    assert event["code"] == "notation.counted"
    assert event["params"]["successes"] == 3 and event["params"]["failures"] == 2
    assert event["params"]["failing"] is True
    assert roll("3d6cs>4", t0=[5, 4, 6])["total"] == 2


def test_counting_only_the_kept_dice() -> None:
    r = roll("4d10kh2cs>=8", t0=[9, 2, 8, 10])
    assert marks(r) == [(9, "success"), (2, "dropped"), (8, "dropped"), (10, "success")]
    assert r["total"] == 2


def test_fate_dice_show_minus_one_to_one() -> None:
    r = roll("4dF+1", t0=[1, 2, 3, 3])
    assert [d["value"] for d in r["terms"][0]["dice"]] == [-1, 0, 1, 1]
    assert [d["value"] for d in r["rolls"]] == [1, 2, 3, 3]
    assert r["total"] == 2


def test_arithmetic_precedence_parentheses_and_floor() -> None:
    assert roll("1d6+2*1d4", t0=[3], t1=[4])["total"] == 11
    assert roll("(1d6+2)*1d4", t0=[3], t1=[4])["total"] == 20
    assert roll("1d6/4", t0=[3])["total"] == 0
    assert roll("-1d6/4", t0=[3])["total"] == -1  # floors, not truncates
    assert roll("10-1d6-1d6", t0=[3], t1=[4])["total"] == 3


def test_each_dice_term_draws_from_its_slot_left_to_right() -> None:
    r = roll("2d6[fire]+1d4[cold]+adv", t0=[1, 2], t1=[3], t2=[5, 17])
    assert [(d["slot"], d["sides"], d["value"]) for d in r["rolls"]] == [
        ("term.0", 6, 1),
        ("term.0", 6, 2),
        ("term.1", 4, 3),
        ("term.2", 20, 5),
        ("term.2", 20, 17),
    ]
    assert [t["label"] for t in r["terms"]] == ["fire", "cold", None]
    assert r["total"] == 23


def test_the_same_seed_gives_the_same_dice_and_scripting_them_gives_the_same_answer() -> None:
    req = NotationRollRequest(notation="8d6!kh4+2d20r<3", seed="table")
    a = ROLLER.roll(req, DiceSource("table"))
    b = ROLLER.roll(req, DiceSource("table"))
    assert a == b
    script: dict[str, list[int]] = {}
    for d in a["rolls"]:
        script.setdefault(d["slot"], []).append(d["value"])
    c = ROLLER.roll(req, DiceSource("table", script, ROLLER.slots(req)))
    assert c["total"] == a["total"] and c["terms"] == a["terms"]
    assert all(d["source"] == "dice" for d in c["rolls"])


def test_scripts_out_of_range_or_short_are_refused() -> None:
    with pytest.raises(DiceExhausted):
        trace = roll("3d6", t0=[1, 2])
        assert trace  # pragma: no cover
    from rules.errors import DiceScriptError

    with pytest.raises(DiceScriptError):
        roll("1d6", t0=[7])


def test_work_counts_every_die_a_notation_can_draw() -> None:
    def work(n: str) -> int:
        return ROLLER.work(NotationRollRequest(notation=n)).dice

    assert work("4d6kh3+2") == 4
    assert work("3d6!") == 3 * (1 + DEPTH)
    assert work("3d6xo") == 6
    assert work("2d6ro<2") == 4
    assert work("2d6rr<2!") == 2 * (1 + 2 * DEPTH)
    assert work("2d6r<2!") == 2 * (2 + DEPTH)  # Foundry's r: once
    assert work("adv+dis") == 4
    assert work("+".join(["100d6rr!"] * 20)) == 20 * 100 * (1 + 2 * DEPTH)


def test_a_bad_notation_is_an_invalid_request_at_notation() -> None:
    with pytest.raises(InvalidRequest) as caught:
        ROLLER.work(NotationRollRequest(notation="2d6+"))
    (error,) = caught.value.errors
    assert error.loc == ("notation",)
    assert error.msg == (
        "notation: column 5: expected a dice term (such as 2d6), a number, '(' or a shorthand, "
        "found the end"
    )
