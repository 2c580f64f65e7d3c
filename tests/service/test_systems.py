"""``GET /systems``: the registry as served (issue 26)."""

from __future__ import annotations

from pydantic import TypeAdapter

from rules.narration import LANGUAGES
from rules.registry import SYSTEMS
from service.examples import EXAMPLES
from service.systems import SystemInfo
from tests.conftest import Api


def test_get_systems_lists_the_registry(api: Api) -> None:
    r = api.get("/systems")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    listed = TypeAdapter(list[SystemInfo]).validate_json(r.content)
    assert [s.id for s in listed] == [s.id for s in SYSTEMS]
    for info, system in zip(listed, SYSTEMS, strict=True):
        assert info.name["en"] == system.name["en"]
        assert set(info.name) == set(LANGUAGES)
        assert info.rules_version == system.rules_version
        assert info.languages == list(LANGUAGES)  # every text of the four is translated
        assert info.game == system.game  # the dice roller is an entry without a game
        assert [e.path for e in info.endpoints] == [
            system.prefix + e.path for e in system.endpoints
        ]


def test_each_answer_carries_its_system_s_version(api: Api) -> None:
    versions = {
        e["path"]: s["rules_version"] for s in api.get("/systems").json() for e in s["endpoints"]
    }
    for path, example in EXAMPLES.items():
        answer = api.post(path, json=example).json()
        assert answer["rules_version"] == versions[path], path


def test_every_path_it_names_is_served(api: Api) -> None:
    paths = api.get("/openapi.json").json()["paths"]
    for system in api.get("/systems").json():
        for endpoint in system["endpoints"]:
            for key in ("path", "odds", "simulate"):
                if key in endpoint:
                    assert "post" in paths[endpoint[key]], endpoint[key]
    named = {
        e.get(k)
        for s in api.get("/systems").json()
        for e in s["endpoints"]
        for k in ("odds", "simulate")
    }
    assert {"/dos/odds/test", "/dos/simulate", "/dragon/odds", "/riders/simulate"} <= named
    assert paths["/systems"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
