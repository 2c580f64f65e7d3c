"""D5E-12 dice notation: the grammar, its caps and its error positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dnd5e.notation import Constant, DiceTerm, NotationError, parse


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
        ("12d", 4, "expected a number of sides after 'd'"),
        ("1d8+1dx", 7, "unexpected character 'x'"),
        ("2d6+", 5, "expected a dice term (such as 2d6) or a number, found the end"),
        ("", 1, "expected a dice term"),
        ("   ", 4, "expected a dice term"),
        ("2d6 3", 5, "expected '+' or '-' before '3'"),
        ("2d6++3", 5, "found '+'"),
        ("d1", 2, "a die has 2 to 1000 sides, not 1"),
        ("1d1001", 3, "not 1001"),
        ("0d6", 1, "a dice term rolls 1 to 100 dice, not 0"),
        ("101d6", 1, "not 101"),
        ("60d6+41d4", 1, "rolls 101 dice; at most 100 in all"),
        ("2*3", 2, "unexpected character '*'"),
        ("__import__('os')", 1, "unexpected character '_'"),
        ("1d6" + "+1" * 20, 42, "at most 20 terms"),
        ("1000001", 1, "a number term is at most 1000000"),
        ("999999999999", 1, "too large"),
        ("2d6d6", 4, "expected '+' or '-' before 'd'"),
    ],
)
def test_d5e12_notation_errors_name_the_position(text: str, position: int, expected: str) -> None:
    with pytest.raises(NotationError) as err:
        parse(text)
    assert err.value.position == position
    assert str(err.value).startswith(f"at position {position}: ")
    assert expected in str(err.value)


def test_d5e12_notation_length_cap() -> None:
    with pytest.raises(NotationError, match="at most 200 characters"):
        parse("1" * 201)


@given(st.text(alphabet="0123456789dD+- x*", max_size=40))
def test_d5e12_parser_never_crashes(text: str) -> None:
    try:
        f = parse(text)
    except NotationError as err:
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


def _full_parser(text: str) -> object:
    from rules.dnd5e.notation import _Parser, tokenize

    try:
        return _Parser(tokenize(text)).formula()
    except NotationError as err:
        return ("error", err.position, err.message)


def _parsed(text: str) -> object:
    try:
        return parse(text)
    except NotationError as err:
        return ("error", err.position, err.message)


@pytest.mark.parametrize(
    "text",
    [
        "1d8+3",
        "2d6",
        "d20",
        "D4-1",
        "100d1000",
        "101d6",
        "0d6",
        "01d6",
        "1d1",
        "1d1001",
        "1d0006",
        "1d6+0",
        "1d6-03",
        "1d6+1000000",
        "1d6+1000001",
        "1d6+9999999",
        "1d6+",
    ],
)
def test_d5e12_simple_shape_parses_like_the_grammar(text: str) -> None:
    assert _parsed(text) == _full_parser(text)


@given(st.from_regex(r"[0-9]{0,4}[dD][0-9]{0,5}([+-][0-9]{0,8})?", fullmatch=True))
def test_d5e12_simple_shape_parses_like_the_grammar_generated(text: str) -> None:
    assert _parsed(text) == _full_parser(text)
