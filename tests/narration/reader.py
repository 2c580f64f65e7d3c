"""A fluent reader's checks (../shared/reviews/native-reader-2026-12-06.md), one per pattern the
review names: each reads a rendered text knowing who its participants are and their grammatical
class, and says what is wrong in it as the reader would ("a group with a singular verb"). The
checks know each language's grammar (a Polish verb that agrees with a plural subject ends in "ą", a
Finnish one in "-vat"/"-vät", an Arabic group of beasts takes the feminine singular), not the
catalogs' strings, so a template that forgets a class fails whatever its words are.

A participant's names are chosen by its class (:data:`NAMES`), so that a check finds each one in the
text; ``test_review.py`` renders every message for every class and shows each check firing on the
review's own wrong sentences.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from rules.narration import FSI, GROUPS, PDI

#: Two names per grammatical class and language (``None``: no class given). Each is a name a
#: table might give: a woman, a man, a creature, a band of people, of beasts, of women.
NAMES: dict[str, dict[str | None, tuple[str, str]]] = {
    "en": {
        None: ("Blue", "Red"),
        "feminine": ("Leila", "Aino"),
        "masculine": ("Karim", "Borys"),
        "neuter": ("Kobold", "Golem"),
        "plural": ("Bandits", "Riders"),
        "plural-nonhuman": ("Wolves", "Goblins"),
        "plural-feminine": ("Amazons", "Valkyries"),
    },
    "pl": {
        None: ("Blue", "Red"),
        "feminine": ("Jadwiga", "Ola"),
        "masculine": ("Borys", "Ignacy"),
        "neuter": ("Dziecko", "Widmo"),
        "plural": ("Rozbójnicy", "Rycerze"),
        "plural-nonhuman": ("Wilki", "Gobliny"),
        "plural-feminine": ("Amazonki", "Walkirie"),
    },
    "fi": {
        None: ("Blue", "Red"),
        "feminine": ("Aino", "Kyllikki"),
        "masculine": ("Väinö", "Ilmari"),
        "neuter": ("Peikko", "Golemi"),
        "plural": ("Rosvot", "Ritarit"),
        "plural-nonhuman": ("Sudet", "Hiidet"),
        "plural-feminine": ("Amatsonit", "Valkyriat"),
    },
    "ar": {
        None: ("Blue", "Red"),
        "feminine": ("ليلى", "سلمى"),
        "masculine": ("كريم", "سامر"),
        "neuter": ("الكوبولد", "الغول"),
        "plural": ("اللصوص", "الحراس"),
        "plural-nonhuman": ("الذئاب", "العفاريت"),
        "plural-feminine": ("المحاربات", "الفارسات"),
    },
}
PEOPLE = frozenset({"plural", "plural-feminine"})

#: What a check is given: the text, and each participant's name with its class.
Classes = Mapping[str, str | None]
Check = Callable[[str, Classes], list[str]]


@dataclass(frozen=True)
class Pattern:
    """A kind of error the review names: its languages, its check, and the review's own wrong
    sentences (with the classes of the names in them) and a right one, to show the check fires."""

    langs: tuple[str, ...]
    check: Check
    wrong: tuple[tuple[str, str, Classes], ...]
    right: tuple[tuple[str, str, Classes], ...]


def bare(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


def _at(text: str, name: str) -> Iterator[re.Match[str]]:
    return re.finditer(rf"(?<![\w']){re.escape(name)}(?!\w)", text)


#: A parenthesis right after a name ("Sudet (passiivinen Havainnointi 8) eivät ..."): skipped.
_PAREN = re.compile(r"\s*\([^()]*\)")
#: A word: letters, Arabic vowel marks and shadda included, punctuation (the Arabic comma) not.
_WORD = re.compile(r"\s+([\w\u064b-\u065f\u0670'’]+)")
#: Before a name, the noun it stands beside ("The location Wolves took part", "Para Wilki – Gobliny
#: nie walczy", "Lokaatio Sudet oli"): the verb agrees with that noun, not with the name.
_APPOSITION = {
    "en": r"\b(?:of|pair|location)",
    "pl": r"\b(?:Miejsce|Para|pary)",
    "fi": r"\b(?:Lokaatio|Pari|Parin)",
}
#: Where an Arabic name is a subject: the sentence's start, after a colon, a comma, "أن", "لكن"
#: or the conjunction "و"; elsewhere it is an object or in a construct ("نقاط حياة الذئاب").
_AR_SUBJECT = re.compile(r"(?:^|[:،؛(]\s*|\bأن\s+|\bلكن\s+|(?<=\s)و|^و)$")


def subject(text: str, start: int, lang: str) -> bool:
    """Whether the name at ``start`` is where a subject stands (its verb agrees with it)."""
    before = text[:start]
    if lang == "ar":
        return _AR_SUBJECT.search(before) is not None
    head = _APPOSITION.get(lang)
    return head is None or re.search(rf"{head}\s+(?:\S+\s+(?:and|i|ja|–)\s+)?$", before) is None


def words_after(
    text: str, name: str, skip: frozenset[str] = frozenset(), lang: str = ""
) -> Iterator[str]:
    """The word that follows each occurrence of ``name`` where it is a subject (its parenthesis
    and the words in ``skip`` passed over); none where punctuation follows."""
    for match in _at(text, name):
        if lang and not subject(text, match.start(), lang):
            continue
        rest = text[match.end() :]
        paren = _PAREN.match(rest)
        if paren:
            rest = rest[paren.end() :]
        while (word := _WORD.match(rest)) is not None and word.group(1) in skip:
            rest = rest[word.end() :]
        if word is not None:
            yield word.group(1)


def word_before(text: str, name: str) -> Iterator[str]:
    for match in _at(text, name):
        before = re.search(r"([\w\u0600-\u06ff]+)\s+$", text[: match.start()])
        if before:
            yield before.group(1)


def groups(classes: Classes) -> list[tuple[str, str]]:
    return [(name, cls) for name, cls in classes.items() if cls in GROUPS]


# ---------------------------------------------------------------- X1: a group with a singular


def english_group(text: str, classes: Classes) -> list[str]:
    """X1 (en): "Goblins hides", "Wolves's total": a group takes a plural verb and "'"."""
    found = []
    for name, _ in groups(classes):
        if re.search(rf"(?<!\w){re.escape(name)}'s\b", text):
            found.append(f"{name}'s")
        for word in words_after(text, name, lang="en"):
            if word in {"is", "was", "has", "does"} or re.fullmatch(r"[a-z]+[^s\W]s", word):
                found.append(f"{name} {word}")
    return found


_PL_SKIP = frozenset({"się", "nie", "już", "też", "jeszcze", "nic"})
#: Words a Polish group's name may stand before that are not its verb.
_PL_NOT_VERBS = frozenset({"i", "oraz", "kontra", "to", "a", "lub", "albo"})


def polish_group(text: str, classes: Classes, singular_verbs: frozenset[str]) -> list[str]:
    """X1 (pl): a verb after a group's name is plural (its present ends in "ą", "są"); a verb the
    catalog knows as singular is never right before it ("obrywa Rozbójnicy"); "są" takes the
    virile participle for people ("pokonani"), the other for beasts and women ("pokonane")."""
    found = []
    for name, cls in groups(classes):
        for word in words_after(text, name, _PL_SKIP, "pl"):
            if word.islower() and word not in _PL_NOT_VERBS and not word.endswith("ą"):
                found.append(f"{name} {word}")
        for word in word_before(text, name):
            if word in singular_verbs:
                found.append(f"{word} {name}")
        virile = cls == "plural"
        for match in re.finditer(rf"{re.escape(name)} są (?:już )?(\w+)", text):
            participle = match.group(1)
            if participle.endswith(("ane", "one", "ęte", "łe") if virile else ("ani", "eni", "li")):
                found.append(match.group(0))
    return found


_FI_SINGULAR = frozenset({"on", "ei", "oli", "onkin", "eikä"})


def finnish_group(text: str, classes: Classes) -> list[str]:
    """X1 (fi): "Sudet voittaa", "Hiidet ei", "eikä Sudet": a group's verb ends in "-vat"/"-vät"
    (a singular present ends in a long vowel: "voittaa", "saa", "näkee"); "ovat" takes a plural
    adjective ("yllätettyjä", not "yllätetty")."""
    found = []
    for name, _ in groups(classes):
        for word in words_after(text, name, lang="fi"):
            long_vowel = re.search(r"(aa|ää|ee|ii|oo|uu|yy|öö)$", word)
            if word in _FI_SINGULAR or (long_vowel and not word.endswith(("vat", "vät"))):
                found.append(f"{name} {word}")
        for word in word_before(text, name):
            if word in {"eikä", "ei"}:
                found.append(f"{word} {name}")
        for match in re.finditer(rf"{re.escape(name)} (?:ovat|eivät ole) (?:jo )?(\w+)", text):
            if re.search(r"(tty|ttu|as|äs|ön|on|nen)$", match.group(1)):
                found.append(match.group(0))
    return found


def finnish_pronouns(text: str, classes: Classes) -> list[str]:
    """C2 and X1 (fi): with everyone a group, nobody is "hän"; people are "he", beasts "ne"."""
    if not classes or any(cls not in GROUPS for cls in classes.values()):
        return []
    found = re.findall(r"\b(?:hän|hänen|hänelle|hänet)\b", text)
    if all(cls in PEOPLE for cls in classes.values()):
        found += re.findall(r"\b(?:niiden|niille)\b", text)
    if all(cls == "plural-nonhuman" for cls in classes.values()):
        found += re.findall(r"\b(?:he|heidän|heille|heidät)\b", text)
    return found


def finnish_possessive(text: str, classes: Classes) -> list[str]:
    """F1: "hänen kohde", "hänen nopat": after "hänen"/"heidän" a noun takes its suffix."""
    return [
        m.group(0)
        for m in re.finditer(r"\b(?:hänen|heidän) (\w+)", text)
        if not re.search(r"(nsa|nsä|[aeiouyäö]n)$", m.group(1))
    ]


#: Particles and prepositions after which an Arabic word does not agree with the name before.
_AR_STOP = frozenset({"لم", "بلا", "عند", "خارج", "في", "إلى", "على", "مقابل", "أمام"})


def _arabic_verb(word: str) -> str:
    """A word without its conjunction ("ف", "و") and negation ("لا" written apart is a word)."""
    return word[1:] if word[:1] in {"ف", "و"} and len(word) > 3 else word


def arabic_group(text: str, classes: Classes) -> list[str]:
    """A2 and X1 (ar): after a group's name the word that agrees with it takes its plural: beasts
    the feminine singular ("الذئاب تهاجم", not "يهاجمون"), women the feminine plural
    ("يهاجمن", not "تهاجم" or "يهاجمون"), people the masculine plural ("يهاجمون", not "يهاجم")."""
    found = []
    for name, cls in groups(classes):
        for marked in words_after(text, name, frozenset({"لا"}), "ar"):
            word = re.sub(r"[\u064b-\u065f\u0670]", "", marked)  # its vowel marks and shadda
            if word in _AR_STOP:
                continue
            verb = _arabic_verb(word)
            if cls == "plural-nonhuman":
                wrong = word.endswith(("ون", "وا")) or verb.startswith("ي")
            elif cls == "plural-feminine":
                wrong = (
                    word.endswith(("ون", "وا", "ة", "ها"))
                    or verb.startswith("ت")
                    or (verb.startswith("ي") and not word.endswith("ن"))
                )
            else:
                wrong = (word.endswith("ة") and word != "قتلة") or (
                    verb.startswith(("ي", "ت")) and not word.endswith(("ون", "ن"))
                )
            if wrong:
                found.append(f"{name} {marked}")
    return found


def arabic_pair(text: str, classes: Classes) -> list[str]:
    """A1: a group with one more participant takes the plural, not the dual ("يتبادلان")."""
    found = []
    for first in classes:
        for second in classes:
            pair = f"{first} و{second} "
            if first != second and pair in text and {classes[first], classes[second]} & GROUPS:
                word = text.split(pair, 1)[1].split(" ", 1)[0]
                if word.endswith("ان") and word.removeprefix("و") not in classes:
                    found.append(pair + word)
    return found


# ---------------------------------------------------------------- the review's other errors


def forbidden(name: str, *patterns: str) -> Check:
    """A check that finds any of ``patterns`` (a wrong wording the review quotes)."""
    compiled = [re.compile(p) for p in patterns]

    def check(text: str, classes: Classes) -> list[str]:
        return [m.group(0) for p in compiled for m in p.finditer(text)]

    check.__name__ = name
    return check


#: X2: a lost rider named "(none)"; X5: a flat part's "dice none and, for the critical, none".
EMPTY_RIDER = forbidden("empty_rider", r"\((?:none|brak|ei mitään|لا شيء)\)")
NO_DICE = forbidden("no_dice", r"(?:dice none|: kości brak|nopat ei mitään|الفصوص لا شيء)")
#: P2: "the weakest" in the plural before one name.
WEAKEST = forbidden("weakest", r"(?:najsłabszymi|heikoimpien) \((?![^()]*(?:,| i | ja ))[^()]*\)")
#: A3, the Arabic minor items: "إرهاقًا واحدًا", a bare "20 طبيعية", "تغيير دمار".
ARABIC_STYLE = forbidden("arabic_style", r"إرهاقًا واحدًا", r"^\d+ طبيعية", r"تغيير دمار")
#: The Polish and Finnish style items.
STYLE = forbidden(
    "style",
    r": obrażenia dwukrotnie",
    r"to (?:domniemana|domniemany) przegran",
    r"Nadwyżka obrażeń przy 0",
    r"oli tähdätty: ",
    r"Vahinkoa jää yli",
)
