"""avrae/d20 as an oracle for totals (issue 29): a notation both accept, rolled by us from a seed,
then by d20 on the same dice. d20 draws with ``random.randrange``: the test (only) replaces it with
the dice we drew, in order (d20 rolls each dice term whole, left to right, as we do; its rerolls
and explosions go in rounds, which draws the dice our breadth-first scan draws).

Both read: NdM, kh/kl (ours dl/dh are d20's pl/ph), rr/ro with < > =, explosions (ours x, d20's
e), mi/ma, + - * and parentheses. Not d20's: Fate dice, success counting, ``/`` (d20 truncates
where we floor), explode-once (d20's ``ra`` is one die in all)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import d20  # type: ignore[import-untyped]
import d20.expression  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DiceSource
from rules.notation.models import NotationRollRequest
from rules.notation.parser import DEPTH
from rules.notation.roll import Roller

ROLLER = Roller()
SIDES = (4, 6, 8, 10, 12, 20)


@st.composite
def term(draw: st.DrawFn) -> tuple[str, str]:
    """(ours, d20's) for one dice term."""
    count = draw(st.integers(1, 5))
    sides = draw(st.sampled_from(SIDES))
    ours = theirs = f"{count}d{sides}"
    if draw(st.booleans()):
        op = draw(st.sampled_from(["<", ">", "="]))
        target = (
            draw(st.integers(1, sides // 2))
            if op != ">"
            else draw(st.integers(sides // 2, sides - 1))
        )
        once = draw(st.booleans())
        written = ("" if op == "=" else op) + str(target)
        ours += f"{'ro' if once else 'rr'}{op}{target}"
        theirs += f"{'ro' if once else 'rr'}{written}"
    if draw(st.booleans()):
        ours += "x"
        theirs += f"e{sides}"
    if draw(st.booleans()):
        low = draw(st.integers(1, sides))
        ours += f"min{low}"
        theirs += f"mi{low}"
    if draw(st.booleans()):
        how = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        n = draw(st.integers(1, count))
        ours += f"{how}{n}"
        theirs += {"kh": "kh", "kl": "kl", "dh": "ph", "dl": "pl"}[how] + str(n)
    return ours, theirs


@st.composite
def expression(draw: st.DrawFn) -> tuple[str, str]:
    parts = draw(
        st.lists(
            st.one_of(term(), st.integers(0, 20).map(lambda n: (str(n), str(n)))),
            min_size=1,
            max_size=4,
        )
    )
    ours, theirs = parts[0]
    for part in parts[1:]:
        op = draw(st.sampled_from(["+", "-", "*"]))
        if draw(st.booleans()):
            ours, theirs = f"({ours})", f"({theirs})"
        ours, theirs = f"{ours} {op} {part[0]}", f"{theirs} {op} {part[1]}"
    return ours, theirs


def d20_total(notation: str, values: list[int]) -> int:
    supply: Iterator[int] = iter(values)

    def randrange(size: int, *rest: Any) -> int:
        assert not rest, "d% is not in the shared notation"
        return next(supply) - 1

    with mock.patch.object(d20.expression.random, "randrange", randrange):
        result = d20.roll(notation)
    assert next(supply, None) is None, "d20 drew fewer dice than we did"
    return int(result.total)


@settings(max_examples=300)
@given(
    expression(),
    st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=8),
)
def test_d20_totals_the_dice_we_drew_as_we_do(notations: tuple[str, str], seed: str) -> None:
    ours, theirs = notations
    req = NotationRollRequest(notation=ours, seed=seed)
    result = ROLLER.roll(req, DiceSource(seed))
    drawn = [d["value"] for d in result["rolls"]]  # term by term, left to right
    for t in result["terms"]:
        again = sum(1 for d in t["dice"] if d["exploded"] or d["status"] == "rerolled")
        if again >= DEPTH:  # pragma: no cover - a chain may have reached our depth (d20 has none)
            return
    assert d20_total(theirs, drawn) == result["total"], (ours, theirs, drawn)


def test_examples_by_hand() -> None:
    cases = [
        ("4d6kh3 + 2", "4d6kh3 + 2", [3, 6, 1, 5], 16),
        ("4d6dl1", "4d6pl1", [3, 6, 1, 5], 14),
        ("3d6x", "3d6e6", [6, 6, 1, 6, 2, 5], 26),
        ("3d6rr<3", "3d6rr<3", [1, 5, 2, 2, 6, 4], 15),
        ("(1d8min3 + 2) * 2", "(1d8mi3 + 2) * 2", [1], 10),
    ]
    for ours, theirs, values, total in cases:
        req = NotationRollRequest(notation=ours)
        slots = ROLLER.slots(req)
        (slot,) = slots
        assert ROLLER.roll(req, DiceSource("s", {slot: values}, slots))["total"] == total
        assert d20_total(theirs, values) == total


@st.composite
def set_operators(draw: st.DrawFn) -> str:
    """A dice term with avrae's set operators: k and p with h, l, a value, < or >, one after
    another (d20 merges consecutive selectors of one operator)."""
    count = draw(st.integers(1, 6))
    sides = draw(st.sampled_from((4, 6)))
    out = f"{count}d{sides}"
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from("kp"))
        how = draw(st.sampled_from(["h", "l", "", "<", ">"]))
        n = draw(st.integers(1, count)) if how in ("h", "l") else draw(st.integers(1, sides))
        out += f"{op}{how}{n}"
    return out


@settings(max_examples=200)
@given(set_operators(), st.integers(0, 10**6))
def test_d20_reads_its_set_operators_as_we_do(notation: str, seed: int) -> None:
    req = NotationRollRequest(notation=notation, seed=seed, dialect="avrae")
    result = ROLLER.roll(req, DiceSource(seed))
    drawn = [d["value"] for d in result["rolls"]]
    assert d20_total(notation, drawn) == result["total"], (notation, drawn)
    again = ROLLER.roll(req.model_copy(update={"notation": result["formula"]}), DiceSource(seed))
    assert again["total"] == result["total"]  # the formula reads back to the same roll


def test_set_operators_by_hand() -> None:
    cases = [
        ("10d6k1ph1", [1, 1, 3, 1, 6, 2, 1, 5, 4, 4], 3),  # keep the 1s, drop the highest of them
        ("4d6kh1kl1", [3, 6, 1, 5], 7),  # one operator: the highest and the lowest
        ("2d4kh1kl1", [1, 1], 1),  # d20 picks the earlier of equal dice both ways: one die
        ("6d6k1k2", [1, 2, 3, 2, 6, 1], 6),  # the 1s and the 2s
        ("5d6ph1k<4", [6, 2, 3, 5, 1], 6),  # drop the 6, then keep those below 4
    ]
    for notation, values, total in cases:
        req = NotationRollRequest(notation=notation, dialect="avrae")
        slots = ROLLER.slots(req)
        (slot,) = slots
        assert ROLLER.roll(req, DiceSource("s", {slot: values}, slots))["total"] == total
        assert d20_total(notation, values) == total
