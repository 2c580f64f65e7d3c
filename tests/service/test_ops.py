"""Running it like a service, in process: request ids, limits, hardening, CORS, health, metrics, logs."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError

from rules.budget import NO_DICE
from rules.models import RollRequest
from rules.registry import SYSTEMS
from rules.system import Endpoint, System
from service import health
from service.app import create_app
from service.settings import Settings, explain
from tests.conftest import Api, assert_problem, http_scope

ROLL = {"pool": 3, "seed": "ops"}
FOUNDRY = "http://localhost:30000"


def log_lines(err: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in err.splitlines() if line.startswith("{")]


def requests_logged(err: str) -> list[dict[str, Any]]:
    return [line for line in log_lines(err) if line.get("event") == "request"]


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the Prometheus text ``text`` (0 when absent)."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
        if found == labels:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def run_in_lifespan(app: FastAPI, *calls: tuple[str, str]) -> list[httpx.Response]:
    """Requests made while the app's lifespan runs (httpx's transport does not run it)."""

    async def go() -> list[httpx.Response]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                return [await client.request(m, p) for m, p in calls]

    return asyncio.run(go())


# --- request id ---------------------------------------------------------------------------------


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


# --- hardening ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/livez"), ("GET", "/nowhere"), ("GET", "/docs"), ("GET", "/openapi.json")],
)
def test_security_headers_on_every_response(api: Api, method: str, path: str) -> None:
    r = api.request(method, path)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


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


def test_body_over_the_limit_is_413_from_content_length(api: Api) -> None:
    r = api.post("/dos/roll", content=b" " * (64 * 1024 + 1), headers=JSON)
    problem = assert_problem(r, 413, "payload-too-large")
    assert "65536" in problem["detail"]
    assert r.headers["x-request-id"] == problem["request_id"]


def chunks(total: int, size: int = 4096) -> Iterator[bytes]:
    yield b'{"pool": 3, "seed": "'
    sent = 0
    while sent < total:
        yield b"a" * size
        sent += size
    yield b'"}'


JSON = {"content-type": "application/json"}


async def achunks(total: int) -> AsyncIterator[bytes]:
    for chunk in chunks(total):
        yield chunk


def test_chunked_body_over_the_limit_is_413(api: Api) -> None:
    r = api.post("/dos/roll", content=achunks(100_000), headers=JSON)
    assert "content-length" not in r.request.headers  # really chunked
    assert_problem(r, 413, "payload-too-large")


def test_chunked_body_under_the_limit_is_served(api: Api) -> None:
    ok = api.post("/dos/roll", content=iter_bytes(json.dumps(ROLL).encode()), headers=JSON)
    assert ok.status_code == 200, ok.text


async def iter_bytes(data: bytes) -> AsyncIterator[bytes]:
    for i in range(0, len(data), 5):
        yield data[i : i + 5]


def test_body_limit_is_a_setting() -> None:
    small = Api(body_limit=2048)
    assert_problem(small.post("/dos/roll", content=b" " * 2049, headers=JSON), 413)
    assert small.post("/dos/roll", {**ROLL, "seed": "x" * 100}).status_code == 200


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


class BrokenRequest(RollRequest):
    pool: int = 1


def broken(req: BrokenRequest, dice: Any) -> Any:
    raise RuntimeError("secret internals: /etc/passwd")


#: A system with one resolver that fails unexpectedly, as a bug in the engine would.
BROKEN = System(
    id="broken",
    name={"en": "Broken"},
    rules_version="broken-1",
    endpoints=(
        Endpoint(
            path="/roll",
            summary="broken",
            description="broken",
            request=BrokenRequest,
            result=dict,
            resolve=broken,
            slots=lambda req: {},
            slot_doc="none",
            work=lambda req: NO_DICE,
            examples={},
        ),
    ),
    texts=(),
)


def failing_app(**settings: Any) -> Api:
    """The service with the :data:`BROKEN` system beside the registry's."""
    api = Api(**settings)
    api.app = create_app(Settings(**settings), systems=(*SYSTEMS, BROKEN))
    return api


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


# --- CORS -----------------------------------------------------------------------------------------


def test_preflight_from_a_self_hosted_foundry(api: Api) -> None:
    r = api.request(
        "OPTIONS",
        "/dos/roll",
        headers={
            "Origin": FOUNDRY,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-request-id",
        },
    )
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in r.headers
    methods = {m.strip() for m in r.headers["access-control-allow-methods"].split(",")}
    assert methods == {"GET", "POST", "OPTIONS"}
    allowed = r.headers["access-control-allow-headers"].lower()
    assert "content-type" in allowed and "x-request-id" in allowed
    assert int(r.headers["access-control-max-age"]) >= 600
    assert r.headers["x-request-id"]


#: What Chrome sends before a page served from the internet (a hosted Foundry, Owlbear Rodeo) may call
#: a service on a private address (Private Network Access): the usual preflight plus one header.
CHROME_PNA_PREFLIGHT = {
    "Origin": "https://owlbear.example",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type,accept-language",
    "Access-Control-Request-Private-Network": "true",
}


def test_chromes_private_network_preflight_is_allowed(api: Api) -> None:
    r = api.request("OPTIONS", "/dos/test", headers=CHROME_PNA_PREFLIGHT)
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-private-network"] == "true"
    assert r.headers["access-control-allow-origin"] == "*"
    assert "accept-language" in r.headers["access-control-allow-headers"].lower()
    # The POST that follows is an ordinary cross-origin request.
    post = api.post("/dos/roll", ROLL, headers={"Origin": CHROME_PNA_PREFLIGHT["Origin"]})
    assert post.status_code == 200
    assert post.headers["access-control-allow-origin"] == "*"


def test_private_network_preflights_can_be_turned_off() -> None:
    api = Api(cors_private_network=False)
    r = api.request("OPTIONS", "/dos/test", headers=CHROME_PNA_PREFLIGHT)
    assert r.status_code == 400
    assert "access-control-allow-private-network" not in r.headers
    plain = {k: v for k, v in CHROME_PNA_PREFLIGHT.items() if "Private" not in k}
    assert api.request("OPTIONS", "/dos/test", headers=plain).status_code == 200


def test_private_network_preflight_from_an_origin_not_allowed() -> None:
    api = Api(cors_origins="https://vtt.example.org")
    r = api.request("OPTIONS", "/dos/test", headers=CHROME_PNA_PREFLIGHT)
    assert r.status_code == 400
    assert "access-control-allow-origin" not in r.headers


def test_cross_origin_post_exposes_the_request_id(api: Api) -> None:
    r = api.post("/dos/roll", ROLL, headers={"Origin": FOUNDRY})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == "*"
    assert "x-request-id" in r.headers["access-control-expose-headers"].lower()


def test_cors_allow_list() -> None:
    api = Api(cors_origins="https://vtt.example.org, http://localhost:30000")
    preflight = {"Access-Control-Request-Method": "POST"}
    ok = api.request("OPTIONS", "/dos/roll", headers={"Origin": FOUNDRY, **preflight})
    assert ok.status_code == 200
    assert ok.headers["access-control-allow-origin"] == FOUNDRY
    bad = api.request(
        "OPTIONS", "/dos/roll", headers={"Origin": "https://evil.example", **preflight}
    )
    assert bad.status_code == 400
    assert "access-control-allow-origin" not in bad.headers
    simple = api.post("/dos/roll", ROLL, headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in simple.headers
    # the answer depends on the Origin (and on the language), so caches are told on every
    # response, once each
    assert _vary(api.post("/dos/roll", ROLL)) == ["Accept-Language", "Origin"]
    allowed = api.post("/dos/roll", ROLL, headers={"Origin": FOUNDRY})
    assert _vary(allowed) == ["Accept-Language", "Origin"]
    assert allowed.headers["access-control-allow-origin"] == FOUNDRY


def _vary(response: httpx.Response) -> list[str]:
    """The names in a response's ``Vary`` headers, in order."""
    return [
        name.strip() for value in response.headers.get_list("vary") for name in value.split(",")
    ]


# --- health ---------------------------------------------------------------------------------------


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


# --- metrics --------------------------------------------------------------------------------------


def test_metrics_count_requests_by_template_method_and_status_class() -> None:
    api = Api()
    api.post("/dos/roll", ROLL)
    api.post("/dos/roll", ROLL)
    api.post("/dos/test", {"stat": 1, "skill": 1, "dc": 1, "seed": 1, "dice": {"check": [11]}})
    api.post("/dos/roll", {"pool": "x"})
    api.post("/dos/roll", content=b" " * 70_000, headers=JSON)
    api.get("/no/such/path/SEED-123")
    api.request("BREW", "/dos/roll")
    for _ in range(3):
        api.get("/livez")
        api.get("/readyz")
    r = api.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="/dos/roll", method="POST", status="2xx"
        )
        == 2
    )
    # The schema error and the 413 by Content-Length (answered before routing, still its route's).
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="/dos/roll", method="POST", status="4xx"
        )
        == 2
    )
    assert 'route="unmatched",method="POST"' not in text
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="unmatched", method="GET", status="4xx"
        )
        == 1
    )
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="/dos/roll", method="other", status="4xx"
        )
        == 1
    )
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="resolved") == 2
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="invalid") == 2
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="refused") == 1
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="error") == 0
    assert metric(text, "dragonroll_limit_rejections_total", limit="body_size") == 1
    assert 'le="0.0005"' in text and 'le="2.5"' in text
    count = metric(
        text, "dragonroll_http_request_duration_seconds_count", route="/dos/roll", method="POST"
    )
    assert count == 4
    # No raw paths, seeds or ids; no health or metrics requests.
    assert "SEED-123" not in text and "/no/such" not in text and "BREW" not in text
    assert "livez" not in text and "readyz" not in text and 'route="/metrics"' not in text


def test_limit_rejections_by_limit_kind() -> None:
    api = Api()
    api.post("/dos/roll", content=b'{"pool": ' + b"[" * 500 + b"]" * 500 + b"}", headers=JSON)
    api.post("/dos/roll", content=b'{"pool": ' + b"9" * 5000 + b"}", headers=JSON)
    api.post("/dos/roll", content=achunks(90_000), headers=JSON)
    text = api.get("/metrics").text
    assert metric(text, "dragonroll_limit_rejections_total", limit="json_depth") == 1
    assert metric(text, "dragonroll_limit_rejections_total", limit="json_number") == 1
    assert metric(text, "dragonroll_limit_rejections_total", limit="body_size") == 1
    assert metric(text, "dragonroll_limit_rejections_total", limit="engine") == 0


def test_a_500_is_counted_as_an_error_outcome() -> None:
    api = failing_app()
    api.post("/broken/roll", ROLL)
    text = api.get("/metrics").text
    assert metric(text, "dragonroll_resolutions_total", system="broken", outcome="error") == 1
    assert (
        metric(
            text,
            "dragonroll_http_requests_total",
            route="/broken/roll",
            method="POST",
            status="5xx",
        )
        == 1
    )


def test_metrics_can_be_switched_off() -> None:
    api = Api(metrics=False)
    assert_problem(api.get("/metrics"), 404, "not-found")
    assert api.post("/dos/roll", ROLL).status_code == 200


# --- logs -----------------------------------------------------------------------------------------


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


# --- settings -------------------------------------------------------------------------------------


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


# --- the middleware stays pure ASGI and streams -------------------------------------------------


def test_middleware_is_pure_asgi_and_ordered() -> None:
    from starlette.middleware.base import BaseHTTPMiddleware

    app = Api().app
    names = [m.cls.__name__ for m in app.user_middleware]  # type: ignore[attr-defined]
    # outermost first: the request id and access line see every answer, the 500 of last resort too
    assert names == ["RequestIdAndAccessLine", "RequestMetrics", "Cors", "BodyLimit", "LastResort"]
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
