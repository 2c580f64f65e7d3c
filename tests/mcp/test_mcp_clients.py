"""Issue 28: the official MCP SDK clients, Python (``mcp``) and TypeScript
(``@modelcontextprotocol/sdk``, locked in tests/mcp/package-lock.json), over real HTTP against a
running service (uvicorn on loopback, killed at the end)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.conftest import wait_ready

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ARGS = {"stat": 24, "skill": 3, "dc": 43, "seed": "Sarathael", "lang": "pl"}
CALL = {"endpoint": "/dos/test", "request": ARGS, "full": True}
BAD = {"endpoint": "/dos/test", "request": {"stat": "high", "skill": 3, "dc": 43}}


def free_port(first: int = 18600, last: int = 18699) -> int:
    """A free loopback port in this suite's range (else any)."""
    for port in range(first + os.getpid() % 50, last + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Service:
    def __init__(self) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env={**os.environ, "DRAGONROLL_LOG_FORMAT": "json"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_ready(self.proc, f"{self.base}/readyz")

    def post(self, path: str, body: Any) -> bytes:
        request = urllib.request.Request(
            f"{self.base}{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            data: bytes = r.read()
            return data

    def stop(self) -> list[dict[str, Any]]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return [json.loads(x) for x in err.splitlines() if x.startswith("{")]


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    srv = Service()
    try:
        yield srv
    finally:
        lines = srv.stop()
        # Nothing at ERROR for any of the users' mistakes the clients sent.
        assert [x for x in lines if x.get("level") in ("error", "critical")] == []


def test_python_sdk_client(service: Service) -> None:
    http = service.post("/dos/test", ARGS)

    async def session() -> dict[str, Any]:
        async with Client(f"{service.base}/mcp") as client:
            tools = await client.list_tools()
            call = await client.call_tool("dos", CALL)
            bad = await client.call_tool("dos", BAD)
            resources = await client.list_resources()
            page = await client.read_resource("dragonroll://docs/systems/dos.md")
            return {
                "version": client.protocol_version,
                "tools": tools.tools,
                "call": call,
                "bad": bad,
                "resources": [str(r.uri) for r in resources.resources],
                "page": page.contents[0],
            }

    got = asyncio.run(session())
    assert got["version"] == "2026-07-28"  # the SDK's newest protocol: per-request, no handshake
    names = [t.name for t in got["tools"]]
    assert {"dos", "dnd5e", "dice", "describe_endpoint"} <= set(names)
    assert len(names) == len(set(names))
    assert all(t.input_schema["type"] == "object" for t in got["tools"])
    # The structured content is the HTTP answer's JSON, the text its events' sentences.
    call = got["call"]
    assert call.is_error is False
    assert call.structured_content == json.loads(http)
    assert call.content[0].text == "\n".join(e["text"] for e in json.loads(http)["events"])
    bad = got["bad"]
    assert bad.is_error is True
    problem = json.loads(bad.content[0].text)
    assert problem["status"] == 422 and problem["errors"][0]["loc"] == ["body", "stat"]
    assert "dragonroll://docs/dice.md" in got["resources"]
    assert got["page"].text == (ROOT / "docs/systems/dos.md").read_text(encoding="utf-8")


def test_typescript_sdk_client(service: Service) -> None:
    node = shutil.which("node")
    if node is None or not (HERE / "node_modules/@modelcontextprotocol/sdk").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("CI must have node and run `npm ci --prefix tests/mcp` (.ci/run)")
        pytest.skip("needs node and `npm ci --prefix tests/mcp` (CI runs both)")
    http = service.post("/dos/test", ARGS)
    run = subprocess.run(
        [node, str(HERE / "client.mjs"), service.base, json.dumps(CALL), json.dumps(BAD)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout)
    assert got["server"]["name"] == "dragonroll"  # the initialize handshake (2025-11-25)
    names = [t["name"] for t in got["tools"]]
    assert "dos" in names and all(t["hasInput"] for t in got["tools"])
    assert got["call"].get("isError", False) is False
    assert got["call"]["structuredContent"] == json.loads(http)
    texts = [e["text"] for e in json.loads(http)["events"]]
    assert got["call"]["content"] == [{"type": "text", "text": "\n".join(texts)}]
    assert got["bad"]["isError"] is True
    assert json.loads(got["bad"]["content"][0]["text"])["status"] == 422
    assert got["unknown"]["code"] == -32602
    assert "dragonroll://docs/systems/dragon.md" in got["resources"]
    assert got["diceText"] == (ROOT / "docs/dice.md").read_text(encoding="utf-8")
