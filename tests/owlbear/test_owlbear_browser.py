"""Issue 28: the built Owlbear Rodeo popover in headless Chromium, inside a STAND-IN for Owlbear.

``harness.html`` is not Owlbear Rodeo: it is a page that loads the popover from the service in an
iframe, as Owlbear does, and answers the messages the ``@owlbear-rodeo/sdk`` posts (as the SDK's
source shows them: OBR_READY, ``<id>_RESPONSE<nonce>``, broadcast delivery), and stands in for the
Dice+ extension's roll protocol too. The popover rolls against a live service (uvicorn on loopback);
the test checks what it broadcasts (destination ALL, texts and dice under 16 KB, the same result as
the same request over HTTP), the GM-only roll that stays local, the Dice+ dice sent as the scripted
dice, another player's result shown in this player's language, the errors shown for bad input, and
axe-core on the popover. A screenshot goes to ``test-artifacts/owlbear-popover.png`` (the one in
docs/img was taken so).

CI installs chromium and runs ``npm ci`` in tests/browser (axe-core); elsewhere the test is skipped
when either is missing.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.test_mcp_clients import Service, free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(os.environ.get("DRAGONROLL_ARTIFACTS", ROOT / "test-artifacts"))
CHANNEL = "dev.dragonroll.owlbear/result"
if os.environ.get("CI") != "true" and (CHROMIUM is None or not AXE.exists()):
    pytest.skip(
        "no chromium, or no axe-core (npm ci in tests/browser): CI has both",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    srv = Service()
    try:
        yield srv
    finally:
        lines = srv.stop()
        assert [x for x in lines if x.get("level") in ("error", "critical")] == []


@pytest.fixture(scope="module")
def harness() -> Iterator[str]:
    """The stand-in page, served from another loopback origin than the service's."""
    port = free_port(18750, 18799)
    handler = functools.partial(_Quiet, directory=str(HERE))
    httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{port}/harness.html"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert CHROMIUM is not None, "CI must install chromium (apt-get install chromium)"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class Table:
    """One player's browser: the harness with the popover in it."""

    def __init__(self, browser: Any, harness: str, service: Service, **params: str) -> None:
        # bypass_csp lets the test inject axe-core into the popover, which has its own strict CSP.
        self.context = browser.new_context(
            viewport={"width": 420, "height": 680}, bypass_csp=True, locale="en-GB"
        )
        self.context.route("**/*", self._loopback_only)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        query = urllib.parse.urlencode({"service": service.base, **params})
        self.page.goto(f"{harness}?{query}")
        self.popover = self.page.frame_locator("iframe")
        self.popover.locator("#endpoint option").first.wait_for(state="attached")

    def _console(self, message: Any) -> None:
        # A 422 is how the service asks for more of the table's dice (Dice+): not a page error.
        if message.type == "error" and "status of 422" not in message.text:
            self.errors.append(message.text)

    @staticmethod
    def _loopback_only(route: Any) -> None:
        host = urllib.parse.urlsplit(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            route.abort()

    def harness(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def results(self) -> list[dict[str, Any]]:
        broadcasts = self.harness("harness.broadcasts")
        return [b for b in broadcasts if b["channel"] == CHANNEL]

    def choose(self, system: str, path: str) -> None:
        self.popover.locator("#system").select_option(system)
        self.popover.locator("#endpoint").select_option(path)

    def roll(self, **fields: str) -> None:
        """Roll, and wait until the roll's answer is in and shown: the popover's Roll button is
        enabled again (the answer came and was shared) and the harness has the notification that
        ends the popover's showing of a result (its log entry is written before it)."""
        for name, value in fields.items():
            self.popover.locator(f"#f-{name}").fill(value)
        shown = self.harness("harness.notifications.length")
        self.popover.locator("#roll").click()
        try:
            self.frame().wait_for_function("() => !document.querySelector('#roll').disabled")
            self.page.wait_for_function(f"() => harness.notifications.length > {shown}")
        except sync_api.TimeoutError as timeout:
            state = self.harness(
                "({received: harness.received.slice(-40), rolls: harness.rollRequests,"
                " subscriptions: [...harness.subscriptions], notifications: harness.notifications})"
            )
            error = self.popover.locator("#error").inner_text()
            raise AssertionError(f"the roll was not shown: error {error!r}, {state}") from timeout

    def frame(self) -> Any:
        return next(f for f in self.page.frames if f.url.startswith("http://127.0.0.1"))

    def close(self) -> None:
        self.context.close()


def test_a_roll_is_shared_with_every_player(browser: Any, harness: str, service: Service) -> None:
    gm = Table(browser, harness, service, role="GM", name="Gandalf", dicePlus="1")
    try:
        gm.choose("dos", "/dos/test")
        gm.roll(stat="24", skill="3", dc="43")
        assert gm.popover.locator("#log > li").count() == 1
        [shared] = gm.results()
        assert shared["destination"] == "ALL" and shared["size"] < 16 * 1024
        message = shared["data"]
        # The same request over HTTP gives the same result: the message carries its texts and dice.
        answer = json.loads(service.post("/dos/test", message["request"]))
        assert message["request"]["seed"] == answer["seed"] and message["seed"] == answer["seed"]
        assert message["texts"] == [e["text"] for e in answer["events"]]
        assert message["outcome"] == answer["events"][-1]["text"]
        assert message["dice"] == [
            [r["slot"], r["sides"], r["value"], "s"] for r in answer["rolls"]
        ]
        assert message["player"] == "Gandalf" and message["path"] == "/dos/test"
        assert "roll" not in message and "margin" not in message  # not the whole answer
        # Shown in the roller's own log (from the broadcast) and as a notification.
        item = gm.popover.locator("#log > li").first
        assert item.locator(".outcome").inner_text() == message["outcome"]
        assert item.locator(".dice .die").count() == len(answer["rolls"])
        assert (
            gm.harness("harness.notifications")[-1]["message"] == f"Gandalf: {message['outcome']}"
        )

        # A GM-only roll stays here: logged, not broadcast.
        gm.popover.locator("#gm-only").check()
        gm.roll()
        assert gm.popover.locator("#log > li").count() == 2
        assert len(gm.results()) == 1
        assert "(GM only)" in gm.popover.locator("#log > li").first.locator(".who").inner_text()
        gm.popover.locator("#gm-only").uncheck()

        # Dice+: the table's 3D dice become the request's scripted dice (6, 10, 10, 4, 7: the tens
        # ask for more).
        dice_plus = gm.popover.locator("#dice-plus")
        dice_plus.wait_for(state="attached")
        gm.frame().wait_for_function("() => !document.querySelector('#dice-plus').disabled")
        dice_plus.check()
        table = [6, 10, 10, 4, 7]
        gm.harness(f"harness.dieValues = {table}")
        gm.roll()
        assert gm.popover.locator("#log > li").count() == 3
        last = gm.results()[-1]["data"]
        # The dice Dice+ rolled, in the order asked for (the pool, then a die per ten; the stand-in
        # rolls 5s once the table's values are used up), are the request's script ...
        requests = gm.harness("harness.rollRequests")
        counts = [int(r["diceNotation"].split(" ")[0].removesuffix("d10")) for r in requests]
        rolled = (table + [5] * sum(counts))[: sum(counts)]
        assert len(counts) >= 2 and sum(counts) >= len(table), counts  # two tens: more dice asked
        assert last["request"]["dice"] == {"check": rolled}
        # ... and the answer's dice are the table's, in that order, with the same outcome as the
        # same request over HTTP.
        answer = json.loads(service.post("/dos/test", last["request"]))
        assert last["dice"] == [["check", 10, v, "d"] for v in rolled[: len(last["dice"])]]
        assert [d[2] for d in last["dice"][: len(table)]] == table
        assert last["outcome"] == answer["events"][-1]["text"]
        assert {r["source"] for r in requests} == {"dev.dragonroll.owlbear"}
        assert {r["rollTarget"] for r in requests} == {"everyone"}

        assert gm.errors == []
        violations = axe(gm.frame())
        assert violations == [], violations
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        gm.frame().evaluate("() => window.scrollTo(0, 0)")
        gm.page.screenshot(path=str(ARTIFACTS / "owlbear-popover.png"))
    finally:
        gm.close()


def test_another_players_result_in_this_players_language(
    browser: Any, harness: str, service: Service
) -> None:
    player = Table(browser, harness, service, role="PLAYER", name="Ada")
    try:
        assert player.popover.locator("#gm-only-label").is_hidden()
        request = {"stat": 24, "skill": 3, "dc": 43, "seed": "Sarathael", "lang": "pl"}
        polish = json.loads(service.post("/dos/test", request))
        english = json.loads(service.post("/dos/test", {**request, "lang": "en"}))
        message = {
            "v": 1,
            "id": "remote-1",
            "player": "Bartek",
            "path": "/dos/test",
            "title": "Simple test against a DC",
            "lang": "pl",
            "outcome": polish["events"][-1]["text"],
            "texts": [e["text"] for e in polish["events"]],
            "dice": [[r["slot"], r["sides"], r["value"], "s"] for r in polish["rolls"]],
            "seed": "Sarathael",
            "service": service.base,
            "request": request,
        }
        player.harness(f"harness.deliver({json.dumps(CHANNEL)}, {json.dumps(message)})")
        player.popover.locator("#log > li").first.wait_for()
        item = player.popover.locator("#log > li").first
        assert item.locator(".outcome").inner_text() == english["events"][-1]["text"]
        assert english["events"][-1]["text"] != polish["events"][-1]["text"]
        assert player.harness("harness.notifications")[-1]["message"].startswith("Bartek: ")
        # Something that is not a result message is ignored.
        player.harness(f"harness.deliver({json.dumps(CHANNEL)}, {{v: 9}})")
        assert player.popover.locator("#log > li").count() == 1
        assert player.errors == []
    finally:
        player.close()


def test_bad_input_is_shown_and_nothing_is_shared(
    browser: Any, harness: str, service: Service
) -> None:
    player = Table(browser, harness, service, role="PLAYER", name="Ada")
    try:
        player.choose("dos", "/dos/test")
        player.popover.locator("#f-stat").fill("")
        player.popover.locator("#roll").click()
        assert player.popover.locator("#error").inner_text() == "Stat is required"
        player.popover.locator("#f-stat").fill("24")
        player.popover.locator("#f-dc").fill("2000000")
        player.popover.locator("#roll").click()
        error = player.popover.locator("#error")
        error.filter(has_text="dc").wait_for()
        assert "dc" in error.inner_text()
        assert player.results() == []
        assert player.popover.locator("#log > li").count() == 0
    finally:
        player.close()


def axe(frame: Any) -> list[dict[str, Any]]:
    frame.add_script_tag(path=str(AXE))
    result = frame.evaluate("() => axe.run(document)")
    return [
        {"id": v["id"], "targets": [n["target"] for n in v["nodes"]]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
