"""The body limit (``service.middleware.limits``): a body over it is a 413, from its
``Content-Length`` or as it streams in."""

from __future__ import annotations

import json

from tests.conftest import Api, assert_problem
from tests.service.ops import JSON, ROLL, achunks, iter_bytes


def test_body_over_the_limit_is_413_from_content_length(api: Api) -> None:
    r = api.post("/dos/roll", content=b" " * (64 * 1024 + 1), headers=JSON)
    problem = assert_problem(r, 413, "payload-too-large")
    assert "65536" in problem["detail"]
    assert r.headers["x-request-id"] == problem["request_id"]


def test_chunked_body_over_the_limit_is_413(api: Api) -> None:
    r = api.post("/dos/roll", content=achunks(100_000), headers=JSON)
    assert "content-length" not in r.request.headers  # really chunked
    assert_problem(r, 413, "payload-too-large")


def test_chunked_body_under_the_limit_is_served(api: Api) -> None:
    ok = api.post("/dos/roll", content=iter_bytes(json.dumps(ROLL).encode()), headers=JSON)
    assert ok.status_code == 200, ok.text


def test_body_limit_is_a_setting() -> None:
    small = Api(body_limit=2048)
    assert_problem(small.post("/dos/roll", content=b" " * 2049, headers=JSON), 413)
    assert small.post("/dos/roll", {**ROLL, "seed": "x" * 100}).status_code == 200
