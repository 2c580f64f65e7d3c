"""Dice notation for damage (D5E-12): a tokenizer and a recursive-descent parser, no ``eval``.

Grammar (spaces between tokens are allowed; ``d`` may be upper case)::

    formula  := sign? term (sign term)*
    sign     := "+" | "-"
    term     := dice | number
    dice     := number? "d" number          -- count (default 1) "d" sides
    number   := digit+

Examples: ``2d6+3``, ``1d8+1d6+4``, ``d20``, ``-1``, ``1d10-2``, ``2d6 - 1d4``.

Caps (each a clear error, never a hang): a formula is at most :data:`MAX_LENGTH` characters and
:data:`MAX_TERMS` terms; a dice term rolls 1..:data:`MAX_DICE` dice of :data:`MIN_SIDES`..
:data:`MAX_SIDES` sides; a formula rolls at most :data:`MAX_DICE` dice in all; a number term is at
most :data:`MAX_MODIFIER`. Errors name the 1-based character position and what was expected there.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

MAX_LENGTH = 200
MAX_TERMS = 20
MAX_DICE = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_MODIFIER = 1_000_000
_MAX_DIGITS = 8  # longer numbers are refused before they are converted


class NotationError(ValueError):
    """A formula that does not follow the grammar or breaks a cap. ``position`` is 1-based."""

    def __init__(self, position: int, message: str) -> None:
        super().__init__(f"at position {position}: {message}")
        self.position = position
        self.message = message


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "number", "d", "+", "-", "end"
    text: str
    position: int  # 1-based
    value: int = 0


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
        """The die size every dice term shares, or ``None`` when sizes differ or there are none."""
        sizes = {t.sides for t in self.dice_terms}
        return sizes.pop() if len(sizes) == 1 else None

    def __str__(self) -> str:
        return self.text


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; the last one is ``end``."""
    if len(text) > MAX_LENGTH:
        raise NotationError(MAX_LENGTH + 1, f"a formula has at most {MAX_LENGTH} characters")
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == " ":
            i += 1
            continue
        if ch.isascii() and ch.isdigit():
            start = i
            while i < len(text) and text[i].isascii() and text[i].isdigit():
                i += 1
            digits = text[start:i]
            if len(digits.lstrip("0")) > _MAX_DIGITS:
                raise NotationError(start + 1, f"the number {digits[:12]}... is too large")
            tokens.append(Token("number", digits, start + 1, int(digits)))
            continue
        if ch in "dD":
            tokens.append(Token("d", ch, i + 1))
        elif ch in "+-":
            tokens.append(Token(ch, ch, i + 1))
        else:
            raise NotationError(
                i + 1, f"unexpected character {ch!r}: expected a number, 'd', '+' or '-'"
            )
        i += 1
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    @property
    def peek(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def formula(self) -> Formula:
        if self.peek.kind == "end":
            raise NotationError(
                self.peek.position, "expected a dice term (such as 2d6) or a number"
            )
        terms: list[Term] = []
        sign = 1
        if self.peek.kind in "+-":
            sign = -1 if self.take().kind == "-" else 1
        terms.append(self.term(sign))
        while self.peek.kind != "end":
            tok = self.take()
            if tok.kind not in "+-":
                raise NotationError(tok.position, f"expected '+' or '-' before {tok.text!r}")
            if len(terms) >= MAX_TERMS:
                raise NotationError(tok.position, f"a formula has at most {MAX_TERMS} terms")
            terms.append(self.term(-1 if tok.kind == "-" else 1))
        formula = Formula.of(tuple(terms))
        if formula.dice_count > MAX_DICE:
            raise NotationError(
                1, f"the formula rolls {formula.dice_count} dice; at most {MAX_DICE} in all"
            )
        if abs(formula.modifier) > MAX_MODIFIER:
            raise NotationError(1, f"the flat modifiers add up beyond +-{MAX_MODIFIER}")
        return formula

    def term(self, sign: int) -> Term:
        tok = self.peek
        if tok.kind == "d":
            self.take()
            return DiceTerm(sign, 1, self.sides(tok))
        if tok.kind == "number":
            self.take()
            if self.peek.kind == "d":
                d = self.take()
                if not 1 <= tok.value <= MAX_DICE:
                    raise NotationError(
                        tok.position, f"a dice term rolls 1 to {MAX_DICE} dice, not {tok.value}"
                    )
                return DiceTerm(sign, tok.value, self.sides(d))
            if tok.value > MAX_MODIFIER:
                raise NotationError(tok.position, f"a number term is at most {MAX_MODIFIER}")
            return Constant(sign * tok.value)
        what = "the end" if tok.kind == "end" else repr(tok.text)
        raise NotationError(
            tok.position, f"expected a dice term (such as 2d6) or a number, found {what}"
        )

    def sides(self, d: Token) -> int:
        tok = self.peek
        if tok.kind != "number":
            raise NotationError(tok.position, "expected a number of sides after 'd'")
        self.take()
        if not MIN_SIDES <= tok.value <= MAX_SIDES:
            raise NotationError(
                tok.position, f"a die has {MIN_SIDES} to {MAX_SIDES} sides, not {tok.value}"
            )
        return tok.value


#: The common shape, ``[count]d<sides>[+|-<number>]`` without spaces (``1d8+3``, ``2d6``, ``d20``):
#: recognised in one match. Anything else, or a value out of its bounds, takes the full parser.
_SIMPLE = re.compile(r"([1-9][0-9]?|100)?[dD]([0-9]{1,4})(?:([+-])([0-9]{1,7}))?")


@functools.lru_cache(maxsize=1024)
def parse(text: str) -> Formula:
    """Parse a damage formula; raises :class:`NotationError` (a ``ValueError``) when it is bad.

    A formula is immutable and a function of its text alone, so the last 1,024 texts parsed are
    kept: a request parses each of its parts three times (validation, slots, roll), and a table
    sends the same few formulas all evening. Errors are not kept (each raises afresh).
    """
    simple = _SIMPLE.fullmatch(text)
    if simple is not None:
        count, sides, sign, number = simple.groups()
        if MIN_SIDES <= int(sides) <= MAX_SIDES and (number is None or int(number) <= MAX_MODIFIER):
            dice = DiceTerm(1, int(count) if count else 1, int(sides))
            if number is None:
                return Formula.of((dice,))
            return Formula.of((dice, Constant(-int(number) if sign == "-" else int(number))))
    return _Parser(tokenize(text)).formula()
