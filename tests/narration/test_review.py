"""The native readers' reviews (../shared/reviews/native-reader-2026-12.md, issue 36, and
native-reader-2026-12-06.md, issue 47), one test per class of error, each over generated cases:
every message and variant of every system, with its participants of every grammatical class (a
woman, a man, a creature, none given, a group of people, of beasts, of women) and mixed (a woman
and a man, a group beside one more participant), and its counts 0, 1, 2, 5 and 22. Each test checks
a rule the review states (no Latin letter in Arabic dice notation, Polish verbs that agree with
their numeral, a group's verb in the plural in every language, no made-up or slot id in a sentence,
isolated right-to-left names in left-to-right sentences ...), not the strings themselves; the
second review's checks read as a reader does (``tests/narration/reader.py``), and each is shown
firing on the review's own wrong sentences.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any, NamedTuple

import pytest

from rules.narration import FSI, GENDER, LANGUAGES, PDI, fields, gendered, render
from tests.narration import reader
from tests.narration.catalogs import catalog, source_messages
from tests.narration.reference import reference
from tests.narration.samples import all_samples

SOURCE = source_messages()
#: The parameters that name participants (an id, or a list of ids), across the systems' events.
ONE = {
    "id", "a", "b", "attacker", "defender", "target", "winner", "loser", "side", "owner", "ally",
    "slayer", "by", "against", "strongest", "who", "opponent", "roller",
}  # fmt: skip
MANY = {
    "ids", "order", "opponents", "tied", "ordered", "member_ids", "noticed_ids", "unnoticed_ids",
    "swept", "added",
}  # fmt: skip
#: A field named as a list of names elsewhere that is a number here.
NUMBERS = {("dnd5e.target.failures", "added")}
COUNTS = (0, 1, 2, 5, 22)
#: The class of each participant (its position ``i`` in the sample) in each case.
GENDERS: dict[str, Callable[[int], str | None]] = {
    "feminine": lambda i: "feminine",
    "masculine": lambda i: "masculine",
    "neuter": lambda i: "neuter",
    "none": lambda i: None,
    "mixed": lambda i: "feminine" if i == 0 else "masculine",
    "plural": lambda i: "plural",
    "plural-nonhuman": lambda i: "plural-nonhuman",
    "plural-feminine": lambda i: "plural-feminine",
    # a group beside one more participant, either way round (review A1)
    "group+man": lambda i: "plural-nonhuman" if i == 0 else "masculine",
    "woman+women": lambda i: "feminine" if i == 0 else "plural-feminine",
}
LATIN_NAMES = ["Leila", "Karim", "Aino", "Borys", "Ilmatar", "Eryk"]
ARABIC_NAMES = ["ليلى", "سامر", "نور", "كريم", "هدى", "زياد"]
#: A participant's name: by its class and its place, else (a list) by its place alone.
Names = Mapping[str | None, tuple[str, str]] | list[str]


def counted(code: str) -> set[str]:
    return {c.split("#", 1)[1] for c in SOURCE if c.startswith(code + "#")}


def template_fields(code: str) -> set[str]:
    return {
        f for c, m in SOURCE.items() if c.split("|")[0].split("#")[0] == code
        for f in fields(m.text) | fields(m.plural or "")
    }  # fmt: skip


def chosen(code: str, base: dict[str, Any]) -> set[str]:
    """The parameters that choose this sample's variant with a value of their own (not ``*``)."""
    out: set[str] = set()
    for c in SOURCE:
        head, *choices = c.split("|")
        if head == code:
            out |= {ch.split("=", 1)[0] for ch in choices if ch.split("=", 1)[1] != "*"}
    return {f for f in out if base.get(f) not in ("x1", 2)}


def cases(names: Names) -> Iterator[tuple[str, str, dict[str, Any], dict[str, str]]]:
    """(how, code, params, names) for every message and variant: its participants by each class
    pattern, its counted numbers by each count, its lists of participants by each length; a
    participant no parameter holds (a role: ``{attacker}``) named by the role; a ``gender``
    parameter (the notation's roller) the class of the participant it belongs to."""
    for code, base in all_samples():
        shown, keep = template_fields(code), chosen(code, base) - {"gender"}
        ones = sorted(f for f in shown & ONE if f not in keep)
        manys = sorted(
            f for f in shown & MANY if f not in keep and f in base and (code, f) not in NUMBERS
        )
        numbers = sorted(
            f for f in counted(code) if f not in MANY | keep and isinstance(base.get(f), int)
        )
        for how, gender in GENDERS.items():
            for count in COUNTS:
                params = dict(base)
                named: dict[str, str] = {}
                place = iter(range(100))

                def person(
                    role: str | None = None,
                    place: Iterator[int] = place,
                    named: dict[str, str] = named,
                    gender: Callable[[int], str | None] = gender,
                ) -> str:
                    i = next(place)
                    pid = role or f"p{i}"
                    g = gender(i)
                    pool = names if isinstance(names, list) else names[g]
                    named[pid] = pool[i % len(pool)]
                    if g is not None:
                        named[GENDER + pid] = g
                    return pid

                for f in ones:
                    if f in base:
                        params[f] = person()
                    else:
                        person(f)
                if "gender" in base and ones:
                    params["gender"] = gender(0)
                for f in manys:
                    params[f] = [person() for _ in range(max(count, 1) if count <= 5 else 2)]
                for f in numbers:
                    params[f] = count
                yield f"{how}/{count}", code, params, named


def texts(
    lang: str, names: Names | None = None
) -> Iterator[tuple[str, str, dict[str, Any], dict[str, str], str]]:
    cat = catalog(lang)
    for how, code, params, named in cases(reader.NAMES[lang] if names is None else names):
        yield how, code, params, named, render(cat, code, params, named)


@cache
def rendered(lang: str) -> list[tuple[str, str, dict[str, Any], dict[str, str], str]]:
    return list(texts(lang))


def classes_of(named: dict[str, str]) -> dict[str, str | None]:
    """Each participant's name with its class (what a reader of the text knows about it)."""
    return {
        name: named.get(GENDER + key) for key, name in named.items() if not key.startswith(GENDER)
    }


def case_key(params: dict[str, Any]) -> str:
    """A case's parameters but the class one (the notation's ``gender``): the same for every
    class pattern."""
    return repr({k: v for k, v in params.items() if k != "gender"})


def unnamed(text: str, named: dict[str, str]) -> str:
    """``text`` with every participant's name as "@": two texts for participants of different
    classes differ only where a word agrees."""
    for key, name in sorted(named.items(), key=lambda kv: -len(kv[1])):
        if not key.startswith(GENDER):
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "@", text)
    return text


# ---------------------------------------------------------------- A: in the renderer


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_generated_case_is_what_the_reference_renders(lang: str) -> None:
    slow = reference(lang)
    for how, code, params, named, text in rendered(lang):
        assert text == slow.render(code, params, named), f"{lang} {code} {how}"


NOTATIONS = ("1d8+1d6+4", "2d6", "1d12+3", "3d4 - 1", "d20")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_d_of_a_formula_is_the_languages_letter(lang: str) -> None:
    """A1: ``notation()`` converted only the first "d" (pl "1k8+1d6+4", a Latin "d" in Arabic)."""
    die = catalog(lang).translations.pgettext("dnd5e.notation=d", "d")
    for code, params in all_samples():
        for field in [
            f for c, m in SOURCE.items() if c.split("|")[0] == code for f in notation_fields(m.text)
        ]:
            for formula in NOTATIONS:
                text = render(catalog(lang), code, {**params, field: formula}, {})
                bare = text.replace(FSI, "").replace(PDI, "")
                dice = formula.count("d")
                assert bare.count(die) >= dice, f"{lang} {code}: {text!r}"
                if lang == "ar":
                    assert not re.search(r"[A-Za-z]", bare), f"{code}: {text!r}"
                    # each number isolated on its own
                    assert re.search(rf"(?:{FSI}\d+{PDI})?فصّ{FSI}\d+{PDI}", text), text
                elif die != "d":
                    assert not re.search(r"\dd\d", bare), f"{lang} {code}: {text!r}"


def notation_fields(template: str) -> list[str]:
    return re.findall(r"\{(\w+):notation\}", template)


GAPS = {
    "a double space": re.compile(r"\S  +\S"),
    "a colon before nothing": re.compile(r":\s*[.,;)]"),
    "an empty parenthesis or list": re.compile(r"\(\s*\)|,\s*,"),
    "a space before the final stop": re.compile(r"\s\.$"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_empty_list_or_no_dice_reads_as_a_phrase(lang: str) -> None:
    """A3, A4: an empty opponent list rendered as nothing ("against  (speed 0)"), a pool of 0 dice
    as "0 dice rolled: ."; every list of every message, empty, reads as words."""
    cat = catalog(lang)
    for code, params in all_samples():
        lists = [f for f in params if f in MANY or f in {"dice", "rolls", "extra", "kept"}]
        for f in lists:
            text = render(cat, code, {**params, f: []}, {})
            for what, gap in GAPS.items():
                assert not gap.search(text.replace(FSI, "").replace(PDI, "")), (
                    f"{lang} {code} [{f} empty]: {what}: {text!r}"
                )
    for size in COUNTS:
        text = render(cat, "dos.pool.rolled", {"size": size, "dice": [4] * size}, {})
        assert not re.search(r"\b0\b", text) or size != 0, text
        assert not GAPS["a colon before nothing"].search(text), text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_after_a_list_of_values_is_not_one_more_value(lang: str) -> None:
    """A2: "wypada 4, 2, 1, 4 sukcesy" read the count as one more die: a list of values is never
    followed by the language's comma and a number."""
    comma = "، " if lang == "ar" else ", "
    for _how, code, sample, named, _ in rendered(lang):
        if not code.startswith("notation.counted"):
            continue
        params = {**sample, "dice": [4, 2, 1]}
        text = render(catalog(lang), code, params, named)
        bare = text.replace(FSI, "").replace(PDI, "")
        shown = comma.join(str(d) for d in params["dice"])
        assert not re.search(re.escape(shown) + re.escape(comma) + r"\d", bare), text
    if lang == "ar":  # zero reads as "no success", as every other Arabic count of zero does
        params = {"notation": "2d10cs=10", "dice": [4, 2], "successes": 0, "failures": 0,
                  "failing": True, "total": 0}  # fmt: skip
        text = render(catalog("ar"), "notation.counted", params, {})
        assert "لا نجاح" in text and "لا إخفاق" in text, text


def made_up_ids() -> dict[str, str]:
    """The ids the service makes up (a dragonslayer minority's ``<parent>-slayer``), by event."""
    return {"dragon.slayer.revealed": "new_entity"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_made_up_id_in_a_sentence(lang: str) -> None:
    """A5: the made-up id ``tribe-slayer`` stays in params and next_state, never in a sentence."""
    cat = catalog(lang)
    for code, field in made_up_ids().items():
        for kind in ("group", "individual"):
            params = {"id": "tribe", "kind": kind, field: "tribe-slayer", "prosperity": 4,
                      "sides": 8, "how": "x"}  # fmt: skip
            text = render(cat, code, params, {"tribe": "Tribe"})
            assert "tribe-slayer" not in text, text


@pytest.mark.parametrize("lang", ["en", "pl", "fi"])
def test_a_right_to_left_name_is_isolated_in_a_left_to_right_sentence(lang: str) -> None:
    """E: an Arabic name that starts a Polish sentence flipped a ``dir="auto"`` chat line."""
    checked = 0
    for how, code, _params, named, text in texts(lang, ARABIC_NAMES):
        for name in {v for k, v in named.items() if not k.startswith(GENDER)}:
            outside = re.sub(f"{FSI}[^{FSI}{PDI}]*{PDI}", "", text)
            assert name not in outside, f"{lang} {code} {how}: {text!r}"
            checked += name in text
    assert checked > 500


# ---------------------------------------------------------------- B: Polish


def polish_form(n: int) -> int:
    return 0 if n == 1 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


def test_polish_past_verbs_agree_with_their_numeral() -> None:
    """B1: "było 3 sukcesy": a past verb before a numeral is "był/była" for 1, "były" for 2-4 and
    "było" for the rest."""
    verbs = {0: ("był", "była", "było"), 1: ("były",), 2: ("było",)}
    for how, code, _params, _named, text in rendered("pl"):
        for verb, number in re.findall(r"\b(był[aoy]?)\s+(\d+)\b", text):
            assert verb in verbs[polish_form(int(number))], f"{code} {how}: {text!r}"


#: B2, B3: the words of the review's Polish corrections, by template: a feminine participant never
#: gets the masculine word, a plural group never the singular verb.
POLISH_FEMININE = {
    "riders.presumptive_loser": ("domniemany przegrany",),
    "riders.presumptive_loser.tie": ("domniemanym przegranym",),
    "dragon.slayer.revealed": ("groźniejszy przeciwnik", "– pogromca smoków"),
    "dragon.hoard.dragonslayer": ("to pogromca",),
    "dragon.slayer.known": ("znany pogromca",),
}
POLISH_PLURAL = {
    "dragon.left_over.": (" zostaje ", " czeka", " jego "),
    "dragon.aside": (" stoi ",),
    "dragon.prosperity.lost": (" traci ",),
}


def test_polish_feminine_and_plural_participants_take_their_forms() -> None:
    for how, code, _params, _named, text in rendered("pl"):
        gender = how.split("/")[0]
        if gender == "feminine":
            for word in POLISH_FEMININE.get(code, ()):
                assert word not in text, f"{code} {how}: {text!r}"
            if code.startswith("dragon.left_over.join"):
                assert "do sojusznika" not in text, text
        if gender == "plural":
            for prefix, words in POLISH_PLURAL.items():
                if code.startswith(prefix):
                    for word in words:
                        assert not re.search(rf"(^|\s){word.strip()}(\s|$)", text), (
                            f"{code} {how}: {text!r}"
                        )


def test_one_opponent_is_not_a_plural_list() -> None:
    """B3, C2: "przeciwnicy: Sarathi", "vastustajat: Sarathi" before a single name."""
    cat_pl, cat_fi = catalog("pl"), catalog("fi")
    for n in (1, 2, 5):
        params = {"id": "k1", "speed": 9, "opponents": [f"o{i}" for i in range(n)],
                  "opponents_speed": 9, "actions": 1}  # fmt: skip
        pl, fi = (
            render(cat_pl, "dos.actions.count", params, {}),
            render(cat_fi, "dos.actions.count", params, {}),
        )
        assert ("przeciwnicy:" in pl) == (n > 1) and ("przeciwnik:" in pl) == (n == 1), pl
        assert ("vastustajat:" in fi) == (n > 1) and ("vastustaja:" in fi) == (n == 1), fi


# ---------------------------------------------------------------- C: Finnish


#: C2: the templates where a named person was "se": a person (feminine or masculine) is "hän".
FINNISH_PERSONS = (
    "dnd5e.surprise.unnoticed",
    "dos.turn.wait",
    "dragon.left_over.",
    "riders.damage.double",
)


def test_finnish_names_a_person_han_not_se() -> None:
    for how, code, _params, _named, text in rendered("fi"):
        if how.split("/")[0] in ("feminine", "masculine") and code.startswith(FINNISH_PERSONS):
            assert not re.search(r"\b(se|sille|sen)\b", text), f"{code} {how}: {text!r}"


def test_finnish_grammar_the_review_corrected() -> None:
    """C0, C1: "eivät lasketa" (passive with ei), "puolikkaasta luvusta 23" (23 is not the half)."""
    for _how, _code, _params, _named, text in rendered("fi"):
        assert "eivät lasketa" not in text and "puolikkaasta luvusta" not in text, text


# ---------------------------------------------------------------- D: Arabic

#: D1: the masculine forms the review found for a female participant, by template (the prefix of
#: the event code): with every participant feminine none of them appears.
ARABIC_MASCULINE = {
    "riders.presumptive_loser": ("متأخر،", "إنه الخاسر", "هو الخاسر"),
    "riders.damage.fatigue_at_max": ("بلغ ", "فيخسر", "غضبه", " له ", "ليخسره"),
    "riders.bonus.fatigued": ("لديه", "لفرسانه"),
    "riders.damage.knockback": ("يُدفع",),
    "riders.damage.swap": ("يتبادلان",),
    "dragon.left_over.": (
        "فيبقى",
        "ينتظر",
        "فهدفه",
        "ينضم",
        "فصوصه",
        "سينضم",
        "ليس ",
        "فينتظر",
        "يفوز",
        "رميته",
    ),
    "dragon.prosperity.lost": ("خسر ثنائي قتاله", "اكتسحه"),
    "dragon.slayer.revealed": ("أفراده",),
    "dragon.hoard.dragonslayer": ("قاتل تنانين", "يُحسب"),
    "dragon.pair.formed": ("يشكّلان",),
    "dragon.pair.interrupted": ("يرميان",),
    "dragon.pair.spared": ("لا يخسر",),
    "dos.initiative.tie": ("متعادلان", "ويرميان", "متعادلون", "ويرمون", "بينهم"),
    "dos.attack.miss": ("متعادلان", "فينجو"),
    "dos.attack.hit": ("فيستغله",),
    "dos.maneuver.push.failure": ("مكانه",),
    "dos.turn.wait": ("الأول ",),
}


def has(word: str, text: str) -> bool:
    """``word`` in ``text`` as a whole word (or words)."""
    return re.search(rf"(?<!\w){re.escape(word.strip())}(?!\w)", text) is not None


def test_no_masculine_arabic_form_for_a_woman() -> None:
    """D1: with every participant feminine, none of the masculine forms the review lists; with a
    masculine one, the text differs (the gender reaches the words), for one and for two women."""
    feminine = {
        (code, case_key(p)): unnamed(t, n)
        for how, code, p, n, t in rendered("ar")
        if how.startswith("feminine/")
    }
    masculine = {
        (code, case_key(p)): unnamed(t, n)
        for how, code, p, n, t in rendered("ar")
        if how.startswith("masculine/")
    }
    for (code, key), text in feminine.items():
        for prefix, words in ARABIC_MASCULINE.items():
            if code.startswith(prefix):
                for word in words:
                    assert not has(word, text), f"{code}: {word!r} in {text!r}"
                if any(has(word, masculine[(code, key)]) for word in words):
                    assert text != masculine[(code, key)], f"{code}: no gender reaches {text!r}"


def test_a_mixed_pair_takes_the_masculine_and_two_women_the_feminine() -> None:
    """Both participants where a phrase agrees with two: two women "متعادلتان", a man and a woman
    "متعادلان" (Arabic: a mixed group is masculine)."""
    cat = catalog("ar")
    women = {"p0": "Leila", "p1": "Aino", GENDER + "p0": "feminine", GENDER + "p1": "feminine"}
    mixed = {**women, GENDER + "p1": "masculine"}
    for code, params, two, mixed_word in [
        (
            "dos.attack.miss",
            {"attacker": "p0", "defender": "p1", "reason": "tie"},
            "متعادلتان",
            "متعادلان",
        ),
        ("dragon.pair.interrupted", {"a": "p0", "b": "p1", "highest": 5}, "ترميان", "يرميان"),
        ("dos.initiative.tie", {"ids": ["p0", "p1"], "total": 9}, "متعادلتان", "متعادلان"),
        ("riders.damage.swap", {"n": 1, "winner": "p0", "loser": "p1"}, "تتبادلان", "يتبادلان"),
    ]:
        assert two in render(cat, code, params, women), code
        assert mixed_word in render(cat, code, params, mixed), code


def test_arabic_orthography_and_case_the_review_corrected() -> None:
    """D2, D4: "لـالهدف", the nominative predicate of كان ("كانا نجاحان"), "0 نجاح"."""
    for _how, code, _params, _named, text in rendered("ar"):
        bare = text.replace(FSI, "").replace(PDI, "")
        assert "لـال" not in bare and "كانا" not in bare, f"{code}: {text!r}"
        assert not re.search(r"(^|\s)0 (نجاح|إخفاق|فصّ)", bare), f"{code}: {text!r}"
    full = render(catalog("ar"), "dos.damage.full_bar", {"target": "x", "max_hp": 12}, {})
    assert "لـ" not in full


def test_the_generated_cases_reach_every_template_gender_and_count() -> None:
    seen = {(code, how) for how, code, *_ in rendered("ar")}
    codes = {code for code, _ in all_samples()}
    assert {how for _, how in seen} == {f"{g}/{c}" for g, c in itertools.product(GENDERS, COUNTS)}
    assert {code for code, _ in seen} == codes


# ---------------------------------------------------------------- outside the events: Foundry


def test_a_foundry_flavor_never_shows_a_slot_id() -> None:
    """ "Location: 1k10", "location: رمية 1فصّ10": every golden request's rolls, in every language,
    tell the kind of roll in the language's words, never the slot id (``location``,
    ``ignatius.1.damage``)."""
    from tests.conftest import Api
    from tests.foundry.test_rolls import OK, foundry

    api, told = Api(log_level="warning"), 0
    for spec in OK:
        body = {k: v for k, v in spec["body"].items() if k != "lang"}
        for lang in LANGUAGES:
            answer = api.post(spec["path"], json=foundry({**body, "lang": lang})).json()
            for roll in answer["foundry"]["rolls"]:
                slot, text = roll["options"]["dragonroll"]["slot"], roll["options"]["flavor"]
                bare = text.replace(FSI, "").replace(PDI, "")
                if "." in slot:
                    assert slot not in bare, f"{lang}: {text!r} ({slot})"
                kind = slot.split(".")[-1] if slot.count(".") >= 2 else slot.split(".")[0]
                if lang != "en" and kind in {"location", "damage", "run_stop", "attack", "defense"}:
                    assert not re.search(rf"\b{kind}\b", bare, re.IGNORECASE), f"{lang}: {text!r}"
                told += 1
    assert told > 100


# ---------------------------------------------------------------- D: Arabic groups (plural names)

#: B4, D1 for groups: a grammatically plural name ("Wilki", "الذئاب") takes the plural where the
#: review's Arabic corrections give a word that agrees with a participant: the masculine plural (a
#: group of people or creatures), as a mixed group does. Of the masculine words the review lists
#: for a woman, these are singular or dual: with every participant a group, none of them appears.
ARABIC_SINGULAR = {
    prefix: tuple(w for w in words if w not in {"متعادلون", "ويرمون", "بينهم", "فيستغله", "فينجو"})
    for prefix, words in ARABIC_MASCULINE.items()
} | {"dos.initiative.tie": ("متعادلان", "ويرميان", "بينهما", "متعادل ", "ويرمي ")}
GENDERED = re.compile(r"\{([\w+]+):\?([^{}]*)\}")


def arabic_templates() -> Iterator[tuple[str, str]]:
    """(code, each Arabic form) of every message with a word that agrees with a participant."""
    return agreeing_forms("ar")


def agreeing_forms(lang: str) -> Iterator[tuple[str, str]]:
    """(code, each form in ``lang``) of every message with a word that agrees with a participant."""
    cat = catalog(lang).translations
    for code, message in SOURCE.items():
        forms = (
            [cat.pgettext(code, message.text)]
            if message.plural is None
            else [
                cat.npgettext(code, message.text, message.plural, n) for n in (0, 1, 2, 3, 11, 100)
            ]
        )
        for form in dict.fromkeys(forms):
            if GENDERED.search(form):
                yield code, form


def test_every_arabic_word_that_agrees_with_a_participant_has_a_plural() -> None:
    """A word after its participant's name agrees with it in number: it has a ``plural`` form; a
    verb before its subject stays singular (فيستغله Wilki), so its plural is the masculine's."""
    checked = 0
    for code, form in arabic_templates():
        for match in GENDERED.finditer(form):
            field, spec = match.groups()
            default, *choices = spec.split("|")
            words = dict(c.split("=", 1) for c in choices)
            named = [form.find("{" + p + "}") for p in field.split("+")]
            if all(at > match.start() for at in named):  # only after it: a verb before its subject
                assert words.get("plural", default) == default, f"{code}: a verb before {field}"
                # its gender the subject's: a group of beasts or of women takes the feminine (A2)
                feminine = words.get("feminine", default)
                for kind in ("plural-nonhuman", "plural-feminine"):
                    assert words.get(kind) == feminine, f"{code}: {kind} before {field}"
            else:
                # after it, each kind of group has its own form: people the masculine plural,
                # beasts the feminine singular (A2), women the feminine plural
                for kind in ("plural", "plural-nonhuman", "plural-feminine"):
                    assert kind in words, f"{code}: {{{field}:?{spec}}} has no {kind} in {form!r}"
            checked += 1
    assert checked > 150


def test_an_arabic_group_takes_the_plural() -> None:
    """Every template, every participant a group, counts 0, 1, 2, 5, 22: none of the singular or
    dual forms the review lists, and where a word agrees with a participant after its name, the
    text differs from the one for a man (the number reaches the words)."""
    agreeing = {code for code, form in arabic_templates()}
    plural = {
        (c, case_key(p)): unnamed(t, n)
        for how, c, p, n, t in rendered("ar")
        if how.startswith("plural/")
    }
    masculine = {
        (c, case_key(p)): unnamed(t, n)
        for how, c, p, n, t in rendered("ar")
        if how.startswith("masculine/")
    }
    differs: set[str] = set()
    for (code, key), text in plural.items():
        for prefix, words in ARABIC_SINGULAR.items():
            if code.startswith(prefix):
                for word in words:
                    assert not has(word, text), f"{code}: {word!r} for a group in {text!r}"
        if text != masculine[(code, key)]:
            differs.add(code.split("|")[0])
    sampled = {code.split("|")[0] for code, _ in plural}
    bases = {code.split("|")[0].split("#")[0] for code in agreeing}
    assert len(bases & sampled) > 70 and bases & sampled <= differs, (bases & sampled) - differs
    # Two groups together take the plural, and so do a group and a man or a woman (review A1).
    cat = catalog("ar")
    groups = {"p0": "الذئاب", "p1": "اللصوص", GENDER + "p0": "plural", GENDER + "p1": "plural"}
    mixed = {**groups, GENDER + "p1": "feminine"}
    for code, params, two, one in [
        ("dragon.pair.interrupted", {"a": "p0", "b": "p1", "highest": 5}, "يرمون", "يرمون"),
        ("dos.initiative.tie", {"ids": ["p0", "p1"], "total": 9}, "متعادلون", "متعادلون"),
        ("riders.damage.swap", {"n": 1, "winner": "p0", "loser": "p1"}, "يتبادلون", "يتبادلون"),
    ]:
        assert has(two, render(cat, code, params, groups)), code
        assert has(one, render(cat, code, params, mixed)), code


# ---------------------------------------------------------------- the second review (issue 47)


@cache
def polish_singular_verbs() -> frozenset[str]:
    """Every word the Polish catalog writes as a verb's singular beside its plural in "ą"
    ("{id:?atakuje|plural=atakują}": "atakuje"), and the review's ("obrywa Rozbójnicy"): a
    template that forgets the class of a group is caught by the words the others use."""
    verbs = {"obrywa", "zwycięża", "wygrywa", "przegrywa", "jest", "ma"}
    for _code, form in agreeing_forms("pl"):
        for _field, spec in GENDERED.findall(form):
            default, chosen = gendered("?" + spec)
            for one, many in zip(default.split(), chosen.get("plural", "").split(), strict=False):
                if one != many and many.endswith("ą"):
                    verbs.add(one)
    return frozenset(verbs)


def polish(text: str, classes: reader.Classes) -> list[str]:
    return reader.polish_group(text, classes, polish_singular_verbs())


#: Each language's reader checks, and those every language takes.
CHECKS: dict[str, tuple[reader.Check, ...]] = {
    "en": (reader.english_group,),
    "pl": (polish, reader.WEAKEST, reader.STYLE),
    "fi": (
        reader.finnish_group,
        reader.finnish_pronouns,
        reader.finnish_possessive,
        reader.WEAKEST,
        reader.STYLE,
    ),
    "ar": (reader.arabic_group, reader.arabic_pair, reader.ARABIC_STYLE),
}
EVERY_LANGUAGE = (reader.EMPTY_RIDER, reader.NO_DICE)


def misread(lang: str) -> list[str]:
    """What a reader finds wrong in every text of every class pattern, as "code how: error".
    (The checks read the text without its isolates.)"""
    found = []
    for how, code, _params, named, text in rendered(lang):
        plain, classes = reader.bare(text), classes_of(named)
        for check in (*CHECKS[lang], *EVERY_LANGUAGE):
            found += [f"{code} {how}: {e!r} in {plain!r}" for e in check(plain, classes)]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reader_finds_no_error_in_any_text_of_any_class(lang: str) -> None:
    """X1, A1, A2, F1, P2, X2, X5 and the style items: every message of every system, for every
    class and mix of classes, read by each of the review's checks."""
    found = misread(lang)
    assert found == [], f"{len(found)} errors, the first: " + "\n".join(found[:15])


def test_every_class_pattern_reaches_every_message_in_every_language() -> None:
    """The walk the reader checks read: every message and variant, every class pattern."""
    for lang in LANGUAGES:
        seen = {(code, how.split("/")[0]) for how, code, *_ in rendered(lang)}
        codes = {code for code, _ in all_samples()}
        assert seen == {(c, g) for c in codes for g in GENDERS}, lang


def test_a_finnish_pronoun_for_a_person_has_the_forms_of_people_and_of_beasts() -> None:
    """C2 and X1 (fi): where a person is "hän", a group of people is "he" and one of beasts
    "ne" ("hänen kohteensa", "heidän kohteensa", "niiden kohde")."""
    checked = 0
    for code, form in agreeing_forms("fi"):
        for field, spec in GENDERED.findall(form):
            _default, words = gendered("?" + spec)
            if not re.search(r"\bhä(n|nen|nelle|net)\b", words.get("feminine", "")):
                continue
            people, beasts = words.get("plural", ""), words.get("plural-nonhuman", "")
            assert re.search(r"\bhe(idän|ille|idät)?\b", people), f"{code} {field}: {spec}"
            assert re.search(r"\b(ne|niiden|niille)\b", beasts), f"{code} {field}: {spec}"
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_agrees_with_a_free_text_opponent(lang: str) -> None:
    """P1: an automatic win's opponent (``auto_win:<name>``) is free text with no class: a word
    that agreed with it would take the singular for "kupcy"; no text makes one agree with it."""
    for code, form in agreeing_forms(lang) if lang != "en" else english_forms():
        assert not re.search(r"\{against:\?", form), f"{lang} {code}: {form!r}"
    text = render(
        catalog(lang),
        "dragon.left_over.auto_win",
        {"id": "p0", "target": None, "against": "kupcy"},
        {},
    )
    assert "kupcy" in text


def english_forms() -> Iterator[tuple[str, str]]:
    for code, message in SOURCE.items():
        for form in (message.text, message.plural or ""):
            yield code, form


def sample(lang: str, text: str, **classes: str | None) -> tuple[str, str, reader.Classes]:
    """One of the review's sentences, with the class of each name in it (``_`` for a space)."""
    return lang, text, {name.replace("_", " "): cls for name, cls in classes.items()}


B, P, W = "plural-nonhuman", "plural", "plural-feminine"
#: Each pattern the review names: its check, the review's wrong sentences, and right ones.
PATTERNS: dict[str, tuple[Callable[[str, reader.Classes], list[str]], list[Any], list[Any]]] = {
    "X1 en: a group's verb and possessive": (
        reader.english_group,
        [
            sample("en", "Wolves's total beats the defender's. Hit!", Wolves=B),
            sample("en", "Goblins hides: Stealth 12.", Goblins=B),
            sample("en", "Wolves takes on Goblins: they form a battle pair.", Wolves=B, Goblins=B),
            sample("en", "Bandits is already beaten: light damage counts as serious.", Bandits=P),
        ],
        [
            sample("en", "Wolves' total beats the defender's. Hit!", Wolves=B),
            sample("en", "Goblins hide: Stealth 12.", Goblins=B),
            sample("en", "Wolves take on Goblins: they form a battle pair.", Wolves=B, Goblins=B),
            sample("en", "Leila hides: Stealth 12.", Leila="feminine"),
        ],
    ),
    "X1 pl: a group's verb, before and after its name, and its participle": (
        polish,
        [
            sample("pl", "Gobliny atakuje: 5 (5 + 0, +0%).", Gobliny=B),
            sample(
                "pl",
                "Gobliny jest już pokonany: lekkie obrażenia liczą się jako poważne.",
                Gobliny=B,
            ),
            sample(
                "pl",
                "Naturalne 20: trafienie krytyczne, obrywa Rozbójnicy (suma 28).",
                Rozbójnicy=P,
            ),
            sample("pl", "Gobliny się ukrywa: Skradanie się 17.", Gobliny=B),
            sample(
                "pl", "Czekamy, aż Gobliny wybierze, co zrobić (rzut rozstrzygający).", Gobliny=B
            ),
            sample("pl", "Walkę wygrywa Gobliny; Ignacy przegrywa.", Gobliny=B, Ignacy="masculine"),
            sample("pl", "Smok przegrywa (Rozbójnicy zwycięża) i odnosi ranę.", Rozbójnicy=P),
            sample("pl", "…już nigdy nie zaatakuje przeciwnika, którym jest Gobliny.", Gobliny=B),
            sample("pl", "Gobliny przegrywa, 7 przeciw 10: to domniemani przegrani.", Gobliny=B),
            sample(
                "pl",
                "Rozbójnicy zostają bez pary: wygrywają poza walką, a kupcy przegrywa.",
                Rozbójnicy=P,
                kupcy=P,
            ),
            sample(
                "pl",
                "Rozbójnicy są już pokonane: lekkie obrażenia liczą się jako poważne.",
                Rozbójnicy=P,
            ),
            sample(
                "pl", "Wilki są już pokonani: lekkie obrażenia liczą się jako poważne.", Wilki=B
            ),
        ],
        [
            sample("pl", "Gobliny atakują: 5 (5 + 0, +0%).", Gobliny=B),
            sample(
                "pl", "Gobliny są już pokonane: lekkie obrażenia liczą się jako poważne.", Gobliny=B
            ),
            sample(
                "pl",
                "Rozbójnicy są już pokonani: lekkie obrażenia liczą się jako poważne.",
                Rozbójnicy=P,
            ),
            sample(
                "pl",
                "Naturalne 20: trafienie krytyczne, obrywają Rozbójnicy (suma 28).",
                Rozbójnicy=P,
            ),
            sample(
                "pl", "Walkę wygrywają Gobliny; Ignacy przegrywa.", Gobliny=B, Ignacy="masculine"
            ),
            sample(
                "pl",
                "Rozbójnicy zostają bez pary: wygrywają poza walką (przeciwnik: kupcy).",
                Rozbójnicy=P,
            ),
        ],
    ),
    "X1 fi: a group's verb and predicative": (
        reader.finnish_group,
        [
            sample("fi", "Sudet voittaa, lohikäärme häviää: korkeimmat nopat 8 – 4.", Sudet=B),
            sample("fi", "Sudet ei heitä mitään: prosperityä ei ole jäljellä.", Sudet=B),
            sample("fi", "Lohikäärme häviää (Hiidet voittaa) ja saa haavan.", Hiidet=B),
            sample("fi", "PJ päättää: Hiidet on yllätetty.", Hiidet=B),
            sample("fi", "Kyllikki on onnekas, Hiidet ei. Ohi.", Kyllikki="feminine", Hiidet=B),
            sample("fi", "Hiidet (passiivinen Havainnointi 8) ei huomaa ketään näistä.", Hiidet=B),
            sample("fi", "Sudet odottaa sopivaa hetkeä.", Sudet=B),
            sample("fi", "PJ päättää: Hiidet ovat yllätetty.", Hiidet=B),
            sample("fi", "Aino iskee, eikä Sudet puolustaudu. Osuma!", Aino="feminine", Sudet=B),
        ],
        [
            sample("fi", "Sudet voittavat, lohikäärme häviää: korkeimmat nopat 8 – 4.", Sudet=B),
            sample("fi", "PJ päättää: Hiidet ovat yllätettyjä.", Hiidet=B),
            sample("fi", "Kyllikki on onnekas, Hiidet eivät. Ohi.", Kyllikki="feminine", Hiidet=B),
            sample("fi", "Aino iskee, eivätkä Sudet puolustaudu. Osuma!", Aino="feminine", Sudet=B),
        ],
    ),
    "X1 fi: the pronoun of a group": (
        reader.finnish_pronouns,
        [
            sample(
                "fi",
                "Rosvot odottavat sopivaa hetkeä; PJ voi antaa niille ensimmäisen paikan.",
                Rosvot=P,
            ),
            sample("fi", "Sudet luovuttivat heittämättä: hän ottaa kaksi vahinkoa.", Sudet=B),
            sample("fi", "Hiidet jäävät ylimääräisiksi: he odottavat.", Hiidet=B),
        ],
        [
            sample(
                "fi",
                "Rosvot odottavat sopivaa hetkeä; PJ voi antaa heille ensimmäisen paikan.",
                Rosvot=P,
            ),
            sample("fi", "Hiidet jäävät ylimääräisiksi: ne odottavat.", Hiidet=B),
        ],
    ),
    "F1: the Finnish possessive suffix": (
        reader.finnish_possessive,
        [
            sample(
                "fi",
                "Aino jää ylimääräiseksi, koska hänen kohde lohikäärme on jo parissa.",
                Aino="feminine",
            ),
            sample(
                "fi",
                "… hän yhdistyy osapuoleen Aino, ja hänen nopat lisätään tämän heittoon.",
                Aino="feminine",
            ),
        ],
        [
            sample(
                "fi",
                "Aino jää ylimääräiseksi, koska hänen kohteensa, lohikäärme, on jo parissa.",
                Aino="feminine",
            ),
            sample("fi", "… ja heidän noppansa lisätään tämän heittoon.", Rosvot=P),
        ],
    ),
    "A2: an Arabic group of beasts, of women, of people": (
        reader.arabic_group,
        [
            sample("ar", "الذئاب يهاجمون: 5.", الذئاب=B),
            sample("ar", "الذئاب يموتون فورًا.", الذئاب=B),
            sample("ar", "الذئاب معروفون بالفعل بأنهم قتلة تنانين.", الذئاب=B),
            sample("ar", "المحاربات تهاجم: 5.", المحاربات=W),
            sample("ar", "المحاربات يهاجمون: 5.", المحاربات=W),
            sample("ar", "اللصوص يهاجم: 5.", اللصوص=P),
        ],
        [
            sample("ar", "الذئاب تهاجم: 5.", الذئاب=B),
            sample("ar", "الذئاب تموت فورًا.", الذئاب=B),
            sample("ar", "الذئاب معروفة بالفعل بأنها قاتلة تنانين.", الذئاب=B),
            sample("ar", "المحاربات يهاجمن: 5.", المحاربات=W),
            sample("ar", "اللصوص يهاجمون: 5.", اللصوص=P),
            sample("ar", "النحس يصيب ليلى فتستغله الذئاب. إصابة!", ليلى="feminine", الذئاب=B),
        ],
    ),
    "A1: an Arabic group beside one more participant": (
        reader.arabic_pair,
        [
            sample(
                "ar", "العفاريت وc3 متعادلان عند 14 ويرميان مجددًا فيما بينهما.", العفاريت=P, c3=None
            ),
            sample("ar", "التنين والعفاريت يرميان أعلى نتيجة متساوية.", التنين=None, العفاريت=P),
            sample("ar", "العفاريت وblue يتبادلان المواقع.", العفاريت=P, blue=None),
        ],
        [
            sample(
                "ar", "العفاريت وc3 متعادلون عند 14 ويرمون مجددًا فيما بينهم.", العفاريت=P, c3=None
            ),
            sample("ar", "العفاريت وblue يتبادلون المواقع.", العفاريت=P, blue=None),
            sample("ar", "ليلى وسلمى تتبادلان المواقع.", ليلى="feminine", سلمى="feminine"),
        ],
    ),
    "X2: a lost rider named (none)": (
        reader.EMPTY_RIDER,
        [
            sample(
                "pl", "Obrażenia nr 1: Ignacy traci smoczego jeźdźca (brak); furia rośnie do 1."
            ),
            sample("fi", "… joten Väinö menettää lohikäärmeratsastajansa (ei mitään), ja raivo …"),
            sample("ar", "… فيخسر فارس التنين (لا شيء)، ويرتفع غضبه …"),
            sample("en", "… loses his Dragon Rider (none); …"),
        ],
        [sample("pl", "Obrażenia nr 1: Ignacy traci smoczego jeźdźca; furia rośnie do 1.")],
    ),
    "X5: a flat damage part on a critical": (
        reader.NO_DICE,
        [
            sample(
                "pl", "Obrażenia nr 1 (3, obuchowe): kości brak oraz, za trafienie krytyczne, brak."
            ),
            sample("fi", "… nopat ei mitään ja kriittisen osuman vuoksi ei mitään; …"),
            sample("ar", "… الفصوص لا شيء، وللضربة الحرجة لا شيء؛ …"),
        ],
        [
            sample(
                "pl",
                "Obrażenia nr 1 (3, obuchowe): stała wartość 3, trafienie krytyczne jej nie podwaja.",
            )
        ],
    ),
    "P2: the weakest in the plural before one name": (
        reader.WEAKEST,
        [
            sample("pl", "… razem z najsłabszymi (Jadwiga), łącznie 8: …"),
            sample("fi", "… ja heikoimpien (Aino) tulokset yhteensä …"),
        ],
        [
            sample("pl", "… razem z najsłabszym (Jadwiga), łącznie 8: …"),
            sample("pl", "… razem z najsłabszymi (Jadwiga i Ola), łącznie 8: …"),
            sample("fi", "… ja heikoimman (Aino) tuloksen yhteensä …"),
        ],
    ),
    "A3 and the Arabic minor items": (
        reader.ARABIC_STYLE,
        [
            sample("ar", "كريم يتلقى إرهاقًا واحدًا، والآن 1."),
            sample("ar", "20 طبيعية: ضربة حرجة على الهدف."),
            sample("ar", "نتيجة فصّ التنين 3 أدنى من أن تُحدث تغيير دمار."),
        ],
        [
            sample("ar", "كريم يتلقى نقطة إرهاق واحدة، والآن 1."),
            sample("ar", "رمية 20 طبيعية: ضربة حرجة على الهدف."),
        ],
    ),
    "The Polish and Finnish style items": (
        reader.STYLE,
        [
            sample("pl", "Blue poddaje się bez rzutu: obrażenia dwukrotnie."),
            sample("pl", "Jadwiga przegrywa, 7 przeciw 10: to domniemana przegrana."),
            sample("pl", "Nadwyżka obrażeń przy 0 punktach wytrzymałości: 49, co najmniej tyle."),
            sample("fi", "Hyökkäys oli tähdätty: vartalo, joten osumakohtaa ei heitetä."),
            sample("fi", "Vahinkoa jää yli 49 osumapisteiden ollessa 0."),
        ],
        [
            sample("pl", "Blue poddaje się bez rzutu: otrzyma obrażenia dwukrotnie."),
            sample("fi", "Hyökkäys tähdättiin vartaloon, joten osumakohtaa ei heitetä."),
        ],
    ),
}


@pytest.mark.parametrize("pattern", PATTERNS)
def test_each_check_fires_on_the_reviews_wrong_sentences(pattern: str) -> None:
    """Each check finds its error in every wrong sentence the review quotes, and none in the
    corrections: a check that cannot fire would pass a wrong catalog."""
    check, wrong, right = PATTERNS[pattern]
    for _lang, text, classes in wrong:
        assert check(text, classes), f"missed: {text!r}"
    for _lang, text, classes in right:
        assert not check(text, classes), f"{check(text, classes)} in {text!r}"


def variant_contexts(code: str) -> list[str]:
    """The contexts of ``code``'s sentence or variants, in the order ``all_samples`` gives them."""
    variants = [
        c for c, m in SOURCE.items() if c.split("|")[0] == code and "|" in c and not m.plural
    ]
    return variants or [code]


def english_agreeing(context: str) -> set[str]:
    """The participants the English source makes a word agree with in number, in ``context`` and
    its code's counted phrases: each is the subject of a verb (or owns a pronoun)."""
    code = context.split("|", 1)[0]
    messages = [SOURCE[context]] + [m for c, m in SOURCE.items() if c.startswith(code + "#")]
    return {
        name
        for m in messages
        for form in (m.text, m.plural or "")
        for field, spec in GENDERED.findall(form)
        if "plural=" in spec
        for name in field.split("+")
    }


def unagreeing(lang: str) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(context, participant) where English agrees with the participant and ``lang``'s text is the
    same for a group as for no class; and, in Arabic, the same for people as for beasts."""
    cat, same, beasts = catalog(lang), set(), set()
    samples = all_samples()
    codes = dict.fromkeys(code for code, _ in samples)
    contexts = [context for code in codes for context in variant_contexts(code)]
    for (code, base), context in zip(samples, contexts, strict=True):
        ones = sorted((template_fields(code) & ONE) - (chosen(code, base) - {"gender"}))
        for field in sorted(english_agreeing(context) & set(ones)):
            case = Case(cat, code, base, ones, field)
            if one_named(case, None) == one_named(case, "plural"):
                same.add((context, field))
            elif lang == "ar" and one_named(case, "plural") == one_named(case, "plural-nonhuman"):
                beasts.add((context, field))
    return same, beasts


class Case(NamedTuple):
    cat: Any
    code: str
    base: dict[str, Any]
    ones: list[str]
    field: str


def one_named(case: Case, cls: str | None) -> str:
    """The case's text with its ``field``'s participant "X" of class ``cls``, the others of none."""
    cat, code, base, ones, field = case
    params, named = dict(base), {}
    for i, one in enumerate(ones):
        pid = f"p{i}" if one in base else one
        if one in base:
            params[one] = pid
        named[pid] = "X" if one == field else f"O{i}"
        if one == field and cls is not None:
            named[GENDER + pid] = cls
    if "gender" in base:
        params["gender"] = cls
    return render(cat, code, params, named)


#: Where a translation names a participant that English makes a verb agree with, but says it with
#: no word that agrees (so a group reads as a single one does): a colon or a parenthesis ("MG orzeka
#: zaskoczenie: {id}", "{side}: väsymys 3", "Chwyt, {a} kontra {b}"), a noun the words agree with
#: ("Najsilniejszy wróg, który walczył: {id}", "مجموع {attacker} يتفوق"), a clause with no verb
#: ("{target} عند 0 من نقاط الحياة"), a participant named after a preposition ("przeciwnika
#: ({opponent}: 6)"), a pair's verb already plural ("{a} i {b} tworzą"). Any other message whose
#: words do not change for a group forgot the group (the test below).
#: Polish and Finnish alike (a maneuver's "Chwyt, {a} kontra {b}", "Ote, {a} – {b}").
BOTH: set[tuple[str, str]] = {
    ("dnd5e.target.hp", "target"),
    ("dos.actions.count|opponents=none", "id"),
    ("dos.attack.hit|reason=total", "defender"),
    ("dos.attack.miss|reason=total", "attacker"),
    ("dos.maneuver.break_free.failure", "a"),
    ("dos.maneuver.break_free.success", "a"),
    ("dos.maneuver.feint_push.failure", "a"),
    ("dos.maneuver.feint_push.success", "a"),
    ("dos.maneuver.grab.failure", "a"),
    ("dos.maneuver.grab.success", "a"),
    ("dos.maneuver.push.failure", "a"),
    ("dos.maneuver.push.success", "a"),
    ("dragon.hoard.by_level", "id"),
    ("dragon.hoard.by_strength", "id"),
    ("dragon.pair.formed", "a"),
    ("dragon.sweep.failed", "opponent"),
    ("dragon.sweep.taken", "opponent"),
}
NO_AGREEMENT: dict[str, set[tuple[str, str]]] = {
    "pl": BOTH
    | {
        ("dnd5e.damage.type|applied=immunity", "target"),
        ("dnd5e.damage.type|applied=resistance", "target"),
        ("dnd5e.damage.type|applied=resistance, vulnerability", "target"),
        ("dnd5e.damage.type|applied=vulnerability", "target"),
        ("dnd5e.surprise.gm|verdict=not surprised", "id"),
        ("dnd5e.surprise.gm|verdict=surprised", "id"),
        ("riders.presumptive_loser.tie", "loser"),
    },
    "fi": BOTH
    | {
        ("dragon.prosperity.lost|loss=0", "id"),
        ("riders.bonus", "side"),
        ("riders.bonus.fatigued", "side"),
    },
    "ar": {
        ("dnd5e.target.hp", "target"),
        ("dos.actions.count|opponents=none", "id"),
        ("dos.attack.hit|reason=bad_luck", "defender"),
        ("dos.attack.hit|reason=dc", "attacker"),
        ("dos.attack.hit|reason=luck", "attacker"),
        ("dos.attack.hit|reason=total", "attacker"),
        ("dos.attack.hit|reason=total", "defender"),
        ("dos.attack.miss|reason=bad_luck", "attacker"),
        ("dos.attack.miss|reason=dc", "attacker"),
        ("dos.attack.miss|reason=luck", "defender"),
        ("dos.attack.miss|reason=total", "attacker"),
        ("dos.attack.miss|reason=total", "defender"),
        ("dos.damage.full_bar", "target"),
        ("dos.damage.light_as_serious", "target"),
        ("dos.damage.no_full_bar", "target"),
        ("dos.defense.none|hit=false", "attacker"),
        ("dos.maneuver.feint_push.failure", "a"),
        ("dos.opposed.winner|reason=bad_luck", "loser"),
        ("dos.turn.target_down", "target"),
        ("dragon.hoard.by_level", "id"),
        ("dragon.hoard.by_strength", "id"),
        ("dragon.sweep.failed", "opponent"),
        ("dragon.sweep.taken", "opponent"),
        ("riders.bonus", "side"),
    },
}


@pytest.mark.parametrize("lang", ["pl", "fi", "ar"])
def test_a_translation_agrees_with_every_group_the_english_source_agrees_with(lang: str) -> None:
    """X1, A2, for a template that forgets a class: where the English source makes a word agree
    with a participant, the translation's text for a group differs from its text for one of no
    class (unless it says it with no word that agrees, :data:`NO_AGREEMENT`); in Arabic a group of
    people reads otherwise than one of beasts (the masculine plural against the feminine
    singular)."""
    same, beasts = unagreeing(lang)
    forgot = sorted(same - NO_AGREEMENT[lang])
    assert forgot == [], f"{lang}: no word agrees with a group in {forgot}"
    assert sorted(NO_AGREEMENT[lang] - same) == [], "listed, but agrees now: remove it"
    assert sorted(beasts) == [], f"{lang}: beasts read as people in {sorted(beasts)}"
