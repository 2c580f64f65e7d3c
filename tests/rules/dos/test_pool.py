"""DOS-1..7: the pool roll, rule by rule, and worked examples 1 and 2 of rules/dos.md."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DiceSource
from rules.dos.pool import MAX_CHAIN, opposed_reason, opposed_winner, roll_pool
from rules.dos.sentences import SENTENCES
from rules.events import EventLog


def pool(values: Sequence[int], size: int | None = None):  # type: ignore[no-untyped-def]
    size = len(values) if size is None else size
    dice = DiceSource("t", {"roll": list(values)})
    log = EventLog(SENTENCES)
    roll = roll_pool(dice, "roll", size, log)
    dice.settle()
    return roll, log, dice


def faces(roll) -> list[tuple[int, bool, bool]]:  # type: ignore[no-untyped-def]
    return [(d["value"], d["cancelled"], d["extra"]) for d in roll["dice"]]


def test_dos1_one_die_per_skill_level() -> None:
    roll, _, _ = pool([4, 5, 6])
    assert [d["value"] for d in roll["dice"]] == [4, 5, 6]
    assert roll["result"] == 15


def test_dos2_a_one_cancels_the_highest_other_die_and_counts_one() -> None:
    roll, log, _ = pool([1, 6])
    assert faces(roll) == [(1, False, False), (6, True, False)]
    assert roll["result"] == 1
    assert "dos.die.cancelled" in log.codes


def test_dos2_k_ones_cancel_the_k_highest() -> None:
    roll, _, _ = pool([1, 9, 1, 3, 7])
    assert faces(roll) == [
        (1, False, False),
        (9, True, False),
        (1, False, False),
        (3, False, False),
        (7, True, False),
    ]
    assert roll["result"] == 1 + 1 + 3


def test_dos2_equal_highest_first_rolled_is_cancelled_first() -> None:
    roll, _, _ = pool([8, 1, 8])
    assert [d["cancelled"] for d in roll["dice"]] == [True, False, False]
    assert roll["result"] == 9


def test_dos2_more_ones_than_others_cancels_everything() -> None:
    roll, log, _ = pool([1, 1])
    assert roll["result"] == 0
    assert all(d["cancelled"] for d in roll["dice"])
    assert roll["bad_luck"]
    assert "dos.pool.all_cancelled" in log.codes


def test_dos3_a_surviving_ten_explodes_and_chains() -> None:
    roll, _, _ = pool([10, 4, 10, 10, 3], size=2)
    assert faces(roll) == [
        (10, False, False),
        (4, False, False),
        (10, False, True),
        (10, False, True),
        (3, False, True),
    ]
    assert roll["result"] == 10 + 4 + 10 + 10 + 3


def test_dos3_a_one_on_an_extra_die_just_adds_one() -> None:
    roll, _, _ = pool([10, 5, 1], size=2)
    assert roll["result"] == 16
    assert not any(d["cancelled"] for d in roll["dice"])


def test_dos3_a_cancelled_ten_does_not_explode() -> None:
    roll, _, dice = pool([10, 1])
    assert faces(roll) == [(10, True, False), (1, False, False)]
    assert roll["result"] == 1
    assert len(dice.rolls) == 2


def test_dos3_chain_cap() -> None:
    roll, _, _ = pool([10] * (MAX_CHAIN + 1), size=1)
    assert sum(d["extra"] for d in roll["dice"]) == MAX_CHAIN
    assert roll["result"] == 10 * (MAX_CHAIN + 1)


def test_dos4_result_is_surviving_base_plus_extras() -> None:
    roll, _, _ = pool([10, 1, 10, 6, 2], size=4)
    # the 1 cancels the first 10; the second 10 explodes into a 2
    assert roll["result"] == 1 + 10 + 6 + 2


def test_dos5_bad_luck_more_ones_than_others() -> None:
    assert pool([1, 1, 5])[0]["bad_luck"]
    assert not pool([1, 1, 5, 6])[0]["bad_luck"]


def test_dos6_luck_more_tens_than_others() -> None:
    assert pool([10, 10, 5, 3, 4], size=3)[0]["luck"]
    assert not pool([10, 5, 3], size=2)[0]["luck"]


def test_dos6_empty_pool_has_neither() -> None:
    roll, _, _ = pool([])
    assert (roll["result"], roll["luck"], roll["bad_luck"], roll["dice"]) == (0, False, False, [])


def test_dos7_draw_order_base_then_each_chain_in_base_order() -> None:
    roll, _, dice = pool([10, 10, 7, 10, 2, 3], size=3)
    # base 10, 10, 7; first 10's chain: 10, 2; second 10's chain: 3
    assert [r.value for r in dice.rolls] == [10, 10, 7, 10, 2, 3]
    assert roll["result"] == 10 + 10 + 7 + 10 + 2 + 3


def test_example_1_arathus_bad_luck() -> None:
    roll, _, _ = pool([5, 1, 6, 1, 1])
    assert roll["bad_luck"] and not roll["luck"]
    assert roll["result"] == 0
    assert 44 + roll["result"] == 44


def test_example_2_sarathael_luck_and_two_extra_dice() -> None:
    roll, _, dice = pool([6, 10, 10, 4, 7], size=3)
    assert roll["luck"]
    assert [d["extra"] for d in roll["dice"]] == [False, False, False, True, True]
    assert len(dice.rolls) == 5


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 30), st.text(min_size=1, max_size=8, alphabet="abcdefgh0123"))
def test_pool_properties(size: int, seed: str) -> None:
    dice = DiceSource(seed)
    roll = roll_pool(dice, "roll", size, EventLog(SENTENCES))
    base = [d["value"] for d in roll["dice"] if not d["extra"]]
    assert len(base) == size
    ones = base.count(1)
    others = size - ones
    cancelled = sum(d["cancelled"] for d in roll["dice"])
    assert cancelled == (size if ones > others else ones)
    assert not (roll["luck"] and roll["bad_luck"])
    assert roll["result"] >= 0
    if roll["bad_luck"]:
        assert roll["result"] == 0
    non_extra_max = 10 * size
    extras = [d["value"] for d in roll["dice"] if d["extra"]]
    assert roll["result"] <= non_extra_max + sum(extras)
    assert roll["result"] == sum(d["value"] for d in roll["dice"] if not d["cancelled"])


def test_dos12_opposed_winner_and_reason() -> None:
    plain, _, _ = pool([5, 6])
    lucky, _, _ = pool([10, 10, 3, 4, 5], size=3)  # two 10s of three: luck (DOS-6), 2 extra dice
    unlucky, _, _ = pool([1, 1, 4])  # more 1s than others: bad luck (DOS-5)
    assert lucky["luck"] and unlucky["bad_luck"]
    # Luck beats a higher total; bad luck loses to a lower one; otherwise the higher total wins.
    assert opposed_winner(lucky, 10, plain, 90) == "a"
    assert opposed_reason("a", lucky, plain) == "luck"
    assert opposed_winner(plain, 5, unlucky, 50) == "a"
    assert opposed_reason("a", plain, unlucky) == "bad_luck"
    assert opposed_winner(plain, 30, plain, 31) == "b"
    assert opposed_reason("b", plain, plain) == "total"
    assert opposed_winner(plain, 30, plain, 30) is None
    assert opposed_reason(None, plain, plain) == "tie"
    # Both lucky: luck decides nothing, the totals do.
    assert opposed_winner(lucky, 40, lucky, 20) == "a"
    assert opposed_reason("a", lucky, lucky) == "total"
