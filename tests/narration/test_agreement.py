"""Agreement: lists joined as each language joins them (Babel's ``format_list``, CLDR), counts that
agree with their numbers (a list counted by its length: the Arabic dual), a participant's optional
grammatical gender in the languages that inflect for it, dice notation in each language's letters.
"""

from __future__ import annotations

from typing import Any

import pytest
from babel.lists import format_list

from rules import narration
from rules.dos.models import AttackRequest
from rules.narration import FSI, GENDER, LANGUAGES, PDI, gendered, lists, names, render
from tests.conftest import Api
from tests.narration.catalogs import catalog
from tests.narration.reference import reference

NAMES = {"k1": "Leila", "k2": "Sara", "k3": "Bolt"}
WOMAN = {**NAMES, GENDER + "k1": "feminine"}


def iso(text: str) -> str:
    return f"{FSI}{text}{PDI}"


@pytest.mark.parametrize(
    ("lang", "two", "three"),
    [
        ("en", "Leila and Sara", "Leila, Sara, and Bolt"),
        ("pl", "Leila i Sara", "Leila, Sara i Bolt"),
        ("fi", "Leila ja Sara", "Leila, Sara ja Bolt"),
        ("ar", f"{iso('Leila')} و{iso('Sara')}", f"{iso('Leila')} و{iso('Sara')} و{iso('Bolt')}"),
    ],
)
def test_names_are_joined_as_the_language_joins_them(lang: str, two: str, three: str) -> None:
    cat = catalog(lang)
    order = render(cat, "dnd5e.initiative.order", {"ordered": ["k1", "k2"]}, NAMES)
    assert two in order
    order = render(cat, "dnd5e.initiative.order", {"ordered": ["k1", "k2", "k3"]}, NAMES)
    assert three in order


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_list_of_any_length_is_what_format_list_makes(lang: str) -> None:
    join = lists(lang).names
    for count in range(1, 30):
        items = [f"{{x{i}}}" for i in range(count)]  # braces: the template escapes its own
        assert join(items) == format_list(items, locale=lang)


def test_values_are_joined_with_the_language_comma_each_arabic_one_isolated() -> None:
    params = {"size": 2, "dice": [10, 2]}
    assert render(catalog("en"), "dos.pool.rolled", params, {}).endswith(": 10, 2.")
    assert render(catalog("ar"), "dos.pool.rolled", params, {}).endswith(
        f": {iso('10')}، {iso('2')}."
    )


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "A 10 explodes and adds an extra die: 4.", "adds extra dice: 10, 2."),
        ("pl", "Dziesiątka daje dorzut: 4.", "daje dorzuty: 10, 2."),
        ("fi", "tuo lisänopan: 4.", "tuo lisänoppia: 10, 2."),
        ("ar", "وتضيف فصًّا إضافيًا", "وتضيف فصّين إضافيين"),
    ],
)
def test_a_list_is_counted_by_its_length(lang: str, one: str, two: str) -> None:
    cat = catalog(lang)
    assert one in render(cat, "dos.die.exploded", {"extra": [4]}, {})
    assert two in render(cat, "dos.die.exploded", {"extra": [10, 2]}, {})


def test_two_names_take_the_arabic_dual() -> None:
    tie = render(catalog("ar"), "dos.initiative.tie", {"ids": ["k1", "k2"], "total": 9}, NAMES)
    assert "متعادلان" in tie and "ويرميان" in tie
    tie = render(catalog("ar"), "dos.initiative.tie", {"ids": ["k1", "k2", "k3"], "total": 9}, {})
    assert "متعادلون" in tie and "ويرمون" in tie
    assert render(catalog("en"), "dos.initiative.tie", {"ids": ["k1"], "total": 9}, {}) == (
        "K1 ties at 9 and rolls again."
    )


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "against 0 other"), ("pl", "przeciw 0"), ("fi", "vain 0"), ("fi", "ja 0")],
)
def test_no_count_of_zero_dice(lang: str, text: str) -> None:
    for code in ("dos.luck", "dos.bad_luck", "dos.pool.all_cancelled"):
        params = {"tens": 2, "ones": 2, "others": 0}
        assert text not in render(catalog(lang), code, params, {})


def test_a_gendered_field_takes_the_word_of_the_participants_gender() -> None:
    cat = catalog("ar")
    params = {"id": "k1", "roll": 4, "total": 9, "speed": 5}
    assert "ترمي" in render(cat, "dos.initiative.rolled", params, WOMAN)
    assert "يرمي" in render(cat, "dos.initiative.rolled", params, NAMES)  # none: the plain form
    assert "يرمي" in render(cat, "dos.initiative.rolled", {**params, "id": "k2"}, WOMAN)
    for lang in LANGUAGES:  # the compiled catalogs and the reference agree
        assert render(catalog(lang), "dos.initiative.rolled", params, WOMAN) == (
            reference(lang).render("dos.initiative.rolled", params, WOMAN)
        )
    polish = render(catalog("pl"), "dos.damage.beaten", {"target": "k1"}, WOMAN)
    assert "jest już pokonana" in polish


def test_a_gendered_spec_names_only_classes_and_a_group_falls_back_to_the_plural() -> None:
    assert gendered("?يرمي|feminine=ترمي") == ("يرمي", {"feminine": "ترمي"})
    zostaje = {"plural": "zostają", "plural-nonhuman": "zostają", "plural-feminine": "zostają"}
    assert gendered("?zostaje|plural=zostają") == ("zostaje", zostaje)
    beaten = gendered("?pokonany|plural=pokonani|plural-nonhuman=pokonane")[1]
    assert beaten == {
        "plural": "pokonani",
        "plural-nonhuman": "pokonane",
        "plural-feminine": "pokonani",
    }
    with pytest.raises(ValueError, match="dual"):
        gendered("?a|dual=b")
    with pytest.raises(ValueError, match="no field"):  # a field inside a word would show as "{n}"
        gendered("?juoksee {metres}|plural=juoksevat {metres}")


@pytest.mark.parametrize(
    ("classes", "together"),
    [
        (["feminine", "feminine"], "feminine"),
        (["feminine", "masculine"], "masculine"),
        (["feminine", None], None),
        (["plural", "plural"], "plural"),
        # a group with anyone else: a plural, never the dual (review A1)
        (["plural", "feminine"], "plural"),
        (["plural-nonhuman", "masculine"], "plural"),
        (["plural-nonhuman", None], "plural"),
        (["plural-nonhuman", "feminine"], "plural-feminine"),
        (["plural-feminine", "feminine"], "plural-feminine"),
        (["plural-nonhuman", "neuter"], "plural-nonhuman"),
        (["plural-nonhuman", "plural-nonhuman"], "plural-nonhuman"),
    ],
)
def test_participants_together_take_one_class(
    classes: list[str | None], together: str | None
) -> None:
    assert narration.together(classes) == together


def test_names_gathers_the_gender_beside_the_name() -> None:
    request = AttackRequest.model_validate(
        {
            "attacker": {
                "dexterity": 3,
                "skill": 1,
                "weapon": {"kind": "melee"},
                "name": "Sara",
                "gender": "feminine",
            },
            "defender": {"hp": 3, "dexterity": 2},
        }
    )
    assert names(request) == {"attacker": "Sara", GENDER + "attacker": "feminine"}


def _without(value: Any) -> Any:
    """``value`` without its texts and the gender it echoes."""
    if isinstance(value, dict):
        return {k: _without(v) for k, v in value.items() if k not in {"text", "gender"}}
    if isinstance(value, list):
        return [_without(v) for v in value]
    return value


def test_a_gender_changes_the_texts_and_nothing_else(api: Api) -> None:
    attack = {
        "seed": "table-7",
        "lang": "ar",
        "attacker": {"name": "Sara", "dexterity": 30, "skill": 3, "weapon": {"kind": "melee"}},
        "defender": {"hp": 30, "dexterity": 20, "block": 2, "name": "Leila"},
    }
    plain = api.post("/dos/attack", attack).json()
    woman = {**attack, "attacker": {**attack["attacker"], "gender": "feminine"}}
    woman["defender"] = {**attack["defender"], "gender": "feminine"}
    told = api.post("/dos/attack", woman).json()
    assert _without(told) == _without(plain)
    assert "تهاجم" in " ".join(e["text"] for e in told["events"])
    assert "يهاجم" in " ".join(e["text"] for e in plain["events"])
    refused = api.post("/dos/attack", {**attack, "attacker": {**attack["attacker"], "gender": "f"}})
    assert refused.status_code == 422


@pytest.mark.parametrize(
    ("lang", "dice", "several"),
    [
        ("en", "1d12+3", "1d8+1d6+4"),
        ("pl", "1k12+3", "1k8+1k6+4"),
        ("fi", "1d12+3", "1d8+1d6+4"),
        (
            "ar",
            f"{iso('1')}فصّ{iso('12')}+{iso('3')}",
            f"{iso('1')}فصّ{iso('8')}+{iso('1')}فصّ{iso('6')}+{iso('4')}",
        ),
    ],
)
def test_a_dice_notation_reads_in_the_language(lang: str, dice: str, several: str) -> None:
    """Every "d" of a formula is the language's, each number isolated on its own (review A1)."""
    params = {"n": 0, "dice": "1d12+3", "type": "fire", "rolls": [5], "modifier": 3, "total": 8}
    assert f"({dice}" in render(catalog(lang), "dnd5e.damage.part", params, {})
    params["dice"] = "1d8+1d6+4"
    assert f"({several}" in render(catalog(lang), "dnd5e.damage.part", params, {})


def test_english_pronouns_follow_the_gender_its_when_none() -> None:
    cat = catalog("en")
    params = {"id": "k1", "actions": 2}
    assert render(cat, "dos.turn.begins", params, WOMAN) == "Leila begins her turn with 2 actions."
    assert render(cat, "dos.turn.begins", params, NAMES) == "Leila begins its turn with 2 actions."
    wait = render(cat, "dos.turn.wait", {"id": "k1"}, {**NAMES, GENDER + "k1": "masculine"})
    assert wait == "Leila waits for his moment; the GM may place him first next turn."
