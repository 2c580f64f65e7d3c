"""The playground's catalogs (service/playground_catalog.py): the template is what Babel extracts from
the page and the OpenAPI document, every language translates every message with the same placeholders,
and the JSON the page reads is what the .po files compile to. `make catalogs` fixes the first and last."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from service import playground_catalog as pc

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = pc.LOCALE / "playground.pot"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=lang, domain=pc.DOMAIN)


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, str(m.id)) for m in catalog if m.id}


def test_the_template_is_what_babel_extracts(tmp_path: Path) -> None:
    fresh = tmp_path / "playground.pot"
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run(
        [
            *(str(pybabel), "-q", "extract", "-F", "babel-playground.cfg", "-k", "t", "-k", "N_"),
            *("-k", "nt:1,2"),
            *("--no-location", "--omit-header", "--sort-output", "-o", str(fresh), "."),
        ],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    assert keys(read(fresh)) == keys(read(TEMPLATE)), "stale: run `make catalogs` and commit"


def test_the_template_holds_the_page_and_the_document() -> None:
    found = keys(read(TEMPLATE))
    assert (None, "Roll") in found and (None, "Dice legend") in found
    assert ("field", "attack_bonus") in found and ("value", "bludgeoning") in found
    assert ("summary", "Simple test against a DC") in found
    assert ("slot", "attack") in found and ("slot", "dragon_die") in found
    # The systems' names are GET /systems' (their descriptors'), not a second copy here.
    assert not any(context == "system" for context, _ in found)


def test_every_slot_of_every_endpoint_has_its_name() -> None:
    """Each named part of every slot the registry's endpoints document is a message (context
    ``slot``), so no dice group of the page is headed by a slot's id."""
    from rules.registry import SYSTEMS

    found = keys(read(TEMPLATE))
    docs = [f"{pc.SLOTS_HEADING}: {e.slot_doc}" for s in SYSTEMS for e in s.endpoints]
    parts = {p for doc in docs for p in pc.slot_parts(doc)}
    assert parts and {("slot", p) for p in parts} <= found


@pytest.mark.parametrize("lang", [lang for lang in pc.LANGUAGES if lang != "en"])
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    template = keys(read(TEMPLATE))
    catalog = read(pc.LOCALE / lang / "LC_MESSAGES" / "playground.po", lang)
    assert keys(catalog) == template
    for message in catalog:
        if not message.id:
            continue
        assert message.string and not message.fuzzy, f"{lang}: untranslated {message.id!r}"
        if isinstance(message.id, str):
            wanted = sorted(PLACEHOLDER.findall(str(message.id)))
            assert sorted(PLACEHOLDER.findall(str(message.string))) == wanted, (lang, message.id)
            continue
        # A plural: every form translated, each with the message's placeholders; a form for one
        # count only (ar "خطوتان", two) may say the count in words.
        allowed = set(PLACEHOLDER.findall(message.id[1]))
        assert len(message.string) == catalog.num_plurals, (lang, message.id)
        for form in message.string:
            assert form, f"{lang}: untranslated form of {message.id!r}"
            assert allowed - {"count"} <= set(PLACEHOLDER.findall(form)) <= allowed, (lang, form)


@pytest.mark.parametrize("lang", pc.LANGUAGES)
def test_the_json_catalogs_are_compiled_from_the_po_files(lang: str) -> None:
    committed = (pc.OUT / f"{lang}.json").read_text(encoding="utf-8")
    assert committed == pc.render(lang), "stale: run `make catalogs` and commit"
    compiled = pc.compiled(lang)
    assert compiled["dir"] == ("rtl" if lang == "ar" else "ltr")
    if lang != "en":
        count = len(compiled["messages"]) + len(compiled["plurals"])
        assert count == len(keys(read(TEMPLATE)))
        # Each plural has a form for every category the language's CLDR rules give an integer.
        from babel import Locale

        rule = Locale.parse(lang).plural_form
        categories = {rule(n) for n in range(200)}
        for forms in compiled["plurals"].values():
            assert categories <= set(forms), (lang, forms)


def test_a_plurals_forms_are_named_by_the_languages_cldr_categories() -> None:
    """A compiled plural's forms go by CLDR category (what ``Intl.PluralRules`` gives a page), each
    from the form the catalog's ``Plural-Forms`` gives that category; a header that does not agree
    with CLDR (two categories in one form) is refused."""
    for lang, categories in {
        "en": ["one", "other"],
        "pl": ["one", "few", "many"],
        "fi": ["one", "other"],
        "ar": ["zero", "one", "two", "few", "many", "other"],
    }.items():
        catalog = read(pc.LOCALE / lang / "LC_MESSAGES" / "playground.po", lang)
        assert pc.plural_categories(catalog, lang) == categories
    header = b'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
    wrong = read_po(io.BytesIO(header), locale="pl")  # the English rule under Polish
    assert wrong.num_plurals == 2
    with pytest.raises(ValueError, match="plural form 1"):
        pc.plural_categories(wrong, "pl")


# ------------------------------------------------------------------ the glossaries hold on the page
# One term for one thing on the page as in the events: each language's glossary (the one source,
# rules/locale/<lang>/glossary.txt, tests/narration/test_glossary.py) holds over every translation of
# the playground's catalog too. A line scoped to a system holds over the messages of that system: a
# field, value or list item of its requests or answers, a part of its dice slots, its endpoints'
# summaries; the page's own texts (no context) belong to every system.


@cache
def systems_of_messages() -> dict[tuple[str | None, str], frozenset[str]]:
    """The systems each contextual message of the playground belongs to, read from the OpenAPI
    document (each system's operations, by its path prefix) and the registry (slots)."""
    from rules.registry import SYSTEMS

    document = json.loads((ROOT / "openapi" / "openapi.json").read_text("utf-8"))
    owners: dict[tuple[str | None, str], set[str]] = {}
    for system_id, (fields, values) in pc.keys_by_system(document).items():
        for key in fields:
            for context in ("field", "item"):
                owners.setdefault((context, key), set()).add(system_id)
            owners.setdefault(("field", f"{system_id}.{key}"), set()).add(system_id)
        for value in values:
            owners.setdefault(("value", value), set()).add(system_id)
    for system in SYSTEMS:
        prefix = (system.path or f"/{system.id}") + "/"
        for path, item in document["paths"].items():
            for op in item.values() if path.startswith(prefix) else ():
                owners.setdefault(("summary", op.get("summary", "")), set()).add(system.id)
        docs = [f"{pc.SLOTS_HEADING}: {e.slot_doc}" for e in system.endpoints]
        for part in {p for doc in docs for p in pc.slot_parts(doc)}:
            owners.setdefault(("slot", part), set()).add(system.id)
    return {key: frozenset(ids) for key, ids in owners.items()}


def _holds(scope: str | None, context: str | None, msgid: str) -> bool:
    if scope is None or context is None:
        return True
    return scope in systems_of_messages().get((context, msgid), frozenset())


@pytest.mark.parametrize("lang", [lang for lang in pc.LANGUAGES if lang != "en"])
def test_no_label_uses_a_term_the_glossary_forbids(lang: str) -> None:
    from tests.narration.test_glossary import glossary, pattern, words

    catalog = read(pc.LOCALE / lang / "LC_MESSAGES" / "playground.po", lang)
    found = [
        f"{variant!r} (say {preferred!r}): {message.context or ''} {message.id!r} -> {form!r}"
        for message in catalog
        if message.id
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
        for scope, preferred, variants in glossary(lang)
        if _holds(
            scope,
            message.context,
            str(message.id if isinstance(message.id, str) else message.id[0]),
        )
        for variant in variants
        if pattern(variant).search(words(str(form)))
    ]
    assert found == []


def test_a_scoped_term_binds_its_systems_labels_only() -> None:
    """The scoping reads the document: `prosperity` is the dragon battle's, `hp` Dragons of Shadows'
    and the fifth edition's, `Simple test against a DC` a summary of Dragons of Shadows."""
    owners = systems_of_messages()
    assert owners[("field", "prosperity")] == {"dragon"}
    assert {"dos", "dnd5e"} <= owners[("field", "hp")] and "dragon" not in owners[("field", "hp")]
    assert owners[("summary", "Simple test against a DC")] == {"dos"}
    assert owners[("slot", "dragon_die")] == {"dragon"}
    assert owners[("field", "dos.location")] == {"dos"}
    assert _holds(None, "field", "hp") and _holds("dragon", None, "Roll")
    assert not _holds("dragon", "field", "hp")
