"""Data references: Foundry VTT's ``@abilities.str.mod`` (its knowledge base, "Dice") and Roll20's
``@{selected|strength_mod}`` (its Dice Reference), each replaced, as its tool does, by the text of
the value the request's ``data`` holds there (docs/notation.md, "Data references").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: Foundry's: ``@`` then a path of names joined by dots (Roll.replaceFormulaData)
_FOUNDRY = re.compile(r"@([A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]+)*)")
#: Roll20's: ``@{name}``, ``@{character|name}``, ``@{selected|name|max}``
_ROLL20 = re.compile(r"@\{([^{}]+)\}")
#: References replaced in one notation, at most, and how deep a value's formula may hold more.
MAX_REFERENCES = 20


class DataError(ValueError):
    """A reference that cannot be replaced; ``column`` is 1-based in the text as sent."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.message = message


def references(text: str, dialect: str) -> bool:
    return "@" in text and dialect != "avrae"


def substitute(text: str, data: Mapping[str, Any] | None, dialect: str) -> str:
    """``text`` with each of ``dialect``'s references replaced by its value's text, as the tools
    replace them: the text as it is (``2 * @dmg`` with ``dmg`` ``"1d8 + 3"`` is ``2 * 1d8 + 3``)."""
    pattern = _FOUNDRY if dialect == "foundry" else _ROLL20
    found = list(pattern.finditer(text))
    if not found:
        return text
    if len(found) > MAX_REFERENCES:
        raise DataError(found[MAX_REFERENCES].start() + 1, f"at most {MAX_REFERENCES} references")
    out: list[str] = []
    end = 0
    for match in found:
        path = match.group(1).split("." if dialect == "foundry" else "|")
        out += [text[end : match.start()], _text_of(_lookup(data, path, match), match)]
        end = match.end()
    return "".join(out) + text[end:]


def _lookup(data: Mapping[str, Any] | None, path: list[str], match: re.Match[str]) -> Any:
    value: Any = data
    for i, key in enumerate(path):
        if not isinstance(value, Mapping) or key not in value:
            where = "data" + "".join(f"[{k!r}]" for k in path[: i + 1])
            raise DataError(
                match.start() + 1,
                f"{match.group(0)} refers to {where}, which the request's data does not hold",
            )
        value = value[key]
    return value


def _text_of(value: Any, match: re.Match[str]) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        what = "a whole number" if isinstance(value, float) else "a number or a formula"
        raise DataError(match.start() + 1, f"{match.group(0)} is {value!r}: write {what}")
    if isinstance(value, str) and "@" in value:
        raise DataError(match.start() + 1, f"{match.group(0)}'s formula refers to more data")
    return str(value)
