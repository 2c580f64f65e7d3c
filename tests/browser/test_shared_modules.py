"""The shared front-end modules (service/static/shared/) on their own, in headless Chromium: no
playground page, only a bare page of the service's origin that imports them, as the Foundry dialog
and the MCP roll card will. The host's globals are closed to them: the page's own `document` refuses
to create elements and the global `fetch` throws, so everything they draw is drawn in the document
they are given and every call goes through the fetch they are given. Checked: the form built from an
endpoint's schema and example and read back after an edit; an answer's card (the dice with their
statuses, the outcome line and the events with their language and direction, what changed); the
odds' outcomes adding up to 100%; a refusal one language per line; plural forms by CLDR category;
and the hooks a host that draws an answer its own way needs (the Owlbear popover): the card's parts
(the outcome's text, the dice drawn from what `diceOf` keeps of an answer, passed on as JSON, the
same as from the answer), the fields a host sets itself left out of a form, a number field emptied
leaving the request and `missing()` naming it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

# Skipped, or failed in CI, as the playground's browser test is when chromium or axe-core is missing.
from tests.browser.test_playground_browser import catalog
from tests.pages import chromium
from tests.service.test_ops_server import Server

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.slow

#: The module the test page runs: it returns what it saw, for the assertions below.
SCRIPT = """
import { diceOf, diceView, eventsView, outcomeText, renderAnswer, oddsView } from "/static/shared/card.js";
import { createForm } from "/static/shared/form.js";
import { loadTexts } from "/static/shared/i18n.js";
import { createService } from "/static/shared/service.js";

const base = location.origin;
const realFetch = window.fetch.bind(window);
const calls = [];
const fetchFn = (url, init) => { calls.push(String(url)); return realFetch(url, init); };
window.fetch = () => { throw new Error("a shared module used the page's fetch"); };
const doc = document.implementation.createHTMLDocument("host");
for (const name of ["createElement", "createElementNS", "getElementById", "querySelector"]) {
  const own = Document.prototype[name];
  Document.prototype[name] = function (...args) {
    if (this === window.document) throw new Error(`a shared module used the page's document (${name})`);
    return own.apply(this, args);
  };
}
const host = doc.body.appendChild(doc.createElement("div"));
const out = {};
try {
  const service = createService({ baseUrl: base, fetch: fetchFn });
  const { paths, doc: api } = await service.load();
  const catalogs = base + "/static/playground/i18n/";
  const pl = await loadTexts("pl", { base: catalogs, fetch: fetchFn });
  const ar = await loadTexts("ar", { base: catalogs, fetch: fetchFn });
  out.plurals = [1, 2, 5, 22].map((n) => pl.nt("{wins} of {count} run", "{wins} of {count} runs", n, { wins: 0 }));

  // The form: /dice/roll's example, a field edited as a user would, read back.
  const ep = paths.find((p) => p.path === "/dice/roll");
  let changed = null;
  const form = createForm({ document: doc, container: host, doc: api, schema: ep.requestSchema,
    value: { ...ep.example, notation: "4d6kh3", seed: "shared" }, texts: pl, onChange: (v) => { changed = v; } });
  out.labels = [...host.querySelectorAll("label")].map((n) => n.textContent);
  const input = host.querySelector("#f-notation");
  input.value = "5d6kh3";
  input.dispatchEvent(new Event("change"));
  out.edited = [form.value.notation, changed && changed.notation];

  // The card of that roll, in Polish.
  const rolled = await service.send("/dice/roll", form.value, "pl");
  renderAnswer(host, rolled, { document: doc, texts: pl, outcome: ep.outcome, actions: [{ text: "again", onClick: () => {} }] });
  out.roll = {
    answer: rolled.body,
    dice: [...host.querySelectorAll(".dice .die")].map((n) => [n.className, n.firstChild.textContent]),
    sentence: [host.querySelector(".sentence").textContent, host.querySelector(".sentence").lang],
    narration: [host.querySelector(".narration").lang, host.querySelector(".narration").dir,
      [...host.querySelectorAll(".narration li")].map((n) => n.textContent)],
    headings: [...host.querySelectorAll(".dice-group h4")].map((n) => n.textContent),
    buttons: [...host.querySelectorAll(".seed-row button")].map((n) => n.textContent),
  };

  // An attack in Arabic: what changed comes first, the events right to left.
  const attack = paths.find((p) => p.path === "/dos/attack");
  const hit = await service.send("/dos/attack", attack.example, "ar");
  renderAnswer(host, hit, { document: doc, texts: ar, outcome: attack.outcome });
  out.attack = {
    answer: hit.body, request: attack.example,
    first: [...host.children].slice(0, 2).map((n) => n.className),
    changes: [...host.querySelectorAll(".changes dt, .changes dd")].map((n) => n.textContent),
    narration: [host.querySelector(".narration").lang, host.querySelector(".narration").dir],
    folded: host.querySelector("details.rest table.words") !== null,
  };

  // Its odds: the outcomes add up to 100%.
  const odds = await service.odds(attack, attack.example, "ar");
  const view = oddsView({ document: doc, texts: ar, odds: odds.odds, request: odds.request });
  out.odds = {
    answer: odds.odds,
    outcomes: [...view.querySelectorAll("table.outcomes tr")].map((r) => [r.cells[0].textContent, r.querySelector(".chance").title]),
    also: [...view.querySelectorAll("table.also tr")].map((r) => r.cells[0].textContent),
    charts: [...view.querySelectorAll("svg")].map((n) => n.getAttribute("aria-label")),
  };

  // The card's parts: what diceOf keeps of an answer, passed on as JSON, draws the same dice.
  const sameDice = (answer) => {
    const whole = diceView(doc, ar, answer.body, answer.request).outerHTML;
    const kept = JSON.parse(JSON.stringify(diceOf(answer.body)));
    return [whole === diceView(doc, ar, kept, answer.request).outerHTML, JSON.stringify(kept).length, JSON.stringify(answer.body).length];
  };
  const axe = paths.find((p) => p.path === "/dnd5e/attack");
  const axed = await service.send("/dnd5e/attack", { ...axe.example, advantage: true }, "ar");
  const turn = paths.find((p) => p.path === "/dos/turn");
  const turned = await service.send("/dos/turn", turn.example, "ar");
  out.parts = {
    same: [rolled, hit, axed, turned].map(sameDice),
    headings: [...diceView(doc, pl, diceOf(axed.body), axed.request).querySelectorAll("h4")].map((n) => n.textContent),
    dropped: diceView(doc, pl, diceOf(axed.body), axed.request).querySelectorAll(".die.dropped").length,
    scripted: diceView(doc, pl, { rolls: [{ slot: "check", sides: 10, value: 7, source: "dice" }] }, {}, { scripted: "at the table" })
      .querySelector(".die").getAttribute("aria-label"),
    outcome: [outcomeText(hit.body.events, attack.outcome), outcomeText(hit.body.events, []), outcomeText([], attack.outcome)],
    hitEvents: hit.body.events.map((e) => [e.code, e.text]),
    codes: attack.outcome,
    events: (() => { const list = eventsView(doc, hit.body.events, "ar"); return [list.lang, list.dir, list.children.length]; })(),
  };

  // A form without what the host sets itself; a number field emptied leaves the request.
  const test = paths.find((p) => p.path === "/dos/test");
  const lean = createForm({ document: doc, container: host, doc: api, schema: test.requestSchema, value: test.example,
    texts: pl, idPrefix: "g", omit: ["seed", "dice", "lang", "foundry"] });
  const offered = [...host.querySelectorAll("#g-add option")].map((o) => o.value);
  const stat = host.querySelector("#g-stat");
  stat.value = "";
  stat.dispatchEvent(new Event("change"));
  out.lean = { value: structuredClone(lean.value), offered, missing: lean.missing(), inputs: [...host.querySelectorAll("input, select")].map((n) => n.id) };
  stat.value = "30";
  stat.dispatchEvent(new Event("change"));
  out.lean.after = [lean.value.stat, lean.missing()];

  // A refusal: one language per line.
  const refused = await service.send("/dos/test", { stat: 44, skill: "three", dc: 47 }, "pl");
  renderAnswer(host, refused, { document: doc, texts: pl });
  out.problem = {
    language: refused.language,
    body: refused.body,
    lines: [...host.querySelectorAll("p, li span")].map((n) => [n.textContent, n.lang || null]),
  };
} catch (err) {
  out.error = String(err && err.stack || err);
}
out.calls = calls.map((url) => url.replace(base, ""));
window.sharedResult = out;
"""


@pytest.fixture(scope="module")
def seen() -> Iterator[dict[str, Any]]:
    """What the test page saw: one page, one server, every check below reads it."""
    server = Server()
    try:
        with chromium(sync_api) as browser:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
            page.goto(server.url("/livez"))
            page.add_script_tag(type="module", content=SCRIPT)
            page.wait_for_function("() => window.sharedResult !== undefined", timeout=60_000)
            result: dict[str, Any] = page.evaluate("() => window.sharedResult")
            result["page_errors"] = errors
            yield result
    finally:
        server.stop()


def test_nothing_reached_the_pages_globals(seen: dict[str, Any]) -> None:
    assert "error" not in seen, seen.get("error")
    assert seen["page_errors"] == []
    assert seen["calls"][:2] == ["/systems", "/openapi.json"]
    assert "/static/playground/i18n/pl.json" in seen["calls"]
    assert "/dice/roll" in seen["calls"] and "/dos/odds/attack" in seen["calls"]


def test_the_form_is_built_from_the_schema_and_read_back(seen: dict[str, Any]) -> None:
    assert catalog("pl")["field\x04notation"] in seen["labels"]
    assert seen["edited"] == ["5d6kh3", "5d6kh3"]


def test_the_card_shows_the_dice_with_their_statuses(seen: dict[str, Any]) -> None:
    roll = seen["roll"]
    (term,) = roll["answer"]["terms"]
    assert [value for _, value in roll["dice"]] == [str(d["value"]) for d in term["dice"]]
    dropped = [d["status"] == "dropped" for d in term["dice"]]
    assert [" dropped" in cls for cls, _ in roll["dice"]] == dropped and sum(dropped) == 2
    assert roll["headings"] == ["5d6kh3"]  # the term's own formula, not "term · 0"
    assert roll["sentence"][1] == "pl" and roll["sentence"][0]
    assert roll["narration"] == ["pl", "ltr", [e["text"] for e in roll["answer"]["events"]]]
    assert roll["buttons"] == ["again"]


def test_the_card_shows_what_changed_first(seen: dict[str, Any]) -> None:
    attack = seen["attack"]
    assert attack["first"] == ["status ok sentence", "changes"]
    before, after = attack["request"]["defender"]["hp"], attack["answer"]["defender"]["hp"]
    assert before != after
    hp = catalog("ar")["field\x04hp"]
    plain = [re.sub("[\u2066-\u2069]", "", text) for text in attack["changes"]]
    assert any(text.startswith(f"{hp}: {before} ← {after}") for text in plain), plain
    assert attack["narration"] == ["ar", "rtl"]
    assert attack["folded"]


def test_the_odds_outcomes_add_up(seen: dict[str, Any]) -> None:
    odds = seen["odds"]
    from fractions import Fraction

    titles = [re.sub("[\u2066-\u2069]", "", title) for _, title in odds["outcomes"]]
    total = sum(Fraction(title.rsplit(" ", 1)[-1]) for title in titles)
    assert total == 1, odds["outcomes"]
    assert len(odds["outcomes"]) == 2  # a hit, or a miss because the block holds
    assert odds["charts"] and all(odds["charts"])


def test_a_refusal_is_one_language_per_line(seen: dict[str, Any]) -> None:
    lines = seen["problem"]["lines"]
    pl = catalog("pl")
    assert lines[0] == [pl["Refused ({status})"].replace("{status}", "422"), None]
    body = seen["problem"]["body"]
    title = body.get("lang", seen["problem"]["language"])
    wanted = [
        title,
        body.get("detail_lang", title),
        *(e.get("lang", title) for e in body["errors"]),
    ]
    assert [lang for _, lang in lines[1:]] == wanted, lines
    assert json.dumps(lines).count("skill") >= 1


def test_the_cards_parts_draw_what_the_card_draws(seen: dict[str, Any]) -> None:
    parts = seen["parts"]
    # Drawn from what diceOf kept (after a trip through JSON), the dice are the answer's, fates and
    # all: a notation roll's dropped dice, a DoS attack's and turn's pools, an attack with advantage.
    for same, kept, whole in parts["same"]:
        assert same and kept <= whole
    # The attack with advantage: a d20 dropped, each damage part named by its formula.
    assert parts["dropped"] == 1
    damage = catalog("pl")["slot\x04damage"]
    assert parts["headings"][1:] == [f"{damage} · 1d12+3", f"{damage} · 2d6"], parts["headings"]
    assert parts["scripted"].endswith(", at the table")
    told, last, none = parts["outcome"]
    events = parts["hitEvents"]
    assert told == " ".join(text for code, text in events if code in parts["codes"]) and told
    assert last == events[-1][1] and none == ""
    assert parts["events"] == ["ar", "rtl", len(events)]


def test_a_form_leaves_out_what_the_host_sets(seen: dict[str, Any]) -> None:
    lean = seen["lean"]
    host = {"seed", "dice", "lang", "foundry"}
    assert not host & set(lean["value"]) and not host & set(lean["offered"])
    assert not any(i.removeprefix("g-") in host for i in lean["inputs"])
    # The stat emptied: not sent with its last value, and named as missing until it is filled.
    assert "stat" not in lean["value"] and lean["missing"] == [["stat"]]
    assert lean["after"] == [30, []]


def test_plural_forms_follow_the_languages_rules(seen: dict[str, Any]) -> None:
    one, few, many, few_again = seen["plurals"]
    assert one != few != many and few_again.replace("22", "2") == few
