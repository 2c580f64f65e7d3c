"""A slow, plain reading of the narration rules (``rules.narration``'s docstring), to compare the
compiled catalogs with: each event's template is looked up in the ``.mo`` and each field decided
as it is met, with no compiling, caching or generated code."""

from __future__ import annotations

import gettext
import re
import unicodedata
from collections.abc import Mapping
from functools import cache
from typing import Any

from babel.lists import format_list
from pydantic import BaseModel

from rules.narration import (
    COMMA,
    FALLBACK,
    FSI,
    GENDER,
    GENDERS,
    GROUPS,
    PDI,
    RTL,
    Message,
    parse,
    translations,
)
from tests.narration.catalogs import source_messages

MISSING = object()


@cache
def reference(lang: str) -> Reference:
    return Reference(translations(lang), source_messages(), lang)


class Reference:
    """One language's texts, rendered the slow way."""

    def __init__(self, tr: gettext.GNUTranslations, source: dict[str, Message], lang: str) -> None:
        self.tr, self.source, self.lang, self.rtl = tr, source, lang, lang in RTL

    def render(self, code: str, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
        text = self.fill(code, self.template(code, params), params, names, whole=True)
        return text[:1].upper() + text[1:] if text[:1].islower() else text

    def template(self, code: str, params: Mapping[str, Any]) -> str:
        """The sentence of ``code``: its only one, else the variant whose choices all hold, else
        the first whose choices hold with ``*`` for any value."""
        variants = [c for c, m in self.source.items() if c.split("|")[0] == code and not m.plural]
        for wild in (False, True):
            for context in variants:
                choices = [choice.split("=", 1) for choice in context.split("|")[1:]]
                if all(
                    value == key(params.get(param)) or (wild and value == "*")
                    for param, value in choices
                ):
                    return self.tr.pgettext(context, self.source[context].text)
        raise KeyError(code)

    def fill(
        self,
        code: str,
        template: str,
        params: Mapping[str, Any],
        names: Mapping[str, str],
        *,
        whole: bool,
    ) -> str:
        out: list[str] = []
        for literal, field, spec in parse(template):
            out.append(literal)
            if field is None:
                continue
            phrase = self.source.get(f"{code}#{field}") if whole else None
            if phrase is not None:
                count = params[field]
                count = len(count) if isinstance(count, list) else count  # a list: its length
                form = self.tr.npgettext(f"{code}#{field}", phrase.text, phrase.plural or "", count)
                out.append(self.fill(code, form, params, names, whole=False))
            elif spec.startswith("?"):  # a word chosen by the gender of whom the field names
                gender = together(
                    [self.gender(f, params.get(f, MISSING), names) for f in field.split("+")]
                )
                default, *choices = spec[1:].split("|")
                words = dict(choice.split("=", 1) for choice in choices)
                assert set(words) <= GENDERS, spec
                # a group's kind the word does not list: the plural's word, then the first
                kind = gender if gender in words else FALLBACK.get(gender or "")
                out.append(words.get(kind or "", default) or default)
            else:
                out.append(self.show(code, field, spec, params.get(field, MISSING), names))
        return "".join(out)

    def gender(self, field: str, value: Any, names: Mapping[str, str]) -> str | None:
        """Whom a field names: an id's gender, a list's together, a role's by the field."""
        if isinstance(value, str):
            return names.get(GENDER + value)
        if isinstance(value, (list, tuple)):
            return together([names.get(GENDER + v) if isinstance(v, str) else None for v in value])
        return names.get(GENDER + field)

    def show(self, code: str, field: str, spec: str, value: Any, names: Mapping[str, str]) -> str:
        system = code.split(".", 1)[0]
        table = spec[1:] if spec.startswith("@") else field
        if value is MISSING:  # a role
            if field in names:
                return self.own(names[field])
            word = self.term(system, "role", field)
            assert word is not None, f"no parameter or role {field}"
            return word
        if isinstance(value, bool) or value is None:
            flag = key(value)
            return self.word(system, table, flag) or self.isolate(flag)
        if isinstance(value, int):
            spec = "" if spec == "notation" else spec
            if spec == "pos":
                return self.isolate(str(value + 1))
            if spec.startswith("@"):
                return self.term(system, table, str(value)) or self.isolate(str(value))
            return self.isolate(format(value, spec))
        if isinstance(value, str) and spec == "notation":  # a dice notation, the language's "d"
            die = self.term(system, "notation", "d") or "d"
            term = r"(?:\d*d\d+|\d+)"
            if re.fullmatch(rf"{term}(?:\s*[-+*/×]\s*{term})*", value) is None:
                return self.isolate(value)
            return re.sub(  # every "d" the language's, every number isolated on its own
                r"(\d*)d(\d+)|(\d+)",
                lambda m: (
                    self.isolate(m[3])
                    if m[3]
                    else (self.isolate(m[1]) if m[1] else "") + die + self.isolate(m[2])
                ),
                value,
            )
        if isinstance(value, str):
            if value in names:
                return self.own(names[value])
            return self.word(system, table, value) or self.own(value)
        if not value:
            return self.term(system, "list", "empty") or ""
        items = [
            self.own(names.get(v) or self.term(system, "role", v) or v)
            if isinstance(v, str)
            else self.isolate(str(v))
            for v in value
        ]
        if isinstance(value[0], str):  # names: as the language joins them (CLDR, Babel)
            return format_list(items, locale=self.lang)
        return COMMA.get(self.lang, ", ").join(items)

    def word(self, system: str, table: str, value: str) -> str | None:
        return self.term(system, table, value) or self.term(system, "role", value)

    def term(self, system: str, table: str, value: str) -> str | None:
        context = f"{system}.{table}={value}"
        message = self.source.get(context)
        return None if message is None else self.tr.pgettext(context, message.text)

    def isolate(self, text: str) -> str:
        return f"{FSI}{text}{PDI}" if self.rtl else text

    def own(self, text: str) -> str:
        """A name or a request's string: isolated in Arabic, and in a left-to-right language when
        it holds a right-to-left letter (bidi class R or AL)."""
        rtl = any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)
        return f"{FSI}{text}{PDI}" if self.rtl or rtl else text


def key(value: Any) -> str:
    """A value as a variant's or a term's key."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)) and not value:
        return "none"  # an empty list chooses a variant as null does
    return "none" if value is None else str(value)


def together(genders: list[str | None]) -> str | None:
    """Several participants' class: the one they share; people of different genders the
    masculine if any is, else none; a group with anyone else a group: of people if a man, a group
    of people or someone of no class is among them, else of women if a woman is, else of beasts."""
    if len(set(genders)) == 1:
        return genders[0]
    if not any(g in GROUPS for g in genders):
        return "masculine" if "masculine" in genders else None
    if {None, "masculine", "plural"} & set(genders):
        return "plural"
    return (
        "plural-feminine" if {"feminine", "plural-feminine"} & set(genders) else "plural-nonhuman"
    )


def reference_names(
    value: Any, key: str | None = None, out: dict[str, str] | None = None
) -> dict[str, str]:
    """What ``rules.narration.names`` gathers, read the slow way: every field of every model in the
    request is walked (no plan), an id with a non-empty name is that name, and a model alone in a
    field is that field's name or id; a gender is kept under ``GENDER`` and the same keys."""
    out = {} if out is None else out
    if isinstance(value, BaseModel):
        fields = type(value).model_fields
        name = value.name if "name" in fields else None
        id_ = value.id if "id" in fields else None
        if name and id_ is not None:
            out[id_] = name
        if key is not None and (name or id_) is not None:
            out[key] = name or id_
        gender = value.gender if "gender" in fields else None
        if gender is not None:
            for where in (id_, key):
                if where is not None:
                    out[GENDER + where] = gender
        for field in fields:
            if field not in {"dice", "seed"}:
                reference_names(getattr(value, field), field, out)
    elif isinstance(value, (list, tuple, dict)):
        for item in value.values() if isinstance(value, dict) else value:
            reference_names(item, None, out)
    return out
