"""What a player reads: every rendered text, in every language, over every message, the golden
requests and property-generated requests, is a sentence with no Python value, internal identifier,
slot id or rule id in it, and is what the slow reference renders (``reference.py``); Arabic keeps
numbers and Latin names in Unicode isolates.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.narration import FSI, LANGUAGES, PDI, names, render
from service.endpoints import Endpoint, endpoints
from tests.conftest import Api
from tests.narration.catalogs import catalog, languages
from tests.narration.reference import reference, reference_names
from tests.narration.samples import all_samples
from tests.properties.strategies import PROFILE, RESOLVING, bodies, seeded, seeds

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
#: What no text may show (the request's own strings are taken out first: an id may be anything).
FORBIDDEN = {
    "a Python value": re.compile(r"\b(True|False|None)\b"),
    "a snake_case identifier": re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b"),
    "a slot id or dotted code": re.compile(r"[A-Za-z0-9_]\.[A-Za-z0-9_]"),
    "a rule id": re.compile(r"\b(DOS|DRG|RDR|D5E)-\d+"),
    "a template field": re.compile(r"[{}]"),
    "a plural left to the reader": re.compile(r"\(s\)"),
}
ISOLATED = re.compile(f"{FSI}[^{FSI}{PDI}]*{PDI}")


def problems(text: str, own: set[str]) -> list[str]:
    """What is wrong with ``text``; ``own``: the request's strings (ids, names), taken out first."""
    if not text.strip():
        return ["an empty text"]
    for s in sorted(own, key=len, reverse=True):
        text = re.sub(re.escape(s), " ", text, flags=re.IGNORECASE)
    return [f"{what}: {text!r}" for what, pattern in FORBIDDEN.items() if pattern.search(text)]


def not_isolated(text: str) -> list[str]:
    """Digits or Latin letters in an Arabic text outside FSI ... PDI (every value is isolated)."""
    rest = ISOLATED.sub("", text)
    return re.findall(r"[0-9A-Za-z]+", rest)


def strings(value: Any) -> set[str]:
    """Every string value in a request body (ids, names, item names; not the keys: slots)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


# ---------------------------------------------------------------- every message, every language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_as_a_clean_sentence(lang: str) -> None:
    cat = catalog(lang)
    for code, params in all_samples():
        text = render(cat, code, params, {})
        assert problems(text, set()) == [], f"{lang} {code}"


@pytest.mark.parametrize("lang", languages("ar"))
def test_arabic_isolates_every_number_and_latin_text(lang: str) -> None:
    cat = catalog(lang)
    for code, params in all_samples():
        text = render(cat, code, params, {"x1": "Sir Aldo"})
        assert not_isolated(text) == [], f"{code}: {text!r}"


def test_arabic_isolates_values_and_names() -> None:
    text = render(catalog("ar"), "dos.location.rolled", {"die": 8, "location": "left_arm"}, {})
    assert f"{FSI}8{PDI}" in text
    named = render(catalog("ar"), "dos.damage.none", {"target": "k1"}, {"k1": "Sir Aldo"})
    assert f"{FSI}Sir Aldo{PDI}" in named


# ---------------------------------------------------------------- over requests


@cache
def _routes() -> dict[str, Endpoint]:
    return endpoints(Api().app)


def _answer(path: str, body: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The resolved response in ``lang``, or ``None`` when the request is refused (a 4xx)."""
    try:
        payload, used = _routes()[path].resolve(json.dumps({**body, "lang": lang}).encode())
    except Exception:  # a problem the service answers with a 4xx; tested elsewhere
        return None
    assert used == lang
    answer: dict[str, Any] = json.loads(payload)
    return answer


def _check(path: str, body: dict[str, Any]) -> int:
    """Check every text of ``body``'s answer in every language, and that it is what the slow
    reference renders (``reference.py``) with the names a plain walk of the request gathers; the
    number of texts checked."""
    own = strings(body)
    checked = 0
    for lang in LANGUAGES:
        answer = _answer(path, body, lang)
        if answer is None:
            return 0
        request = _routes()[path].request_model.model_validate_json(json.dumps(body))
        named = names(request)
        assert named == reference_names(request)
        for event in answer["events"]:
            text, code = event["text"], event["code"]
            assert problems(text, own) == [], f"{lang} {path} {code}"
            assert text == reference(lang).render(code, event["params"], named), code
            checked += 1
    return checked


#: The resolving endpoints' golden requests (odds and simulations tell no events).
GOLDEN_REQUESTS = sorted(
    p
    for p in GOLDEN.glob("*/*.request.json")
    if json.loads(p.read_text(encoding="utf-8"))["path"] in RESOLVING
)


@pytest.mark.parametrize("request_file", GOLDEN_REQUESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_requests_read_cleanly_in_every_language(request_file: Path) -> None:
    spec = json.loads(request_file.read_text(encoding="utf-8"))
    if spec.get("status", 200) != 200:
        pytest.skip("a refused request has no events")
    assert _check(spec["path"], spec["body"]) > 0


@pytest.mark.parametrize("path", RESOLVING)
def test_generated_requests_read_cleanly_in_every_language(path: str) -> None:
    checked = 0

    @PROFILE
    @given(body=bodies(path), seed=seeds, names=st.booleans())
    def run(body: Any, seed: str | int, names: bool) -> None:
        nonlocal checked
        request = seeded(body, seed)
        checked += _check(path, _named(request) if names else request)

    run()
    assert checked > 0, f"no text checked on {path}"


def _named(body: Any) -> Any:
    """``body`` with a name given to everything that has an id and may take a name."""
    if isinstance(body, dict):
        out = {k: _named(v) for k, v in body.items()}
        if "id" in out and "name" not in out and isinstance(out["id"], str):
            out["name"] = f"Sir {out['id'][:50]}"
        return out
    if isinstance(body, list):
        return [_named(v) for v in body]
    return body
