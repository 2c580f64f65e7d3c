"""``POST /dice/draw`` (rules/notation/draw.py): the next values of a slot's stream, for the Foundry
module's Dice Fulfillment method (docs/foundry.md). The values are the specification's: the shared
vectors (``tests/data/rng-vectors.json``, the first 16 dice of 288 streams) read back through the
endpoint, from any start; every refusal is a 4xx naming the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.budget import MAX_ANSWER, MAX_DICE
from rules.dice import stream_values
from rules.notation import draw
from rules.registry import SYSTEMS
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "tests" / "data" / "rng-vectors.json").read_text())["cases"]


def test_the_draws_are_the_specification_s_vectors_from_any_start(api: Api) -> None:
    assert len(VECTORS) == 288
    for i, case in enumerate(VECTORS):
        start = i % 7  # each vector from another die of its stream
        body = {
            "seed": case["seed"],
            "draws": [
                {"slot": case["label"], "sides": case["sides"], "start": start, "count": 16 - start}
            ],
        }
        answer = api.post("/dice/draw", body).json()
        [got] = answer["draws"]
        assert got["values"] == case["values"][start:], (case, start)
        assert [r["value"] for r in answer["rolls"]] == case["values"]  # the skipped dice too
        assert answer["seed"] == case["seed"] and answer["rng"] == "sha256-v1"


def test_several_slots_are_one_request_in_their_order(api: Api) -> None:
    body = {
        "seed": "table-session-1",
        "draws": [
            {"slot": "u1.0", "sides": 6, "count": 4},
            {"slot": "u1.1", "sides": 10, "count": 2, "start": 3},
            {"slot": "u1.2", "sides": 2**32 - 1, "count": 1},
        ],
    }
    answer = api.post("/dice/draw", body).json()
    notation = next(s for s in SYSTEMS if s.id == "notation")
    assert answer["rules_version"] == notation.rules_version
    assert answer["draws"] == [
        {
            "slot": "u1.0",
            "sides": 6,
            "start": 0,
            "values": stream_values("table-session-1", "u1.0", 6, 4),
        },
        {
            "slot": "u1.1",
            "sides": 10,
            "start": 3,
            "values": stream_values("table-session-1", "u1.1", 10, 5)[3:],
        },
        {
            "slot": "u1.2",
            "sides": 2**32 - 1,
            "start": 0,
            "values": stream_values("table-session-1", "u1.2", 2**32 - 1, 1),
        },
    ]
    # rolls: every die drawn, the three before u1.1's start too, in draw order
    assert [(r["slot"], r["sides"]) for r in answer["rolls"]] == [
        *[("u1.0", 6)] * 4,
        *[("u1.1", 10)] * 5,
        ("u1.2", 2**32 - 1),
    ]
    assert {r["source"] for r in answer["rolls"]} == {"seed"}
    # one event a draw, its outcome (GET /systems names it)
    assert [e["code"] for e in answer["events"]] == ["notation.drawn"] * 3
    assert answer["events"][1]["text"] == (
        f"Dice 4 to 5 of slot u1.1 (2d10): {', '.join(map(str, answer['draws'][1]['values']))}."
    )
    assert answer["events"][2]["text"].startswith("Die 1 of slot u1.2 (1d4294967295): ")
    # the same request, the same bytes
    assert api.post("/dice/draw", body).content == api.post("/dice/draw", body).content


def test_without_a_seed_the_service_makes_one_that_replays(api: Api) -> None:
    first = api.post("/dice/draw", {"draws": [{"slot": "session", "sides": 20, "count": 3}]}).json()
    seed = first["seed"]
    assert isinstance(seed, str) and len(seed) == 32
    again = api.post(
        "/dice/draw", {"seed": seed, "draws": [{"slot": "session", "sides": 20, "count": 3}]}
    )
    assert again.json()["draws"] == first["draws"]


def test_a_scripted_slot_gives_its_script_first(api: Api) -> None:
    body = {
        "seed": 1,
        "dice": {"a": [1, 2, 3]},
        "draws": [{"slot": "a", "sides": 6, "count": 2, "start": 1}],
    }
    answer = api.post("/dice/draw", body).json()
    assert answer["draws"][0]["values"] == [2, 3]
    assert [r["source"] for r in answer["rolls"]] == ["dice"] * 3
    short = api.post(
        "/dice/draw", {**body, "draws": [{"slot": "a", "sides": 6, "count": 3, "start": 1}]}
    )
    assert short.status_code == 422 and short.json()["type"].endswith("/dice-exhausted")
    other = api.post("/dice/draw", {**body, "dice": {"b": [1]}})
    assert other.status_code == 422 and other.json()["errors"][0]["loc"] == ["body", "dice", "b"]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"draws": []}, ["body", "draws"]),
        ({"draws": [{"slot": "a", "sides": 1, "count": 1}]}, ["body", "draws", 0, "sides"]),
        ({"draws": [{"slot": "a", "sides": 2**32, "count": 1}]}, ["body", "draws", 0, "sides"]),
        ({"draws": [{"slot": "a", "sides": 6, "count": 0}]}, ["body", "draws", 0, "count"]),
        ({"draws": [{"slot": "a", "sides": 6, "count": 101}]}, ["body", "draws", 0, "count"]),
        (
            {"draws": [{"slot": "a", "sides": 6, "count": 1, "start": -1}]},
            ["body", "draws", 0, "start"],
        ),
        (
            {"draws": [{"slot": "a", "sides": 6, "count": 1, "start": 901}]},
            ["body", "draws", 0, "start"],
        ),
        ({"draws": [{"slot": "a b", "sides": 6, "count": 1}]}, ["body", "draws", 0, "slot"]),
        (
            {"draws": [{"slot": "a", "sides": 6, "count": 1, "face": 2}]},
            ["body", "draws", 0, "face"],
        ),
        ({"draws": [{"slot": "a", "sides": 6, "count": 1}], "foundry": True}, ["body", "foundry"]),
        (
            {"draws": [{"slot": f"s{i}", "sides": 6, "count": 1} for i in range(101)]},
            ["body", "draws"],
        ),
        (
            {
                "draws": [
                    {"slot": "a", "sides": 6, "count": 1},
                    {"slot": "a", "sides": 8, "count": 1},
                ]
            },
            ["body", "draws", 1, "slot"],
        ),
    ],
)
def test_a_bad_draw_is_a_422_naming_its_field(
    api: Api, body: dict[str, Any], loc: list[Any]
) -> None:
    response = api.post("/dice/draw", body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["errors"][0]["loc"] == loc, problem


def test_the_dice_drawn_are_bounded_by_the_dice_budget(api: Api) -> None:
    # 11 draws of 900 dice skipped and 100 drawn: 11,000 dice, over the 10,000 of a request.
    body = {"draws": [{"slot": f"s{i}", "sides": 6, "count": 100, "start": 900} for i in range(11)]}
    response = api.post("/dice/draw", body)
    assert response.status_code == 422
    assert response.json()["type"].endswith("/limit-exceeded")
    assert response.json()["errors"][0]["loc"] == ["body", "draws"]
    assert f"{MAX_DICE:,}" in response.json()["detail"]


def test_the_answer_s_size_is_within_its_estimate() -> None:
    # The largest answer the budget allows per die: 10 draws of 1,000 dice of 2^32-1 sides, slot
    # names of 160 characters, in Arabic.
    slot = "s" * 150
    body = {
        "seed": "x" * 128,
        "lang": "ar",
        "draws": [
            {"slot": f"{slot}{i:010d}", "sides": 2**32 - 1, "count": 100, "start": 900}
            for i in range(10)
        ],
    }
    api = Api()
    response = api.post("/dice/draw", body)
    assert response.status_code == 200, response.text[:300]
    req = draw.DrawRequest.model_validate(body)
    estimate = draw.work(req).answer
    assert len(response.content) <= estimate <= MAX_ANSWER, (len(response.content), estimate)
