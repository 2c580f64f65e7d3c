"""A small grammar of Foundry's dice notation, as our rolls write it (written for the tests, from
Foundry's documented notation -- the API docs of ``Roll``, ``DiceTerm`` and its modifiers,
``ParentheticalTerm`` and ``OperatorTerm`` -- not from its source):

    formula  = expr
    expr     = signed { " " op " " signed }
    signed   = { "-" " " } term                        (a unary minus: an OperatorTerm of its own)
    term     = ( dice | number | "(" expr ")" ) [ label ]
    dice     = number "d" ( number | "F" ) { modifier }
    modifier = ( "kh" | "kl" ) [ number ] | ( "dh" | "dl" ) number
             | ( "xo" | "x" ) [ compare ] | ( "rr" | "r" ) compare
             | ( "min" | "max" ) [ "-" ] number | ( "cs" | "df" ) compare-signed
    compare  = ( ">=" | "<=" | ">" | "<" | "=" ) number
    label    = "[" text "]"                            (the term's flavor)
    op       = "+" | "-" | "*" | "/"
    number   = digit { digit }

:func:`parse` returns the terms as ``("dice", number, faces, [modifiers])``, ``("number", n)``,
``("group", [terms], inner text)`` and ``("op", "+")``, a labelled term with its label appended
(``("dice", 1, 8, [], "fire")``), or raises ``ValueError`` naming the position where the text stops
fitting. :func:`compare` reads a comparison (``">=7"``) as a predicate.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

NUMBER = re.compile(r"[0-9]+")
CMP = r"(?:>=|<=|>|<|=)"
MODIFIER = re.compile(
    rf"(?:kh|kl)[0-9]*|(?:dh|dl)[0-9]+|xo?(?:{CMP}[0-9]+)?|rr?{CMP}[0-9]+"
    rf"|(?:min|max)-?[0-9]+|(?:cs|df){CMP}-?[0-9]+"
)
DICE = re.compile(rf"([0-9]+)d([0-9]+|F)((?:{MODIFIER.pattern})*)")
LABEL = re.compile(r"\[([^\[\]]+)\]")
OPS = (" + ", " - ", " * ", " / ")

Term = tuple[object, ...]


def compare(text: str) -> Callable[[int], bool]:
    """``">=7"`` as ``lambda v: v >= 7``."""
    match = re.fullmatch(rf"({CMP})(-?[0-9]+)", text)
    if match is None:
        raise ValueError(f"not a comparison: {text!r}")
    how = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}
    fn = how.get(match[1], operator.eq)
    target = int(match[2])
    return lambda v: fn(v, target)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"expected {what} at {self.at}: {self.text!r}")

    def expr(self) -> list[Term]:
        terms = self.signed()
        while self.text[self.at : self.at + 3] in OPS:
            terms.append(("op", self.text[self.at + 1]))
            self.at += 3
            terms += self.signed()
        return terms

    def signed(self) -> list[Term]:
        terms: list[Term] = []
        while self.text.startswith("- ", self.at):
            terms.append(("op", "-"))
            self.at += 2
        return [*terms, self.term()]

    def term(self) -> Term:
        text, at = self.text, self.at
        dice = DICE.match(text, at)
        term: Term
        if text.startswith("(", at):
            self.at += 1
            inner = self.expr()
            if not text.startswith(")", self.at):
                raise self.fail("')'")
            term = ("group", inner, text[at + 1 : self.at])
            self.at += 1
        elif dice is not None:
            faces = dice[2] if dice[2] == "F" else int(dice[2])
            term = ("dice", int(dice[1]), faces, MODIFIER.findall(dice[3]))
            self.at = dice.end()
        else:
            number = NUMBER.match(text, at)
            if number is None:
                raise self.fail("dice, a number or '('")
            term = ("number", int(number[0]))
            self.at = number.end()
        label = LABEL.match(text, self.at)
        if label is not None:
            self.at = label.end()
            term = (*term, label[1])
        return term


def parse(text: str) -> list[Term]:
    """The terms of ``text``, or ``ValueError``."""
    parser = _Parser(text)
    terms = parser.expr()
    if parser.at < len(text):
        raise parser.fail("' + ', ' - ', ' * ' or ' / '")
    return terms
