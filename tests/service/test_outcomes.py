"""Each endpoint's outcome: the event codes its descriptor names (``rules.system.Endpoint.outcome``),
listed by ``GET /systems``, which the playground and the Owlbear extension show as the answer's
outcome in one line (already in the reader's language: the events' own texts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.narration import LANGUAGES
from rules.registry import SYSTEMS
from rules.system import Endpoint, System
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
ENDPOINTS = [(s, e) for s in SYSTEMS for e in s.endpoints]
IDS = [s.prefix + e.path for s, e in ENDPOINTS]


def golden_bodies(path: str) -> list[dict[str, object]]:
    bodies = []
    for request in sorted((ROOT / "tests" / "golden").glob("*/*.request.json")):
        spec = json.loads(request.read_text(encoding="utf-8"))
        if spec["path"] == path and spec.get("status", 200) == 200:
            bodies.append(spec["body"])
    return bodies


@pytest.mark.parametrize(("system", "endpoint"), ENDPOINTS, ids=IDS)
def test_every_endpoint_names_its_outcome_among_its_own_codes(
    system: System, endpoint: Endpoint
) -> None:
    codes = {m.context.split("|", 1)[0] for m in system.texts if "#" not in m.context}
    assert endpoint.outcome, f"{system.prefix}{endpoint.path} names no outcome event"
    assert set(endpoint.outcome) <= codes, set(endpoint.outcome) - codes


@pytest.mark.parametrize(("system", "endpoint"), ENDPOINTS, ids=IDS)
def test_every_example_and_golden_answer_tells_its_outcome(
    api: Api, system: System, endpoint: Endpoint
) -> None:
    path = system.prefix + endpoint.path
    bodies = [*endpoint.examples.values(), *golden_bodies(path)]
    assert bodies
    for i, body in enumerate(bodies):
        lang = LANGUAGES[i % len(LANGUAGES)]
        answer = api.post(path, {**body, "lang": lang}).json()
        told = [e for e in answer["events"] if e["code"] in endpoint.outcome]
        assert told, f"{path} {body}: no event of {endpoint.outcome}"
        assert all(e["text"] for e in told)


def test_get_systems_lists_each_endpoint_s_outcome(api: Api) -> None:
    listed = {e["path"]: e["outcome"] for s in api.get("/systems").json() for e in s["endpoints"]}
    assert listed == {path: list(e.outcome) for path, (_, e) in zip(IDS, ENDPOINTS, strict=True)}
