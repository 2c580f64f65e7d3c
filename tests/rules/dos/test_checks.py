"""DOS-8..13: totals, difficulty, simple, opposed and complex tests; worked example 3."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.dos import checks
from rules.dos.models import ComplexRequest, OpposedRequest, TestRequest
from tests.rules.dos.helpers import build, source


def run_test(**fields):  # type: ignore[no-untyped-def]
    req = build(TestRequest, **fields)
    return checks.test(req, source(req, checks.test_slots))


def test_dos8_total_floors_after_the_modifier() -> None:
    # (21 + 2) x 90 / 100 = 20.7 -> 20 (DOS-10)
    res = run_test(stat=21, skill=1, dc=0, modifier_percent=-10, dice={"check": [2]})
    assert res["roll"]["result"] == 2
    assert res["total"] == 20


@pytest.mark.parametrize(
    ("difficulty", "percent", "expected"),
    [
        ("trivial", 50, 45),
        ("easy", 20, 36),
        ("normal", 0, 30),
        ("hard", -20, 24),
        ("very_hard", -50, 15),
        ("impossible", -90, 3),
    ],
)
def test_dos9_difficulty_status(difficulty: str, percent: int, expected: int) -> None:
    res = run_test(stat=25, skill=1, dc=0, difficulty=difficulty, dice={"check": [5]})
    assert (res["modifier_percent"], res["total"]) == (percent, expected)


def test_dos9_status_and_percentage_are_exclusive() -> None:
    with pytest.raises(ValidationError, match="not both"):
        build(TestRequest, stat=1, skill=1, dc=1, difficulty="easy", modifier_percent=5)


def test_dos10_negative_totals_floor_down() -> None:
    res = run_test(stat=-5, skill=1, dc=-10, modifier_percent=50, dice={"check": [2]})
    assert res["total"] == (-3 * 150) // 100 == -5


def test_dos11_success_needs_to_exceed_the_dc() -> None:
    assert run_test(stat=10, skill=1, dc=14, dice={"check": [5]})["outcome"] == "success"
    tie = run_test(stat=10, skill=1, dc=15, dice={"check": [5]})
    assert (tie["outcome"], tie["success"], tie["margin"]) == ("failure", False, 0)


def test_dos11_ties_option_succeeds() -> None:
    res = run_test(stat=10, skill=1, dc=15, dice={"check": [5]}, options={"ties": "succeed"})
    assert (res["outcome"], res["success"]) == ("success", True)


def test_dos11_luck_succeeds_whatever_the_total() -> None:
    res = run_test(stat=24, skill=3, dc=43, dice={"check": [6, 10, 10, 1, 1]})
    assert res["total"] == 24 + 6 + 10 + 10 + 1 + 1
    res = run_test(stat=0, skill=1, dc=1000, dice={"check": [10, 1]})
    assert (res["outcome"], res["success"], res["total"]) == ("luck", True, 11)


def test_dos11_bad_luck_fails_whatever_the_total() -> None:
    res = run_test(stat=44, skill=5, dc=0, dice={"check": [5, 1, 6, 1, 1]})
    assert (res["outcome"], res["success"], res["total"]) == ("bad_luck", False, 44)


def test_example_2_sarathael() -> None:
    res = run_test(stat=24, skill=3, dc=43, dice={"check": [6, 10, 10, 2, 3]})
    assert res["roll"]["luck"] and res["success"] and res["outcome"] == "luck"
    assert len(res["roll"]["dice"]) == 5


def run_opposed(a, b, dice):  # type: ignore[no-untyped-def]
    req = build(OpposedRequest, a=a, b=b, dice=dice)
    return checks.opposed(req, source(req, checks.opposed_slots))


def test_dos12_higher_total_wins() -> None:
    res = run_opposed({"stat": 25, "skill": 2}, {"stat": 9, "skill": 1}, {"a": [4, 9], "b": [4]})
    assert (res["a"]["total"], res["b"]["total"], res["winner"]) == (38, 13, "a")


def test_dos12_luck_beats_a_higher_total() -> None:
    # Worked example 6, first attack: 39 against a lucky block of 27.
    res = run_opposed(
        {"stat": 25, "skill": 2}, {"stat": 9, "skill": 1}, {"a": [6, 8], "b": [10, 8]}
    )
    assert (res["a"]["total"], res["b"]["total"], res["winner"]) == (39, 27, "b")


def test_dos12_bad_luck_loses_to_a_lower_total() -> None:
    res = run_opposed({"stat": 44, "skill": 2}, {"stat": 0, "skill": 1}, {"a": [1, 1], "b": [2]})
    assert res["winner"] == "b"


def test_dos12_both_lucky_totals_decide_and_equal_is_a_tie() -> None:
    res = run_opposed(
        {"stat": 5, "skill": 1}, {"stat": 5, "skill": 1}, {"a": [10, 3], "b": [10, 3]}
    )
    assert res["a"]["roll"]["luck"] and res["b"]["roll"]["luck"]
    assert res["winner"] is None


def run_complex(**fields):  # type: ignore[no-untyped-def]
    req = build(ComplexRequest, **fields)
    return checks.complex_test(req, source(req, checks.complex_slots))


BALTIR = {
    "attempt.1": [6, 5],
    "attempt.2": [8, 5],
    "attempt.3": [6, 4],
    "attempt.4": [1, 6],
    "attempt.5": [10, 7, 8],
}


def test_example_3_baltir_ties_succeed() -> None:
    res = run_complex(
        stat=9,
        skill=2,
        dc=20,
        attempts=6,
        successes_needed=3,
        dice=BALTIR,
        options={"ties": "succeed"},
    )
    assert [a["total"] for a in res["attempts"]] == [20, 22, 19, 10, 34]
    assert [a["success"] for a in res["attempts"]] == [True, True, False, False, True]
    assert (res["success"], res["successes"], res["partial"]) == (True, 3, False)


def test_example_3_baltir_default_rolls_a_sixth_attempt() -> None:
    dice = {**BALTIR, "attempt.6": [2, 3]}
    res = run_complex(stat=9, skill=2, dc=20, attempts=6, successes_needed=3, dice=dice)
    assert [a["total"] for a in res["attempts"]] == [20, 22, 19, 10, 34, 14]
    assert [a["success"] for a in res["attempts"]] == [False, True, False, False, True, False]
    assert (res["success"], res["successes"], res["partial"]) == (False, 2, True)


def test_dos13_stops_as_soon_as_enough_successes() -> None:
    res = run_complex(
        stat=50,
        skill=1,
        dc=10,
        attempts=5,
        successes_needed=2,
        dice={"attempt.1": [5], "attempt.2": [5]},
    )
    assert len(res["attempts"]) == 2 and res["success"]
    assert not any(r["slot"].startswith("attempt.3") for r in res["rolls"])


def test_dos13_no_success_is_not_partial() -> None:
    res = run_complex(
        stat=0,
        skill=1,
        dc=100,
        attempts=2,
        successes_needed=1,
        dice={"attempt.1": [5], "attempt.2": [5]},
    )
    assert (res["success"], res["partial"], res["successes"]) == (False, False, 0)


def test_dos13_luck_counts_as_a_success() -> None:
    res = run_complex(
        stat=0, skill=1, dc=100, attempts=1, successes_needed=1, dice={"attempt.1": [10, 3]}
    )
    assert res["success"] and res["attempts"][0]["outcome"] == "luck"


def test_dos13_successes_needed_above_attempts_is_rejected() -> None:
    with pytest.raises(ValidationError, match="could never succeed"):
        build(ComplexRequest, stat=1, skill=1, dc=1, attempts=2, successes_needed=3)
