"""The language of an answer: `lang` over `Accept-Language` (q-values) over English; the answer says
which (`Content-Language`, `Vary: Accept-Language`); the same request and seed give the same bytes
per language; a language or a name changes the texts and nothing else.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.language import negotiate
from tests.conftest import Api, assert_problem

ATTACK = {
    "seed": "table-7",
    "attacker": {"dexterity": 30, "skill": 3, "weapon": {"kind": "melee", "damage": 20}},
    "defender": {"hp": 30, "dexterity": 20, "block": 2},
}
NAMED = {
    **ATTACK,
    "attacker": {**ATTACK["attacker"], "name": "Ignatius"},
    "defender": {**ATTACK["defender"], "name": "the kobold"},
}


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (b"", "en"),
        (b"pl", "pl"),
        (b"pl-PL,pl;q=0.9,en;q=0.8", "pl"),
        (b"de-DE, fi;q=0.5, en;q=0.3", "fi"),
        (b"en;q=0.2, ar;q=0.9", "ar"),
        (b"FI", "fi"),
        (b"de, fr", "en"),
        (b"*", "en"),
        (b"fi;q=0, *;q=0.5", "en"),
        (b"ar;q=0, pl;q=0.1", "pl"),
        (b"fi;q=0.5, pl;q=0.5", "fi"),  # a tie keeps the header's order
        (b"pl;q=2, fi;q=abc, ar", "ar"),  # an impossible q drops its range
        (b"pl;q=1.0;level=1", "pl"),
        (b",,;;, fi", "fi"),
    ],
)
def test_accept_language_picks_the_best_catalog(header: bytes, lang: str) -> None:
    assert negotiate(header) == lang


def test_the_answer_names_its_language(api: Api) -> None:
    r = api.post("/dos/attack", ATTACK, headers={"Accept-Language": "fi-FI, en;q=0.5"})
    assert r.status_code == 200, r.text
    assert r.headers["content-language"] == "fi"
    assert "Accept-Language" in _vary(r.headers.get_list("vary"))
    plain = api.post("/dos/attack", ATTACK)
    assert plain.headers["content-language"] == "en"
    assert _vary(plain.headers.get_list("vary")).count("Accept-Language") == 1


def _vary(values: list[str]) -> list[str]:
    """The names a response's Vary headers list (CORS adds Origin beside Accept-Language)."""
    return [name.strip() for value in values for name in value.split(",")]


def test_the_lang_field_wins_over_the_header(api: Api) -> None:
    r = api.post("/dos/attack", {**ATTACK, "lang": "ar"}, headers={"Accept-Language": "pl"})
    assert r.headers["content-language"] == "ar"


def test_an_unknown_lang_is_a_422_naming_the_field(api: Api) -> None:
    body = assert_problem(api.post("/dos/roll", {"pool": 2, "lang": "de"}), 422, "validation-error")
    assert ["body", "lang"] in [e["loc"] for e in body["errors"]]


@pytest.mark.parametrize("lang", ["en", "pl", "fi", "ar"])
def test_same_request_same_seed_same_bytes_per_language(api: Api, lang: str) -> None:
    first = api.post("/dos/attack", {**NAMED, "lang": lang})
    second = api.post("/dos/attack", {**NAMED, "lang": lang})
    assert first.status_code == 200
    assert first.content == second.content


def _without_texts(value: Any) -> Any:
    """A response with its texts (and the names it echoes) taken out: the result itself."""
    if isinstance(value, dict):
        return {k: _without_texts(v) for k, v in value.items() if k not in {"text", "name"}}
    if isinstance(value, list):
        return [_without_texts(v) for v in value]
    return value


def test_a_language_or_a_name_changes_only_the_texts(api: Api) -> None:
    base = api.post("/dos/attack", ATTACK).json()
    for body in ({**ATTACK, "lang": "pl"}, {**ATTACK, "lang": "ar"}, NAMED):
        other = api.post("/dos/attack", body).json()
        assert _without_texts(other) == _without_texts(base)
    named = api.post("/dos/attack", NAMED).json()
    texts = " ".join(e["text"] for e in named["events"])
    assert "Ignatius attacks" in texts and "The kobold" in texts
    assert "attacker" not in texts and "defender" not in texts


def test_names_reach_every_system(api: Api) -> None:
    dragon = {
        "seed": "names",
        "dragon": {"age": 3, "battle": 3, "target": "hero", "name": "Smaug"},
        "entities": [
            {
                "id": "hero",
                "name": "Sir Aldo",
                "controller": "gm",
                "kind": "individual",
                "prosperity": 2,
                "level": 3,
                "target": "dragon",
            }
        ],
    }
    r = api.post("/dragon/battle", dragon)
    assert r.status_code == 200, r.text
    texts = " ".join(e["text"] for e in r.json()["events"])
    assert "Smaug" in texts and "Sir Aldo" in texts and "hero" not in texts
