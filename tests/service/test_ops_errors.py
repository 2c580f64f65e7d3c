"""Errors (``service.middleware.errors``, ``service.problems``): what is not JSON, what cannot be
read, and the 500 of last resort that tells nothing of the inside and logs the traceback."""

from __future__ import annotations

import json

import pytest

from tests.conftest import Api, assert_problem
from tests.service.ops import FOUNDRY, JSON, ROLL, failing_app, log_lines


def test_wrong_content_type_is_415(api: Api) -> None:
    r = api.post("/dos/roll", content=json.dumps(ROLL), headers={"content-type": "text/plain"})
    assert_problem(r, 415, "unsupported-media-type")


@pytest.mark.parametrize(
    "body",
    [
        b'{"pool": 3, "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"pool": ' + b"9" * 20_000 + b"}",
        b'{"pool": 3, "seed": ' + b"9" * 5000 + b"}",
        b'{"pool": 1e999999}',
    ],
)
def test_absurd_json_is_rejected_cleanly(api: Api, body: bytes) -> None:
    r = api.post("/dos/roll", content=body, headers=JSON)
    assert r.status_code in (400, 422), r.text
    assert r.headers["content-type"].startswith("application/problem+json")


def test_unexpected_exception_is_a_500_problem_logged_with_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = failing_app(log_format="json")
    r = api.post("/broken/roll", ROLL, headers={"X-Request-ID": "boom-1", "Origin": FOUNDRY})
    problem = assert_problem(r, 500, "internal-error")
    assert problem["request_id"] == "boom-1" == r.headers["x-request-id"]
    assert r.headers["access-control-allow-origin"] == "*"  # the browser can read the problem
    assert "secret" not in r.text and "Traceback" not in r.text and "RuntimeError" not in r.text
    lines = log_lines(capsys.readouterr().err)
    [error] = [x for x in lines if x.get("level") == "error"]
    assert error["request_id"] == "boom-1"
    assert "RuntimeError" in json.dumps(error["exception"])
    assert "secret internals" in json.dumps(error["exception"])
    # The frames' local variables (the request body and its seed among them) are never logged.
    assert '"locals"' not in json.dumps(error) and "seed" not in json.dumps(error["exception"])
    [access] = [x for x in lines if x.get("event") == "request"]
    assert (access["status"], access["system"]) == (500, "broken")
