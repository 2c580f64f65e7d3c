"""The playground page end to end in headless Chromium (Debian's `chromium`, driven by Playwright).

For one endpoint of every system, in two languages: the page loads from the service alone, sends the
request, and shows the dice (one per die drawn, scripted ones told apart, cancelled ones struck
through), the outcome, the narration in the chosen language and direction, the seed with a working
Replay, and "copy as curl"; with no console errors and no serious or critical accessibility violation
found by axe-core (npm, injected by the test). The page is also used at a phone's width and from the
keyboard alone. Screenshots go to `test-artifacts/` (or `$DRAGONROLL_ARTIFACTS`).

CI installs chromium and runs `npm ci` in this folder (see .ci/run); elsewhere the test is skipped
when either is missing.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_ops_server import Server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(os.environ.get("DRAGONROLL_ARTIFACTS", ROOT / "test-artifacts"))
if os.environ.get("CI") != "true" and (CHROMIUM is None or not AXE.exists()):
    pytest.skip(
        "no chromium, or no axe-core (npm ci in tests/browser): CI has both",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api")

CASES = [
    ("/dos/test", "en"),
    ("/dos/attack", "pl"),
    ("/dragon/battle", "fi"),
    ("/riders/combat", "en"),
    ("/dnd5e/attack", "ar"),
    ("/dnd5e/check", "pl"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    srv = Server()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert CHROMIUM is not None, "CI must install chromium (apt-get install chromium)"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class Page:
    """One browser page on the playground, recording console errors and the answers it got."""

    def __init__(self, browser: Any, server: Server, width: int = 1280) -> None:
        # bypass_csp lets the test inject axe-core; the page itself runs under its own strict CSP.
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, bypass_csp=True, locale="en-GB"
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.answers: list[Any] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", self._answer)
        self.server = server

    def _answer(self, response: Any) -> None:
        if response.request.method == "POST" and "/odds" not in response.url:
            self.answers.append(response)

    def open(self, path: str = "") -> None:
        self.page.goto(self.server.url("/#" + path))
        self.page.wait_for_selector("#endpoint option", state="attached")

    def roll(self, button: str = "#send") -> dict[str, Any]:
        """Click a button that sends the request; the answer, once the page has shown it."""
        with self.page.expect_response(
            lambda r: r.request.method == "POST" and "/odds" not in r.url
        ) as info:
            self.page.click(button)
        answer: dict[str, Any] = info.value.json()
        self.page.wait_for_function(
            "seed => document.querySelector('#seed')?.textContent === seed", arg=str(answer["seed"])
        )
        return answer

    def axe(self) -> list[dict[str, Any]]:
        self.page.add_script_tag(path=str(AXE))
        result = self.page.evaluate("() => axe.run(document)")
        return [
            {"id": v["id"], "targets": [n["target"] for n in v["nodes"]]}
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"playground-{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


@pytest.mark.parametrize(("path", "lang"), CASES, ids=[f"{p}-{lang}" for p, lang in CASES])
def test_roll_one_request_per_system(browser: Any, server: Server, path: str, lang: str) -> None:
    page = Page(browser, server)
    try:
        page.open(path)
        page.page.select_option("#lang", lang)
        answer = page.roll()
        sent = page.answers[-1].request
        assert sent.headers["accept-language"] == lang
        # Every die drawn is shown as a die; the scripted ones, and only those, are marked.
        dice = page.page.locator("#result .dice .die")
        assert dice.count() == len(answer["rolls"])
        scripted = sum(1 for r in answer["rolls"] if r["source"] == "dice")
        assert page.page.locator("#result .dice .die.scripted").count() == scripted
        # The narration, in the page's language and direction.
        items = page.page.locator("#result ol.narration li")
        assert items.all_inner_texts() == [e["text"] for e in answer["events"]]
        narration = page.page.locator("#result ol.narration")
        expected_lang = page.answers[-1].headers.get("content-language", lang)
        assert narration.get_attribute("lang") == expected_lang
        assert narration.get_attribute("dir") == ("rtl" if expected_lang == "ar" else "ltr")
        assert page.page.inner_text("#seed") == str(answer["seed"])
        assert page.errors == []
        assert page.axe() == []
        page.shot(f"{path.strip('/').replace('/', '-')}-{lang}")
    finally:
        page.close()


def test_replay_gives_the_same_answer_and_curl_matches(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        page.open("/dos/complex")
        page.page.click("#tab-json")
        request = json.loads(page.page.input_value("#json"))
        del request["seed"]  # the service makes one; Replay must then reuse it
        page.page.fill("#json", json.dumps(request))
        first = page.roll()
        second = page.roll("#replay")
        assert len(page.answers) == 2
        assert second == first
        page.page.click("#copy-curl")
        curl = page.page.inner_text("#curl")
        assert curl.startswith(f"curl -s {page.server.url('/dos/complex')}")
        assert f'"seed":"{first["seed"]}"' in curl
        assert page.errors == []
    finally:
        page.close()


def test_cancelled_dice_are_struck_through(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        page.open("/dos/test")
        page.page.click("#tab-json")
        page.page.fill(
            "#json",
            json.dumps(
                {"stat": 44, "skill": 3, "dc": 47, "seed": "x", "dice": {"check": [9, 1, 10, 4]}}
            ),
        )
        page.roll()
        assert page.page.locator("#result .die.cancelled del").all_inner_texts() == ["10"]
        assert page.page.locator("#result .die.scripted").count() == 3
        unused = page.page.locator("#result .die").count()
        assert unused == 3
    finally:
        page.close()


def test_a_bad_request_shows_the_problem(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        page.open("/dos/test")
        page.page.click("#tab-json")
        page.page.fill("#json", json.dumps({"stat": 44, "skill": "three", "dc": 47}))
        with page.page.expect_response(lambda r: r.request.method == "POST"):
            page.page.click("#send")
        page.page.wait_for_selector("#result .status.bad")
        assert "422" in page.page.inner_text("#result .status.bad")
        assert "skill" in page.page.inner_text("#result ul")
        page.page.fill("#json", "{not json")
        page.page.click("#send")
        assert "not valid" in page.page.inner_text("#json-error")
    finally:
        page.close()


def test_phone_width_and_keyboard_only(browser: Any, server: Server) -> None:
    page = Page(browser, server, width=375)
    try:
        page.open("/riders/combat")
        overflow = page.page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, "the page scrolls sideways at a phone's width"
        # From the keyboard alone: Tab to the Roll button and press Enter.
        page.page.focus("body")
        for _ in range(200):
            page.page.keyboard.press("Tab")
            if page.page.evaluate("() => document.activeElement.id") == "send":
                break
        else:
            raise AssertionError("the Roll button cannot be reached with Tab")
        with page.page.expect_response(lambda r: r.request.method == "POST"):
            page.page.keyboard.press("Enter")
        page.page.wait_for_selector("#seed")
        assert page.axe() == []
        page.shot("phone-riders")
        assert page.errors == []
    finally:
        page.close()


def test_odds_show_before_rolling_and_follow_the_request(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        with page.page.expect_response(lambda r: "/dos/odds/test" in r.url) as info:
            page.open("/dos/test")
        odds = info.value.json()
        page.page.wait_for_selector("#odds:not([hidden]) table")
        text = page.page.inner_text("#odds")
        assert "success" in text and "luck" in text
        # The chance of each outcome as the service gave it, and the total's distribution as bars.
        shown = page.page.locator("#odds tr", has_text="outcomes · success").inner_text()
        percent = float(shown.split("\t")[-1].rstrip("%"))
        assert abs(percent - 100 * odds["outcomes"]["success"]["p"]) <= 0.05 + 1e-9
        assert page.page.locator("#odds svg rect").count() == min(60, len(odds["pool"]["result"]))
        # Editing a field asks again, with the new request (no seed, no dice).
        with page.page.expect_response(lambda r: "/dos/odds/test" in r.url) as again:
            page.page.fill("#f-skill", "5")
            page.page.locator("#f-skill").dispatch_event("change")
        sent = json.loads(again.value.request.post_data or "{}")
        assert sent["skill"] == 5 and "seed" not in sent and "dice" not in sent
        page.page.wait_for_function(
            "n => document.querySelectorAll('#odds svg rect').length === n",
            arg=min(60, len(again.value.json()["pool"]["result"])),
        )
        assert page.errors == []
        assert page.axe() == []
        page.shot("odds-dos-test")
    finally:
        page.close()


@pytest.mark.parametrize(
    ("path", "odds"),
    [
        ("/dos/attack", "/dos/odds/attack"),  # its own path, though /dos/odds takes it too
        ("/dragon/battle", "/dragon/odds"),  # the system's one odds path
        ("/dos/complex", None),  # /dos/odds takes tests, opposed tests and attacks: not this
        ("/dnd5e/turn", None),
    ],
)
def test_each_endpoint_asks_its_own_odds_or_none(
    browser: Any, server: Server, path: str, odds: str | None
) -> None:
    """An endpoint with no odds asks none (``/dos/odds`` would refuse a complex test with a 422)."""
    page = Page(browser, server)
    asked: list[str] = []
    page.page.on("request", lambda r: asked.append(r.url) if "/odds" in r.url else None)
    try:
        page.open(path)
        if odds is None:
            page.page.wait_for_timeout(1000)  # the page asks 300 ms after a change
            assert asked == []
            assert page.page.locator("#odds").is_hidden()
        else:
            page.page.wait_for_selector("#odds:not([hidden]) table")
            assert [url.removeprefix(server.url("")) for url in asked] == [odds]
        assert page.errors == []
    finally:
        page.close()
