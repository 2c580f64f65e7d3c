"""Every odds and simulate answer is what its documented response model writes, and every
probability in it is exact, in lowest terms, and agrees with its float."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from service.endpoints import OddsEndpoint, ShapedOddsEndpoint, endpoints
from tests.conftest import Api
from tests.odds.oracles import exact

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REQUESTS = sorted(
    p for p in GOLDEN.glob("*/*.request.json") if "odds" in p.name or "simulate" in p.name
)


def _probabilities(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        if value.keys() == {"p", "exact"}:
            return [value]
        return [p for v in value.values() for p in _probabilities(v)]
    if isinstance(value, list):
        return [p for v in value for p in _probabilities(v)]
    return []


@pytest.mark.parametrize("request_file", REQUESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_answers_match_their_schema(api: Api, request_file: Path) -> None:
    spec = json.loads(request_file.read_text(encoding="utf-8"))
    route = endpoints(api.app)[spec["path"]]
    assert isinstance(route, OddsEndpoint | ShapedOddsEndpoint)
    response = api.post(spec["path"], spec["body"])
    assert response.status_code == 200, response.text
    adapter: TypeAdapter[Any] = TypeAdapter(route.response_model)
    assert adapter.dump_json(adapter.validate_json(response.content)) == response.content
    for p in _probabilities(response.json()):
        assert 0 <= exact(p) <= 1


def test_every_new_path_has_a_golden_request(api: Api) -> None:
    paths = {
        p for p, r in endpoints(api.app).items() if isinstance(r, OddsEndpoint | ShapedOddsEndpoint)
    }
    golden = {json.loads(p.read_text(encoding="utf-8"))["path"] for p in REQUESTS}
    assert paths == golden
