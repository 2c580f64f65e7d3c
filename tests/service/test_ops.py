"""Running it like a service, in process: the stack as a whole (pure ASGI middlewares, one job
each, in order, streaming), the docs pages' CSP, health, settings. Each middleware's own tests are in
``test_ops_<middleware>.py``; their shared helpers in ``tests/service/ops.py``."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import ValidationError

from service import health
from service.settings import Settings, explain
from tests.conftest import Api, http_scope
from tests.service.ops import run_in_lifespan


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_have_a_strict_csp_that_allows_their_own_inline_script(
    api: Api, page: str
) -> None:
    r = api.get(page)
    assert r.status_code == 200
    csp = dict(d.partition(" ")[::2] for d in r.headers["content-security-policy"].split("; "))
    assert csp["default-src"] == "'none'"
    assert csp["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in csp["script-src"]
    assert "http" not in r.headers["content-security-policy"]  # no CDN anywhere
    for script in re.findall(r"<script>(.*?)</script>", r.text, re.DOTALL):
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp["script-src"]


def test_livez_and_healthz_answer_without_the_lifespan(api: Api) -> None:
    assert api.get("/livez").json() == {"status": "ok"}
    assert api.get("/healthz").json() == {"status": "ok"}


def test_readyz_is_503_until_the_self_test_passed() -> None:
    api = Api()
    assert api.get("/readyz").status_code == 503
    [ready] = run_in_lifespan(api.app, ("GET", "/readyz"))
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "rng": "sha256-v1"}


def test_readyz_stays_503_when_the_dice_are_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    seed, slot, sides, values = health.VECTORS[0]
    wrong = (seed, slot, sides, (values[0] % sides + 1, *values[1:]))
    monkeypatch.setattr(health, "VECTORS", (wrong, *health.VECTORS[1:]))
    assert health.dice_self_test() == [f"{seed!r}/{slot}/d{sides}"]
    api = Api()
    ready, live = run_in_lifespan(api.app, ("GET", "/readyz"), ("GET", "/livez"))
    assert (ready.status_code, live.status_code) == (503, 200)


def test_self_test_vectors_are_those_of_rng_vectors_json() -> None:
    from pathlib import Path

    data = json.loads((Path(__file__).parents[1] / "data" / "rng-vectors.json").read_text())
    cases = {(c["seed"], c["label"], c["sides"]): tuple(c["values"]) for c in data["cases"]}
    for seed, slot, sides, values in health.VECTORS:
        assert cases[(seed, slot, sides)] == values
    assert health.dice_self_test() == []


def test_health_metrics_and_docs_routes_stay_out_of_the_openapi(api: Api) -> None:
    paths = api.get("/openapi.json").json()["paths"]
    assert not {"/livez", "/healthz", "/readyz", "/metrics", "/docs"} & paths.keys()


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONROLL_CORS_ORIGINS", "https://a.example, http://localhost:30000")
    monkeypatch.setenv("DRAGONROLL_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("DRAGONROLL_METRICS", "false")
    s = Settings()
    assert s.cors_origins == ("https://a.example", "http://localhost:30000")
    assert (s.log_level, s.metrics, s.body_limit) == ("warning", False, 65536)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PORT", "http"),
        ("PORT", "70000"),
        ("LOG_FORMAT", "xml"),
        ("LOG_LEVEL", "loud"),
        ("BODY_LIMIT", "12"),
        ("CORS_ORIGINS", "localhost:30000"),
        ("METRICS", "perhaps"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv("DRAGONROLL_" + name, value)
    with pytest.raises(ValidationError) as info:
        Settings()
    line = explain(info.value)
    assert line.startswith(f"dragonroll: bad setting DRAGONROLL_{name}: ")
    assert "\n" not in line


def test_middleware_is_pure_asgi_and_ordered() -> None:
    from starlette.middleware.base import BaseHTTPMiddleware

    app = Api().app
    names = [m.cls.__name__ for m in app.user_middleware]  # type: ignore[attr-defined]
    # outermost first: the request id and access line see every answer, the 500 of last resort too
    # (and the 503 of the unread answers' cap, which carries the CORS headers)
    assert names == [
        "RequestIdAndAccessLine",
        "RequestMetrics",
        "Cors",
        "UnreadAnswers",
        "BodyLimit",
        "LastResort",
    ]
    assert not any(
        issubclass(m.cls, BaseHTTPMiddleware)  # type: ignore[arg-type]
        for m in app.user_middleware
    )


def test_response_bodies_stream_through_unbuffered() -> None:
    from starlette.responses import StreamingResponse

    api = Api()

    async def parts() -> AsyncIterator[bytes]:
        for part in (b"one,", b"two,", b"three"):
            yield part

    async def stream(request: Any) -> StreamingResponse:
        return StreamingResponse(parts(), media_type="text/plain")

    api.app.add_route("/stream", stream)
    sent: list[dict[str, Any]] = []
    calls = 0

    async def receive() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls > 1:  # the client stays connected until the response is over
            await asyncio.Event().wait()
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = http_scope("GET", "/stream", [(b"host", b"t")])
    asyncio.run(api.app(scope, receive, send))
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body" and m.get("body")]
    assert bodies == [b"one,", b"two,", b"three"]
    headers = dict(sent[0]["headers"])
    assert headers[b"x-content-type-options"] == b"nosniff" and b"x-request-id" in headers
