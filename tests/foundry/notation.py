"""A small grammar of Foundry's dice notation, as our rolls write it (written for the tests, from
Foundry's documented notation, not from its source):

    formula  = term { " " op " " term }
    term     = dice | number
    dice     = number "d" ( number | "F" ) { modifier }
    modifier = "kh" | "kl" | "cs>" number
    op       = "+" | "-"
    number   = digit { digit }

:func:`parse` returns the terms as ``("dice", number, faces, [modifiers])``, ``("number", n)`` and
``("op", "+")``, or raises ``ValueError`` naming the position where the text stops fitting.
"""

from __future__ import annotations

import re

NUMBER = re.compile(r"[0-9]+")
DICE = re.compile(r"([0-9]+)d([0-9]+|F)((?:kh|kl|cs>[0-9]+)*)")
MODIFIER = re.compile(r"kh|kl|cs>[0-9]+")

Term = tuple[object, ...]


def _term(text: str, at: int) -> tuple[Term, int]:
    dice = DICE.match(text, at)
    if dice is not None:
        faces = dice[2] if dice[2] == "F" else int(dice[2])
        return ("dice", int(dice[1]), faces, MODIFIER.findall(dice[3])), dice.end()
    number = NUMBER.match(text, at)
    if number is None:
        raise ValueError(f"expected dice or a number at {at}: {text!r}")
    return ("number", int(number[0])), number.end()


def parse(text: str) -> list[Term]:
    """The terms of ``text``, or ``ValueError``."""
    term, at = _term(text, 0)
    terms = [term]
    while at < len(text):
        if text[at : at + 3] not in (" + ", " - "):
            raise ValueError(f"expected ' + ' or ' - ' at {at}: {text!r}")
        terms.append(("op", text[at + 1]))
        term, at = _term(text, at + 3)
        terms.append(term)
    return terms
