"""Issue 25's reproducers at the app (items 10, 11, 12 of its first list; the server's own limits are
in ``test_server_limits.py``): a POST without a JSON Content-Type, duplicate keys, CORS refusals,
trailing slashes and the Host header, control characters in the console log."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from tests.conftest import Api, assert_problem, http_scope
from tests.service.ops import CHROME_PNA_PREFLIGHT, FOUNDRY, ROLL


@pytest.mark.parametrize(
    "headers",
    [{}, {"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"}],
    ids=["none", "text", "form"],
)
@pytest.mark.parametrize("path", ["/dos/roll", "/dos/odds/test", "/dragon/simulate"])
def test_every_post_without_a_json_content_type_is_415(
    api: Api, path: str, headers: dict[str, str]
) -> None:
    """A browser may send a typeless or text body cross-origin without a preflight: refused."""
    r = api.post(path, content=json.dumps(ROLL).encode(), headers=headers)
    problem = assert_problem(r, 415, "unsupported-media-type")
    assert "application/json" in problem["detail"]
    assert "content-type" not in r.request.headers or headers


def test_json_with_a_charset_or_a_json_suffix_is_taken(api: Api) -> None:
    for media in ("application/json; charset=utf-8", "application/vnd.dragonroll+json"):
        assert (
            api.post(
                "/dos/roll", content=json.dumps(ROLL), headers={"content-type": media}
            ).status_code
            == 200
        )


@pytest.mark.parametrize(
    ("path", "body", "key"),
    [
        ("/dos/test", b'{"stat":24,"stat":1,"skill":3,"dc":43,"seed":"s"}', "stat"),
        ("/dos/opposed", b'{"a":{"stat":1,"skill":2,"skill":9},"b":{"stat":1,"skill":1}}', "skill"),
        ("/dos/odds/test", b'{"stat":24,"skill":3,"dc":43,"dc":1}', "dc"),
        ("/dos/odds", b'{"stat":24,"skill":3,"dc":43,"dc":1}', "dc"),
    ],
)
def test_a_duplicate_key_is_a_422_naming_it(api: Api, path: str, body: bytes, key: str) -> None:
    """pydantic keeps the last of two keys: {"stat":24,"stat":1} totalled 21 instead of 44."""
    r = api.post(path, content=body, headers={"content-type": "application/json"})
    problem = assert_problem(r, 422, "duplicate-key")
    assert repr(key) in problem["detail"]
    assert problem["errors"][0]["type"] == "duplicate_key"


def test_the_same_key_in_two_objects_is_fine(api: Api) -> None:
    body = {"a": {"stat": 1, "skill": 2}, "b": {"stat": 1, "skill": 1}, "seed": "s"}
    assert api.post("/dos/opposed", body).status_code == 200


def test_a_refused_preflight_is_a_problem_without_any_grant() -> None:
    api = Api(cors_origins="https://vtt.example.org")
    r = api.request("OPTIONS", "/dos/test", headers={**CHROME_PNA_PREFLIGHT})
    problem = assert_problem(r, 400, "preflight-refused")
    assert "origin" in problem["detail"]
    assert problem["instance"] == "/dos/test" and problem["request_id"] == r.headers["x-request-id"]
    assert not [h for h in r.headers if h.startswith("access-control-allow")]


def test_a_preflight_asking_for_a_header_not_allowed_is_a_problem(api: Api) -> None:
    headers = {
        "Origin": FOUNDRY,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "x-secret",
    }
    problem = assert_problem(api.request("OPTIONS", "/dos/roll", headers=headers), 400)
    assert "headers" in problem["detail"]


def _vary(response: httpx.Response) -> list[str]:
    return [n.strip() for v in response.headers.get_list("vary") for n in v.split(",")]


@pytest.mark.parametrize("origins", ["*", "https://vtt.example.org"])
@pytest.mark.parametrize("origin", [None, FOUNDRY, "https://vtt.example.org"])
def test_vary_origin_appears_once(origins: str, origin: str | None) -> None:
    api = Api(cors_origins=origins)
    headers = {"Origin": origin} if origin else {}
    r = api.post("/dos/roll", ROLL, headers=headers)
    assert r.status_code == 200
    assert len(r.headers.get_list("vary")) == 1, r.headers.get_list("vary")
    assert _vary(r).count("Origin") == 1 and "Accept-Language" in _vary(r)


@pytest.mark.parametrize("path", ["/dos/test/", "/dos/roll/", "/docs/"])
def test_no_trailing_slash_redirect_and_nothing_from_the_host(api: Api, path: str) -> None:
    r = api.request(
        "POST" if path.startswith("/dos") else "GET",
        path,
        json={"stat": 1, "skill": 1, "dc": 1},
        headers={"host": "evil.example"},
    )
    assert_problem(r, 404, "not-found")
    assert "location" not in r.headers and "evil.example" not in r.text


def test_the_console_log_escapes_control_characters(capsys: pytest.CaptureFixture[str]) -> None:
    """uvicorn unquotes the path: ``/dos/%1b[31m...`` reaches the log as an ESC (issue 25)."""
    api = Api(log_format="console")
    capsys.readouterr()
    scope = http_scope("GET", "/dos/\x1b[31mred\u202eevil\x85\r\nfake line")

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    asyncio.run(api.app(scope, receive, send))
    err = capsys.readouterr().err
    [line] = [x for x in err.splitlines() if "request" in x]  # "fake line" started no line
    assert "fake line" in line and "x1b[31mred" in line and "u202e" in line, line
    for raw in ("\x1b", "\u202e", "\x85", "\r"):  # colours are off: not a terminal
        assert raw not in err
