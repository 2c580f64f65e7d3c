"""What a table pastes around a notation, read as its tool reads it: each dialect's own chat command,
an inline roll ``[[ ]]``, avrae's ``adv`` and ``dis`` (docs/notation.md, "What is pasted"). Sources:
Foundry VTT's knowledge base, "Dice"; Roll20's help center, "Dice Reference" and "Text Chat";
avrae's ``cogs5e/dice/cog.py`` and ``cogs5e/dice/utils.py`` (``string_search_adv``), d20's
``utils.ast_adv_copy``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

#: Who sees a roll, as Foundry VTT names its roll modes (``CONST.DICE_ROLL_MODES``): the answer's
#: ``mode``, for the caller to honour; ``None`` where the text says none (the table's own choice).
Mode = Literal["publicroll", "gmroll", "blindroll", "selfroll"]
Advantage = Literal["adv", "dis"]
#: avrae's repeats: ``!rr`` and ``!rrr`` take 1 to 100 iterations (``Dice._roll_many``).
MAX_ITERATIONS = 100


class PastedError(ValueError):
    """A command read but not as its tool takes it; ``column`` is 1-based."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.message = message


@dataclass(frozen=True, slots=True)
class Pasted:
    """A pasted text taken apart: ``notation`` (at ``start`` in the text, 0-based) and what the
    command around it asks."""

    notation: str
    start: int = 0
    command: str | None = None
    mode: Mode | None = None
    repeat: int | None = None
    dc: int | None = None
    advantage: Advantage | None = None
    #: the text of the message around an inline roll (``I attack [[1d20+5]]!``)
    message: str | None = None


# Foundry's chat commands (ChatLog): /r and /roll roll in the mode the chat has selected
_FOUNDRY = re.compile(
    r"/(?:(?P<roll>r(?:oll)?)|(?P<gmroll>gmr(?:oll)?)|(?P<blindroll>b(?:lind)?r(?:oll)?)"
    r"|(?P<selfroll>s(?:elf)?r(?:oll)?)|(?P<publicroll>p(?:ublic)?r(?:oll)?))(?= |$)",
    re.IGNORECASE,
)
# Roll20's: /roll and /r are public, /gmroll and /gr seen by the GM and the roller
_ROLL20 = re.compile(r"/(?:(?P<publicroll>r(?:oll)?)|(?P<gmroll>gmroll|gr))(?= |$)")
# avrae's (discord.py: the name, then a space or the end)
_AVRAE = re.compile(
    r"!(?:(?P<roll>r(?:oll)?)|(?P<multi>rr|multiroll)|(?P<iter>rrr|iterroll))(?= |$)"
)
# avrae's string_search_adv: the first "adv" or "dis" standing alone as a word
_ADV_WORD = re.compile(r"(?:^|\s+)(adv|dis)(?:\s+|$)")
_INLINE = re.compile(r"\[\[(.*?)\]\]")


def read(text: str, dialect: str) -> Pasted:
    """``text`` as ``dialect``'s tool reads what is pasted: what its command, inline roll or words
    ask, and the notation proper, left to the parser; a text with no command is all notation
    (avrae's words aside)."""
    if "[[" in text:
        return _inline(text, dialect)
    if dialect == "avrae":
        return _avrae(text, 0)
    match = (_FOUNDRY if dialect == "foundry" else _ROLL20).match(text)
    if match is None:
        return Pasted(text)
    kind = match.lastgroup
    mode: Mode | None = None if kind == "roll" else kind  # type: ignore[assignment]
    start = _after_spaces(text, match.end())
    if start == len(text):
        raise PastedError(match.end() + 1, f"{match.group(0)} takes a formula after it")
    return Pasted(text[start:], start, match.group(0), mode)


def _after_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] == " ":
        i += 1
    return i


def _inline(text: str, dialect: str) -> Pasted:
    """An inline roll: one ``[[formula]]`` in a message (Roll20, Foundry, avrae alike); the text
    around it is the message. Foundry's deferred ``[[/r formula]]`` takes its command."""
    rolls = list(_INLINE.finditer(text))
    if len(rolls) != 1 or "[[" in rolls[0].group(1) or "]]" in text[rolls[0].end() :]:
        where = text.index("[[") + 1
        raise PastedError(
            where, "one inline roll [[...]] a request: send each of the message's rolls alone"
        )
    roll = rolls[0]
    inner, start = roll.group(1), roll.start(1)
    message = " ".join((text[: roll.start()] + " " + text[roll.end() :]).split()) or None
    if dialect == "avrae":
        pasted = _avrae(inner, start, default=False)
    elif dialect == "foundry" and _FOUNDRY.match(inner.lstrip()):
        offset = len(inner) - len(inner.lstrip())
        found = read(inner.lstrip(), dialect)
        pasted = _shifted(found, start + offset)
    else:
        lead = len(inner) - len(inner.lstrip())
        pasted = Pasted(inner.strip(), start + lead)
    return Pasted(
        pasted.notation,
        pasted.start,
        "[[ ]]" if pasted.command is None else f"[[{pasted.command} ]]",
        pasted.mode,
        pasted.repeat,
        pasted.dc,
        pasted.advantage,
        message,
    )


def _shifted(pasted: Pasted, by: int) -> Pasted:
    return Pasted(
        pasted.notation,
        pasted.start + by,
        pasted.command,
        pasted.mode,
        pasted.repeat,
        pasted.dc,
        pasted.advantage,
    )


def _avrae(text: str, offset: int, *, default: bool = True) -> Pasted:
    """avrae's commands: ``!r``/``!roll`` (no dice: ``1d20``), ``!rr N dice``/``!multiroll``,
    ``!rrr N dice [dc] [words]``/``!iterroll``; their ``adv``/``dis`` words."""
    match = _AVRAE.match(text) if default else None
    if match is None:
        notation, advantage = _adv(text)
        return Pasted(notation, offset, advantage=advantage)
    command = match.group(0)
    i = _after_spaces(text, match.end())
    if match.lastgroup == "roll":
        if i == len(text):  # avrae's !r alone rolls a d20
            return Pasted("1d20", offset + i, command)
        notation, advantage = _adv(text[i:])
        return Pasted(notation, i + offset, command, advantage=advantage)
    n, i = _iterations(text, i, command)
    if match.lastgroup == "multi":
        if i == len(text):
            raise PastedError(
                i + 1, f"{command} takes dice after its iterations: {command} 6 4d6kh3"
            )
        notation, advantage = _adv(text[i:])
        return Pasted(notation, i + offset, f"{command} {n}", repeat=n, advantage=advantage)
    return _iterroll(text, i, offset, f"{command} {n}", n)


def _iterations(text: str, i: int, command: str) -> tuple[int, int]:
    """avrae's iterations: an integer, 1 to 100; then the position after the spaces."""
    end = i
    while end < len(text) and text[end] != " ":
        end += 1
    word = text[i:end]
    if not word.isdigit():
        raise PastedError(
            i + 1,
            f"{command} takes its iterations first, a number (found {word[:12] or 'the end'!r})",
        )
    n = int(word)
    if not 1 <= n <= MAX_ITERATIONS:
        raise PastedError(i + 1, f"{command} rolls 1 to {MAX_ITERATIONS} iterations, not {n}")
    return n, _after_spaces(text, end)


def _iterroll(text: str, i: int, offset: int, command: str, n: int) -> Pasted:
    """``!rrr N dice [dc] [args]``: the dice are one word (or quoted), the DC an integer, and of
    the words after it avrae reads ``adv``/``dis`` alone (the rest: kept as the comment)."""
    if i == len(text):
        raise PastedError(i + 1, f"{command} takes dice, then a DC: {command} 1d20+5 15")
    if text[i] == '"':
        end = text.find('"', i + 1)
        if end < 0:
            raise PastedError(i + 1, "a quoted formula is not closed")
        start, notation, after = i + 1, text[i + 1 : end], end + 1
    else:
        end = text.find(" ", i)
        end = len(text) if end < 0 else end
        start, notation, after = i, text[i:end], end
    rest = text[_after_spaces(text, after) :]
    dc: int | None = None
    if rest:
        word = rest.split(" ", 1)[0]
        if not word.lstrip("-").isdigit() or len(word) > 9:
            raise PastedError(
                _after_spaces(text, after) + 1,
                f"{command}'s DC after the dice is a whole number, not {word[:12]!r}",
            )
        dc = int(word)
        rest = rest[len(word) :]
    words, advantage = _adv(rest)
    comment = " ".join(words.split()) or None  # avrae reads none of it but adv/dis
    return Pasted(
        notation, start + offset, command, repeat=n, dc=dc, advantage=advantage, message=comment
    )


def _adv(text: str) -> tuple[str, Advantage | None]:
    """avrae's ``string_search_adv``: the first ``adv`` or ``dis`` standing alone is taken out
    (here: written over with spaces, so the columns stay the text's); the text and the word."""
    match = _ADV_WORD.search(text)
    if match is None:
        return text, None
    word: Advantage = "adv" if match.group(1) == "adv" else "dis"
    return text[: match.start(1)] + " " * 3 + text[match.start(1) + 3 :], word
