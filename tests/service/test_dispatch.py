"""The two ways through the service for a resolver POST: the app object's shortcut (the edge
middleware straight around the route, ``service.app.Dragonroll``) and FastAPI's stack (the same
edge, then FastAPI's exception middleware and router, then the same route); compared, case by case,
in answers, headers, logs and metrics."""

from __future__ import annotations

import asyncio
import re
from typing import Any
from unittest import mock

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import Api, http_scope
from tests.service.test_ops import JSON, ROLL, achunks, failing_app, log_lines

FOUNDRY = "http://localhost:30000"
RID = {"x-request-id": "edge-1"}

# --- the app's own dispatch of resolver POSTs ----------------------------------------------------


def _pair(**settings: Any) -> tuple[Api, Api]:
    """(the app as built, the same app with its shortcut off: every request through FastAPI)."""
    fast, slow = failing_app(**settings), failing_app(**settings)
    slow.app._routes = {}  # type: ignore[attr-defined]
    return fast, slow


CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "resolved": ("/dos/roll", {"json": ROLL}),
    "validation": ("/dos/roll", {"json": {"pool": "x"}}),
    "rules-error": (
        "/dos/test",
        {"json": {"stat": 1, "skill": 1, "dc": 1, "seed": 1, "dice": {"check": [11]}}},
    ),
    "bad-json": ("/dos/roll", {"content": b'{"pool": ', "headers": JSON}),
    "too-large": ("/dos/roll", {"content": b" " * 70_000, "headers": JSON}),
    "too-large-chunked": ("/dos/roll", {"content": "chunked", "headers": JSON}),
    "media-type": ("/dos/roll", {"content": b"{}", "headers": {"content-type": "text/plain"}}),
    "unexpected": ("/broken/roll", {"json": ROLL}),
}
STATUSES = {
    "resolved": 200,
    "validation": 422,
    "rules-error": 422,
    "bad-json": 400,
    "too-large": 413,
    "too-large-chunked": 413,
    "media-type": 415,
    "unexpected": 500,
}


def _call(api: Api, case: str, origin: bool) -> httpx.Response:
    path, kwargs = CASES[case]
    kwargs = {**kwargs, "headers": {**RID, **kwargs.get("headers", {})}}
    if origin:
        kwargs["headers"]["origin"] = FOUNDRY
    if kwargs.get("content") == "chunked":
        kwargs["content"] = achunks(90_000)
    return api.post(path, **kwargs)


def _comparable(err: str) -> list[dict[str, Any]]:
    lines = log_lines(err)
    for line in lines:
        line.pop("timestamp", None)
        line.pop("duration_ms", None)
        if "exception" in line:  # the frames differ (FastAPI's stack is deeper): keep the error
            line["exception"] = [e.get("exc_type") for e in line["exception"]]
    return lines


@pytest.mark.parametrize("origin", [False, True], ids=["same-origin", "cors"])
@pytest.mark.parametrize("case", list(CASES))
def test_dispatch_answers_logs_and_counts_as_the_stack_did(
    capsys: pytest.CaptureFixture[str], case: str, origin: bool
) -> None:
    fast, slow = _pair(log_format="json")
    calls: list[str] = []
    through_fastapi = FastAPI.__call__

    async def spy(self: FastAPI, scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["type"])
        await through_fastapi(self, scope, receive, send)

    capsys.readouterr()
    with mock.patch.object(FastAPI, "__call__", spy):
        got = _call(fast, case, origin)
        assert calls == []  # answered without FastAPI.__call__ and the middleware stack
        fast_err = capsys.readouterr().err
        want = _call(slow, case, origin)
        assert calls == ["http"]
        slow_err = capsys.readouterr().err
    assert got.status_code == STATUSES[case], got.text
    assert got.headers.multi_items() == want.headers.multi_items()
    assert got.content == want.content
    assert got.headers["x-request-id"] == "edge-1"
    assert got.headers["x-content-type-options"] == "nosniff"
    assert got.headers["referrer-policy"] == "no-referrer"
    if origin:
        assert got.headers["access-control-allow-origin"] == "*"
        assert got.headers["access-control-expose-headers"] == "X-Request-ID"
    if got.status_code != 200:
        problem = got.json()
        assert problem["request_id"] == "edge-1" and problem["instance"] == CASES[case][0]
    lines = _comparable(fast_err)
    assert lines == _comparable(slow_err)
    [access] = [x for x in lines if x.get("event") == "request"]
    assert access["status"] == STATUSES[case]
    if case == "unexpected":
        [error] = [x for x in lines if x.get("level") == "error"]
        assert error["request_id"] == "edge-1" and error["exception"] == ["RuntimeError"]
    numbers = re.compile(r"^dragonroll_http_request_duration_seconds_(bucket|sum).*$", re.M)
    assert numbers.sub("", fast.get("/metrics").text) == numbers.sub("", slow.get("/metrics").text)


class _Dead(Exception):
    """The connection went away while the answer was being sent."""


#: What httpx cannot send: (body messages received, whether ``send`` fails once the answer started).
RAW_CASES: dict[str, tuple[list[dict[str, Any]], bool]] = {
    # One message over the limit and no Content-Length: refused once read, not announced.
    "too-large-unannounced": ([{"type": "http.request", "body": b" " * 70_000}], False),
    "disconnect": (
        [
            {"type": "http.request", "body": b'{"pool": ', "more_body": True},
            {"type": "http.disconnect"},
        ],
        False,
    ),
    "send-fails": ([{"type": "http.request", "body": b'{"pool": 3, "seed": 1}'}], True),
}


def _raw(api: Api, messages: list[dict[str, Any]], fail: bool) -> tuple[list[Any], str | None]:
    """POST /dos/roll as plain ASGI: (the messages the app sent, the exception it raised)."""
    scope = http_scope(
        "POST",
        "/dos/roll",
        [(b"content-type", b"application/json"), (b"x-request-id", b"edge-1")],
    )
    pending = list(messages)
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append((message["type"], message.get("status"), message.get("headers")))
        if fail and message["type"] == "http.response.body":
            raise _Dead("the client went away")

    async def run() -> str | None:
        try:
            await api.app(scope, receive, send)
        except Exception as exc:  # what reaches the server
            return type(exc).__name__
        return None

    return sent, asyncio.run(run())


@pytest.mark.parametrize("case", list(RAW_CASES))
def test_dispatch_meets_a_dying_client_as_the_stack_did(
    capsys: pytest.CaptureFixture[str], case: str
) -> None:
    fast, slow = _pair(log_format="json")
    messages, fail = RAW_CASES[case]
    capsys.readouterr()
    got = _raw(fast, messages, fail)
    fast_err = capsys.readouterr().err
    want = _raw(slow, messages, fail)
    slow_err = capsys.readouterr().err
    assert got == want
    # Through FastAPI's stack, Starlette's ServerErrorMiddleware (outside the edge) calls the app's
    # 500 handler for an error the edge let out (send-fails); that handler does not log it again.
    lines = _comparable(fast_err)
    assert lines == _comparable(slow_err)
    [access] = [x for x in lines if x.get("event") == "request"]
    assert access["request_id"] == "edge-1"
    if case == "too-large-unannounced":
        assert got == (
            [("http.response.start", 413, mock.ANY), ("http.response.body", None, None)],
            None,
        )
    if case == "send-fails":
        assert got[1] == "_Dead" and access["status"] == 200
        [error] = [x for x in lines if x.get("level") == "error"]
        assert error["event"] == "unhandled exception after the response started"
    numbers = re.compile(r"^dragonroll_http_request_duration_seconds_(bucket|sum).*$", re.M)
    assert numbers.sub("", fast.get("/metrics").text) == numbers.sub("", slow.get("/metrics").text)


def test_everything_but_resolver_posts_goes_through_fastapi(api: Api) -> None:
    calls: list[tuple[str, str]] = []
    through_fastapi = FastAPI.__call__

    async def spy(self: FastAPI, scope: Any, receive: Any, send: Any) -> None:
        calls.append((scope["method"], scope["path"]))
        await through_fastapi(self, scope, receive, send)

    with mock.patch.object(FastAPI, "__call__", spy):
        assert api.post("/dos/roll", ROLL).status_code == 200
        assert api.get("/dos/roll").status_code == 405
        assert api.request("OPTIONS", "/dos/roll", headers={"origin": FOUNDRY}).status_code == 405
        assert api.post("/dos/roll/", ROLL).status_code in (307, 404)
        assert api.get("/healthz").status_code == 200
        assert api.get("/metrics").status_code == 200
        assert api.get("/docs").status_code == 200
    assert calls == [
        ("GET", "/dos/roll"),
        ("OPTIONS", "/dos/roll"),
        ("POST", "/dos/roll/"),
        ("GET", "/healthz"),
        ("GET", "/metrics"),
        ("GET", "/docs"),
    ]


def test_resolver_posts_skip_fastapi_while_the_stack_has_its_known_shape() -> None:
    """A FastAPI upgrade that adds a layer turns the shortcut off (safe, but slower): noticed here."""
    api = Api()
    assert api.post("/dos/roll", ROLL).status_code == 200
    entries = api.app._routes  # type: ignore[attr-defined]
    assert entries is not None and "/dos/roll" in entries and "/dnd5e/attack" in entries


def test_an_app_wide_body_limit_or_another_middleware_keeps_fastapis_path() -> None:
    class Passing:
        def __init__(self, app: Any) -> None:
            self.app = app

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await self.app(scope, receive, send)

    api = Api()
    api.app.add_middleware(Passing)
    assert api.post("/dos/roll", ROLL).status_code == 200
    assert api.app._routes == {}  # type: ignore[attr-defined]
    limited = Api()
    limited.app.max_body_size = 10
    assert limited.post("/dos/roll", ROLL).status_code == 413  # FastAPI's own limit answered
    assert limited.app._routes == {}  # type: ignore[attr-defined]


def test_configured_telemetry_sends_resolver_posts_through_fastapi(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DRAGONROLL_OTEL", "true")
    api = Api()
    calls: list[str] = []
    through_fastapi = FastAPI.__call__

    async def spy(self: FastAPI, scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["path"])
        await through_fastapi(self, scope, receive, send)

    with mock.patch.object(FastAPI, "__call__", spy):
        assert api.post("/dos/roll", ROLL).status_code == 200  # no SDK configured: shortcut
        assert calls == []
        with mock.patch.object(api.app._native_telemetry, "enabled", lambda: True):
            assert api.post("/dos/roll", ROLL).status_code == 200
        assert calls == ["/dos/roll"]
