"""avrae's ``/`` as d20 divides (issue 44): intermediate values exact, the final total truncated
toward 0. Rolled by us, then by d20 itself on the same dice; the odds follow the roll."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DiceSource
from rules.notation.models import NotationOddsRequest, NotationRollRequest
from rules.notation.odds import notation_odds
from rules.notation.roll import Roller
from tests.rules.notation.test_oracle_d20 import d20_total
from tests.rules.notation.test_remaining import enumerated

ROLLER = Roller()


def odds(notation: str, dialect: str = "avrae") -> dict[int, Fraction]:
    answer = notation_odds(NotationOddsRequest(notation=notation, dialect=dialect), {})
    return {r["value"]: Fraction(r["p"]["exact"]) for r in answer["total"]["result"]}


def test_half_a_d4_doubled_is_the_d4_as_d20_rolls_it() -> None:
    """The issue's case: (1d4/2)*2 is 1 to 4 evenly in d20; it was {0, 2, 4}."""
    assert odds("(1d4/2)*2") == {v: Fraction(1, 4) for v in (1, 2, 3, 4)}
    for face in (1, 2, 3, 4):
        req = NotationRollRequest(notation="(1d4/2)*2", dialect="avrae")
        ours = ROLLER.roll(req, DiceSource("s", {"term.0": [face]}, ROLLER.slots(req)))
        assert ours["total"] == face == d20_total("(1d4/2)*2", [face])
    # Foundry and Roll20 floor each quotient, as they did
    assert odds("(1d4/2)*2", "foundry") == {0: Fraction(1, 4), 2: Fraction(1, 2), 4: Fraction(1, 4)}


def test_the_total_is_truncated_toward_zero() -> None:
    assert odds("-7/2") == {-3: Fraction(1)}
    assert odds("1d6/2") == {
        0: Fraction(1, 6),
        1: Fraction(1, 3),
        2: Fraction(1, 3),
        3: Fraction(1, 6),
    }


@st.composite
def divided(draw: st.DrawFn) -> str:
    """An avrae expression with quotients inside products and sums (d20's and ours alike)."""

    def part() -> str:
        if draw(st.booleans()):
            return f"{draw(st.integers(1, 3))}d{draw(st.sampled_from((4, 6, 8, 10, 20)))}"
        return str(draw(st.integers(-6, 12)))

    out = part()
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["+", "-", "*", "/", "/"]))
        right = part() if op != "/" else str(draw(st.sampled_from((2, 3, 4, 5, 8))))
        out = f"({out}) {op} {right}" if draw(st.booleans()) else f"{out} {op} {right}"
    return out


@settings(max_examples=300, deadline=None)
@given(divided(), st.integers(0, 10**6))
def test_d20_totals_our_dice_as_we_do(notation: str, seed: int) -> None:
    req = NotationRollRequest(notation=notation, dialect="avrae", seed=seed)
    ours: Any = ROLLER.roll(req, DiceSource(seed))
    values = [r["value"] for r in ours["rolls"]]
    assert d20_total(notation, values) == ours["total"], (notation, values)


@settings(max_examples=60, deadline=None)
@given(divided())
def test_the_odds_hold_every_total_the_roll_can_give(notation: str) -> None:
    """Every script of the dice, rolled, lands on a total the odds give, with its weight."""
    parsed = ROLLER.notation(NotationRollRequest(notation=notation, dialect="avrae"))
    if sum(t.count for t in parsed.terms) > 4:
        return
    assert odds(notation) == enumerated(notation=notation, dialect="avrae")
