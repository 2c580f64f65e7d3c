"""Never a silent misread (issue 44): text another tool would read as dice is not let pass as a
comment, and the error says what to write instead: a string of Dice Maiden's dice and modifiers (its
README, https://github.com/Humblemonk/DiceMaiden), a comment that starts with dice or another tool's
operator (docs/notation.md, "Never a silent misread").
"""

from __future__ import annotations

import re

#: A Dice Maiden roll: an optional count of sets, dice, its modifiers (each a word of its own), and
#: numbers added or taken away.
_MAIDEN = re.compile(
    r"^\s*(?:(?P<sets>\d+)\s+)?(?P<dice>\d*d\d+)(?P<mods>(?:\s+(?:ie|ir|kl|[ekdrtfb])\d*)*)"
    r"(?P<add>(?:\s*[+-]\s*\d+)*)\s*$"
)
_MOD = re.compile(r"(ie|ir|kl|[ekdrtfb])(\d*)")
#: Dice Maiden's modifiers as Foundry VTT writes them (its README's "Advanced Rolling Options").
_FOUNDRY_OF = {
    "e": ("xo", "=", "explode once on {n}"),
    "ie": ("x", "=", "explode again and again on {n}"),
    "k": ("kh", "", "keep the {n} highest"),
    "kl": ("kl", "", "keep the {n} lowest"),
    "d": ("dl", "", "drop the {n} lowest"),
    "r": ("r", "<=", "reroll once the dice of {n} or less"),
    "ir": ("rr", "<=", "reroll again and again the dice of {n} or less"),
    "t": ("cs", ">=", "count the dice of {n} or more"),
    "f": ("df", "<=", "deduct the dice of {n} or less"),
}
_DICE = re.compile(r"^[+-]?\s*\d*\s*[dD](\d|%|F)")
#: A word that is a dice term's modifier in some dialect (``kh3``, ``r<2``, ``!!``, ``min3``): after a
#: space it would be dropped as a comment, though it was surely meant to apply
_MODIFIER = re.compile(
    r"^(k[hl]?|d[hl]?|p[hl]?|r[ro]?|ro|e|xo?|mi|ma|min|max|cs|cf|df|!{1,2}|!p|m|mt)"
    r"([<>]=?|=)?\d+$|^(!{1,2}|!p|x|xo)$"
)


def dice_maiden(text: str) -> str | None:
    """What to write instead of ``text`` if it is a Dice Maiden roll (``6 4d6 k3``, ``10d10 t8``,
    ``5d10 t8 f1``, ``3d6 e6``, ``4d6 ir2``), in Foundry's notation; ``None`` if it is not one."""
    match = _MAIDEN.match(text)
    if match is None or not (match.group("sets") or match.group("mods").strip()):
        return None
    dice = match.group("dice")
    if dice.startswith("d"):
        dice = "1" + dice
    sides = int(dice.split("d")[1])
    written, said = dice, []
    for word in match.group("mods").split():
        mod = _MOD.fullmatch(word)
        assert mod is not None
        name, n = mod.group(1), mod.group(2)
        if name == "b":
            return None  # botches: a count of their own, nothing to point to
        letters, op, what = _FOUNDRY_OF[name]
        count = n or (str(sides) if name in ("e", "ie") else "1")
        written += letters + (op if op != "=" else "") + count
        said.append(f"{word}: {what.format(n=count)}")
    add = "".join(match.group("add").split())
    written += "".join(f" {a[0]} {a[1:]}" for a in re.findall(r"[+-]\d+", add))
    sets = match.group("sets")
    how = f' and "repeat": {sets} (its {sets} sets)' if sets else ""
    meaning = f" ({'; '.join(said)})" if said else ""
    return (
        f"{text.strip()!r} is Dice Maiden's{meaning}: write {written!r} with "
        f'"dialect": "foundry"{how}'
    )


def comment_misread(comment: str, dialect: str) -> str | None:
    """Why ``comment`` must not be dropped as a comment, if it must not."""
    first = comment.split(" ", 1)[0]
    if dialect != "avrae" and first in ("adv", "dis"):
        return f'{first!r} is avrae\'s (its leftmost 1d20 rolled twice): add "dialect": "avrae"'
    if _MODIFIER.match(first):
        return (
            f"{first!r} after a space is not read as a modifier (no dialect reads one there): "
            f"write it against its dice term, as in 4d6{first}"
        )
    if _DICE.match(comment):
        return (
            f"the text after the roll, {comment[:24]!r}, reads as dice: one roll a request "
            "(several: the repeat field, or send each alone)"
        )
    return None
