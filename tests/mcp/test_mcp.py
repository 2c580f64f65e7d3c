"""Issue 28: the MCP server at /mcp, in process (JSON-RPC over the app, lifespan run).

The official SDK clients over real HTTP are in ``test_mcp_clients.py``.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from starlette.testclient import TestClient

from service.app import create_app
from service.examples import EXAMPLES
from service.mcp import embed, tools_from_openapi
from service.settings import Settings
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
}


class Mcp:
    """JSON-RPC to /mcp of one app (its lifespan running), and the app's stderr lines."""

    def __init__(self, client: TestClient, stream: io.StringIO) -> None:
        self.client = client
        self.stream = stream
        self.next_id = 0

    def rpc(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        r = self.client.post("/mcp", json=message, headers=HEADERS)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    def call(self, name: str, arguments: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.rpc("tools/call", {"name": name, "arguments": arguments})[
            "result"
        ]
        return result

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.stream.getvalue().splitlines() if x.startswith("{")]


def _mcp(monkeypatch: pytest.MonkeyPatch, **settings: Any) -> Iterator[Mcp]:
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    app = create_app(Settings(log_format="json", **settings))
    with TestClient(app) as client:
        yield Mcp(client, stream)


@pytest.fixture
def mcp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Mcp]:
    yield from _mcp(monkeypatch)


@pytest.fixture(scope="module")
def shared() -> Iterator[Mcp]:
    """One app for the tests that read no logs."""
    with TestClient(create_app(Settings(log_format="json", log_level="warning"))) as client:
        yield Mcp(client, io.StringIO())


@pytest.fixture(scope="module")
def http() -> Api:
    return Api(log_level="warning")


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return create_app().openapi()


def test_one_tool_per_post_operation_with_its_schemas(doc: dict[str, Any]) -> None:
    tools = tools_from_openapi(doc)
    posts = [
        (path, item["post"]["operationId"]) for path, item in doc["paths"].items() if "post" in item
    ]
    assert [(t.path, t.spec.name) for t in tools] == posts
    names = {t.spec.name for t in tools}
    assert {"dos_test", "dos_odds_test", "dos_simulate", "dnd5e_attack", "riders_odds"} <= names
    for tool in tools:
        op = doc["paths"][tool.path]["post"]
        assert tool.spec.title == op["summary"]
        assert tool.spec.description is not None and op["description"] in tool.spec.description
        for schema in (tool.spec.input_schema, tool.spec.output_schema):
            assert schema is not None and schema["type"] == "object"
            Draft202012Validator.check_schema(schema)
            assert "#/components/" not in json.dumps(schema)
        # The documented example request fits the input schema and its answer the output schema.
        content = op["requestBody"]["content"]["application/json"]
        if "example" in content:
            Draft202012Validator(tool.spec.input_schema).validate(content["example"])
            answer = op["responses"]["200"]["content"]["application/json"]["example"]
            Draft202012Validator(tool.spec.output_schema).validate(answer)


def test_input_schema_refuses_what_the_endpoint_refuses(doc: dict[str, Any]) -> None:
    schema = next(t for t in tools_from_openapi(doc) if t.spec.name == "dos_test").spec.input_schema
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"stat": 24, "skill": 3, "dc": 43, "seed": 1})
    assert not validator.is_valid({"stat": "x", "skill": 3, "dc": 43})
    assert not validator.is_valid({"stat": 24, "skill": 3, "dc": 43, "sead": 1})  # unknown field


def test_embed_copies_the_components_a_schema_reaches() -> None:
    components = {
        "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
        "B": {"type": "array", "items": {"$ref": "#/components/schemas/B"}},
        "C": {"type": "string"},
    }
    out = embed({"$ref": "#/components/schemas/A"}, components)
    assert out == {
        "type": "object",
        "properties": {"b": {"$ref": "#/$defs/B"}},
        "$defs": {"B": {"type": "array", "items": {"$ref": "#/$defs/B"}}},
    }
    assert components["A"]["properties"]["b"] == {"$ref": "#/components/schemas/B"}  # untouched


def test_initialize_and_list(shared: Mcp) -> None:
    mcp = shared
    init = mcp.rpc(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    )["result"]
    assert init["serverInfo"]["name"] == "dragonroll"
    assert {"tools", "resources"} <= init["capabilities"].keys()
    tools = mcp.rpc("tools/list")["result"]["tools"]
    test = next(t for t in tools if t["name"] == "dos_test")
    assert test["inputSchema"]["properties"]["dc"]
    assert test["outputSchema"]["properties"]["outcome"]
    assert test["annotations"]["readOnlyHint"] is True


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_every_example_answers_as_over_http(shared: Mcp, http: Api, path: str) -> None:
    """Each documented example as a tool call: the text is the HTTP answer's bytes, the structured
    content its JSON (all seeded: the same request, the same bytes)."""
    example = EXAMPLES[path]
    answer = http.post(path, example)
    assert answer.status_code == 200
    name = path.strip("/").replace("/", "_").replace("-", "_")
    result = shared.call(name, example)
    assert result.get("isError", False) is False
    assert result["content"] == [{"type": "text", "text": answer.text}]
    assert result["content"][0]["text"].encode() == answer.content
    assert result["structuredContent"] == answer.json()


def test_a_refused_request_is_an_error_result_with_the_problem(shared: Mcp, http: Api) -> None:
    mcp = shared
    bad = {"stat": "high", "skill": 3, "dc": 43}
    result = mcp.call("dos_test", bad)
    assert result["isError"] is True
    assert "structuredContent" not in result
    problem = json.loads(result["content"][0]["text"])
    answer = http.post("/dos/test", bad).json()
    assert problem.pop("request_id") and answer.pop("request_id")
    assert problem == answer
    assert problem["status"] == 422 and problem["detail"] == "stat: Input should be a valid integer"
    # An engine refusal too: a script that runs out.
    short = mcp.call("dos_test", {"stat": 1, "skill": 3, "dc": 1, "dice": {"check": [5]}})
    assert short["isError"] is True
    assert json.loads(short["content"][0]["text"])["type"].endswith("/dice-exhausted")
    # No arguments at all: the missing fields named.
    empty = mcp.call("dos_test", None)
    assert empty["isError"] is True and "stat" in json.loads(empty["content"][0]["text"])["detail"]


def test_a_users_mistake_logs_nothing_at_error(mcp: Mcp, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        mcp.call("dos_test", {"stat": "x"})
        listed = mcp.rpc("tools/call", {"name": "dos_test", "arguments": ["not", "an", "object"]})
        assert listed["error"]["code"] == -32602
        error = mcp.rpc("tools/call", {"name": "no_such_tool", "arguments": {}})["error"]
        assert error["code"] == -32602 and "no_such_tool" in error["message"]
        missing = mcp.rpc("resources/read", {"uri": "dragonroll://nothing"})["error"]
        assert missing["code"] == -32602
        r = mcp.client.post("/mcp", content=b"{not json", headers=HEADERS)
        assert r.status_code == 400
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert [x for x in mcp.lines() if x.get("level") in ("error", "critical")] == []


def test_the_same_work_budget_and_body_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    for mcp in _mcp(monkeypatch, max_dice=2):
        result = mcp.call("dos_test", {"stat": 1, "skill": 3, "dc": 1, "seed": 1})
        assert result["isError"] is True
        assert json.loads(result["content"][0]["text"])["type"].endswith("/limit-exceeded")
        big = mcp.client.post("/mcp", content=b" " * 70_000, headers=HEADERS)
        assert big.status_code == 413
        assert big.headers["content-type"] == "application/problem+json"


def test_access_lines_and_metrics_tell_mcp_calls_apart(mcp: Mcp) -> None:
    mcp.call("dos_test", {"stat": 24, "skill": 3, "dc": 43, "seed": "s"})
    mcp.call("dos_test", {"stat": "x", "skill": 3, "dc": 43})
    mcp.client.post("/dos/test", json={"stat": 24, "skill": 3, "dc": 43, "seed": "s"})
    text = mcp.client.get("/metrics").text
    assert (
        'dragonroll_http_requests_total{method="POST",route="mcp:/dos/test",status="2xx"} 1.0'
        in text
    )
    assert (
        'dragonroll_http_requests_total{method="POST",route="mcp:/dos/test",status="4xx"} 1.0'
        in text
    )
    assert (
        'dragonroll_http_requests_total{method="POST",route="/dos/test",status="2xx"} 1.0' in text
    )
    assert 'dragonroll_http_requests_total{method="POST",route="/mcp",status="2xx"} 2.0' in text
    assert 'dragonroll_resolutions_total{outcome="resolved",system="dos"} 2.0' in text
    requests = [x for x in mcp.lines() if x.get("event") == "request"]
    routes = [(x["route"], x["path"], x["status"]) for x in requests]
    assert routes[:5] == [
        ("mcp:/dos/test", "/dos/test", 200),
        ("/mcp", "/mcp", 200),
        ("mcp:/dos/test", "/dos/test", 422),
        ("/mcp", "/mcp", 200),
        ("/dos/test", "/dos/test", 200),
    ]
    # A tool call's line carries the MCP request's id.
    assert requests[0]["request_id"] == requests[1]["request_id"]


def test_resources_are_the_rules_pages_and_the_dice_specification(shared: Mcp) -> None:
    mcp = shared
    resources = mcp.rpc("resources/list")["result"]["resources"]
    uris = {r["uri"] for r in resources}
    expected = {"dragonroll://docs/dice.md"} | {
        f"dragonroll://docs/systems/{p.name}" for p in (ROOT / "docs/systems").glob("*.md")
    }
    assert uris == expected and len(uris) >= 5
    assert all(r["mimeType"] == "text/markdown" for r in resources)
    for uri in ("dragonroll://docs/dice.md", "dragonroll://docs/systems/dos.md"):
        contents = mcp.rpc("resources/read", {"uri": uri})["result"]["contents"]
        page = ROOT / "docs" / uri.removeprefix("dragonroll://docs/")
        assert contents == [
            {"uri": uri, "mimeType": "text/markdown", "text": page.read_text(encoding="utf-8")}
        ]
