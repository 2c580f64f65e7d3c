"""The compiled catalogs (``rules.narration``: generated functions, inline fast paths) render
exactly what a plain reading of the rules does (``tests/narration/reference.py``): every message
and variant here, in every language, with and without names; the golden and property-generated
requests in ``test_rendered.py`` (its ``_check`` compares every text it checks)."""

from __future__ import annotations

import pytest

from rules.dragon.models import BattleRequest
from rules.narration import FSI, LANGUAGES, _Compiler, lists, names, render, translations
from tests.narration.catalogs import catalog, source_messages
from tests.narration.reference import reference
from tests.narration.samples import all_samples

NAMES = (
    {},
    {"x1": "Sir Aldo", "1": "One", "target": "Kobold", "dragon": "Smaug"},
    # lower-case names: a sentence that starts with one makes it upper case
    {"x1": "sir aldo", "lower": "ser lower", "target": "kobold", "dragon": "smaug"},
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_as_the_reference_does(lang: str) -> None:
    cat, slow = catalog(lang), reference(lang)
    for code, params in all_samples():
        for named in NAMES:
            assert render(cat, code, params, named) == slow.render(code, params, named), code


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "value",
    [
        0,
        7,
        99,
        100,
        150,
        -3,
        "x1",
        "dragon",
        "",
        "lower",
        True,
        False,
        None,
        [],
        [1, 2],
        [7],
        ["x1", "dragon", 3],
        [3, "x1", "lower"],
        ["dragon", "target", "lower"],
        [True, None, 2],
        (4, "x1"),
        ["", 5],
    ],
    ids=repr,
)
def test_any_value_in_any_field_renders_as_the_reference_does(lang: str, value: object) -> None:
    """Every field of every message given one value of each kind (where the message can take it:
    a counted field needs a number, a choosing parameter keeps its variant's value)."""
    cat, slow = catalog(lang), reference(lang)
    for code, params in all_samples():
        for field in params:
            changed = {**params, field: value}
            for named in NAMES[1:]:
                try:
                    expected = slow.render(code, changed, named)
                except (KeyError, TypeError, ValueError, AssertionError):
                    continue  # not a value this field can take (a count, a variant's choice)
                assert render(cat, code, changed, named) == expected, (code, field)


def test_the_reference_isolates_in_arabic() -> None:
    """The reference is not vacuous: it tells the languages apart where the compiled one does."""
    params = {"die": 8, "location": "left_arm"}
    assert FSI in reference("ar").render("dos.location.rolled", params, {})
    assert FSI not in reference("en").render("dos.location.rolled", params, {})


def test_an_empty_name_is_no_name() -> None:
    """The generated functions take a name as found when it is not empty (``or``): ``names`` never
    holds an empty one, so an entity named ``""`` is told by its id."""
    battle = {
        "seed": 1,
        "dragon": {"age": 3, "battle": 3, "target": "village"},
        "entities": [
            {
                "id": "village",
                "name": "",
                "controller": "gm",
                "kind": "group",
                "prosperity": 5,
                "level": 2,
            },
            {
                "id": "hero",
                "name": "Sir Aldo",
                "controller": "gm",
                "kind": "individual",
                "prosperity": 1,
                "level": 3,
            },
        ],
        "location": {"id": "vale", "prosperity": 5},
    }
    told = names(BattleRequest.model_validate(battle))
    assert told == {"hero": "Sir Aldo", "location": "vale"}
    assert render(catalog("en"), "dragon.pair.formed", {"a": "village", "b": "hero"}, told) == (
        "Village takes on Sir Aldo: they form a battle pair."
    )


@pytest.mark.parametrize(
    ("template", "params", "text"),
    [
        ("{a}{b} rolls.", {"a": "", "b": "lower"}, "Lower rolls."),
        ("{a}rolls {b}.", {"a": "", "b": 3}, "Rolls 3."),
        ("{a}, then {b}.", {"a": "", "b": "lower"}, ", then lower."),
        ("{a}, then {b}.", {"a": "lower", "b": "x1"}, "Lower, then x1."),
        ("{a} rolls.", {"a": [2, 3]}, "2, 3 rolls."),
        ("{a} rolls.", {"a": ["lower", 3]}, "Lower and 3 rolls."),
        ("{a} rolls.", {"a": True}, "True rolls."),
    ],
)
def test_a_sentence_is_made_upper_case_wherever_its_first_letter_comes_from(
    template: str, params: dict[str, object], text: str
) -> None:
    """A sentence's first letter is made upper case where its first field is shown, unless that
    field's text may be empty with a lower-case letter or another field after it (no catalog has
    one): then the whole sentence is, as the reference does."""
    compiler = _Compiler(translations("en"), source_messages(), {}, False, lists("en"))
    assert compiler.compile("dos.made_up", template, whole=True)(params, {}) == text
