"""Free text a table can show (issue 25, reproducer 9): every name, label and description a request
carries refuses the C0 and C1 control characters and the bidi embeddings and overrides
(U+202A-U+202E) with a 422 at the field; the OpenAPI document shows the pattern on each of them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.models import TEXT_PATTERN
from tests.conftest import Api

FIGHTER = {"dexterity": 10, "strength": 10, "skill": 2, "weapon": {"kind": "melee", "damage": 3}}
ITEM = {"id": "hook", "name": "Hookshot", "timing": "damage", "damage": "pulls the foe down"}
RIDERS = {
    "seed": 1,
    "initiator": {"id": "red", "element": "fire", "items": [ITEM]},
    "defender": {"id": "blue", "element": "water"},
}
DRAGON = {
    "seed": 1,
    "dragon": {"age": 3, "battle": 3, "target": "v"},
    "entities": [
        {
            "id": "v",
            "name": "the village",
            "controller": "gm",
            "kind": "group",
            "prosperity": 2,
            "level": 2,
            "target": "dragon",
        },
        {
            "id": "w",
            "controller": "gm",
            "kind": "group",
            "prosperity": 1,
            "level": 1,
            "if_left_over": "auto_win:the mill",
        },
    ],
}
STEPS = {
    "seed": 1,
    "speed": 30,
    "steps": [
        {"kind": "action", "name": "Attack"},
        {"kind": "bonus_action", "name": "Dash", "feature": "Cunning Action"},
        {"kind": "interaction", "object": "door"},
        {"kind": "reaction", "name": "Shield"},
        {"kind": "speech", "text": "Run!"},
    ],
}
ATTACK = {"seed": 1, "attacker": FIGHTER, "defender": {"hp": 10, "dexterity": 5, "block": 1}}
OPPOSED = {"seed": 1, "a": {"stat": 10, "skill": 2}, "b": {"stat": 10, "skill": 2}}
FIFTH = {"seed": 1, "combatants": [{"id": "k", "side": "gm", "dex_mod": 1}]}

#: (path, a valid body, where its free text goes, the text there).
FIELDS: list[tuple[str, dict[str, Any], list[str | int], str]] = [
    ("/riders/combat", RIDERS, ["initiator", "items", 0, "name"], "Hookshot"),
    ("/riders/combat", RIDERS, ["initiator", "items", 0, "damage"], "pulls"),
    ("/riders/combat", RIDERS, ["initiator", "name"], "Red"),
    ("/dragon/battle", DRAGON, ["entities", 0, "name"], "the village"),
    ("/dragon/battle", DRAGON, ["dragon", "name"], "Smaug"),
    ("/dnd5e/turn", STEPS, ["steps", 0, "name"], "Attack"),
    ("/dnd5e/turn", STEPS, ["steps", 1, "feature"], "Cunning Action"),
    ("/dnd5e/turn", STEPS, ["steps", 2, "object"], "door"),
    ("/dnd5e/turn", STEPS, ["steps", 3, "name"], "Shield"),
    ("/dnd5e/turn", STEPS, ["steps", 4, "text"], "Run!"),
    ("/dnd5e/initiative", FIFTH, ["combatants", 0, "name"], "Kobold"),
    ("/dos/attack", ATTACK, ["attacker", "name"], "Ignatius"),
    ("/dos/attack", ATTACK, ["defender", "name"], "the kobold"),
    ("/dos/opposed", OPPOSED, ["a", "name"], "Ana"),
]

#: NUL, a line break, ESC, DEL, a C1 control (CSI), and each bidi embedding and override.
REFUSED = [
    "\x00",
    "\r\n",
    "\x1b[31m",
    "\x7f",
    "\x9b",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
]


def _put(body: dict[str, Any], loc: list[str | int], value: str) -> dict[str, Any]:
    out = copy.deepcopy(body)
    here: Any = out
    for part in loc[:-1]:
        here = here[part]
    here[loc[-1]] = value
    return out


def _at(body: dict[str, Any], loc: list[str | int]) -> list[str | int]:
    """Where the error is placed: a 5e step's loc names its kind (a tagged union's member)."""
    if loc[0] == "steps":
        return [*loc[:2], body["steps"][loc[1]]["kind"], *loc[2:]]
    return loc


@pytest.mark.parametrize(("path", "body", "loc", "text"), FIELDS, ids=lambda v: str(v)[:40])
def test_free_text_refuses_controls_and_bidi_overrides(
    api: Api, path: str, body: dict[str, Any], loc: list[str | int], text: str
) -> None:
    ok = api.post(path, json=_put(body, loc, f"{text} \u0639\u0631\u0628\u064a \U0001f409"))
    assert ok.status_code == 200, ok.text  # letters of any script and emoji are text
    for bad in REFUSED:
        r = api.post(path, json=_put(body, loc, f"{text}{bad}x"))
        assert r.status_code == 422, (bad, r.text)
        errors = r.json()["errors"]
        assert [e["loc"] for e in errors] == [["body", *_at(body, loc)]], errors
        assert f"U+{ord(bad[0]):04X} at position {len(text)}" in errors[0]["msg"]


def test_the_auto_win_location_is_free_text_too(api: Api) -> None:
    loc: list[str | int] = ["entities", 1, "if_left_over"]
    assert api.post("/dragon/battle", json=DRAGON).status_code == 200
    for bad in REFUSED:
        r = api.post("/dragon/battle", json=_put(DRAGON, loc, f"auto_win:the{bad}mill"))
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["errors"][0]["loc"] == ["body", *loc]


def _strings(schema: dict[str, Any], defs: dict[str, Any], path: str, seen: frozenset[str]) -> Any:
    """(where, schema) of every string a request schema holds."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            yield from _strings(defs[name], defs, path, seen | {name})
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            yield from _strings(sub, defs, path, seen)
    if schema.get("type") == "string":
        yield path, schema
    for name, sub in schema.get("properties", {}).items():
        yield from _strings(sub, defs, f"{path}.{name}", seen)
    if isinstance(schema.get("items"), dict):
        yield from _strings(schema["items"], defs, f"{path}[]", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _strings(schema["additionalProperties"], defs, f"{path}{{}}", seen)


#: Strings of a request that are not free text: a notation its parser reads (naming the position).
NOTATION = {".damage[].dice"}  # a 5e damage formula (/dnd5e/attack, its odds)


def test_every_request_string_is_constrained_in_the_document(api: Api) -> None:
    """A request string is an enum, a pattern (ids, slots, seeds, dice notation) or free text with
    TEXT_PATTERN; every name field is free text. A new string field without either fails here."""
    doc = api.app.openapi()
    defs = doc["components"]["schemas"]
    names = 0
    for path, item in doc["paths"].items():
        body = item.get("post", {}).get("requestBody", {}).get("content", {})
        schema = body.get("application/json", {}).get("schema")
        if schema is None:
            continue
        for where, s in _strings(schema, defs, "", frozenset()):
            if "enum" in s or "const" in s or where in NOTATION:
                continue
            assert "pattern" in s, (path, where)
            if where.endswith("name") and where != ".name":
                assert s["pattern"] == TEXT_PATTERN, (path, where)
                names += 1
    assert names > 20
