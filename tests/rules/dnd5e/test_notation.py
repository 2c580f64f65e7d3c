"""D5E-12 damage formulas: the notation parser's plain subset, the 5e caps and the error positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dnd5e.damage import Constant, DiceTerm, FormulaError, parse
from rules.notation import parser


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("2d6+3", (DiceTerm(1, 2, 6), Constant(3))),
        ("1d8+1d6+4", (DiceTerm(1, 1, 8), DiceTerm(1, 1, 6), Constant(4))),
        ("d20", (DiceTerm(1, 1, 20),)),
        ("-1", (Constant(-1),)),
        ("1d10-2", (DiceTerm(1, 1, 10), Constant(-2))),
        ("2d6 - 1d4", (DiceTerm(1, 2, 6), DiceTerm(-1, 1, 4))),
        ("+3D4", (DiceTerm(1, 3, 4),)),
        ("100d1000", (DiceTerm(1, 100, 1000),)),
        ("0", (Constant(0),)),
    ],
)
def test_d5e12_notation_parses(text: str, terms: tuple[object, ...]) -> None:
    assert parse(text).terms == terms


def test_d5e12_formula_properties() -> None:
    f = parse("1d8+1d6+4-1")
    assert (f.modifier, f.dice_count, f.sides, str(f)) == (3, 2, None, "1d8+1d6+4-1")
    assert parse("2d6+3").sides == 6
    assert parse("5").sides is None


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("12d", 4, "expected the number of sides after 'd', found the end"),
        ("1d8+1dx", 7, "expected the number of sides after 'd', found 'x'"),
        ("2d6+", 5, "expected a dice term (such as 2d6) or a number, found the end"),
        ("", 1, "expected a dice term"),
        ("   ", 4, "expected a dice term"),
        ("2d6 3", 5, "expected '+', '-' or the end, found '3'"),
        ("2d6++3", 5, "found '+'"),
        ("d1", 2, "a die's sides is 2 to 1,000, not 1"),
        ("1d1001", 3, "not 1001"),
        ("0d6", 1, "a dice term rolls 1 to 100 dice, not 0"),
        ("101d6", 1, "not 101"),
        ("60d6+41d4", 1, "rolls 101 dice; at most 100 in all"),
        ("2*3", 2, "expected '+', '-' or the end, found '*'"),
        ("__import__('os')", 1, "found '_'"),
        ("1d6" + "+1" * 20, 42, "at most 20 terms"),
        ("1d4" + "+1d4" * 20, 81, "at most 20 dice terms"),
        ("1000001", 1, "a number is 0 to 1,000,000, not 1000001"),
        ("999999999999", 1, "not 999999999999"),
        ("2d6d6", 4, "expected '+', '-' or the end, found 'd'"),
        ("1d6; import os", 4, "found ';'"),
        ("2 d6", 3, "found 'd'"),
        ("--1", 2, "expected a dice term (such as 2d6) or a number, found '-'"),
        ("1d6 - -1", 7, "found '-'"),
    ],
)
def test_d5e12_notation_errors_name_the_position(text: str, position: int, expected: str) -> None:
    with pytest.raises(FormulaError) as err:
        parse(text)
    assert err.value.position == position
    assert str(err.value).startswith(f"at position {position}: ")
    assert expected in str(err.value)


def test_d5e12_notation_length_cap() -> None:
    with pytest.raises(FormulaError, match="at most 200 characters"):
        parse("1" * 201)


@given(st.text(alphabet="0123456789dD+- x*", max_size=40))
def test_d5e12_parser_never_crashes(text: str) -> None:
    try:
        f = parse(text)
    except FormulaError as err:
        assert 1 <= err.position <= len(text) + 1
    else:
        assert f.dice_count <= 100
        assert all(2 <= t.sides <= 1000 for t in f.dice_terms)


@given(
    st.lists(
        st.tuples(
            st.sampled_from([1, -1]),
            st.integers(1, 10),
            st.integers(2, 1000),
        ),
        min_size=1,
        max_size=5,
    ),
    st.integers(-1000, 1000),
)
def test_d5e12_round_trip(dice: list[tuple[int, int, int]], modifier: int) -> None:
    text = "".join(f"{'-' if s < 0 else '+'}{n}d{d}" for s, n, d in dice) + f"{modifier:+d}"
    f = parse(text)
    assert f.modifier == modifier
    assert [(t.sign, t.count, t.sides) for t in f.dice_terms] == dice
    assert parse(str(f)) == f


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("4d6kh3", 4),  # keep and drop
        ("4d6dl1", 4),
        ("3d6!", 4),  # explosions
        ("3d6x", 4),
        ("8d10cs>=7", 5),  # counting successes
        ("1d20r1", 5),  # rerolls
        ("2d6min2", 4),
        ("1d6cs>3", 4),  # a comparison
        ("{1d20, 1d20}kh", 1),  # a pool
        ("floor(1d6)", 1),  # a function
        ("(1d6+1)", 1),  # a group
        ("1d6[fire]", 4),  # a label
        ("1d6 [fire]", 5),
        ("1d6 # fire", 5),  # a comment
        ("2*1d6", 2),  # products
        ("1d6/2", 4),
        ("adv", 1),  # a shorthand of the /dice notation
        ("1d%", 3),  # percentile and Fate dice
        ("4dF", 3),
    ],
)
def test_d5e12_refuses_the_rest_of_the_notation(text: str, position: int) -> None:
    """The full notation reads these; a damage formula refuses them where they start."""
    parser.parse(text)
    with pytest.raises(FormulaError) as err:
        parse(text)
    assert err.value.position == position
    assert "expected" in err.value.message


@given(st.text(alphabet="0123456789dD+- ", max_size=30))
def test_d5e12_a_formula_reads_as_the_notation_reads_it(text: str) -> None:
    """The plain subset is the notation's: a formula it reads is the same tree in full."""
    try:
        plain = parser.parse(text, plain=True)
    except parser.NotationError:
        return
    assert parser.parse(text, {}) == plain
