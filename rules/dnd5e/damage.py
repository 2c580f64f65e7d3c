"""Damage formulas (D5E-12): the notation's plain subset, read by the one notation parser
(``rules.notation.parser.parse(text, plain=True)``), then held to the 5e caps below, each a clear
error naming its position (docs/notation.md, "The plain subset"; docs/systems/dnd5e.md).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rules.notation import parser

MAX_LENGTH = 200
MAX_TERMS = 20
MAX_DICE = 100
MIN_SIDES = parser.MIN_SIDES
MAX_SIDES = parser.MAX_SIDES
MAX_MODIFIER = parser.MAX_NUMBER


class FormulaError(ValueError):
    """A formula that does not follow the grammar or breaks a cap. ``position`` is 1-based."""

    def __init__(self, position: int, message: str) -> None:
        super().__init__(f"at position {position}: {message}")
        self.position = position
        self.message = message


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, added (``sign`` 1) or subtracted (``sign`` -1)."""

    sign: int
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{'-' if self.sign < 0 else '+'}{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True)
class Constant:
    """A flat modifier, already signed."""

    value: int

    def __str__(self) -> str:
        return f"{self.value:+d}"


Term = DiceTerm | Constant


@dataclass(frozen=True, slots=True)
class Formula:
    """A parsed formula. Its dice terms, flat modifier and text are worked out once, by
    :meth:`of` (a formula is parsed once per text and read by every roll of every request)."""

    terms: tuple[Term, ...]
    #: The dice terms, in order.
    dice_terms: tuple[DiceTerm, ...]
    #: The sum of the flat modifiers.
    modifier: int
    #: The formula as parsed, normalised (``2d6+3``, ``1d8-1d4``).
    text: str

    @classmethod
    def of(cls, terms: tuple[Term, ...]) -> Formula:
        return cls(
            terms,
            tuple(t for t in terms if isinstance(t, DiceTerm)),
            sum(t.value for t in terms if isinstance(t, Constant)),
            "".join(str(t) for t in terms).removeprefix("+"),
        )

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.dice_terms)

    @property
    def sides(self) -> int | None:
        sizes = {t.sides for t in self.dice_terms}
        return sizes.pop() if len(sizes) == 1 else None

    def __str__(self) -> str:
        return self.text


@functools.lru_cache(maxsize=1024)
def parse(text: str) -> Formula:
    """Parse a damage formula; raises :class:`FormulaError` (a ``ValueError``) when it is bad.

    A formula is immutable and a function of its text alone, so the last 1,024 texts parsed are
    kept: a request parses each of its parts three times (validation, slots, roll), and a table
    sends the same few formulas all evening. Errors are not kept (each raises afresh).
    """
    if len(text) > MAX_LENGTH:
        raise FormulaError(MAX_LENGTH + 1, f"a formula has at most {MAX_LENGTH} characters")
    try:
        tree = parser.parse(text, plain=True).tree
    except parser.NotationError as exc:
        raise FormulaError(exc.column, exc.message) from None
    terms: list[Term] = []
    # the plain subset's tree: a left-leaning chain of "+" and "-", its first term maybe signed
    chain: list[tuple[int, parser.Node, int]] = []  # (sign, term, the column of its sign)
    node = tree
    while isinstance(node, parser.Binary):
        chain.append((-1 if node.op == "-" else 1, node.right, node.column))
        node = node.left
    chain.append((1, node, 1))
    for k, (sign, term, column) in enumerate(reversed(chain)):
        if k == MAX_TERMS:
            raise FormulaError(column, f"a formula has at most {MAX_TERMS} terms")
        terms.append(_term(sign, term))
    formula = Formula.of(tuple(terms))
    if formula.dice_count > MAX_DICE:
        raise FormulaError(
            1, f"the formula rolls {formula.dice_count} dice; at most {MAX_DICE} in all"
        )
    if abs(formula.modifier) > MAX_MODIFIER:
        raise FormulaError(1, f"the flat modifiers add up beyond +-{MAX_MODIFIER}")
    return formula


def _term(sign: int, node: parser.Node) -> Term:
    if isinstance(node, parser.Negate):
        sign, node = -sign, node.operand
    if isinstance(node, parser.Number):
        return Constant(sign * node.value)
    if isinstance(node, parser.Dice):
        return DiceTerm(sign, node.count, node.sides)
    raise AssertionError(f"not of the plain subset: {node!r}")  # pragma: no cover
