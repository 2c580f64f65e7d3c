"""``POST /dos/odds`` and ``/dnd5e/odds`` (issue 18's paths): the body's shape picks the question,
which is answered with the very bytes, and refused with the very errors, of its own path; a body
that fits no question, or two, is a 422 that lists the shapes accepted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Api, assert_problem

ATTACKER = {"dexterity": 25, "strength": 18, "skill": 2, "weapon": {"kind": "melee", "damage": 5}}
SAME: list[tuple[str, str, dict[str, Any]]] = [
    ("/dos/odds", "/dos/odds/test", {"stat": 24, "skill": 3, "dc": 43}),
    (
        "/dos/odds",
        "/dos/odds/opposed",
        {"a": {"stat": 9, "skill": 4}, "b": {"stat": 7, "skill": 5}},
    ),
    (
        "/dos/odds",
        "/dos/odds/attack",
        {"attacker": ATTACKER, "defender": {"dexterity": 9, "dodge": 2, "hp": 12}},
    ),
    ("/dnd5e/odds", "/dnd5e/odds/check", {"modifier": -1, "dc": 12, "disadvantage": True}),
    (
        "/dnd5e/odds",
        "/dnd5e/odds/attack",
        {
            "attack_bonus": 4,
            "damage": [{"dice": "2d6+2", "type": "fire"}],
            "target": {"ac": 13, "hp": 9, "max_hp": 9, "resistances": ["fire"]},
        },
    ),
]


@pytest.mark.parametrize(("path", "own", "body"), SAME, ids=lambda v: str(v)[:24])
def test_a_shape_is_answered_as_its_own_path(api: Api, path: str, own: str, body: Any) -> None:
    answer = api.post(path, json=body)
    assert answer.status_code == 200, answer.text
    assert answer.content == api.post(own, json=body).content


REFUSED: list[tuple[str, str, dict[str, Any]]] = [
    ("/dos/odds", "/dos/odds/test", {"stat": 1, "skill": 71, "dc": 3}),
    ("/dos/odds", "/dos/odds/test", {"stat": 1, "skill": 2, "dc": 3, "seed": "s"}),
    ("/dos/odds", "/dos/odds/opposed", {"a": {"stat": 9, "skill": 4}}),
    ("/dos/odds", "/dos/odds/attack", {"attacker": ATTACKER, "defender": {"hp": 3}}),
    ("/dnd5e/odds", "/dnd5e/odds/check", {"dc": 10, "dice": {"d20": [3]}}),
    ("/dnd5e/odds", "/dnd5e/odds/attack", {"attack_bonus": 4, "target": {"ac": 13}}),
]


@pytest.mark.parametrize(("path", "own", "body"), REFUSED, ids=lambda v: str(v)[:24])
def test_a_shape_is_refused_as_its_own_path(api: Api, path: str, own: str, body: Any) -> None:
    refused = api.post(path, json=body)
    assert refused.status_code == 422, refused.text
    mine, theirs = refused.json(), api.post(own, json=body).json()
    assert (mine["type"], mine["errors"]) == (theirs["type"], theirs["errors"])


@pytest.mark.parametrize(
    ("path", "body", "shapes"),
    [
        ("/dos/odds", {}, ("/dos/test", "/dos/opposed", "/dos/attack")),
        ("/dos/odds", {"a": {"stat": 1, "skill": 1}, "stat": 3}, ("/dos/test", "/dos/opposed")),
        ("/dos/odds", {"difficulty": "hard"}, ("`attacker`", "`stat`", "`a`")),
        ("/dos/odds", [1, 2], ("/dos/test",)),
        ("/dnd5e/odds", {"advantage": True}, ("/dnd5e/check", "/dnd5e/attack")),
        ("/dnd5e/odds", {"dc": 10, "target": {"ac": 10}}, ("`modifier`", "`target`")),
    ],
)
def test_a_body_of_no_shape_or_two_names_the_shapes(
    api: Api, path: str, body: Any, shapes: tuple[str, ...]
) -> None:
    problem = assert_problem(api.post(path, json=body), 422, "validation-error")
    assert problem["errors"] == [
        {"loc": ["body"], "msg": problem["errors"][0]["msg"], "type": "odds_shape", "lang": "en"}
    ]
    for shape in shapes:
        assert shape in problem["detail"], shape


def test_broken_json_is_a_400_as_everywhere(api: Api) -> None:
    for path in ("/dos/odds", "/dnd5e/odds"):
        response = api.post(path, content=b"{", headers={"content-type": "application/json"})
        assert_problem(response, 400, "malformed-json")


def test_the_document_shows_every_shape_with_an_example(api: Api) -> None:
    document = api.get("/openapi.json").json()
    for path, count in (("/dos/odds", 3), ("/dnd5e/odds", 2)):
        body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert len(body["schema"]["anyOf"]) == count
        assert len(body["examples"]) == count
        for example in body["examples"].values():
            assert api.post(path, json=example["value"]).status_code == 200
