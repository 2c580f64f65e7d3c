"""Issue 45: the Foundry module in headless Chromium, inside a STAND-IN for Foundry (not Foundry).

``clients/foundry/test/harness.html`` loads the module as Foundry does, over the stand-ins of
``clients/foundry/test/standins.js`` (each citing the public API page it follows), against a live
service on loopback. The tests read what a player sees: an Arabic card in Foundry's left-to-right
chat laid out right to left (the words' positions on the screen, in the order they are written, the
first word rightmost), and the dialog a GM rolls any endpoint with, without writing JSON: the
systems and rolls from ``GET /systems``, the form with the endpoint's example, the odds before the
roll, who sees the card, and the card posted. Screenshots go to ``test-artifacts/foundry-*.png``.

Skipped where there is no chromium (CI installs it).
"""

from __future__ import annotations

import itertools
import json
import os
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.test_mcp_clients import Service
from tests.pages import CHROMIUM, WORDS, chromium, live_service, served

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "clients" / "foundry"
ARTIFACTS = Path(os.environ.get("DRAGONROLL_ARTIFACTS", ROOT / "test-artifacts"))
if os.environ.get("CI") != "true" and CHROMIUM is None:
    pytest.skip("no chromium: CI has it", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    with live_service() as srv:
        yield srv


@pytest.fixture(scope="module")
def harness() -> Iterator[str]:
    """The module's folder (its shared/ link too) served from another loopback origin."""
    with served(MODULE, 18800, 18849) as base:
        yield f"{base}/test/harness.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


def open_table(browser: Any, harness: str, service: Service, lang: str = "en") -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 1100}, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    query = urllib.parse.urlencode({"service": service.base, "lang": lang})
    page.goto(f"{harness}?{query}")
    page.wait_for_function("() => window.harnessReady === true")
    page.errors = errors  # type: ignore[attr-defined]
    return context, page


def first_line_read_right_to_left(words: list[dict[str, Any]]) -> bool:
    """On the first line of a right-to-left sentence, each word written after another stands to its
    left (a run of Latin letters inside it reads left to right, so it is left out)."""
    first = words[0]
    line = [w for w in words if abs(w["top"] - first["top"]) < first["height"] / 2]
    arabic = [w for w in line if not any("a" <= c.lower() <= "z" for c in w["word"])]
    return len(arabic) >= 2 and all(
        a["left"] >= b["right"] - 1 for a, b in itertools.pairwise(arabic)
    )


def sentences(page: Any, selector: str) -> list[list[dict[str, Any]]]:
    return [
        page.evaluate(WORDS, el)
        for el in page.query_selector_all(selector)
        if el.inner_text().strip()
    ]


def test_an_arabic_card_reads_right_to_left_in_foundry_s_chat(
    browser: Any, harness: str, service: Service
) -> None:
    context, page = open_table(browser, harness, service, lang="ar")
    try:
        # A natural 20 on Layla ("20 طبيعية: ...", the 20 isolated by the service), and an opposed
        # test Karim wins against Layla ("كريم يفوز بالاختبار المتقابل ...", the name isolated):
        # sentences that start with an isolated number or name.
        page.evaluate(
            """async () => {
              const api = harness.api;
              await api.dnd5eAttack({attack_bonus: 5, dice: {attack: [20]}, damage: [{dice: "1d12+3", type: "slashing"}],
                target: {ac: 13, hp: 30, max_hp: 30, name: "ليلى", gender: "feminine"}});
              await api.dosOpposed({seed: "bidi", a: {stat: 60, skill: 5, name: "كريم", gender: "masculine"},
                b: {stat: 20, skill: 1, name: "ليلى", gender: "feminine"}});
              harness.showChat();
            }"""
        )
        cards = page.locator("#chat-log .dragonroll")
        assert cards.count() == 2
        for card in cards.all():
            assert (card.get_attribute("lang"), card.get_attribute("dir")) == ("ar", "rtl")
        # Every sentence of the service's (the outcome, each roll's flavor, each event) reads right
        # to left: the first word written is the rightmost.
        page.evaluate(
            "() => document.querySelectorAll('#chat-log details').forEach((d) => (d.open = true))"
        )
        told = sentences(
            page,
            "#chat-log .dragonroll-outcome, #chat-log .dragonroll-flavor, #chat-log details ol > li",
        )
        assert len(told) >= 6
        for words in told:
            assert first_line_read_right_to_left(words), [w["word"] for w in words]
        # The number and the name that open a sentence stand at its right.
        # ("رمية 20 طبيعية": a natural 20, the isolated number between two words)
        natural = next(w for w in told if [x["word"] for x in w[:3]] == ["رمية", "20", "طبيعية"])
        winner = next(w for w in told if w[0]["word"] == "كريم")
        assert natural[0]["left"] > natural[1]["right"] and natural[1]["left"] > natural[2]["right"]
        assert winner[0]["left"] > winner[1]["right"]  # كريم, then يفوز to its left
        # A roll's formula stays left to right: 1d20 + 5 shows 1d20 first, at the left.
        formula = page.evaluate(WORDS, page.query_selector("#chat-log .dice-formula"))
        assert formula[0]["word"] == "1d20" and formula[0]["left"] < formula[-1]["left"]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#chat-log").screenshot(path=str(ARTIFACTS / "foundry-card-ar.png"))
        # The same card without its lang and dir is the bug the review saw: the name goes to the end.
        page.evaluate(
            """() => document.querySelectorAll('#chat-log [dir]').forEach((n) => {
              if (n.getAttribute('dir') === 'rtl') n.removeAttribute('dir');
            })"""
        )
        bare = next(
            w for w in sentences(page, "#chat-log details ol > li") if w[0]["word"] == "كريم"
        )
        assert not first_line_read_right_to_left(bare)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_a_gm_rolls_any_endpoint_from_the_dialog_without_json(
    browser: Any, harness: str, service: Service
) -> None:
    context, page = open_table(browser, harness, service, lang="en")
    try:
        page.evaluate("() => harness.api.open()")
        dialog = page.locator("#dragonroll-dialog")
        dialog.locator(".dr-form").wait_for()
        assert dialog.locator(".window-header").inner_text() == "Roll with dragonroll"
        # The systems and their rolls, from GET /systems.
        with urllib.request.urlopen(f"{service.base}/systems", timeout=10) as r:
            systems = json.loads(r.read())
        listed = dialog.locator("select[name=system] option").evaluate_all(
            "(os) => os.map((o) => o.value)"
        )
        assert listed == [s["id"] for s in systems]
        dialog.locator("select[name=system]").select_option("dnd5e")
        dialog.locator(".dr-form").wait_for()
        paths = dialog.locator("select[name=endpoint] option").evaluate_all(
            "(os) => os.map((o) => o.value)"
        )
        dnd5e = next(s for s in systems if s["id"] == "dnd5e")
        assert paths == [e["path"] for e in dnd5e["endpoints"]]
        dialog.locator("select[name=endpoint]").select_option("/dnd5e/check")
        # The form holds the endpoint's example (no seed: each roll its own), the odds beside it.
        with urllib.request.urlopen(f"{service.base}/openapi.json", timeout=10) as r:
            document = json.loads(r.read())
        media = document["paths"]["/dnd5e/check"]["post"]["requestBody"]["content"][
            "application/json"
        ]
        example = media.get("example") or next(iter(media["examples"].values()))["value"]
        modifier = dialog.locator("#dragonroll-dialog-f-modifier")
        assert modifier.input_value() == str(example["modifier"])
        assert dialog.locator("#dragonroll-dialog-f-seed").count() == 0
        odds = dialog.locator(".dragonroll-odds .dr-odds .chances")
        odds.first.wait_for()
        before = dialog.locator(".dragonroll-odds").inner_text()
        assert "%" in before
        modifier.fill(str(example["modifier"] + 6))
        modifier.dispatch_event("change")
        page.wait_for_function(
            "(before) => document.querySelector('#dragonroll-dialog .dragonroll-odds').innerText !== before",
            arg=before,
        )
        # Who sees it: a blind roll reaches the GMs alone.
        dialog.locator("select[name=mode]").select_option("blind")
        dialog.locator("button.dragonroll-roll").click()
        page.wait_for_function("() => harness.record.messages.length === 1")
        message = page.evaluate("() => harness.record.messages[0]")
        assert message["blind"] is True and message["whisper"] == ["gm000000000000aa"]
        assert message["options"] == {"messageMode": "blind"}
        dialog.locator(".dragonroll-result.dr-card").wait_for()
        assert dialog.locator(".dragonroll-status").inner_text() == "Posted to chat."
        # A roll without odds says so; one whose system has no Foundry rolls is callable too.
        dialog.locator("select[name=system]").select_option("notation")
        dialog.locator("select[name=endpoint]").select_option("/dice/draw")
        dialog.locator(".dragonroll-odds .help").wait_for()
        dialog.locator("button.dragonroll-roll").click()
        page.wait_for_function("() => harness.record.messages.length === 2")
        assert "Dice 1 to 4 of slot" in page.evaluate("() => harness.record.messages[1].content")
        assert page.errors == []  # type: ignore[attr-defined]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "foundry-dialog.png"))
    finally:
        context.close()


def test_the_dialog_in_arabic(browser: Any, harness: str, service: Service) -> None:
    context, page = open_table(browser, harness, service, lang="ar")
    try:
        page.evaluate("() => harness.api.open()")
        dialog = page.locator("#dragonroll-dialog")
        dialog.locator(".dr-form").wait_for()
        body = dialog.locator(".dragonroll-dialog-body")
        assert (body.get_attribute("lang"), body.get_attribute("dir")) == ("ar", "rtl")
        strings = json.loads((MODULE / "lang" / "ar.json").read_text(encoding="utf-8"))
        assert (
            dialog.locator("button.dragonroll-roll").inner_text()
            == strings["DRAGONROLL.Dialog.Roll"]
        )
        # The form's labels are the service's catalogs' (static/playground/i18n/ar.json).
        catalog = json.loads(
            (ROOT / "service" / "static" / "playground" / "i18n" / "ar.json").read_text(
                encoding="utf-8"
            )
        )
        first = dialog.locator(".dr-form .field label").first
        field = (first.get_attribute("for") or "").removeprefix("dragonroll-dialog-f-")
        assert first.inner_text() == catalog["messages"][f"field\x04{field}"]
        dialog.locator("button.dragonroll-roll").click()
        page.wait_for_function("() => harness.record.messages.length === 1")
        page.evaluate("() => harness.showChat()")
        card = page.locator("#chat-log .dragonroll").first
        assert (card.get_attribute("lang"), card.get_attribute("dir")) == ("ar", "rtl")
        assert page.errors == []  # type: ignore[attr-defined]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "foundry-dialog-ar.png"))
    finally:
        context.close()
