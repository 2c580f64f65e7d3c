"""Plural forms follow CLDR in every language, for 1, 2, 5, 11, 22 and 101 (and 0..200).

A catalog's ``Plural-Forms`` picks a form index per number; its forms are in CLDR's order of the
categories the language uses for whole numbers (English and Finnish: one, other; Polish: one, few,
many; Arabic: zero, one, two, few, many, other). Each counted phrase, rendered for each number,
must be the form of that number's CLDR category.
"""

from __future__ import annotations

import pytest
from babel import Locale

from rules.narration import LANGUAGES, render
from rules.registry import having
from rules.system import Capability
from tests.narration.catalogs import catalog, languages, po, source_messages
from tests.narration.samples import showing

NUMBERS = (1, 2, 5, 11, 22, 101)
#: CLDR's categories for whole numbers, in the order of a catalog's forms.
ORDER = {
    "en": ("one", "other"),
    "fi": ("one", "other"),
    "pl": ("one", "few", "many"),
    "ar": ("zero", "one", "two", "few", "many", "other"),
}
COUNTED = {c: m for c, m in source_messages().items() if m.plural is not None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_plural_rule_is_cldr(lang: str) -> None:
    cldr = Locale.parse(lang).plural_form
    rule = catalog(lang).translations.plural  # type: ignore[attr-defined]
    assert po(lang).num_plurals == len(ORDER[lang])
    for n in range(201):
        assert ORDER[lang][rule(n)] == cldr(n), f"{lang}: {n} takes the wrong form"


def test_the_polish_and_arabic_rules_have_three_and_six_forms() -> None:
    assert po("pl").num_plurals == 3
    assert po("ar").num_plurals == 6


def _render_phrase(lang: str, context: str, n: int) -> str:
    """The sentence of the phrase's code, with only that phrase's count set to ``n``."""
    code, param = context.split("#", 1)
    return render(catalog(lang), code, _params(code, param, n), {})


@pytest.mark.parametrize("lang", languages(*LANGUAGES))
def test_every_counted_phrase_takes_the_cldr_form(lang: str) -> None:
    cldr = Locale.parse(lang).plural_form
    entries = {m.context: m for m in po(lang) if m.id}
    for context, source in COUNTED.items():
        forms = entries[context].string if lang != "en" else None
        for n in NUMBERS:
            phrase = catalog(lang).translations.npgettext(  # type: ignore[attr-defined]
                context, source.text, source.plural, n
            )
            if forms is None:  # English: the source's own two forms
                expected = source.text if cldr(n) == "one" else source.plural
            else:
                expected = forms[ORDER[lang].index(cldr(n))]
            assert expected, f"{lang} {context}: no form for {n}"
            assert phrase == expected, f"{lang} {context}: {n} takes {phrase!r}"
            # a form that shows its count shows the number (the dual may show only other fields)
            count = "{" + context.split("#", 1)[1]
            assert str(n) in _render_phrase(lang, context, n) or count not in expected


def test_english_plurals_read_right() -> None:
    assert _render_phrase("en", "dos.pool.rolled#size", 1) == "1 die rolled: 1."
    assert _render_phrase("en", "dos.pool.rolled#size", 2) == "2 dice rolled: 1."
    assert _render_phrase("en", "dos.complex.attempt#successes", 1).endswith("; 1 success so far.")
    assert _render_phrase("en", "dos.complex.attempt#successes", 101).endswith(
        "; 101 successes so far."
    )
    luck = render(catalog("en"), "dos.luck", {"slot": "check", "tens": 2, "others": 1}, {})
    assert (
        luck == "Luck! 2 dice show 10 against 1 other die: the action succeeds whatever the total."
    )


def _params(code: str, param: str, n: int) -> dict[str, object]:
    """Parameters for ``code``'s sentence: ``param`` is ``n``, any other count 1, the rest plain."""
    params = showing(code, param)
    params[param] = n
    return params


def test_the_systems_that_count_are_those_that_declare_it() -> None:
    """A counted phrase is a capability (``Capability.COUNTED``), not a duty: the systems whose
    texts count something are exactly those the registry lists as counting."""
    counting = {s.id for s in having(Capability.COUNTED)}
    assert counting
    assert {c.split(".", 1)[0] for c in COUNTED} == counting
