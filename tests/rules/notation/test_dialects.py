"""The three dialects (docs/notation.md, "Dialects"): each notation as Foundry VTT, Roll20 and
avrae/d20 read it, conflicts included; every common notation of each accepted with exact odds
that match icepool (an independent computation) and the roller itself enumerated; every formula
the service writes reads back to the same roll (a property test)."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import DiceSource
from rules.errors import InvalidRequest
from rules.notation.models import NotationOddsRequest, NotationRollRequest
from rules.notation.odds import notation_odds
from rules.notation.parser import DEPTH, DIALECTS, SHORTHANDS, Dialect, NotationError, parse
from rules.notation.roll import Roller
from tests.rules.notation.test_odds import brute, full, icepool_of

ROLLER = Roller()
d6, d8, d10, d20 = icepool.d6, icepool.d8, icepool.d10, icepool.d20


def odds(notation: str, dialect: Dialect) -> dict[str, Any]:
    req = NotationOddsRequest(notation=notation, dialect=dialect)
    return dict(notation_odds(req, SHORTHANDS))


def roll(notation: str, dialect: Dialect, seed: Any = 1) -> dict[str, Any]:
    req = NotationRollRequest(notation=notation, dialect=dialect, seed=seed)
    return dict(ROLLER.roll(req, DiceSource(seed, None, ROLLER.slots(req))))


def counting(
    success: Callable[[int], bool], failure: Callable[[int], bool]
) -> Callable[[int], int]:
    return lambda x: 1 if success(x) else -1 if failure(x) else 0


# (dialect, notation, the formula written back, the distribution by icepool)
COMMON: list[tuple[Dialect, str, str, Callable[[], Any]]] = [
    # Foundry: bare d drops the lowest; cs alone counts the highest face; cf counts failures; df
    ("foundry", "4d6d1", "4d6dl1", lambda: d6.pool(4).highest(3).sum()),
    ("foundry", "20d20d", "20d20dl1", lambda: d20.pool(20).highest(19).sum()),
    ("foundry", "20d20cs", "20d20cs=20", lambda: 20 @ d20.map(lambda x: int(x == 20))),
    ("foundry", "6d6cf<=3", "6d6cf<=3", lambda: 6 @ d6.map(lambda x: int(x <= 3))),
    (
        "foundry",
        "6d6cs>3df<2",
        "6d6cs>3df<2",
        lambda: 6 @ d6.map(counting(lambda x: x > 3, lambda x: x < 2)),
    ),
    ("foundry", "1d20r1", "1d20r", lambda: d20.reroll([1], depth=1)),
    ("foundry", "1d20rr<3", "1d20rr<3", lambda: d20.reroll(lambda x: x < 3, depth="inf")),
    ("foundry", "1d20+5 [attack]", "1d20 + 5[attack]", lambda: d20 + 5),
    ("foundry", "1d8[Hunter's Mark]", "1d8[Hunter's Mark]", lambda: d8),
    ("foundry", "1d20+5 # to hit", "1d20 + 5", lambda: d20 + 5),
    ("foundry", "floor(1d6/2)", "floor(1d6 / 2)", lambda: d6 // 2),
    ("foundry", "ceil(1d6/2)", "ceil(1d6 / 2)", lambda: (d6 + 1) // 2),
    (
        "foundry",
        "round(1d5/2)+abs(1d4-3)",
        "round(1d5 / 2) + abs(1d4 - 3)",
        lambda: (
            icepool.d5.map({1: 1, 2: 1, 3: 2, 4: 2, 5: 3}) + icepool.d4.map(lambda x: abs(x - 3))
        ),
    ),
    ("foundry", "3d6x", "3d6x", lambda: 3 @ d6.explode(depth=DEPTH)),
    # pools: the expressions' totals, kept or dropped (Foundry, Roll20: braces; avrae: a set)
    ("foundry", "{1d20, 1d20}kh", "{1d20, 1d20}kh1", lambda: d20.pool(2).highest(1).sum()),
    (
        "foundry",
        "{1d8x, 1d6x}kh",
        "{1d8x, 1d6x}kh1",
        lambda: icepool.highest(d8.explode(depth=DEPTH), d6.explode(depth=DEPTH)),
    ),
    (
        "foundry",
        "{4d6, 3d8 - 1}kh",
        "{4d6, 3d8 - 1}kh1",
        lambda: icepool.highest(4 @ d6, 3 @ d8 - 1),
    ),
    (
        "foundry",
        "{1d6, 1d8, 1d10}dl",
        "{1d6, 1d8, 1d10}dl1",
        lambda: icepool.Pool([d6, d8, d10]).highest(2).sum(),
    ),
    (
        "roll20",
        "{1d20, 1d20}kl1 + 3",
        "{1d20, 1d20}kl1 + 3",
        lambda: d20.pool(2).lowest(1).sum() + 3,
    ),
    ("avrae", "(1d20, 1d20)kh1", "(1d20, 1d20)kh1", lambda: d20.pool(2).highest(1).sum()),
    ("avrae", "(1d6, 1d6, 1d6)pl1", "(1d6, 1d6, 1d6)pl1", lambda: d6.pool(3).highest(2).sum()),
    # Roll20: bare comparisons count successes (> and < hold the target), f deducts failures
    ("roll20", "8d10>=7", "8d10>7", lambda: 8 @ d10.map(lambda x: int(x >= 7))),
    ("roll20", "8d10>7", "8d10>7", lambda: 8 @ d10.map(lambda x: int(x >= 7))),
    (
        "roll20",
        "10d10>8f1",
        "10d10>8f1",
        lambda: 10 @ d10.map(counting(lambda x: x >= 8, lambda x: x == 1)),
    ),
    (
        "roll20",
        "4d6>4f<3",
        "4d6>4f<3",
        lambda: 4 @ d6.map(counting(lambda x: x >= 4, lambda x: x <= 3)),
    ),
    ("roll20", "2d6=6", "2d6=6", lambda: 2 @ d6.map(lambda x: int(x == 6))),
    ("roll20", "4d6d1", "4d6dl1", lambda: d6.pool(4).highest(3).sum()),
    ("roll20", "3d6!!", "3d6!!", lambda: 3 @ d6.explode(depth=DEPTH)),
    ("roll20", "2d6!!>4", "2d6!!>4", lambda: 2 @ d6.explode([4, 5, 6], depth=DEPTH)),
    ("roll20", "4d10cs>7", "4d10cs>7", lambda: 4 @ d10),  # criticals mark; the total is the dice
    ("roll20", "2d20r<2", "2d20r<2", lambda: 2 @ d20.reroll([1, 2], depth="inf")),
    ("roll20", "2d20ro<2", "2d20ro<2", lambda: 2 @ d20.reroll([1, 2], depth=1)),
    ("roll20", "4D6K3", "4d6kh3", lambda: d6.pool(4).highest(3).sum()),
    ("roll20", "ceil(1d6/2)", "ceil(1d6 / 2)", lambda: (d6 + 1) // 2),
    # avrae/d20
    ("avrae", "1d20mi10", "1d20mi10", lambda: d20.map(lambda x: max(x, 10))),
    ("avrae", "8d6mi2", "8d6mi2", lambda: 8 @ d6.map(lambda x: max(x, 2))),
    ("avrae", "10d6ma1", "10d6ma1", lambda: icepool.Die([10])),
    ("avrae", "4d6pl1", "4d6pl1", lambda: d6.pool(4).highest(3).sum()),
    ("avrae", "4d6ph1", "4d6ph1", lambda: d6.pool(4).lowest(3).sum()),
    ("avrae", "8d6e6", "8d6e6", lambda: 8 @ d6.explode(depth=DEPTH)),
    ("avrae", "1d20+5 to hit", "1d20 + 5", lambda: d20 + 5),
    ("avrae", "1d20rr<20", "1d20rr<20", lambda: icepool.Die([20])),
    ("avrae", "1d20ro<3", "1d20ro<3", lambda: d20.reroll(lambda x: x < 3, depth=1)),
    ("avrae", "4d6k3", "4d6k3", lambda: 4 @ d6.map(lambda x: x if x == 3 else 0)),
    ("avrae", "4d6p<3", "4d6p<3", lambda: 4 @ d6.map(lambda x: 0 if x < 3 else x)),
    ("avrae", "4d6kh3", "4d6kh3", lambda: d6.pool(4).highest(3).sum()),
    (
        "avrae",
        "2d20kl1 + 1d%",
        "2d20kl1 + 1d%",
        lambda: d20.pool(2).lowest(1).sum() + icepool.Die(range(0, 100, 10)),
    ),
]


@pytest.mark.parametrize(
    ("dialect", "notation", "formula", "die"), COMMON, ids=[f"{d} {n}" for d, n, _, _ in COMMON]
)
def test_common_notations_read_as_their_dialect(
    dialect: Dialect, notation: str, formula: str, die: Callable[[], Any]
) -> None:
    answer = odds(notation, dialect)
    assert answer["dialect"] == dialect and answer["formula"] == formula
    assert full(answer) == icepool_of(die())
    rolled = roll(notation, dialect)
    assert rolled["formula"] == formula and rolled["dialect"] == dialect
    assert rolled["total"] in full(answer)


#: Small notations of each dialect's own constructs, against the roller enumerated on every script
#: of dice (tests/rules/notation/test_odds.py's ``brute``).
BRUTE: list[tuple[Dialect, str]] = [
    ("roll20", "2d3!!"),
    ("roll20", "2d3!!kh1"),
    ("roll20", "1d4!!>3cs>3"),
    ("roll20", "3d4>3f1"),
    ("roll20", "1d3!p"),
    ("roll20", "2d3!pkh1"),
    ("roll20", "2d3!pdl1"),
    ("roll20", "1d4!p>4"),
    ("roll20", "2d3r1!p<1kh1"),
    ("avrae", "3d3k1ph1"),
    ("avrae", "4d3k<3pl1"),
    ("avrae", "3d4kh1kl1"),
    ("avrae", "3d3kh1kl1"),
    ("avrae", "4d3ph1pl1k>1"),
    ("avrae", "3d3e3kh2"),
    ("avrae", "3d4k2"),
    ("avrae", "2d3p>2e3"),
    ("avrae", "2d4rr1mi2"),
    ("foundry", "3d4cf<2"),
    ("foundry", "2d4cs"),
    ("foundry", "ceil(1d4/1d3)"),
    ("foundry", "round((1d4+1)/3) - floor(1d3/2)"),
]


@pytest.mark.parametrize(("dialect", "notation"), BRUTE, ids=[f"{d} {n}" for d, n in BRUTE])
def test_dialect_odds_match_every_roll_enumerated(dialect: Dialect, notation: str) -> None:
    answer = odds(notation, dialect)
    dist, _ = brute(notation, dialect)
    assert full(answer) == dist


def penetrating(die: Any, depth: int = DEPTH) -> Any:
    """One chain of Roll20's penetrating die (``1d6!p``) by icepool: each explosion's die its face
    less 1, exploding on its face; the die at the depth stands."""
    top = max(die.outcomes())

    def then(more: Any, less: int) -> Any:
        return die.map(lambda v: v - less + more if v == top else v - less)

    added = die - 1
    for _ in range(depth - 1):
        added = then(added, 1)
    return then(added, 0)


def test_roll20_penetrating_dice() -> None:
    req = NotationRollRequest(notation="1d6!p", dialect="roll20")
    rolled = ROLLER.roll(req, DiceSource("s", {"term.0": [6, 6, 3]}, ROLLER.slots(req)))
    assert [d["value"] for d in rolled["terms"][0]["dice"]] == [6, 5, 2]
    assert rolled["total"] == 13 and rolled["formula"] == "1d6!p"
    assert full(odds("3d6!p", "roll20")) == icepool_of(3 @ penetrating(d6))
    answer = odds("1d6!p", "roll20")
    assert Fraction(answer["total"]["tail"]["exact"]) == Fraction(1, 6 ** (DEPTH + 1))
    assert odds("1d10!p+5", "roll20")["total"]["mean"] == pytest.approx(
        float(penetrating(d10).mean()) + 5
    )


def test_roll20_sorts_the_dice_it_shows() -> None:
    for notation, values, formula in [
        ("4d6sd", [6, 5, 3, 1], "4d6sd"),
        ("4d6kh3s", [1, 3, 5, 6], "4d6kh3sa"),
        ("4D6SA", [1, 3, 5, 6], "4d6sa"),
    ]:
        req = NotationRollRequest(notation=notation, dialect="roll20")
        rolled = ROLLER.roll(req, DiceSource("s", {"term.0": [3, 6, 1, 5]}, ROLLER.slots(req)))
        assert [d["value"] for d in rolled["terms"][0]["dice"]] == values
        assert [d["value"] for d in rolled["rolls"]] == [3, 6, 1, 5]  # drawn in their order
        assert rolled["formula"] == formula
    assert rolled["total"] == 15  # the last, 4D6SA: every die
    assert full(odds("4d6kh3sa", "roll20")) == full(odds("4d6kh3", "roll20"))
    with pytest.raises(InvalidRequest, match="a sort once"):
        odds("4d6sasd", "roll20")


def test_conflicts_each_dialect_reads_its_own_way() -> None:
    # cs: Foundry counts successes (0..4); Roll20 marks criticals (the dice total, 4..40)
    assert min(full(odds("4d10cs>7", "foundry"))) == 0
    assert sorted(full(odds("4d10cs>7", "foundry")))[-1] == 4
    assert min(full(odds("4d10cs>7", "roll20"))) == 4
    # r: once in Foundry, again and again in Roll20 (whose < holds its target)
    assert full(odds("1d20r<20", "foundry"))[20] == Fraction(39, 400)
    assert full(odds("1d20r<19", "roll20")) == {20: 1}
    # k3: Foundry and Roll20 keep the 3 highest; avrae keeps the 3s
    assert max(full(odds("4d6k3", "foundry"))) == 18
    assert max(full(odds("4d6k3", "avrae"))) == 12
    # >: Foundry strict, Roll20 at least
    assert full(odds("1d6!>5", "foundry")) == full(odds("1d6!", "foundry"))
    assert full(odds("1d6!>5", "roll20")) == full(odds("1d6!>=5", "foundry"))
    # case: Roll20 reads any; Foundry and avrae lower-case modifiers only (py-rolldice's 6d8X
    # explodes there; no dialect here has an X)
    assert parse("4D6KH3", dialect="roll20").formula == "4d6kh3"
    for dialect in DIALECTS:
        with pytest.raises(NotationError, match="unknown modifier"):
            parse("6d8X", dialect=dialect)
    with pytest.raises(NotationError, match="unknown modifier"):
        parse("4d6KH3", dialect="foundry")
    with pytest.raises(NotationError, match="lower-case 'd'"):
        parse("1D20", dialect="avrae")


@pytest.mark.parametrize(
    ("dialect", "text", "fragment"),
    [
        ("foundry", "8d10cs>=7cf<=1", "write df"),
        ("foundry", "8d10>=7", "expected '+'"),
        ("roll20", "8d10f1", "write a comparison (>7) first"),
        ("avrae", "4dF", "no Fate dice"),
        ("avrae", "1d20!", "expected '+'"),
        ("avrae", "4d6e", "expected a selector"),
        ("roll20", "1d20mi10", "unknown modifier"),
        ("foundry", "1d20+5 to hit", "expected '+'"),
    ],
)
def test_what_a_dialect_does_not_read_is_refused(
    dialect: Dialect, text: str, fragment: str
) -> None:
    with pytest.raises(NotationError, match=re.escape(fragment)):
        parse(text, dialect=dialect)


def test_the_defects_fate_rerolls_read_back() -> None:
    for text in ("4dFr", "4dFro", "4dFrr!", "4dFr<0", "dFr"):
        written = parse(text).formula
        assert parse(written).formula == written
        assert parse(written).terms == parse(text).terms
    for text in ("dFcs>0", "dFr", "dFkh1", "dFx", "dFmin0"):
        assert parse(text).terms[0].kind == "fate"
    assert parse("dFlag", {"dFlag": "4dF"}).terms[0].count == 4  # a shorthand still wins


def test_the_foundry_roll_of_a_fate_reroll_is_no_500() -> None:
    from fastapi.testclient import TestClient

    from service.app import create_app
    from service.settings import Settings
    from tests.foundry.checks import VALIDATOR

    client = TestClient(create_app(Settings()))
    for text in ("4dFr", "4dFro", "4dFrr!", "6d6cf<=3"):
        r = client.post("/dice/roll", json={"notation": text, "seed": 1, "foundry": True})
        assert r.status_code == 200, r.text
        VALIDATOR.validate(r.json()["foundry"]["rolls"][0])


# ---------------------------------------------------------------- every formula reads back

_MODS: dict[Dialect, list[str]] = {
    "foundry": [
        "kh2",
        "kl1",
        "dl1",
        "d1",
        "k",
        "x",
        "xo",
        "x>4",
        "r",
        "rr<2",
        "r=3",
        "min2",
        "max5",
        "cs>=5",
        "cs",
        "cs>4df<2",
        "cf<3",
        "[fire]",
    ],
    "roll20": [
        "kh2",
        "kl1",
        "d1",
        "k",
        "!",
        "!!",
        "!p",
        "sd",
        "!>5",
        "r<2",
        "ro1",
        ">5",
        ">4f1",
        "=6",
        "cs>5",
        "cf<2",
        "[fire]",
    ],
    "avrae": [
        "kh2",
        "kl1",
        "pl1",
        "ph1",
        "k3",
        "p<2",
        "k>3",
        "e6",
        "e>5",
        "rr1",
        "ro<3",
        "mi2",
        "ma5",
        "[fire]",
    ],
}


@st.composite
def notations(draw: st.DrawFn, dialect: Dialect) -> str:
    def term() -> str:
        count = draw(st.integers(1, 4))
        sides = draw(
            st.sampled_from(["4", "6", "8", "20", "%"] + (["F"] if dialect != "avrae" else []))
        )
        mods = draw(st.lists(st.sampled_from(_MODS[dialect]), max_size=3))
        return f"{count}d{sides}" + "".join(mods)

    def atom(depth: int) -> str:
        kind = draw(st.integers(0, 4 if depth < 2 else 2))
        if kind == 0:
            return str(draw(st.integers(0, 20)))
        if kind in (1, 2):
            return term()
        if kind == 3:
            return f"({expr(depth + 1)})"
        fn = draw(st.sampled_from(["floor", "ceil", "round", "abs"]))
        return f"{fn}({expr(depth + 1)})" if dialect != "avrae" else f"-{atom(depth + 1)}"

    def expr(depth: int) -> str:
        out = atom(depth)
        for _ in range(draw(st.integers(0, 2))):
            out += draw(st.sampled_from([" + ", "-", " * ", "/"])) + atom(depth)
        return out

    return expr(0)


@pytest.mark.parametrize("dialect", ["foundry", "roll20", "avrae"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_formula_reads_back_to_the_same_roll(dialect: Dialect, data: st.DataObject) -> None:
    text = data.draw(notations(dialect))
    try:
        parsed = parse(text, dialect=dialect)
    except NotationError:
        return  # a notation the grammar refuses (2d4kh3, a divisor that can be 0 ...)
    again = parse(parsed.formula, dialect=dialect)
    assert again.formula == parsed.formula
    assert again.terms == tuple(t for t in again.terms)
    assert [_shape(t) for t in again.terms] == [_shape(t) for t in parsed.terms]
    try:
        first = roll(text, dialect, seed=text)
    except InvalidRequest:
        return
    second = roll(parsed.formula, dialect, seed=text)
    assert (second["total"], second["rolls"], second["terms"]) == (
        first["total"],
        first["rolls"],
        first["terms"],
    )


def _shape(term: Any) -> tuple[Any, ...]:
    """A term as the roll reads it: everything but where and how it was written (d% is d100)."""
    kind = "plain" if term.kind == "percent" else term.kind
    return (
        kind,
        *(getattr(term, f) for f in term.__dataclass_fields__ if f not in ("column", "kind")),
    )
