"""A slow, plain reading of the narration rules (``rules.narration``'s docstring), to compare the
compiled catalogs with: each event's template is looked up in the ``.mo`` and each field decided
as it is met, with no compiling, caching or generated code."""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from babel.lists import format_list
from pydantic import BaseModel

from rules.narration import COMMA, FSI, GENDER, GENDERS, PDI, RTL, Message, parse, translations
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
                value = params.get(field, MISSING)
                gender = names.get(GENDER + (value if isinstance(value, str) else field))
                default, *choices = spec[1:].split("|")
                words = dict(choice.split("=", 1) for choice in choices)
                assert set(words) <= GENDERS, spec
                out.append(words.get(gender or "", default) or default)
            else:
                out.append(self.show(code, field, spec, params.get(field, MISSING), names))
        return "".join(out)

    def show(self, code: str, field: str, spec: str, value: Any, names: Mapping[str, str]) -> str:
        system = code.split(".", 1)[0]
        table = spec[1:] if spec.startswith("@") else field
        if value is MISSING:  # a role
            if field in names:
                return self.isolate(names[field])
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
            match = re.fullmatch(r"(\d*)d(\d.*)", value)
            if match is None:
                return self.isolate(value)
            return (self.isolate(match[1]) if match[1] else "") + die + self.isolate(match[2])
        if isinstance(value, str):
            if value in names:
                return self.isolate(names[value])
            return self.word(system, table, value) or self.isolate(value)
        if not value:
            return self.term(system, "list", "empty") or ""
        items = [
            self.isolate(
                names.get(v) or self.term(system, "role", v) or v if isinstance(v, str) else str(v)
            )
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


def key(value: Any) -> str:
    """A value as a variant's or a term's key."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return "none" if value is None else str(value)


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
