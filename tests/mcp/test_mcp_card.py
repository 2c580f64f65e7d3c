"""Issue 43: the roll card, an MCP App, in headless Chromium inside a stand-in host built on the host
side of ``@modelcontextprotocol/ext-apps`` (its AppBridge, locked in tests/mcp/package-lock.json,
bundled by esbuild for the page): the card reads its tool's result, draws the dice as dice, the
outcome, the events in the answer's language (Arabic right to left) and the odds before the roll as
a chart, under the restrictive CSP a host applies (no network), and its "Roll again" button's tool
call reaches the server (uvicorn on loopback). Hosts without the extension get the plain result.

CI installs chromium and runs ``npm ci`` in tests/mcp; elsewhere the browser test is skipped when
either is missing. Screenshots go to ``test-artifacts/mcp-roll-card-<lang>.png``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app
from service.settings import Settings
from tests.mcp.test_mcp_clients import Service
from tests.pages import CHROMIUM, chromium, served

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ESBUILD = HERE / "node_modules" / ".bin" / "esbuild"
ARTIFACTS = Path(os.environ.get("DRAGONROLL_ARTIFACTS", ROOT / "test-artifacts"))
CATALOGS = ROOT / "service" / "static" / "playground" / "i18n"
HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
}
TEST = {"stat": 24, "skill": 3, "dc": 43, "seed": "Sarathael"}


def test_hosts_without_the_extension_get_the_plain_result() -> None:
    """A client that never spoke of MCP Apps: each system tool names the card in its ``_meta``
    (which such a host ignores), and a call is answered with the events' sentences as text and the
    summary as structured content, as for any client. The server advertises the extension where
    the protocol has the field (``server/discover``, 2026-07-28: the SDK leaves ``extensions`` out
    of a handshake-era ``initialize``)."""
    from starlette.testclient import TestClient

    app = create_app(Settings(log_level="warning"))
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "plain", "version": "1"},
    }
    with TestClient(app, base_url="http://127.0.0.1") as client:

        def rpc(method: str, params: dict[str, Any]) -> dict[str, Any]:
            message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
            r = client.post("/mcp", json=message, headers=HEADERS)
            assert r.status_code == 200, r.text
            result: dict[str, Any] = r.json()["result"]
            return result

        assert "extensions" not in rpc("initialize", init)["capabilities"]
        modern = {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        }
        message = {"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": modern}
        headers = {**HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover"}
        discovered = client.post("/mcp", json=message, headers=headers).json()["result"]
        assert discovered["capabilities"]["extensions"] == {"io.modelcontextprotocol/ui": {}}
        tools = rpc("tools/list", {})["tools"]
        assert all(
            t["_meta"]["ui"]["resourceUri"] for t in tools if t["name"] != "describe_endpoint"
        )
        call = rpc(
            "tools/call", {"name": "dos", "arguments": {"endpoint": "/dos/test", "request": TEST}}
        )
        http = client.post("/dos/test", json=TEST).json()
    assert call["content"] == [
        {"type": "text", "text": "\n".join(e["text"] for e in http["events"])}
    ]
    assert call["structuredContent"]["outcome"] == http["outcome"] == "failure"
    assert call["_meta"]["dragonroll.dev/call"]["endpoint"] == "/dos/test"


def test_the_card_is_one_document_with_nothing_to_fetch() -> None:
    """The card's HTML holds its scripts, styles and the catalogs of every language: no
    ``src``, no ``href``, no ``import`` left for a frame without network to resolve."""
    from service.mcp_card import html

    text = html()
    assert "<script src" not in text and "<link" not in text and "import(" not in text
    for line in text.splitlines():
        assert not line.startswith(("import ", "export ")), line
    catalogs = json.loads(text.split('id="catalogs">', 1)[1].split("</script>", 1)[0])
    assert set(catalogs) == {"en", "pl", "fi", "ar"}
    assert catalogs["pl"]["messages"]["Roll again"]


# ---------------------------------------------------------------------------------- in Chromium

if os.environ.get("CI") != "true" and (CHROMIUM is None or not ESBUILD.exists()):
    pytest.skip(
        "no chromium, or no esbuild and ext-apps (npm ci in tests/mcp): CI has both",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    srv = Service()
    try:
        yield srv
    finally:
        if srv.proc.poll() is None:
            srv.stop()


#: The request ids of the "Roll again" tool calls the cards made (read back in the server's log).
ROLLED: list[str] = []


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The stand-in host: its page and harness, and AppBridge bundled by esbuild, served from a
    loopback origin of its own."""
    site = tmp_path_factory.mktemp("host")
    for name in ("host.html", "harness.js"):
        shutil.copy(HERE / "card" / name, site / name)
    subprocess.run(
        [
            str(ESBUILD),
            str(HERE / "card" / "host-entry.mjs"),
            "--bundle",
            "--format=iife",
            "--global-name=extApps",
            "--platform=browser",
            f"--outfile={site / 'host.js'}",
            "--log-level=warning",
        ],
        check=True,
        cwd=HERE,
        timeout=120,
    )
    with served(site, 18800, 18849) as base:
        yield f"{base}/host.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


class Host:
    """One browser page of the stand-in host; its MCP client posts to the service and keeps the
    request id of each message it sent."""

    def __init__(self, browser: Any, url: str, service: Service) -> None:
        self.service = service
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.context = browser.new_context(viewport={"width": 700, "height": 1000})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.expose_function("mcp", self.rpc)
        self.page.goto(url)

    def rpc(self, method: str, params: dict[str, Any]) -> Any:
        request_id = f"card-{len(self.sent)}"
        self.sent.append((request_id, {"method": method, **params}))
        message = {"jsonrpc": "2.0", "id": len(self.sent), "method": method, "params": params}
        request = urllib.request.Request(
            f"{self.service.base}/mcp",
            data=json.dumps(message).encode(),
            headers={**HEADERS, "x-request-id": request_id},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            answer = json.loads(r.read())
        if "error" in answer:
            raise RuntimeError(answer["error"]["message"])
        return answer["result"]

    def show(self, tool: str, args: dict[str, Any], locale: str) -> Any:
        self.page.evaluate("(o) => showCard(o)", {"tool": tool, "args": args, "locale": locale})
        card = self.page.frame_locator("#view")
        card.locator(".roll-odds svg rect").first.wait_for(timeout=30_000)
        return card

    def close(self) -> None:
        self.context.close()


def catalog(lang: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize("lang", ["en", "pl", "fi", "ar"])
def test_the_card_renders_a_roll_in_the_tables_language(
    browser: Any, host: str, service: Service, lang: str
) -> None:
    request = {**TEST, "lang": lang}
    http = json.loads(service.post("/dos/test", request))
    page = Host(browser, host, service)
    try:
        card = page.show("dos", {"endpoint": "/dos/test", "request": request}, lang)
        root = card.locator("html")
        assert root.get_attribute("lang") == lang
        assert root.get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
        dice = card.locator(".dice .die")
        assert dice.count() == len(http["rolls"]) == 3
        faces = [dice.nth(i).locator("span, del").first.inner_text() for i in range(3)]
        assert faces == [str(r["value"]) for r in http["rolls"]]
        assert "cancelled" in (dice.nth(0).get_attribute("class") or "")  # the 10 a 1 cancels
        texts = [e["text"] for e in http["events"]]
        assert card.locator(".narration li").all_inner_texts() == texts
        assert card.locator(".narration").get_attribute("lang") == lang
        outcome = card.locator(".status.sentence").first.inner_text()
        assert outcome == texts[-1]
        button = card.locator("button.roll-again")
        label = catalog(lang)["messages"].get("Roll again", "Roll again")
        assert button.inner_text() == label
        assert card.locator(".roll-odds svg rect").count() > 3
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.page.screenshot(path=str(ARTIFACTS / f"mcp-roll-card-{lang}.png"), full_page=True)

        # Roll again: a tool call through the host, with a new seed, reaches the server.
        seed = card.locator(".seed").inner_text()
        before = len(page.sent)
        button.click()
        card.locator(".seed", has_not_text=seed).wait_for(timeout=30_000)
        again = [(rid, p) for rid, p in page.sent[before:] if p["method"] == "tools/call"]
        first = again[0][1]
        assert first["arguments"]["endpoint"] == "/dos/test" and "full" not in first["arguments"]
        assert first["arguments"]["request"]["seed"] not in (seed, TEST["seed"])
        card.locator(".roll-odds svg rect").first.wait_for(timeout=30_000)
        assert page.errors == [], page.errors  # no script error, no CSP violation
        ROLLED.append(again[0][0])
    finally:
        page.close()


def test_the_roll_again_calls_reached_the_server(service: Service) -> None:
    """The server's own log (read as it stops, after the cards above): each card's "Roll again"
    is a tool call of /dos/test, answered, with the request id the host gave it; the cards' other
    calls (the whole answer, the odds) are there too, none of them an error."""
    assert len(ROLLED) == 4, "the four cards above rolled again"
    lines = [x for x in service.stop() if x.get("event") == "request"]
    by_id = {x["request_id"]: x for x in lines}
    for request_id in ROLLED:
        line = by_id[request_id]
        assert (line["route"], line["status"], line["system"]) == ("mcp:/dos/test", 200, "dos")
    cards = [x for x in lines if x["request_id"].startswith("card-")]
    assert {"/mcp", "mcp:/dos/test", "mcp:/dos/odds/test"} <= {x["route"] for x in cards}
    assert [x for x in cards if x["status"] != 200 or x.get("problem")] == []
