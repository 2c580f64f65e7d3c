"""Properties every resolving endpoint keeps, checked over every POST operation of the OpenAPI
document (new systems are covered as soon as their routes are in ``openapi/openapi.json``):

- any schema-valid request gives 200 or a 4xx problem+json, never a 5xx;
- the same request with the same seed gives the same bytes;
- a request without a seed can be replayed from the seed the response returns;
- scripting the dice the seed drew gives the seeded result (only ``source`` says ``dice``);
- the response encoder writes the bytes pydantic writes for the documented response model.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import httpx
import pytest
from hypothesis import given
from pydantic import TypeAdapter, ValidationError
from typing_extensions import is_typeddict

from rules.dice import DiceSource
from rules.errors import RulesError
from service.encoding import encode
from service.endpoints import ResolverEndpoint, endpoints
from tests.conftest import Api
from tests.properties.strategies import (
    HINT,
    PATHS,
    PROFILE,
    RESOLVING,
    SEEDED,
    bodies,
    seeded,
    seeds,
)

PROBLEM_KEYS = {"type", "title", "status", "detail"}
#: Problems carry the request id; compared responses share one so only the resolution can differ.
RID = {"x-request-id": "property-test"}


def _is_problem(r: httpx.Response) -> bool:
    if not r.headers.get("content-type", "").startswith("application/problem+json"):
        return False
    body = r.json()
    return body.keys() >= PROBLEM_KEYS and body["status"] == r.status_code


def test_every_endpoint_is_a_documented_operation(api: Api) -> None:
    served = endpoints(api.app)
    assert served, "no endpoints found"
    assert set(served) == set(PATHS)
    resolvers = {p for p, e in served.items() if isinstance(e, ResolverEndpoint)}
    assert resolvers == set(RESOLVING)


@pytest.mark.parametrize("path", PATHS)
def test_any_valid_request_gives_2xx_or_a_4xx_problem(api: Api, path: str) -> None:
    statuses: list[int] = []

    @PROFILE
    @given(body=bodies(path))
    def run(body: Any) -> None:
        r = api.post(path, json=body)
        statuses.append(r.status_code)
        assert r.status_code == 200 or (400 <= r.status_code < 500 and _is_problem(r)), r.text

    run()
    assert 200 in statuses, f"nothing resolved on {path} ({sorted(set(statuses))}): {HINT}"


@pytest.mark.parametrize("path", SEEDED)
def test_same_request_same_seed_same_bytes(api: Api, path: str) -> None:
    resolved = 0

    @PROFILE
    @given(body=bodies(path), seed=seeds)
    def run(body: Any, seed: str | int) -> None:
        nonlocal resolved
        req = seeded(body, seed)
        first = api.post(path, json=req, headers=RID)
        second = api.post(path, json=req, headers=RID)
        assert first.status_code == second.status_code
        assert first.content == second.content
        if first.status_code == 200:
            resolved += 1
            assert first.json()["seed"] == seed

    run()
    assert resolved, f"nothing resolved on {path}: {HINT}"


@pytest.mark.parametrize("path", SEEDED)
def test_replay_from_the_returned_seed(api: Api, path: str) -> None:
    resolved = 0

    @PROFILE
    @given(body=bodies(path))
    def run(body: Any) -> None:
        nonlocal resolved
        req = seeded(body, 0)
        req.pop("seed")
        first = api.post(path, json=req, headers=RID)
        if first.status_code != 200:
            return
        resolved += 1
        seed = first.json()["seed"]
        assert isinstance(seed, str) and len(seed) == 32 and int(seed, 16) >= 0
        assert api.post(path, json={**req, "seed": seed}, headers=RID).content == first.content

    run()
    assert resolved, f"nothing resolved on {path}: {HINT}"


@pytest.mark.parametrize("path", RESOLVING)
def test_scripted_dice_equal_the_seeded_dice(path: str) -> None:
    # A script of every die a large request drew can pass the default 64 KiB body limit (a 413 is
    # right there): this replay is about the dice, so its app takes bodies of any size we make.
    api = Api(body_limit=16 * 1024 * 1024)
    resolved = 0

    @PROFILE
    @given(body=bodies(path), seed=seeds)
    def run(body: Any, seed: str | int) -> None:
        nonlocal resolved
        req = seeded(body, seed)
        first = api.post(path, json=req, headers=RID)
        if first.status_code != 200:
            return
        resolved += 1
        result = first.json()
        script: dict[str, list[int]] = defaultdict(list)
        for roll in result["rolls"]:
            script[roll["slot"]].append(roll["value"])
        replay = {**req, "dice": script}
        if len(json.dumps(replay)) > api.app.state.settings.body_limit:
            return  # the script of a long resolution (574 attempts of 49 dice) is past the body limit
        scripted = api.post(path, json=replay, headers=RID)
        assert scripted.status_code == 200, scripted.text
        again = scripted.json()
        assert [r["source"] for r in again["rolls"]] == ["dice"] * len(result["rolls"])
        for roll in again["rolls"]:
            roll["source"] = "seed"
        assert again == result

    run()
    assert resolved, f"nothing resolved on {path}: {HINT}"


@pytest.mark.parametrize("path", RESOLVING)
def test_the_encoder_writes_what_the_response_schema_writes(api: Api, path: str) -> None:
    """Results are typed dicts written by orjson (``service.encoding``): the bytes must validate
    against the documented response model, and be exactly the bytes pydantic writes for the value
    they validate to (every field, in the schema's order, written as pydantic writes it).

    The comparison goes through the validated value rather than ``result`` itself: a result may hold
    a request-shaped part as the plain dict of its model's fields (a battle's ``next_state``), which
    pydantic's serialiser for that model would only write by guessing, with a warning."""
    route = endpoints(api.app)[path]
    assert isinstance(route, ResolverEndpoint)
    adapter: TypeAdapter[Any] = TypeAdapter(route.response_model)
    resolved = 0

    @PROFILE
    @given(body=bodies(path))
    def run(body: Any) -> None:
        nonlocal resolved
        try:
            req = route.request_model.model_validate_json(json.dumps(body))
            dice = DiceSource(req.seed if req.seed is not None else "x", req.dice, route.slots(req))
            result = route.resolver(req, dice)
        except (ValidationError, RulesError):
            return
        resolved += 1
        # A typed-dict result is a plain dict (a typed dict refuses isinstance checks).
        assert isinstance(
            result, dict if is_typeddict(route.response_model) else route.response_model
        )
        body_bytes = encode(result)
        documented = adapter.validate_json(body_bytes)
        assert adapter.dump_json(documented) == body_bytes

    run()
    assert resolved, f"nothing resolved on {path}: {HINT}"
