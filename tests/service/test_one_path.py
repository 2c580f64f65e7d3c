"""One path through the service, on FastAPI's public API only (issue 26, item 5): every request
through FastAPI's stack to an endpoint function FastAPI calls; no private names; the OpenAPI
document still describes every body and answer; a client that hangs up is a 499, not an error."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from rules.registry import SYSTEMS
from service.endpoints import endpoints
from tests.conftest import Api, http_scope
from tests.service.ops import ROLL, log_lines, metric

SERVICE = Path(__file__).resolve().parents[2] / "service"


def test_every_request_goes_through_fastapi(api: Api) -> None:
    calls: list[tuple[str, str]] = []
    through_fastapi = FastAPI.__call__

    async def spy(self: FastAPI, scope: Any, receive: Any, send: Any) -> None:
        calls.append((scope["method"], scope["path"]))
        await through_fastapi(self, scope, receive, send)

    with mock.patch.object(FastAPI, "__call__", spy):
        assert api.post("/dos/roll", ROLL).status_code == 200
        assert api.post("/dos/odds/test", {"stat": 24, "skill": 3, "dc": 43}).status_code == 200
        assert api.get("/dos/roll").status_code == 405
        assert api.get("/healthz").status_code == 200
    assert calls == [
        ("POST", "/dos/roll"),
        ("POST", "/dos/odds/test"),
        ("GET", "/dos/roll"),
        ("GET", "/healthz"),
    ]


def test_each_endpoint_is_a_route_of_the_app_fastapi_calls(api: Api) -> None:
    """Every entry of every descriptor is one route on the app itself (no included router), whose
    function FastAPI calls, and one endpoint in ``app.state.endpoints`` holding that entry."""
    routes = {r.path: r for r in api.app.routes if isinstance(r, APIRoute) and "POST" in r.methods}
    served = endpoints(api.app)
    assert set(served) == set(routes) - {"/mcp"}
    entries = [(s, entry) for s in SYSTEMS for entry in (*s.endpoints, *s.odds, *s.simulations)]
    assert len(served) == len(entries)
    for system, entry in entries:
        endpoint = served[system.prefix + entry.path]
        assert endpoint.entry is entry and endpoint.descriptor is system
    for path, route in routes.items():
        assert route.name == route.operation_id, path
        assert asyncio.iscoroutinefunction(route.endpoint), path


def _imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names]
    return found


@pytest.mark.parametrize("source", sorted(SERVICE.rglob("*.py")), ids=lambda p: p.name)
def test_no_private_name_of_fastapi_or_starlette(source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    for module, names in _imports(ast.parse(text)):
        if module.split(".")[0] not in ("fastapi", "starlette"):
            continue
        assert not any(part.startswith("_") for part in module.split(".")), module
        assert not any(name.startswith("_") for name in names), (module, names)
    for forbidden in (
        "__signature__",
        "effective_route_contexts",
        "middleware_stack",
        "_telemetry",
    ):
        assert forbidden not in text, forbidden
    assert "type: ignore[attr-defined]" not in text


def test_the_document_describes_every_body_and_answer(api: Api) -> None:
    document = api.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    for path in endpoints(api.app):
        op = document["paths"][path]["post"]
        body = op["requestBody"]["content"]["application/json"]["schema"]
        answer = op["responses"]["200"]["content"]["application/json"]["schema"]
        for schema in (body, answer):
            refs = re.findall(r"#/components/schemas/([\w.-]+)", str(schema))
            assert refs or schema.get("anyOf") or schema.get("properties"), (path, schema)
            assert all(ref in schemas for ref in refs), (path, refs)
        assert op["requestBody"]["required"] is True
        assert {"400", "413", "415", "422"} <= op["responses"].keys()


def test_a_client_that_hangs_up_mid_body_is_a_499_at_info(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The body stops half-way and the client goes: no ERROR, no traceback, not a 5xx."""
    api = Api(log_format="json")
    scope = http_scope(
        "POST",
        "/dos/roll",
        [(b"content-type", b"application/json"), (b"x-request-id", b"gone-1")],
    )
    messages = [
        {"type": "http.request", "body": b'{"pool": ', "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        pass

    capsys.readouterr()
    asyncio.run(api.app(scope, receive, send))
    lines = log_lines(capsys.readouterr().err)
    [access] = [x for x in lines if x.get("event") == "request"]
    assert (access["status"], access["level"], access["request_id"]) == (499, "info", "gone-1")
    assert [x for x in lines if x["level"] != "info"] == []
    assert "Traceback" not in str(lines) and "exception" not in str(lines)
    text = api.get("/metrics").text
    labels = {"route": "/dos/roll", "method": "POST"}
    assert metric(text, "dragonroll_http_requests_total", **labels, status="4xx") == 1
    assert metric(text, "dragonroll_http_requests_total", **labels, status="5xx") == 0
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="error") == 0


def _status(app: Any, path: str, root_path: str = "") -> int:
    scope = {**http_scope("POST", path, [(b"content-type", b"application/json")])}
    scope["root_path"] = root_path
    body = [{"type": "http.request", "body": b'{"pool": 3, "seed": 1}', "more_body": False}]
    said: list[int] = []

    async def receive() -> dict[str, Any]:
        return body.pop(0) if body else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            said.append(message["status"])

    asyncio.run(app(scope, receive, send))
    return said[0]


def test_an_endpoint_route_answers_its_own_path_only_under_any_root_path(api: Api) -> None:
    """The endpoints' routes (``service.routing.StaticRoute``) pass over another path by comparing
    strings first: a path that only ends like an endpoint's is not it, a root path is taken off."""
    routes = [r for r in api.app.routes if getattr(r, "path", "") in endpoints(api.app)]
    assert {type(r).__name__ for r in routes} == {"StaticRoute"}
    assert _status(api.app, "/dos/roll") == 200
    assert _status(api.app, "/api/dos/roll", root_path="/api") == 200
    assert _status(api.app, "/x/dos/roll") == 404
    assert _status(api.app, "/dos/roll/") == 404
    assert _status(api.app, "/api/dos/roll") == 404  # no root path: not the endpoint's path
