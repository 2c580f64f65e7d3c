"""The transport's security at /mcp: Host and Origin (DNS rebinding), and no endless stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.settings import Settings

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def send(app: Any, method: str, headers: dict[str, str], body: Any = INIT) -> httpx.Response:
    """One request to /mcp with exactly these Host and Origin headers, bounded in time."""

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            content = json.dumps(body).encode() if method == "POST" else None
            return await asyncio.wait_for(
                c.request(method, "/mcp", content=content, headers={**HEADERS, **headers}), 10
            )

    return asyncio.run(go())


@pytest.fixture(scope="module")
def local() -> Any:
    return create_app(Settings(log_level="warning"))


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "localhost:18600", "[::1]:8000"])
def test_loopback_hosts_and_origins_are_served(local: Any, host: str) -> None:
    r = send(local, "POST", {"host": host, "origin": f"http://{host}"})
    assert r.status_code == 200 and r.json()["result"]["serverInfo"]["name"] == "dragonroll"
    assert send(local, "POST", {"host": host}).status_code == 200  # no Origin: not a browser


def test_dns_rebinding_is_refused(local: Any) -> None:
    """A page of evil.example.com resolving to 127.0.0.1 sends its own Host and Origin."""
    evil = send(local, "POST", {"host": "evil.example.com", "origin": "http://evil.example.com"})
    assert evil.status_code == 421
    assert evil.json()["error"]["code"] == -32600 and evil.json()["id"] is None
    assert "evil.example.com" in evil.json()["error"]["message"]
    # The right Host from a page of another origin (a browser on this machine).
    page = send(local, "POST", {"host": "127.0.0.1:8000", "origin": "https://evil.example.com"})
    assert page.status_code == 403
    assert "DRAGONROLL_CORS_ORIGINS" in page.json()["error"]["message"]
    assert send(local, "POST", {"host": "127.0.0.1", "origin": "null"}).status_code == 403


def test_the_public_url_and_configured_origins_are_served() -> None:
    app = create_app(
        Settings(
            log_level="warning",
            public_url="https://dragonroll.example.org",
            cors_origins=("https://vtt.example.org",),
        )
    )
    ok = {"host": "dragonroll.example.org"}
    assert send(app, "POST", ok).status_code == 200
    origin = {"origin": "https://dragonroll.example.org"}
    assert send(app, "POST", {**ok, **origin}).status_code == 200
    assert send(app, "POST", {**ok, "origin": "https://vtt.example.org"}).status_code == 200
    assert send(app, "POST", {**ok, "origin": "https://other.example.org"}).status_code == 403
    assert send(app, "POST", {"host": "other.example.org"}).status_code == 421


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "PATCH"])
def test_reproducer_4_anything_but_post_is_a_405_at_once(local: Any, method: str) -> None:
    """``GET /mcp`` opened an event stream that never ended: a stateless server offers no stream
    (and has no session to delete), so GET and DELETE are the spec's 405, answered at once."""
    r = send(local, method, {"host": "127.0.0.1:8000"})
    assert r.status_code == 405
    assert r.headers["allow"] == "POST"
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["type"].endswith("/method-not-allowed")
