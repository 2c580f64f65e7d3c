"""The native readers' reviews (issues 36 and 47), audited against the service's answers: the
reviews' kinds of requests (every resolving operation's OpenAPI example and every golden request,
several seeds, names masculine, feminine and of groups of people, beasts and women in Latin and
Arabic script, in en, pl, fi and ar) sent to the app, and every text of every answer checked
against the wrong texts the first review quotes and read by the second review's checks
(tests/narration/reader.py): none of them finds an error any more. tests/narration/test_review.py checks the same rules over every template; this
checks them where a player reads them, in the answers (and their Foundry flavors).

``python -m tests.narration.test_review_audit`` prints the audit's figures (requests, texts, codes
reached, errors by the review's item).
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest

from rules.narration import FSI, LANGUAGES, PDI
from tests.narration import reader

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*/*.request.json"))
SEEDS = ("Sarathael", "Baltir", 7, 2026)
#: The names of the reviews' sample: each variant names every participant (every object of a
#: request with an ``id``) in turn with its names, each with its grammatical class; the groups'
#: variant takes a group of each kind (beasts, people, women) in turn.
NAMES: dict[str, list[tuple[str, str | None]]] = {
    "none": [],
    "masculine": [
        (n, "masculine") for n in ("Karim", "Borys", "Ignatius", "Eryk", "Väinö", "Bolt")
    ],
    "feminine": [(n, "feminine") for n in ("Leila", "Aino", "Ilmatar", "Aurora", "Sara", "Lidda")],
    "feminine-ar": [(n, "feminine") for n in ("ليلى", "نور", "هدى", "سلمى", "مريم", "ريم")],
    "masculine-ar": [(n, "masculine") for n in ("سامر", "كريم", "زياد", "عمر", "خالد", "يوسف")],
    "plural": [
        ("Wilki", "plural-nonhuman"),
        ("Rabusie", "plural"),
        ("Amazonki", "plural-feminine"),
        ("الذئاب", "plural-nonhuman"),
        ("اللصوص", "plural"),
        ("المحاربات", "plural-feminine"),
        ("Wolves", "plural-nonhuman"),
        ("Raiders", "plural"),
    ],
}
ARABIC_LETTER = re.compile(r"[\u0600-\u06FF]")
REVIEW_NOTATIONS = (
    "10d10cs>=6", "2d10cs=10", "2d20kh1", "3d6x", "1d6rr=1", "1d%", "1d8+1d6+4", "4d6kh3",
    "8d10cs>=7df<=1", "3d4-1",
)  # fmt: skip
#: The fields that hold a participant without an ``id`` (a DoS attacker, a dragon): named too where
#: the request takes a name there (a field it refuses is left out, :func:`strip`).
ROLES = frozenset(
    {"attacker", "defender", "target", "a", "b", "dragon", "actor", "creature", "character"}
)


def bare(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


def requests() -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, body) of the review's kinds of requests: each resolving operation's example and each
    golden request (odds and simulations tell no events)."""
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    for path, item in document["paths"].items():
        content = item.get("post", {}).get("requestBody", {}).get("content", {})
        example = content.get("application/json", {}).get("example")
        if example is not None and not re.search(r"/(odds|simulate)", path):
            yield path, example
            # each choice of the request's own (a maneuver's kind, a check's mode), one at a time
            schema = content["application/json"].get("schema", {})
            ref = schema.get("$ref", "").rsplit("/", 1)[-1]
            properties = document["components"]["schemas"].get(ref, {}).get("properties", {})
            for field, spec in properties.items():
                options = [spec, *spec.get("anyOf", []), *spec.get("allOf", [])]
                for option in options:
                    target = option.get("$ref", "").rsplit("/", 1)[-1]
                    values = option.get("enum") or document["components"]["schemas"].get(
                        target, {}
                    ).get("enum", [])
                    for value in values:
                        if value != example.get(field) and field not in ("lang", "gender"):
                            yield path, {**example, field: value}
    for file in GOLDEN:
        spec = json.loads(file.read_text(encoding="utf-8"))
        if not re.search(r"/(odds|simulate)", spec["path"]):
            yield spec["path"], spec["body"]
    from tests.docs.test_examples import EXAMPLES

    for example in EXAMPLES:
        posted = example.method == "POST" and isinstance(example.body, dict)
        if posted and not re.search(r"/(odds|simulate)", example.path):
            yield example.path, example.body
    # The review's own dice: counted, kept, exploded and rerolled pools, a formula of two dice.
    for notation in REVIEW_NOTATIONS:
        yield "/dice/roll", {"notation": notation, "name": "x"}


def named(body: Any, names: list[tuple[str, str | None]]) -> Any:
    """``body`` with every participant (an object with an ``id``) named, each with its class."""
    body = copy.deepcopy(body)
    found = iter(range(10_000))

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            if (isinstance(node.get("id"), str) or key in ROLES) and names:
                node["name"], node["gender"] = names[next(found) % len(names)]
            for field, value in node.items():
                if field not in ("dice", "options", "state", "next_state"):
                    walk(value, field)
        elif isinstance(node, list):
            for value in node:
                walk(value, key)

    walk(body)
    if names and "name" in body and isinstance(body["name"], str):  # /dice/roll's roller
        body["name"], body["gender"] = names[0]
    return body


def strip(body: Any, loc: list[Any]) -> bool:
    """Removes the field at a problem's ``loc`` (``["body", "a", 0, "gender"]``) from ``body``."""
    node = body
    for key in loc[1:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return False
    if isinstance(node, dict) and loc[-1] in ("gender", "name") and loc[-1] in node:
        del node[loc[-1]]
        return True
    return False


@dataclass(frozen=True)
class Text:
    lang: str
    variant: str
    path: str
    code: str
    text: str
    params: str


@cache
def answers() -> tuple[list[Text], int]:
    """Every event text and Foundry flavor of every request in every language, and the number of
    requests answered (one client over the app for all of them: about 12,000 requests)."""
    return asyncio.run(_answers())


async def _answers() -> tuple[list[Text], int]:
    from service.app import create_app
    from service.settings import Settings

    transport = httpx.ASGITransport(app=create_app(Settings(log_level="warning")))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as api:
        return await _collect(api)


async def _collect(api: httpx.AsyncClient) -> tuple[list[Text], int]:
    out: list[Text] = []
    answered = 0
    for path, example in requests():
        for i in range(len(SEEDS)):
            for v, (variant, names) in enumerate(NAMES.items()):
                seed = SEEDS[(i + v) % len(SEEDS)] if i == 0 else f"{variant}-{i}"
                body = {**named(example, names), "seed": seed, "foundry": True}
                if seed != example.get("seed"):
                    body.pop("dice", None)  # another seed: its own dice
                for lang in LANGUAGES:
                    request = {**body, "lang": lang}
                    r = await api.post(path, json=request)
                    for _ in range(20):  # a participant that takes no gender or name: without it
                        if r.status_code != 422:
                            break
                        errors = r.json().get("errors", [])
                        if not any(strip(request, list(e.get("loc", []))) for e in errors):
                            break
                        r = await api.post(path, json=request)
                    if r.status_code != 200:
                        continue
                    answered += 1
                    answer = r.json()
                    for event in answer.get("events", []):
                        if isinstance(event.get("text"), str):
                            params = json.dumps(event.get("params", {}), sort_keys=True)
                            out.append(
                                Text(lang, variant, path, event["code"], event["text"], params)
                            )
                    for roll in (answer.get("foundry") or {}).get("rolls", []):
                        flavor = roll.get("options", {}).get("flavor")
                        if isinstance(flavor, str):
                            out.append(Text(lang, variant, path, "foundry.flavor", flavor, ""))
    return out, answered


# ------------------------------------------------------------------ the review's wrong texts

Check = Callable[[Text], bool]


def pattern(regex: str, langs: tuple[str, ...] = tuple(LANGUAGES)) -> Check:
    compiled = re.compile(regex)
    return lambda t: t.lang in langs and compiled.search(bare(t.text)) is not None


def when(variants: tuple[str, ...], codes: tuple[str, ...], check: Check) -> Check:
    return lambda t: t.variant in variants and t.code.startswith(codes) and check(t)


FEMININE = ("feminine", "feminine-ar")
ALL = tuple(NAMES)

#: Each error of the review (its item, a check that finds it in a text).
ERRORS: dict[str, Check] = {
    # A: every language
    "A1 a Latin d after the first die": pattern(r"\dk\d+[+-]\d*d\d", ("pl",)),
    # (a /dice/roll notation is the player's own text, shown as written: not a formula of a rule)
    "A1 a Latin d in Arabic notation": lambda t: (
        t.lang == "ar"
        and not t.code.startswith("notation.")
        and t.path != "/dice/roll"
        and re.search(r"فصّ\d+[+-]\d*d\d|\d+d\d+", bare(t.text)) is not None
    ),
    "A2 a count after the dice": when(
        ALL,
        ("notation.counted",),
        pattern(
            r"\d, \d+ (sukces|sukcesy|sukcesów|porażk|onnistum|epäonnist)|\d، \d+ (نجاح|إخفاق)"
        ),
    ),
    "A3 an empty opponent list": pattern(r"\S  +\S|:\s+\(|مقابل\s+\("),
    "A4 a colon before nothing": pattern(r":\s*\.$|: \.$"),
    "A5 a made-up id": pattern(r"\w-slayer\b"),
    "A minor 0 extra dice": pattern(r"0 dodatkowych kości|0 lisänoppaa", ("pl", "fi")),
    # B: Polish
    "B1 był/były/było by the numeral": pattern(
        r"było [1-4] (sukces|porażk)|Koniec umierania", ("pl",)
    ),
    "B2 masculine Polish loser, slayer": when(
        FEMININE,
        ("riders.presumptive_loser", "dragon.slayer", "dragon.hoard.dragonslayer"),
        pattern(r"domniemany przegrany|domniemanym przegranym|to pogromca|znany pogromca", ("pl",)),
    ),
    "B3 przeciwnicy before one name": pattern(r"przeciwnicy: [^,–]+? \(szybkość \d+\) –", ("pl",)),
    "B3 zostają one die": pattern(r"zostają \d+, razem", ("pl",)),
    "B3 do sojusznika for a woman": when(
        FEMININE, ("dragon.left_over",), pattern("do sojusznika", ("pl",))
    ),
    "B3 Polish style": pattern(
        r"zadane pełnemu paskowi|w skali: grupa, z wyniku|nie tracą nic także|a potem podwojone daje",
        ("pl",),
    ),
    "B4 a plural group with a singular verb": when(
        ("plural",),
        ("dragon.left_over", "dragon.aside"),
        pattern(r"\b(zostaje|czeka|stoi)\b", ("pl",)),
    ),
    # C: Finnish
    "C0 eivät lasketa": pattern(r"eivät lasketa", ("fi",)),
    "C0 yhden väsymyksen": pattern(r"yhden väsymyksen, nyt", ("fi",)),
    "C1 puolikkaasta luvusta": pattern(r"puolikkaasta luvusta", ("fi",)),
    "C2 vastustajat before one name": pattern(r"vastustajat: [^,–]+? \(nopeus \d+\) –", ("fi",)),
    "C2 tuloksilla one value": pattern(r"tuloksilla \d+: 1 noppa", ("fi",)),
    "C2 se for a named person": when(
        ("feminine", "masculine", "feminine-ar", "masculine-ar"),
        ("dnd5e.surprise.unnoticed", "dos.turn.wait"),
        pattern(r"\b(se|sille)\b", ("fi",)),
    ),
    "C2 Finnish style": pattern(
        r"hävisi taisteluparinsa|Ei enää kuolemassa|puolittuu, \d|kaksinkertaistuu, \d|suurinta noppaa",
        ("fi",),
    ),
    # D: Arabic
    "D1 a masculine form for a woman": lambda t: (
        t.lang == "ar"
        and t.variant in FEMININE
        and any(
            t.code.startswith(prefix) and any(has(word, bare(t.text)) for word in words)
            for prefix, words in arabic_masculine().items()
        )
    ),
    "D1 a singular form for a group": lambda t: (
        t.lang == "ar"
        and t.variant == "plural"
        and any(
            t.code.startswith(prefix) and any(has(word, bare(t.text)) for word in words)
            for prefix, words in arabic_singular().items()
        )
    ),
    "D1 reasons with a fixed pronoun": pattern(r"خسر ثنائي قتاله|اكتسحه", ("ar",)),
    "D2 لـال and كانا": pattern(r"لـال|كانا", ("ar",)),
    "D3 a masculine roller for a woman": when(
        FEMININE, ("notation.total",), pattern(r"يرمي", ("ar",))
    ),
    "D4 Arabic style": pattern(
        r"^قاتل المكان|(^|\s)0 (نجاح|إخفاق)|فصّ آخر واحد|تغيير دمار واحدًا|\d+ × فصّ", ("ar",)
    ),
    # E: right-to-left names in left-to-right texts
    "E an Arabic name not isolated": lambda t: (
        t.lang != "ar"
        and ARABIC_LETTER.search(re.sub(f"{FSI}[^{FSI}{PDI}]*{PDI}", "", t.text)) is not None
    ),
    # Outside the events: the Foundry flavors
    "Foundry a slot id in a flavor": lambda t: (
        t.code == "foundry.flavor"
        and t.lang != "en"
        and re.search(r"\b(location|damage|run_stop|attack|defense|pool)\b", bare(t.text), re.I)
        is not None
    ),
}


def read(lang: str, check: reader.Check) -> Check:
    """The second review's check ``check`` over ``lang``'s texts, knowing each name's class."""
    return lambda t: t.lang == lang and bool(check(bare(t.text), dict(NAMES[t.variant])))


def reader_checks() -> dict[str, Check]:
    """Each of the second review's checks (tests/narration/reader.py), as the audit's items."""
    from tests.narration.test_review import CHECKS, EVERY_LANGUAGE

    return {
        f"issue 47 {lang} {check.__name__}": read(lang, check)
        for lang in LANGUAGES
        for check in (*CHECKS[lang], *EVERY_LANGUAGE)
    }


ERRORS.update(reader_checks())


def has(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word.strip())}(?!\w)", text) is not None


def arabic_masculine() -> dict[str, tuple[str, ...]]:
    from tests.narration.test_review import ARABIC_MASCULINE

    return ARABIC_MASCULINE


def arabic_singular() -> dict[str, tuple[str, ...]]:
    from tests.narration.test_review import ARABIC_SINGULAR

    return ARABIC_SINGULAR


@cache
def audit() -> dict[str, list[Text]]:
    texts, _ = answers()
    found: dict[str, list[Text]] = defaultdict(list)
    for text in texts:
        for item, check in ERRORS.items():
            if check(text):
                found[item].append(text)
    return found


pytestmark = pytest.mark.slow


def test_the_audit_reaches_the_reviews_kinds_of_texts() -> None:
    texts, answered = answers()
    assert answered > 1000
    codes = {t.code for t in texts}
    assert len(codes) > 100, len(codes)
    for lang in LANGUAGES:
        for variant in NAMES:
            assert any(t.lang == lang and t.variant == variant for t in texts), (lang, variant)
    # Every check can find what it looks for (a check that cannot fail audits nothing).
    assert ERRORS["A5 a made-up id"](Text("pl", "none", "", "x", "Tribe: tribe-slayer, k8.", ""))
    assert ERRORS["B3 przeciwnicy before one name"](
        Text("pl", "none", "", "x", "A (szybkość 9), przeciwnicy: B (szybkość 9) – 1 akcja.", "")
    )
    assert ERRORS["E an Arabic name not isolated"](
        Text("pl", "none", "", "x", "سامر ma pecha.", "")
    )


@pytest.mark.parametrize("item", sorted(ERRORS))
def test_no_wrong_text_of_the_review_is_left(item: str) -> None:
    found = audit().get(item, [])
    shown = sorted({f"{t.lang} {t.variant} {t.code}: {t.text!r}" for t in found})[:5]
    assert not found, f"{item}: {len(found)} texts, e.g. {shown}"


def main() -> None:
    texts, answered = answers()
    found = audit()
    by_lang = Counter(t.lang for t in texts)
    distinct = {lang: len({t.text for t in texts if t.lang == lang}) for lang in LANGUAGES}
    print(f"requests answered: {answered}; texts: {dict(by_lang)}; distinct: {distinct}")
    print(f"event codes reached: {len({t.code for t in texts})}")
    for item in sorted(ERRORS):
        hits = found.get(item, [])
        print(f"{len(hits):5d}  {item}")
        for t in sorted({(t.lang, t.code, t.text) for t in hits})[:3]:
            print("       ", *t)


if __name__ == "__main__":
    main()
