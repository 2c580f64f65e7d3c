"""The playground's texts in every language, a gettext domain of its own (``playground``): Babel's
extractors for its pages and the OpenAPI document, and the compiler of each language's catalog into
the JSON a page fetches (docs/narration.md, "The playground's texts").
"""

from __future__ import annotations

import gettext
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from rules.registry import SYSTEMS

ROOT = Path(__file__).resolve().parent
LOCALE = ROOT / "locale"
DOMAIN = "playground"
OUT = ROOT / "static" / "playground" / "i18n"
LANGUAGES = ("en", "pl", "fi", "ar")
RTL = frozenset({"ar"})
CONTEXT_SEPARATOR = "\x04"

# What Babel's extractors yield: (line, function, message or (context, message), comments).
Extracted = tuple[int, str, str | tuple[str, str], list[str]]
_DATA_I18N = re.compile(rb'data-i18n(?:-[a-z-]+)?="([^"]+)"')
#: A slot in an operation's "Dice slots" paragraph: a code span, alone or in a list of them, before
#: its die in parentheses (`attack` (d10), `pool.<entity id>` (the entity's die), `a`, `b` (d10)).
_SLOT = re.compile(r"`((?:[^`\s<]|<[^>`]*>)+)`(?=(?:, `[^`]+`)* \()")
_SLOT_PART = re.compile(r"[a-z][a-z0-9_]*")
SLOTS_HEADING = "**Dice slots**"


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Every ``data-i18n="..."`` (text) and ``data-i18n-<attribute>="..."`` message of a page."""
    for number, line in enumerate(fileobj, start=1):
        for match in _DATA_I18N.finditer(line):
            yield number, "gettext", match.group(1).decode("utf-8"), []


def _walk(node: Any, fields: set[str], values: set[str]) -> None:
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            fields.update(properties)
        for value in node.get("enum", []):
            if isinstance(value, str):
                values.add(value)
        if isinstance(node.get("const"), str):
            values.add(node["const"])
        for child in node.values():
            _walk(child, fields, values)
    elif isinstance(node, list):
        for child in node:
            _walk(child, fields, values)


#: The keys of a schema (or of an operation) whose values are data, not schemas.
_NOT_SCHEMAS = frozenset({"properties", "example", "examples", "default", "enum", "const"})


def _walk_refs(schemas: dict[str, Any], node: Any, fields: set[str], values: set[str]) -> None:
    """Every field name and value under ``node``, every ``$ref`` followed (each schema once)."""
    seen: set[str] = set()
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, list):
            pending.extend(current)
            continue
        if not isinstance(current, dict):
            continue
        ref = current.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                pending.append(schemas.get(name, {}))
            continue
        properties = current.get("properties")
        if isinstance(properties, dict):
            fields.update(properties)
            pending.extend(properties.values())
        values.update(v for v in current.get("enum", []) if isinstance(v, str))
        if isinstance(current.get("const"), str):
            values.add(current["const"])
        pending.extend(v for k, v in current.items() if k not in _NOT_SCHEMAS)


def keys_by_system(document: dict[str, Any]) -> dict[str, tuple[set[str], set[str]]]:
    """Each system's field names and enumerated values: those of its operations' requests and
    answers (the registry's systems, each by its path prefix), their ``$ref`` followed."""
    schemas = document.get("components", {}).get("schemas", {})
    out: dict[str, tuple[set[str], set[str]]] = {}
    for system in SYSTEMS:
        prefix = (system.path or f"/{system.id}") + "/"
        fields: set[str] = set()
        values: set[str] = set()
        for path, item in document.get("paths", {}).items():
            if path.startswith(prefix):
                for op in item.values():
                    _walk_refs(
                        schemas,
                        [op.get("requestBody", {}), op.get("responses", {})],
                        fields,
                        values,
                    )
        out[system.id] = (fields, values)
    return out


#: Field names that no one word names in every system, in some language: each also has a message per
#: system that uses it, which the page prefers (``texts.forSystem`` in service/static/shared/i18n.js).
#: ``location`` is where a hit lands in Dragons of Shadows and a place in the dragon battle; ``hp``,
#: ``max_hp`` and ``dc`` are Polish "punkty życia" and "poziom trudności" in Dragons of Shadows (its
#: Polish source's words) but "punkty wytrzymałości" and "ST" in the fifth edition (its Polish
#: players'), as the event texts say them.
HOMONYMS = ("location", "hp", "max_hp", "dc")


def _options(schemas: dict[str, Any], schema: Any) -> list[dict[str, Any]]:
    def deref(node: Any) -> dict[str, Any]:
        for _ in range(20):
            if not isinstance(node, dict) or "$ref" not in node:
                break
            node = schemas.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        return node if isinstance(node, dict) else {}

    node = deref(schema)
    return [deref(option) for option in node.get("anyOf", node.get("oneOf", [node]))]


def record_lists(document: dict[str, Any]) -> list[str]:
    """The properties of the requests (followed through every ``$ref``) that are lists of records,
    sorted: each one's items get a name in the form ("entity 2")."""
    schemas = document.get("components", {}).get("schemas", {})
    found: set[str] = set()
    seen: set[int] = set()

    def walk(schema: Any) -> None:
        for option in _options(schemas, schema):
            if id(option) in seen:
                continue
            seen.add(id(option))
            for key, prop in (option.get("properties") or {}).items():
                for branch in _options(schemas, prop):
                    items = _options(schemas, branch.get("items", {}))
                    if branch.get("type") == "array" and any(
                        i.get("type") == "object" or "properties" in i for i in items
                    ):
                        found.add(key)
                walk(prop)
            for child in (option.get("items"), option.get("additionalProperties")):
                if isinstance(child, dict):
                    walk(child)

    for item in document.get("paths", {}).values():
        body = item.get("post", {}).get("requestBody", {})
        walk(body.get("content", {}).get("application/json", {}).get("schema", {}))
    return sorted(found)


def slot_parts(description: str) -> list[str]:
    """The named parts of the slots an operation's description lists (``pool.<entity id>``: ``pool``;
    ``<id>.<n>.attack``: ``attack``), in order."""
    _, found, slots = description.partition(SLOTS_HEADING)
    parts = [
        part
        for slot in _SLOT.findall(slots if found else "")
        for part in slot.split(".")
        if _SLOT_PART.fullmatch(part)
    ]
    return list(dict.fromkeys(parts))


def extract_openapi(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Field names, values, slot names and summaries of the OpenAPI document, each in its context."""
    document = json.load(fileobj)
    fields: set[str] = set()
    values: set[str] = set()
    _walk(document.get("components", {}), fields, values)
    for key in sorted(fields):
        yield 0, "pgettext", ("field", key), []
    for value in sorted(values):
        yield 0, "pgettext", ("value", value), []
    operations = [op for item in document.get("paths", {}).values() for op in item.values()]
    slots = dict.fromkeys(p for op in operations for p in slot_parts(op.get("description") or ""))
    for part in slots:
        yield 0, "pgettext", ("slot", part), []
    for op in operations:
        if op.get("summary"):
            yield 0, "pgettext", ("summary", op["summary"]), []
    for key in record_lists(document):
        yield 0, "pgettext", ("item", key), []
    by_system = keys_by_system(document)
    for key in HOMONYMS:
        for system, (names, _) in by_system.items():
            if key in names:
                yield 0, "pgettext", ("field", f"{system}.{key}"), []


#: The counts that decide which plural category goes with which of a catalog's forms.
_PLURAL_SAMPLES = range(0, 1001)


def plural_categories(catalog: Catalog, lang: str) -> list[str]:
    """The CLDR category of each of the catalog's plural forms, in order (pl: one, few, many), from
    its ``Plural-Forms`` and the language's CLDR rules; a form two categories share, or a category
    two forms share, is an error in the catalog's header."""
    index_of = gettext.c2py(catalog.plural_expr)
    rule = Locale.parse(lang).plural_form
    categories: dict[int, str] = {}
    for n in _PLURAL_SAMPLES:
        index, category = index_of(n), rule(n)
        if categories.setdefault(index, category) != category:
            raise ValueError(
                f"{lang}: plural form {index} is both {categories[index]} and {category}"
            )
    if sorted(categories) != list(range(catalog.num_plurals)):
        raise ValueError(f"{lang}: Plural-Forms has {catalog.num_plurals} forms, CLDR {categories}")
    return [categories[i] for i in range(catalog.num_plurals)]


def compiled(lang: str) -> dict[str, Any]:
    """One language's catalog as the page reads it."""
    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    messages: dict[str, str] = {}
    plurals: dict[str, dict[str, str]] = {}
    categories = plural_categories(catalog, lang)
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        singular = message.id if isinstance(message.id, str) else message.id[0]
        key = f"{message.context}{CONTEXT_SEPARATOR}{singular}" if message.context else singular
        if isinstance(message.string, str):
            messages[key] = message.string
            continue
        forms = list(message.string)
        if len(forms) != len(categories) or not all(forms):
            continue  # a plural not translated in every form: the English
        by_category = dict(zip(categories, forms, strict=True))
        by_category.setdefault("other", forms[-1])  # pl: "other" is for fractions only
        plurals[key] = by_category
    return {
        "lang": lang,
        "dir": "rtl" if lang in RTL else "ltr",
        "messages": dict(sorted(messages.items())),
        "plurals": dict(sorted(plurals.items())),
    }


def render(lang: str) -> str:
    return json.dumps(compiled(lang), ensure_ascii=False, indent=0, sort_keys=False) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        target = OUT / f"{lang}.json"
        text = render(lang)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        count = len(compiled(lang)["messages"])
        print(f"{target.relative_to(ROOT.parent)}: {count} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
