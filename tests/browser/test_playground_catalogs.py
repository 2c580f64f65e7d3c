"""The playground's catalogs (service/playground_catalog.py): the template is what Babel extracts from
the page and the OpenAPI document, every language translates every message with the same placeholders,
and the JSON the page reads is what the .po files compile to. `make catalogs` fixes the first and last."""

from __future__ import annotations

import io
import re
import subprocess
import sys
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
