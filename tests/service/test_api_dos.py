"""/dos/roll, /dos/test, /dos/opposed, /dos/complex over HTTP: shape, determinism, replay, bad input."""

from __future__ import annotations

import pytest

from rules.dice import stream_values
from tests.conftest import Api, assert_problem


def test_roll_shape(api: Api) -> None:
    r = api.post("/dos/roll", {"pool": 3, "dice": {"roll": [10, 4, 1, 7]}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["rng"] == "sha256-v1"
    assert body["roll"]["slot"] == "roll"
    assert body["roll"]["dice"] == [
        {"value": 10, "cancelled": True, "extra": False},
        {"value": 4, "cancelled": False, "extra": False},
        {"value": 1, "cancelled": False, "extra": False},
    ]
    assert body["roll"]["result"] == 5
    assert body["unused_dice"] == {"roll": [7]}
    assert [e["code"] for e in body["events"]][:2] == ["dos.pool.rolled", "dos.die.cancelled"]
    assert all(e["text"] for e in body["events"])


def test_test_contract_fields(api: Api) -> None:
    r = api.post(
        "/dos/test", {"stat": 44, "skill": 5, "dc": 47, "dice": {"check": [5, 1, 6, 1, 1]}}
    )
    body = r.json()
    assert {
        "roll",
        "total",
        "dc",
        "success",
        "outcome",
        "margin",
        "seed",
        "rolls",
        "events",
    } <= body.keys()
    assert (body["total"], body["outcome"], body["success"], body["margin"]) == (
        44,
        "bad_luck",
        False,
        -3,
    )


def test_same_request_same_seed_same_bytes(api: Api) -> None:
    req = {"stat": 9, "skill": 2, "dc": 20, "attempts": 6, "successes_needed": 3, "seed": "Baltir"}
    assert api.post("/dos/complex", req).content == api.post("/dos/complex", req).content


def test_replay_from_the_returned_seed(api: Api) -> None:
    req = {"a": {"stat": 25, "skill": 4}, "b": {"stat": 20, "skill": 5, "difficulty": "hard"}}
    first = api.post("/dos/opposed", req).json()
    seed = first["seed"]
    assert isinstance(seed, str) and len(seed) == 32 and int(seed, 16) >= 0
    again = api.post("/dos/opposed", {**req, "seed": seed}).json()
    assert again == first


@pytest.mark.parametrize("seed", ["Sarathi vs kobolds", 42, -7, "0"])
def test_seeded_dice_are_the_sha256_stream(api: Api, seed: str | int) -> None:
    body = api.post("/dos/roll", {"pool": 8, "seed": seed}).json()
    values = [r["value"] for r in body["rolls"]]
    assert values == stream_values(seed, "roll", 10, len(values))
    assert body["seed"] == seed


def test_scripted_equals_seeded_when_script_holds_the_stream(api: Api) -> None:
    seeded = api.post("/dos/test", {"stat": 10, "skill": 6, "dc": 30, "seed": 7}).json()
    script = [r["value"] for r in seeded["rolls"]]
    scripted = api.post(
        "/dos/test", {"stat": 10, "skill": 6, "dc": 30, "seed": 7, "dice": {"check": script}}
    ).json()
    for key in ("roll", "total", "success", "outcome", "margin"):
        assert scripted[key] == seeded[key]
    assert {r["source"] for r in scripted["rolls"]} == {"dice"}


def test_example_3_over_http(api: Api) -> None:
    dice = {
        "attempt.1": [6, 5],
        "attempt.2": [8, 5],
        "attempt.3": [6, 4],
        "attempt.4": [1, 6],
        "attempt.5": [10, 7, 8],
    }
    req = {"stat": 9, "skill": 2, "dc": 20, "attempts": 6, "successes_needed": 3, "dice": dice}
    body = api.post("/dos/complex", {**req, "options": {"ties": "succeed"}}).json()
    assert [a["total"] for a in body["attempts"]] == [20, 22, 19, 10, 34]
    assert body["success"] is True
    default = api.post("/dos/complex", {**req, "seed": 1}).json()
    assert [a["success"] for a in default["attempts"][:5]] == [False, True, False, False, True]
    sixth = [r["source"] for r in default["rolls"] if r["slot"] == "attempt.6"]
    assert sixth and set(sixth) == {"seed"}  # unscripted slots still use the seed


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"stat": 1, "skill": 101, "dc": 1}, ["body", "skill"]),
        ({"stat": 1, "skill": -1, "dc": 1}, ["body", "skill"]),
        ({"stat": 1_000_001, "skill": 1, "dc": 1}, ["body", "stat"]),
        ({"stat": "10", "skill": 1, "dc": 1}, ["body", "stat"]),
        ({"stat": 1.5, "skill": 1, "dc": 1}, ["body", "stat"]),
        ({"stat": True, "skill": 1, "dc": 1}, ["body", "stat"]),
        ({"skill": 1, "dc": 1}, ["body", "stat"]),
        ({"stat": 1, "skill": 1, "dc": 1, "dificulty": "hard"}, ["body", "dificulty"]),
        ({"stat": 1, "skill": 1, "dc": 1, "difficulty": "brutal"}, ["body", "difficulty"]),
        ({"stat": 1, "skill": 1, "dc": 1, "modifier_percent": 101}, ["body", "modifier_percent"]),
        (
            {"stat": 1, "skill": 1, "dc": 1, "options": {"ties": "maybe"}},
            ["body", "options", "ties"],
        ),
        ({"stat": 1, "skill": 1, "dc": 1, "seed": ""}, ["body", "seed"]),
        ({"stat": 1, "skill": 1, "dc": 1, "seed": "x" * 129}, ["body", "seed"]),
        ({"stat": 1, "skill": 1, "dc": 1, "seed": "tab\there"}, ["body", "seed"]),
        ({"stat": 1, "skill": 1, "dc": 1, "seed": 10**200}, ["body", "seed"]),
        ({"stat": 1, "skill": 1, "dc": 1, "dice": {"check": [0]}}, ["body", "dice", "check", 0]),
        (
            {"stat": 1, "skill": 1, "dc": 1, "dice": {"check": [1] * 1001}},
            ["body", "dice", "check"],
        ),
        (
            {"stat": 1, "skill": 1, "dc": 1, "dice": {"bad slot!": [1]}},
            ["body", "dice", "bad slot!"],
        ),
        ({"stat": 10**30, "skill": 1, "dc": 1}, ["body", "stat"]),
    ],
)
def test_bad_input_is_a_422_naming_the_field(
    api: Api, body: dict[str, object], loc: list[object]
) -> None:
    problem = assert_problem(api.post("/dos/test", body), 422)
    locs = [e["loc"][: len(loc)] for e in problem["errors"]]
    assert loc in locs, problem


def test_skill_bound_is_named(api: Api) -> None:
    problem = assert_problem(api.post("/dos/test", {"stat": 1, "skill": 101, "dc": 1}), 422)
    assert "100" in problem["detail"]


def test_dice_for_an_unknown_slot(api: Api) -> None:
    problem = assert_problem(
        api.post("/dos/test", {"stat": 1, "skill": 1, "dc": 1, "dice": {"attack": [3]}}),
        422,
        "dice-script",
    )
    assert problem["errors"][0]["loc"] == ["body", "dice", "attack"]


def test_script_out_of_range_names_slot_and_die(api: Api) -> None:
    problem = assert_problem(
        api.post("/dos/roll", {"pool": 1, "dice": {"roll": [11]}}), 422, "dice-script"
    )
    assert "d10" in problem["detail"] and "roll" in problem["detail"]


def test_script_exhausted_names_slot_size_and_count(api: Api) -> None:
    problem = assert_problem(
        # seeded: the 3 dice after the script are [8, 8, 3], no 10 to add extra dice (was flaky)
        api.post("/dos/roll", {"pool": 4, "dice": {"roll": [3]}, "seed": "exhausted"}),
        422,
        "dice-exhausted",
    )
    assert "3 more d10" in problem["detail"] and "'roll'" in problem["detail"]


@pytest.mark.parametrize("raw", [b"{", b"", b"[1,2]", b"null", b'{"pool": 1,}', b"\xff\xfe"])
def test_malformed_or_wrong_json(api: Api, raw: bytes) -> None:
    r = api.post("/dos/roll", content=raw, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422)
    assert_problem(r, r.status_code)


def test_deep_nesting_is_rejected_cleanly(api: Api) -> None:
    raw = b'{"pool": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = api.post("/dos/roll", content=raw, headers={"content-type": "application/json"})
    assert_problem(r, r.status_code)
    assert 400 <= r.status_code < 500


def test_wrong_content_type_is_415(api: Api) -> None:
    r = api.post(
        "/dos/roll",
        content=b"pool=3",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert_problem(r, 415, "unsupported-media-type")


def test_404_and_405_are_problems(api: Api) -> None:
    assert_problem(api.get("/dos/nothing"), 404, "not-found")
    problem = assert_problem(api.get("/dos/test"), 405, "method-not-allowed")
    assert "POST" in problem["detail"]


def test_docs_work_offline(api: Api) -> None:
    for path in ("/docs", "/redoc"):
        page = api.get(path)
        assert page.status_code == 200
        assert "cdn" not in page.text.lower() and "https://" not in page.text
        for asset in ("swagger-ui-bundle.js", "redoc.standalone.js"):
            if asset in page.text:
                assert api.get(f"/static/docs/{asset}").status_code == 200
