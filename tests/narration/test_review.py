"""The native reader's review (../shared/reviews/native-reader-2026-12.md, issue 36), one test per
class of error, each over generated cases: every message and variant of every system, with its
participants feminine, masculine, mixed, a plural group and unnamed, and its counts 0, 1, 2, 5 and
22. Each test checks a rule the review states (no Latin letter in Arabic dice notation, Polish verbs
that agree with their numeral, no masculine Arabic form for a woman where the review gives the
feminine, no made-up or slot id in a sentence, isolated right-to-left names in left-to-right
sentences ...), not the strings themselves.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from rules.narration import FSI, GENDER, LANGUAGES, PDI, fields, render
from tests.narration.catalogs import catalog, source_messages
from tests.narration.reference import reference
from tests.narration.samples import all_samples

SOURCE = source_messages()
#: The parameters that name participants (an id, or a list of ids), across the systems' events.
ONE = {
    "id", "a", "b", "attacker", "defender", "target", "winner", "loser", "side", "owner", "ally",
    "slayer", "by", "against", "strongest", "who",
}  # fmt: skip
MANY = {
    "ids", "order", "opponents", "tied", "ordered", "member_ids", "noticed_ids", "unnoticed_ids",
    "swept",
}  # fmt: skip
COUNTS = (0, 1, 2, 5, 22)
GENDERS = {
    "feminine": lambda i: "feminine",
    "masculine": lambda i: "masculine",
    "mixed": lambda i: "feminine" if i == 0 else "masculine",
    "plural": lambda i: "plural",
    "none": lambda i: None,
}
LATIN_NAMES = ["Leila", "Karim", "Aino", "Borys", "Ilmatar", "Eryk"]
ARABIC_NAMES = ["ليلى", "سامر", "نور", "كريم", "هدى", "زياد"]


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


def cases(
    names: list[str] = LATIN_NAMES,
) -> Iterator[tuple[str, str, dict[str, Any], dict[str, str]]]:
    """(how, code, params, names) for every message and variant: its participants by each gender
    pattern, its counted numbers by each count, its lists of participants by each length; a
    participant no parameter holds (a role: ``{attacker}``) named by the role."""
    for code, base in all_samples():
        shown, keep = template_fields(code), chosen(code, base)
        ones = sorted(f for f in shown & ONE if f not in keep)
        manys = sorted(f for f in shown & MANY if f not in keep and f in base)
        numbers = sorted(
            f for f in counted(code) if f not in MANY | keep and isinstance(base.get(f), int)
        )
        for how, gender in GENDERS.items():
            for count in COUNTS:
                params = dict(base)
                named: dict[str, str] = {}
                ids = iter(range(100))

                def person(
                    role: str | None = None,
                    ids: Any = ids,
                    named: Any = named,
                    gender: Any = gender,
                ) -> str:
                    i = next(ids)
                    pid = role or f"p{i}"
                    named[pid] = names[i % len(names)]
                    g = gender(i)
                    if g is not None:
                        named[GENDER + pid] = g
                    return pid

                for f in ones:
                    if f in base:
                        params[f] = person()
                    else:
                        person(f)
                for f in manys:
                    params[f] = [person() for _ in range(max(count, 1) if count <= 5 else 2)]
                for f in numbers:
                    params[f] = count
                yield f"{how}/{count}", code, params, named


def texts(
    lang: str, names: list[str] = LATIN_NAMES
) -> Iterator[tuple[str, str, dict[str, Any], dict[str, str], str]]:
    cat = catalog(lang)
    for how, code, params, named in cases(names):
        yield how, code, params, named, render(cat, code, params, named)


@cache
def rendered(lang: str) -> list[tuple[str, str, dict[str, Any], dict[str, str], str]]:
    return list(texts(lang))


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
        (code, repr(p)): t for how, code, p, n, t in rendered("ar") if how.startswith("feminine/")
    }
    masculine = {
        (code, repr(p)): t for how, code, p, n, t in rendered("ar") if how.startswith("masculine/")
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
    cat = catalog("ar").translations
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
            else:
                assert "plural" in words, f"{code}: {{{field}:?{spec}}} has no plural in {form!r}"
            checked += 1
    assert checked > 150


def test_an_arabic_group_takes_the_plural() -> None:
    """Every template, every participant a group, counts 0, 1, 2, 5, 22: none of the singular or
    dual forms the review lists, and where a word agrees with a participant after its name, the
    text differs from the one for a man (the number reaches the words)."""
    agreeing = {code for code, form in arabic_templates()}
    plural = {(c, repr(p)): t for how, c, p, n, t in rendered("ar") if how.startswith("plural/")}
    masculine = {
        (c, repr(p)): t for how, c, p, n, t in rendered("ar") if how.startswith("masculine/")
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
