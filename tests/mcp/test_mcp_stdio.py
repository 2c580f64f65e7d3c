"""``dragonroll mcp``: the MCP server over stdio, through the official Python SDK's stdio client
(which launches it as a desktop host does), and line by line for what the SDK cannot send."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from service.app import create_app
from service.settings import Settings
from tests.conftest import Api

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TEST = {"stat": 24, "skill": 3, "dc": 43, "seed": "Sarathael", "lang": "pl"}
#: The console script's entry point (pyproject.toml: dragonroll = service.__main__:main).
COMMAND = [sys.executable, "-c", "from service.__main__ import main; main()", "mcp"]
ENV = {"DRAGONROLL_LOG_FORMAT": "json", "DRAGONROLL_LOG_LEVEL": "info"}


def test_the_python_sdk_stdio_client() -> None:
    http = Api(log_level="warning").post("/dos/test", TEST)
    params = StdioServerParameters(command=COMMAND[0], args=COMMAND[1:], cwd=ROOT, env=ENV)

    async def session() -> dict[str, Any]:
        async with Client(params) as client:
            tools = await client.list_tools()
            call = await client.call_tool(
                "dos", {"endpoint": "/dos/test", "request": TEST, "full": True}
            )
            bad = await client.call_tool(
                "dos", {"endpoint": "/dos/test", "request": {"stat": "high", "skill": 3, "dc": 43}}
            )
            resources = await client.list_resources()
            return {"tools": tools.tools, "call": call, "bad": bad, "resources": resources}

    got = asyncio.run(asyncio.wait_for(session(), 120))
    expected = [spec.name for spec in _specs()]
    assert [t.name for t in got["tools"]] == expected
    call = got["call"]
    assert call.is_error is False
    assert call.structured_content == http.json()
    assert call.content[0].text == "\n".join(e["text"] for e in http.json()["events"])
    assert got["bad"].is_error is True
    assert json.loads(got["bad"].content[0].text)["errors"][0]["loc"] == ["body", "stat"]
    assert "dragonroll://docs/dice.md" in {str(r.uri) for r in got["resources"].resources}


def _specs() -> list[Any]:
    from service.mcp_tools import Catalog

    return Catalog(create_app(Settings(log_level="warning"))).specs


def test_raw_lines_duplicated_keys_and_logs() -> None:
    """Line by line (what the SDK client cannot send: a key twice): the raw arguments are checked
    as over HTTP, a duplicated envelope key is an invalid request, stray output never reaches
    stdout, and each call has its access line on stderr."""
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "dos",'
        ' "arguments": {"endpoint": "/dos/test", "request": {"stat": 24, "stat": 1,'
        ' "skill": 3, "dc": 43}}}}',
        '{"jsonrpc": "2.0", "id": 3, "method": "ping", "method": "tools/list"}',
        '[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]',
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "dos", "arguments": {"endpoint": "/dos/test", "request": TEST}},
        },
    ]
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    run = subprocess.run(
        COMMAND,
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **ENV},
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = [json.loads(x) for x in run.stdout.splitlines()]  # every stdout line is the protocol's
    batch = [x for x in out if x["id"] is None]
    assert len(batch) == 1 and batch[0]["error"]["code"] == -32600
    assert "batch" in batch[0]["error"]["message"]
    by_id = {x["id"]: x for x in out if x["id"] is not None}
    assert set(by_id) == {0, 1, 2, 3, 4}
    assert len(by_id[1]["result"]["tools"]) == len(_specs())
    problem = json.loads(by_id[2]["result"]["content"][0]["text"])
    assert by_id[2]["result"]["isError"] is True and problem["type"].endswith("/duplicate-key")
    assert by_id[3]["error"]["code"] == -32600 and "'method'" in by_id[3]["error"]["message"]
    assert by_id[4]["result"]["structuredContent"]["outcome"] == "failure"
    logs = [json.loads(x) for x in run.stderr.splitlines() if x.startswith("{")]
    calls = [x for x in logs if x.get("event") == "request"]
    # One line a call, written by the access line's own function (no middleware over stdio):
    # its status the one HTTP would have answered.
    assert [(x["route"], x["path"], x["status"], x.get("problem")) for x in calls] == [
        ("mcp:/dos/test", "/mcp", 422, "duplicate-key"),
        ("mcp:/dos/test", "/mcp", 200, None),
    ]
    assert calls[0]["request_id"] != calls[1]["request_id"]
    assert not [x for x in logs if x.get("level") in ("error", "critical")]


def test_a_call_without_http_is_logged_and_counted_by_the_http_functions() -> None:
    """Over a transport without HTTP (the SDK's in-memory one, as stdio: no middleware runs),
    each call is one access line and one metrics sample, written by the functions the middleware
    uses (service.middleware.access.access_line, Metrics.observe_request), with the status the
    HTTP request would have had and the problem's kind."""
    import contextlib
    import io

    from service.mcp import make_server
    from service.mcp_tools import Catalog

    stream = io.StringIO()
    with contextlib.redirect_stderr(stream):  # the loggers write to stderr, as over stdio
        app = create_app(Settings(log_format="json"))
        server = make_server(app, Catalog(app))

        async def session() -> None:
            async with app.router.lifespan_context(app), Client(server) as client:
                await client.call_tool("dos", {"endpoint": "/dos/test", "request": TEST})
                await client.call_tool("dos", {"endpoint": "/dos/test", "request": {"stat": "x"}})
                await client.list_tools()

        asyncio.run(asyncio.wait_for(session(), 60))
    lines = [json.loads(x) for x in stream.getvalue().splitlines() if x.startswith("{")]
    calls = [x for x in lines if x.get("event") == "request"]
    assert [(x["route"], x["status"], x["system"], x.get("problem")) for x in calls] == [
        ("mcp:/dos/test", 200, "dos", None),
        ("mcp:/dos/test", 422, "dos", "validation-error"),
    ]
    text = app.state.metrics.render().decode()
    assert (
        'dragonroll_http_requests_total{method="POST",route="mcp:/dos/test",status="2xx"} 1.0'
        in text
    )
    assert (
        'dragonroll_http_requests_total{method="POST",route="mcp:/dos/test",status="4xx"} 1.0'
        in text
    )
    assert 'dragonroll_resolutions_total{outcome="invalid",system="dos"} 1.0' in text
