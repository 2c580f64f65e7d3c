"""The request id and the access line (``service.middleware.access``): an id taken or made and
returned on every answer and problem, the security headers, one JSON line per request."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.conftest import Api, assert_problem
from tests.service.ops import FOUNDRY, ROLL, requests_logged


def test_request_id_is_taken_when_well_formed(api: Api) -> None:
    r = api.post("/dos/roll", ROLL, headers={"X-Request-ID": "vtt-7.abc_DEF"})
    assert r.status_code == 200
    assert r.headers["x-request-id"] == "vtt-7.abc_DEF"


@pytest.mark.parametrize("given", ["", "a b", "x" * 129, "<script>", "id;drop", "é"])
def test_request_id_is_made_when_malformed(api: Api, given: str) -> None:
    r = api.post("/dos/roll", ROLL, headers={"X-Request-ID": given.encode("utf-8")})
    assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"]), r.headers


def test_request_id_is_made_when_absent_and_differs_per_request(api: Api) -> None:
    first, second = api.post("/dos/roll", ROLL), api.post("/dos/roll", ROLL)
    assert first.headers["x-request-id"] != second.headers["x-request-id"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/nowhere", None, 404),
        ("GET", "/dos/roll", None, 405),
        ("POST", "/dos/roll", {"pool": "many"}, 422),
        ("POST", "/dos/roll", {"pool": 2, "dice": {"roll": [11, 1]}}, 422),
    ],
)
def test_problems_carry_the_request_id_in_header_and_body(
    api: Api, method: str, path: str, body: Any, status: int
) -> None:
    r = api.request(method, path, json=body, headers={"X-Request-ID": "req-42"})
    problem = assert_problem(r, status)
    assert r.headers["x-request-id"] == "req-42"
    assert problem["request_id"] == "req-42"


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/livez"), ("GET", "/nowhere"), ("GET", "/docs"), ("GET", "/openapi.json")],
)
def test_security_headers_on_every_response(api: Api, method: str, path: str) -> None:
    r = api.request(method, path)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_cross_origin_post_exposes_the_request_id(api: Api) -> None:
    r = api.post("/dos/roll", ROLL, headers={"Origin": FOUNDRY})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == "*"
    assert "x-request-id" in r.headers["access-control-expose-headers"].lower()


def test_one_canonical_json_line_per_request_without_bodies(
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = Api(log_format="json")
    capsys.readouterr()
    api.post("/dos/roll", {"pool": 2, "seed": "SECRET-SEED-9"}, headers={"X-Request-ID": "r-1"})
    api.get("/livez")
    api.get("/readyz")
    api.get("/metrics")
    api.get("/nowhere")
    lines = requests_logged(capsys.readouterr().err)
    assert [(x["route"], x["status"]) for x in lines] == [("/dos/roll", 200), ("unmatched", 404)]
    first = lines[0]
    assert first["method"] == "POST" and first["request_id"] == "r-1" and first["system"] == "dos"
    assert isinstance(first["duration_ms"], float) and first["level"] == "info"
    assert {"timestamp", "path"} <= first.keys()
    assert "SECRET-SEED-9" not in json.dumps(lines)


def test_console_format_and_quiet_levels(capsys: pytest.CaptureFixture[str]) -> None:
    Api(log_format="console").post("/dos/roll", ROLL, headers={"X-Request-ID": "c-1"})
    err = capsys.readouterr().err
    assert "request" in err and "c-1" in err and not err.lstrip().startswith("{")
    Api(log_level="warning").post("/dos/roll", ROLL, headers={"X-Request-ID": "w-1"})
    assert "w-1" not in capsys.readouterr().err
