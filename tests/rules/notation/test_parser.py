"""The notation's grammar (rules/notation/parser.py, docs/notation.md): every construct read and
written back, every error at its column."""

from __future__ import annotations

import pytest

from rules.notation.parser import (
    DEPTH,
    SHORTHANDS,
    Compare,
    Dice,
    NotationError,
    check_shorthands,
    parse,
)

NORMALISED = [
    ("2d6", "2d6"),
    ("d20", "1d20"),
    ("D20", "1d20"),
    ("d%", "1d100"),
    ("3dF", "3dF"),
    ("4d6kh3", "4d6kh3"),
    ("4d6k3", "4d6kh3"),
    ("2d20k", "2d20kh1"),
    ("2d20kl", "2d20kl1"),
    ("4d6dl1", "4d6dl1"),
    ("4d6dh1", "4d6dh1"),
    ("5d6dl1dh1", "5d6dl1dh1"),
    ("3d6!", "3d6x"),
    ("3d6x", "3d6x"),
    ("3d6!=6", "3d6x"),
    ("3d6!>4", "3d6x>4"),
    ("3d6!>=5", "3d6x>=5"),
    ("3d6!<2", "3d6x<2"),
    ("3d6!=3", "3d6x=3"),
    ("3d6!5", "3d6x=5"),
    ("3d6xo", "3d6xo"),
    ("3d6!o", "3d6xo"),
    ("1d20r", "1d20r"),
    ("1d20r<3", "1d20r<3"),
    ("1d20rr<3", "1d20rr<3"),
    ("1d20ro<3", "1d20r<3"),
    ("1d20ro>=19", "1d20r>=19"),
    ("1d20r2", "1d20r=2"),
    ("1d8min3", "1d8min3"),
    ("1d8max5", "1d8max5"),
    ("1d8max5min3", "1d8min3max5"),
    ("8d10cs>=7", "8d10cs>=7"),
    ("8d10cs>7", "8d10cs>7"),
    ("8d10cs10", "8d10cs=10"),
    ("8d10cs>=7df<=1", "8d10cs>=7df<=1"),
    # modifiers apply rerolls, explosions, min/max, keep, count: written back in that order
    ("4d6kh3!r", "4d6rxkh3"),
    ("2d6+3", "2d6 + 3"),
    ("2d6 - 1d4 + 1", "2d6 - 1d4 + 1"),
    ("2*3d6", "2 * 3d6"),
    ("3d6/2", "3d6 / 2"),
    ("(1d8+3)*2", "(1d8 + 3) * 2"),
    ("((2d6))", "((2d6))"),
    ("-1d4+10", "-1d4 + 10"),
    ("+5", "5"),
    ("2d6[fire]+1d4[cold]", "2d6[fire] + 1d4[cold]"),
    ("(1d6+1)[acid]", "(1d6 + 1)[acid]"),
    ("3[bonus]", "3[bonus]"),
    ("adv+5", "2d20kh1 + 5"),
    ("dis", "2d20kl1"),
    ("stat", "4d6dl1"),
    ("fate", "4dF"),
    ("2*stat", "2 * 4d6dl1"),
    ("adv[attack]", "2d20kh1[attack]"),
]


@pytest.mark.parametrize(("text", "formula"), NORMALISED)
def test_every_construct_reads_back_normalised(text: str, formula: str) -> None:
    parsed = parse(text)
    assert parsed.formula == formula
    assert parse(parsed.formula).formula == formula, "the formula parses to itself"


def test_a_term_knows_its_dice_and_modifiers() -> None:
    (t,) = parse("4d6ro<3x>5min2max5kh3").terms
    assert (t.count, t.sides, t.slot) == (4, 6, "term.0")
    assert t.reroll == Compare("<", 3) and t.reroll_once
    assert t.explode == Compare(">", 5) and not t.explode_once
    assert (t.minimum, t.maximum) == (2, 5)
    assert t.rerolls == 1 and t.explosions == DEPTH
    assert t.draws == 4 * (1 + 1 + DEPTH)


def test_dice_terms_are_numbered_left_to_right_shorthands_included() -> None:
    parsed = parse("1d4 + adv * (2d6 + dis)")
    assert [(t.slot, t.text()) for t in parsed.terms] == [
        ("term.0", "1d4"),
        ("term.1", "2d20kh1"),
        ("term.2", "2d6"),
        ("term.3", "2d20kl1"),
    ]


def test_fate_and_percent_dice() -> None:
    fate, pct = parse("4dF+d%").terms
    assert fate.faces == (-1, 0, 1) and fate.sides == 3 and fate.face(1) == -1
    assert pct.sides == 100 and pct.text("foundry") == "1d100"


def test_each_dialect_writes_its_own() -> None:
    (t,) = parse("8d10ro<2cs>=7df<=1").terms
    assert t.text("foundry") == "8d10r<2cs>=7df<=1"
    assert parse("1d6rr<3").terms[0].text("foundry") == "1d6rr<3"
    (t,) = parse("8d10r<2>=7f1", dialect="roll20").terms
    assert t.reroll == Compare("<=", 2) and not t.reroll_once
    assert t.success == Compare(">=", 7) and t.failure == Compare("=", 1)
    assert t.text("roll20") == "8d10r<2>7f1"
    (t,) = parse("4d6rr1e6mi2pl1", dialect="avrae").terms
    assert t.text("avrae") == "4d6rr1e6mi2pl1"


# (text, column, a fragment of the message)
ERRORS = [
    ("", 1, "expected a dice term"),
    ("   ", 4, "expected a dice term"),
    ("2d6+", 5, "expected a dice term"),
    ("2d6 +", 6, "expected a dice term"),
    ("2d", 3, "number of sides"),
    ("2dx", 3, "number of sides"),
    ("2d1", 3, "2 to 1,000"),
    ("2d1001", 3, "2 to 1,000"),
    ("0d6", 1, "1 to 100 dice"),
    ("101d6", 1, "1 to 100 dice"),
    ("2d6kh3", 4, "only 2 dice"),
    ("2d6q", 4, "unknown modifier"),
    ("2d6r<3r<2", 7, "a reroll once"),
    ("2d6!!", 5, "explodes once"),
    ("2d6min2min3", 8, "once"),
    ("2d6min0", 7, "the min of a die is 1 to 6"),
    ("2d6max7", 7, "the max of a die is 1 to 6"),
    ("2d6min5max3", 12, "min is above max"),
    ("1d6!>0", 4, "every face of the die would explode"),
    ("1d6r<7", 4, "every face of the die would be rerolled"),
    ("8d10cs>", 8, "the value cs compares with"),
    ("8d10df<2", 5, "write cs first"),
    ("8d10cs>=7cs>=8", 10, "once"),
    ("2d6 3", 5, "expected '+', '-', '*', '/' or the end"),
    ("(2d6+3", 7, "expected ')'"),
    ("2d6)", 4, "expected '+', '-', '*', '/' or the end"),
    ("2d6[fire", 9, "expected ']'"),
    ("2d6[]", 4, "a label has 1 to 32"),
    ("2d6[fire", 9, "expected ']'"),
    ("foo+1", 1, "'foo' is no shorthand"),
    ("1d6/(1d2-1)", 4, "the divisor after '/' can be 0"),
    ("10/0", 3, "can be 0"),
    ("2d6+99999999", 5, "0 to 1,000,000"),
    ("#", 1, "expected a dice term"),
]


@pytest.mark.parametrize(("text", "column", "fragment"), ERRORS)
def test_every_error_names_its_column(text: str, column: int, fragment: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert caught.value.column == column, caught.value
    assert fragment in caught.value.message, caught.value.message
    assert str(caught.value).startswith(f"column {column}: ")


def test_caps() -> None:
    with pytest.raises(NotationError, match="at most 500 characters"):
        parse("1" * 501)
    with pytest.raises(NotationError, match="at most 20 dice terms") as caught:
        parse("+".join(["1d6"] * 21))
    assert caught.value.column == 81
    assert len(parse("+".join(["1d6"] * 20)).terms) == 20


def test_shorthand_tables_are_checked() -> None:
    check_shorthands(SHORTHANDS)
    check_shorthands({"crit": "4d6+2", "save_dc": "1d20+5"})
    for bad in ({"d6": "1d6"}, {"1x": "1d6"}, {"df": "1d6"}, {"ok": "2d6+"}, {"ok": "adv"}):
        with pytest.raises(ValueError, match="shorthand"):
            check_shorthands(bad)
    assert parse("crit*2", {"crit": "4d6+2"}).formula == "(4d6 + 2) * 2"


def test_a_shorthand_term_is_placed_at_the_shorthand() -> None:
    t = parse("1 + adv").terms[0]
    assert isinstance(t, Dice) and t.column == 5
