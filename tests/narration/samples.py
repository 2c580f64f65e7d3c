"""Parameters to render any message with: every field a number (1), except a parameter read as a
term (a valid value of its table) and a variant's choosing parameters (the variant's values)."""

from __future__ import annotations

from rules.narration import fields
from tests.narration.catalogs import source_messages

SOURCE = source_messages()


def _terms(system: str) -> dict[str, str]:
    """A valid value for each of the system's term tables (param -> value)."""
    out: dict[str, str] = {}
    for context in SOURCE:
        if context.startswith(system + ".") and "=" in context and "|" not in context:
            table, value = context.split(".", 1)[1].split("=", 1)
            out.setdefault(table, value)
    return out


def variants(code: str) -> list[dict[str, object]]:
    """The choosing parameters of each variant of ``code`` (one empty choice for a plain code)."""
    out: list[dict[str, object]] = []
    for context in SOURCE:
        head, *choices = context.split("|")
        if head == code and choices:
            pairs = [choice.split("=", 1) for choice in choices]
            out.append({p: _value(v, f"{code}#{p}" in SOURCE, p) for p, v in pairs})
    return out or [{}]


#: The parameters a variant chooses on that hold a list (an empty one chooses ``none``): ``*`` is a
#: list of one item, a die or an id.
LISTS: dict[str, list[object]] = {"rolls": [1], "riders": ["x1"]}


def _value(text: str, counted: bool = False, param: str = "") -> object:
    """A variant's value as a parameter: ``*`` any other (a number for a counted parameter, a list
    of one for a list), a number as a number."""
    if text == "*":
        return 2 if counted else LISTS.get(param, "x1")
    if text.isdigit():
        return int(text)
    return {"true": True, "false": False, "none": None}.get(text, text)


def sample_params(code: str, choice: dict[str, object] | None = None) -> dict[str, object]:
    system = code.split(".", 1)[0]
    terms = _terms(system)
    shown: set[str] = set()
    for context, message in SOURCE.items():
        if context.split("|", 1)[0].split("#", 1)[0] == code:
            shown |= fields(message.text) | fields(message.plural or "")
    roles = {c.split("=", 1)[1] for c in SOURCE if c.startswith(system + ".role=")}
    params: dict[str, object] = {
        f: terms.get(f, 1) for f in sorted(shown) if f not in roles or f in terms
    }
    params.update(choice or (variants(code)[0]))
    return params


def all_samples() -> list[tuple[str, dict[str, object]]]:
    """(code, params) for every sentence and variant of every system."""
    codes = sorted(
        {
            c.split("|", 1)[0]
            for c, m in SOURCE.items()
            if m.plural is None and ("=" not in c or "|" in c)
        }
    )
    return [(code, sample_params(code, choice)) for code in codes for choice in variants(code)]


def showing(code: str, param: str) -> dict[str, object]:
    """Parameters for the sentence (or variant) of ``code`` that shows ``{param}``."""
    for context, message in SOURCE.items():
        head, *choices = context.split("|")
        if head == code and message.plural is None and param in fields(message.text):
            pairs = [choice.split("=", 1) for choice in choices]
            return sample_params(code, {p: _value(v, f"{code}#{p}" in SOURCE, p) for p, v in pairs})
    raise KeyError(f"{code} shows no {{{param}}}")
