"""Each Foundry roll's flavor is in the request's language (issue 17): every golden request sent with
``"foundry": true`` and each language's ``Accept-Language``; only the flavors differ between the
languages, and every flavor is a translated, filled-in text."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from rules.narration import LANGUAGES
from rules.registry import having
from rules.system import Capability
from tests.conftest import Api
from tests.foundry.checks import check_answer
from tests.foundry.test_rolls import OK, foundry
from tests.narration.catalogs import catalog

#: The systems with Foundry rolls (a capability: a system without them has no flavors to test).
SYSTEMS = [s.id for s in having(Capability.FOUNDRY)]
#: The systems' flavor messages (``<system>.foundry.<key>``), from the English catalog.
FLAVORS = sorted(code for code in catalog("en").sentences if ".foundry." in code)


def literals(system: str) -> set[str]:
    """The string constants of ``rules/<system>/foundry.py`` and ``rules/foundry.py``."""
    out: set[str] = set()
    for name in (f"rules.{system}.foundry", "rules.foundry"):
        source = Path(str(importlib.import_module(name).__file__)).read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.add(node.value)
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_flavor_is_a_key_the_code_names(system: str) -> None:
    """A flavor no code names would be a message translators keep for nothing (a key the code
    names without a message fails the golden and generated requests with a KeyError)."""
    mine = {c.split(".foundry.", 1)[1] for c in FLAVORS if c.startswith(f"{system}.foundry.")}
    assert mine, system
    assert mine - literals(system) == set(), "FLAVORS no code names"


def answers(api: Api, spec: dict[str, Any]) -> dict[str, Any]:
    """The answer in each language: the plain one and the one with rolls (the language by
    ``Accept-Language``: a golden body's own ``lang`` would win over it, so it is left out)."""
    out = {}
    body = {k: v for k, v in spec["body"].items() if k != "lang"}
    for lang in LANGUAGES:
        headers = {"accept-language": lang}
        plain = api.post(spec["path"], json=body, headers=headers)
        rolled = api.post(spec["path"], json=foundry(body), headers=headers)
        assert rolled.status_code == 200, rolled.text
        assert rolled.headers["content-language"] == lang
        assert rolled.content.startswith(plain.content[:-1] + b',"foundry":{"rolls":[')
        out[lang] = rolled.json()
    return out


def without_flavor(roll: dict[str, Any]) -> dict[str, Any]:
    options = {k: v for k, v in roll["options"].items() if k != "flavor"}
    return {**roll, "options": options}


#: Unicode's isolates, which a right-to-left catalog puts around the names and numbers it fills in.
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))
#: A placeholder (``{formula}``) of a message.
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def wordless(system: str) -> list[str]:
    """The English texts of the system's flavors with nothing to translate: placeholders and
    punctuation only (/dice's ``{formula}`` and ``{roller}: {formula}``)."""
    messages = importlib.import_module(f"rules.{system}.text").FLAVORS
    return [m.text for m in messages if not any(c.isalpha() for c in PLACEHOLDER.sub("", m.text))]


def only_the_formula(roll: dict[str, Any], answer: dict[str, Any], body: dict[str, Any]) -> bool:
    """The roll's flavor is one of its system's wordless flavors filled in with the formula the
    answer states (and the request's ``name``): nothing in it that a language would change."""
    formula = answer.get("formula")
    if not isinstance(formula, str):
        return False
    system = answer["rules_version"].rsplit("-", 1)[0]
    params = {"formula": formula, "roller": body.get("name")}
    text = roll["options"]["flavor"].translate(ISOLATES)
    for template in wordless(system):
        names = PLACEHOLDER.findall(template)
        filled = all(params.get(n[1:-1]) is not None for n in names)
        if filled and text == template.format(**params):
            return True
    return False


@pytest.mark.parametrize("spec", OK, ids=[s["path"] for s in OK])
def test_every_golden_roll_has_a_flavor_in_every_language(api: Api, spec: dict[str, Any]) -> None:
    by_lang = answers(api, spec)
    english = check_answer(by_lang["en"])
    for lang, answer in by_lang.items():
        rolls = check_answer(answer)
        assert [without_flavor(r) for r in rolls] == [without_flavor(r) for r in english], lang
        for roll, en in zip(rolls, english, strict=True):
            text = roll["options"]["flavor"]
            assert text.strip() and "{" not in text and "}" not in text, text
            if only_the_formula(roll, answer, spec["body"]):
                # Nothing to translate: the same text in every language, isolates aside.
                assert text.translate(ISOLATES) == en["options"]["flavor"].translate(ISOLATES)
                continue
            if lang != "en":
                assert text != en["options"]["flavor"], f"{lang}: {text!r} is the English flavor"
            if lang == "ar":
                assert any("\u0600" <= c <= "\u06ff" for c in text), text


def test_the_golden_requests_show_every_system_and_most_flavors(api: Api) -> None:
    """The goldens reach every system's flavors but for a few rare ones (a luck roll, a reroll)."""
    shown = set()
    for spec in OK:
        for roll in check_answer(api.post(spec["path"], json=foundry(spec["body"])).json()):
            shown.add(roll["options"]["flavor"])
    assert len(FLAVORS) >= 25
    assert len(shown) >= 20, sorted(shown)


def test_luck_wraps_the_flavor_of_the_roll_in_every_language(api: Api) -> None:
    lucky = {"stat": 1, "skill": 3, "dc": 100, "dice": {"check": [10, 10, 2, 3, 4]}}
    flavors = {}
    for lang in LANGUAGES:
        answer = api.post("/dos/test", json=foundry({**lucky, "lang": lang})).json()
        (roll,) = check_answer(answer)
        flavors[lang] = roll["options"]["flavor"]
    assert flavors["en"] == "Test against DC 100: luck!"
    assert flavors["pl"] == "Test na poziom trudności 100: szczęście!"
    assert flavors["fi"] == "Testi vaikeustasoa 100 vastaan: onni!"
    assert flavors["ar"].endswith("حظ!") and "\u2068100\u2069" in flavors["ar"]


def test_a_flavor_names_whom_the_request_names(api: Api) -> None:
    body = {
        "seed": "names",
        "combatants": [
            {"id": "a1", "name": "Ignatius", "speed": 9},
            {"id": "k1", "speed": 4},
        ],
    }
    r = api.post("/dos/initiative", json=foundry({**body, "lang": "pl"}))
    assert r.status_code == 200, r.text
    flavors = [roll["options"]["flavor"] for roll in check_answer(r.json())]
    assert "Ignatius: inicjatywa" in flavors and "K1: inicjatywa" in flavors
