"""The peers' own test cases, run against the roller (seeded, several seeds) and the odds (every
value the odds allow), the expected answers the peers' own: avrae/d20's test suite
(tests/test_dice.py of its sdist and repository) read in the ``avrae`` dialect, and the examples
of Foundry VTT's "Dice Modifiers" article read in ``foundry``. Where our chains stop at the depth
and the peer's do not, the test states the difference and its probability (the ``tail``)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from rules.notation.parser import DEPTH, Dialect
from tests.rules.notation.test_dialects import full, odds, roll


def support(notation: str, dialect: Dialect) -> set[int]:
    return set(full(odds(notation, dialect)))


#: avrae/d20's assertions (tests/test_dice.py), each a notation and what every total satisfies.
D20: list[tuple[str, Callable[[int], bool]]] = [
    ("1d20", lambda t: 1 <= t <= 20),
    ("1d%", lambda t: 0 <= t <= 90 and t % 10 == 0),
    ("4d6kh3", lambda t: 3 <= t <= 18),
    ("(((1d6)))", lambda t: 1 <= t <= 6),
    ("(1d4, 2+2, 3d6kl1)kh1", lambda t: 4 <= t <= 6),
    ("1 + 3 * 6", lambda t: t == 19),
    ("1 + (3 * 6)", lambda t: t == 19),
    ("(1 + 3) * 6", lambda t: t == 24),
    ("1 + 2 + 3", lambda t: t == 6),
    ("d6", lambda t: 1 <= t <= 6),
    ("2d6", lambda t: 2 <= t <= 12),
    ("2d%", lambda t: 0 <= t <= 180),
    ("(1)", lambda t: t == 1),
    ("(1,)", lambda t: t == 1),
    ("(1, 1)", lambda t: t == 2),
    ("+1", lambda t: t == 1),
    ("-1", lambda t: t == -1),
    ("--1", lambda t: t == 1),
    ("-+-++---+1", lambda t: t == -1),
    ("2 + 2", lambda t: t == 4),
    ("2 - 2", lambda t: t == 0),
    ("2 * 5", lambda t: t == 10),
    ("15 / 2", lambda t: t == 7),
    ("2 + 1d6", lambda t: 3 <= t <= 8),
    ("2 * 1d6", lambda t: 2 <= t <= 12),
    ("60 / 1d6", lambda t: t in [60, 30, 20, 15, 12, 10]),
    ("(1, 2, 3, 4, 5)kl2", lambda t: t == 3),
    ("(1, 2, 3, 4, 5)kh2", lambda t: t == 9),
    ("1d20rr<20", lambda t: t == 20),
    ("1d20rr>1", lambda t: t == 1),
    ("1d6ro1", lambda t: 1 <= t <= 6),
    ("10d6mi6", lambda t: t == 60),
    ("10d6mi10", lambda t: t == 100),
    ("10d6mi2", lambda t: 20 <= t <= 60),
    ("10d6ma1", lambda t: t == 10),
    ("10d6ma0", lambda t: t == 0),
    ("10d6ma5", lambda t: 10 <= t <= 50),
]


@pytest.mark.parametrize(("notation", "holds"), D20, ids=[n for n, _ in D20])
def test_avrae_d20_suite(notation: str, holds: Callable[[int], bool]) -> None:
    assert all(holds(v) for v in support(notation, "avrae")), support(notation, "avrae")
    for seed in range(5):
        assert holds(roll(notation, "avrae", seed)["total"])


def test_avrae_d20_selectors_after_ranked_keeps_are_rolled() -> None:
    """d20's ``10d6k1ph1`` (keep the 1s, drop the highest): rolled; its odds are a 422 here (a
    ranked keep with a value selector)."""
    for seed in range(20):
        assert 0 <= roll("10d6k1ph1", "avrae", seed)["total"] <= 9


def test_avrae_d20_explosions_differ_by_the_stated_tail() -> None:
    """d20: ``1d2e2 % 2 == 1`` always (it explodes until a 1). Here a chain stops after
    ``DEPTH`` explosions, the last die standing: the one even total, 2 x (DEPTH + 1), has
    probability 2^-(DEPTH + 1), the answer's ``tail``; every value listed is odd."""
    answer = odds("1d2e2", "avrae")
    assert all(e["value"] % 2 == 1 for e in answer["total"]["result"])
    assert Fraction(answer["total"]["tail"]["exact"]) == Fraction(1, 2 ** (DEPTH + 1))
    assert full(answer)[2 * (DEPTH + 1)] == Fraction(1, 2 ** (DEPTH + 1))


#: Foundry VTT's "Dice Modifiers" article: its examples, what each says the roll does.
FOUNDRY: list[tuple[str, Callable[[dict[int, Fraction]], bool]]] = [
    # "roll one ten-sided die, and re-roll it if the result is a 1" (once: a 1 may stand)
    ("1d10r1", lambda d: d[1] == Fraction(1, 100) and d[5] == Fraction(11, 100)),
    # "if the result is less than 10, re-roll it" (once)
    ("1d20r<10", lambda d: d[1] == Fraction(9, 400) and d[20] == Fraction(29, 400)),
    # "less than 3, re-roll it, including any results that are also less than 3"
    ("1d20rr<3", lambda d: set(d) == set(range(3, 21)) and d[3] == Fraction(1, 18)),
    # "five ten-sided dice, any 10 rolls another" (no total of 5 dice is a multiple of 10 alone)
    ("5d10x10", lambda d: min(d) == 5 and 10 * 5 + 1 in d),
    ("5d10xo10", lambda d: max(d) == 100),
    ("4d6kh3", lambda d: min(d) == 3 and max(d) == 18),
    ("2d20kl", lambda d: d[20] == Fraction(1, 400)),
    ("4d6dl1", lambda d: min(d) == 3 and max(d) == 18),
    ("6d6cs>4", lambda d: set(d) == set(range(7))),
    ("10d6cs>=5df=1", lambda d: min(d) == -10 and max(d) == 10),
    ("4d6min3", lambda d: min(d) == 12),
    ("4d6max3", lambda d: max(d) == 12),
]


@pytest.mark.parametrize(("notation", "holds"), FOUNDRY, ids=[n for n, _ in FOUNDRY])
def test_foundry_documented_examples(notation: str, holds: Callable[[Any], bool]) -> None:
    distribution = full(odds(notation, "foundry"))
    assert holds(distribution)
    for seed in range(5):
        assert roll(notation, "foundry", seed)["total"] in distribution
