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
HERE = Path(__file__).resolve().parent
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(os.environ.get("DRAGONROLL_ARTIFACTS", ROOT / "test-artifacts"))
CHANNEL = "dev.dragonroll.owlbear/result"
if os.environ.get("CI") != "true" and (CHROMIUM is None or not AXE.exists()):
    pytest.skip(
        "no chromium, or no axe-core (npm ci in tests/browser): CI has both",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    with live_service() as srv:
        yield srv


@pytest.fixture(scope="module")
def harness() -> Iterator[str]:
    """The stand-in page, served from another loopback origin than the service's."""
    with served(HERE, 18750, 18799) as base:
        yield f"{base.replace('127.0.0.1', 'localhost')}/harness.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


class Table:
    """One player's browser: the harness with the popover in it."""

    def __init__(
        self, browser: Any, harness: str, service: Service, locale: str = "en-GB", **params: str
    ) -> None:
        # bypass_csp lets the test inject axe-core into the popover, which has its own strict CSP.
        self.context = browser.new_context(
            viewport={"width": 420, "height": 680}, bypass_csp=True, locale=locale
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
            gm.harness("harness.notifications")[-1]["message"]
            == f"\u2068Gandalf\u2069: {message['outcome']}"
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
        # In the log, the table's dice are told apart from the seed's, in words.
        table_dice = gm.popover.locator("#log > li").first.locator(".die.scripted")
        assert table_dice.count() == len(last["dice"])
        assert ", the table's die" in (table_dice.first.get_attribute("aria-label") or "")
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
        assert player.harness("harness.notifications")[-1]["message"].startswith(
            "\u2068Bartek\u2069: "
        )
        # Something that is not a result message is ignored.
        player.harness(f"harness.deliver({json.dumps(CHANNEL)}, {{v: 9}})")
        assert player.popover.locator("#log > li").count() == 1
        assert player.errors == []
    finally:
        player.close()


def test_the_log_shows_the_dice_as_the_card_does(
    browser: Any, harness: str, service: Service
) -> None:
    """The log draws a result's dice with the shared card's dice view: a group per slot named by its
    formula, each die's fate marked (4d6kh3: the lowest dropped). The message carries what that
    needs, so another player, in another language, sees the same dice."""
    roller = Table(browser, harness, service, role="PLAYER", name="Ada")
    reader = Table(browser, harness, service, locale="pl-PL", role="PLAYER", name="Bartek")
    try:
        roller.choose("notation", "/dice/roll")
        roller.roll(notation="4d6kh3")
        [shared] = roller.results()
        answer = json.loads(service.post("/dice/roll", shared["data"]["request"]))
        (term,) = answer["terms"]
        dropped = [d["status"] == "dropped" for d in term["dice"]]
        assert sum(dropped) == 1
        reader.harness(f"harness.deliver({json.dumps(CHANNEL)}, {json.dumps(shared['data'])})")
        reader.popover.locator("#log > li").first.wait_for()
        for table in (roller, reader):
            item = table.popover.locator("#log > li").first
            assert item.locator(".dice-group h4").all_inner_texts() == ["4d6kh3"]
            dice = item.locator(".dice .die")
            assert [d.split()[0] for d in dice.all_inner_texts()] == [
                str(d["value"]) for d in term["dice"]
            ]
            classes = [dice.nth(i).get_attribute("class") or "" for i in range(dice.count())]
            assert ["dropped" in c.split() for c in classes] == dropped
        pl = json.loads((I18N / "pl.json").read_text(encoding="utf-8"))["messages"]
        word = reader.popover.locator("#log .die.dropped").get_attribute("aria-label") or ""
        assert word.endswith(pl["dropped"]), word
        assert roller.errors == [] and reader.errors == []
    finally:
        roller.close()
        reader.close()


def test_bad_input_is_shown_and_nothing_is_shared(
    browser: Any, harness: str, service: Service
) -> None:
    player = Table(browser, harness, service, role="PLAYER", name="Ada")
    try:
        player.choose("dos", "/dos/test")
        player.popover.locator("#f-stat").fill("")
        player.popover.locator("#roll").click()
        assert player.popover.locator("#error").inner_text() == "stat is required"
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


# ------------------------------------------------------------------ the player's language (issue 36)
I18N = ROOT / "service" / "static" / "playground" / "i18n"
OWLBEAR = ROOT / "clients" / "owlbear"
#: A text of the page that is not the popover's own: data, names and the service's answers.
_SHOWN = """() => {
  const out = [];
  const skip = (node) =>
    node.closest('#log .outcome, #log details > ol, [lang="en"]:not(html), h1, bdi, #language, #system');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (text && !skip(n.parentElement)) out.push(text);
  }
  // A die's title is its aria-label; a slot's heading's title is the slot's id (data, not a text).
  for (const node of document.querySelectorAll('[title]:not(.die, .dice-group h4), [aria-label]')) {
    for (const name of ['title', 'aria-label']) if (node.getAttribute(name)) out.push(node.getAttribute(name));
  }
  return out;
}"""


def popover_modules() -> list[Path]:
    """The popover's sources and the shared modules they import (service/static/shared/, followed
    from import to import): the code vite bundles into the popover."""
    import re

    found: list[Path] = []
    todo = sorted((OWLBEAR / "src").glob("*.js"))
    while todo:
        path = todo.pop(0).resolve()
        if path in found:
            continue
        found.append(path)
        for relative in re.findall(
            r'^(?:import|export) .* from "(\.\.?/[^"]+\.js)";$', path.read_text(), re.M
        ):
            todo.append(path.parent / relative)
    return found


def popover_messages() -> list[str | tuple[str, ...]]:
    """The message ids the popover's code marks (the extraction `make catalogs-playground` runs): its
    own sources, the shared modules it bundles and its page."""
    from babel.messages.extract import extract_from_file

    from service.playground_catalog import extract_html

    keywords = {"t": None, "N_": None, "nt": (1, 2)}
    found: list[str | tuple[str, ...]] = []
    for path in popover_modules():
        for _, message, _, _ in extract_from_file("javascript", str(path), keywords=keywords):
            found.append(message)
    with (OWLBEAR / "index.html").open("rb") as page:
        found += [message for _, _, message, _ in extract_html(page, None, None, None)]
    return list(dict.fromkeys(found))


def _filled(text: str, lang: str, **params: object) -> str:
    """A catalog's text with its placeholders filled as the shared translator fills them: in a
    right-to-left language each value isolated (FSI ... PDI)."""
    for key, value in params.items():
        text = text.replace("{" + key + "}", f"\u2068{value}\u2069" if lang == "ar" else str(value))
    return text


def _pattern(msgid: str) -> str:
    import re

    return "".join(
        ".+" if re.fullmatch(r"\{\w+\}", part) else re.escape(part)
        for part in re.split(r"(\{\w+\})", msgid)
    )


@pytest.mark.parametrize("lang", ["en", "pl", "fi", "ar"])
def test_the_popover_speaks_the_players_language(
    browser: Any, harness: str, service: Service, lang: str
) -> None:
    """The browser's language chooses the popover's: every text of its own is its catalog's (the
    compiled playground catalog the service serves), none is left in English, a count takes the
    language's plural form, and Arabic is laid out right to left."""
    import re

    from babel import Locale

    catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    messages, plurals = catalog["messages"], catalog["plurals"]
    marked = popover_messages()
    assert len(marked) > 30
    english: dict[str, str] = {}  # an English text of the popover -> the one shown instead
    for message in marked:
        singular = message if isinstance(message, str) else message[0]
        if lang != "en":
            translated = messages.get(singular) or plurals.get(singular)
            assert translated, f"{lang}: no translation of {singular!r}"
        if isinstance(message, str):
            english[message] = messages.get(message, message)
        else:
            for form in message:
                english[form] = "" if lang != "en" else form

    locale = {"en": "en-GB", "pl": "pl-PL", "fi": "fi-FI", "ar": "ar-EG"}[lang]
    player = Table(browser, harness, service, locale=locale, role="GM", name="Ada")
    try:
        frame = player.frame()
        frame.wait_for_function(f"() => document.documentElement.lang === {json.dumps(lang)}")
        assert frame.evaluate("() => document.documentElement.dir") == (
            "rtl" if lang == "ar" else "ltr"
        )
        assert player.popover.locator("#language").input_value() == lang
        player.choose("dos", "/dos/test")
        player.roll()
        player.popover.locator("#settings summary").click()
        # A field left empty: the error names it in the player's language.
        player.popover.locator("#f-stat").fill("")
        player.popover.locator("#roll").click()
        stat = messages.get("field\x04stat", "stat")
        required = messages.get("{field} is required", "{field} is required")
        assert player.popover.locator("#error").inner_text() == _filled(required, lang, field=stat)

        # Every data-i18n element shows its catalog's text (the status line: the service's).
        for key, text in frame.evaluate(
            "() => [...document.querySelectorAll('[data-i18n]:not(#status)')]"
            ".map((n) => [n.dataset.i18n, n.textContent.trim()])"
        ):
            assert text == messages.get(key, key), (key, text)
        status = _filled(messages.get("Service: {url}", "Service: {url}"), lang, url=service.base)
        assert player.popover.locator("#status").inner_text() == status
        # The form's labels, choices and endpoints: the catalog's words for the fields, values and
        # summaries (the English of GET /systems where the catalog has none).
        labels = frame.evaluate(
            "() => [...document.querySelectorAll('#fields label')].map((l) => [l.htmlFor.slice(2), l.textContent])"
        )
        for name, label in labels:
            assert label.removesuffix(" *") == messages.get(
                f"field\x04{name}", label.removesuffix(" *")
            ), name
            if lang != "en":
                assert f"field\x04{name}" in messages, f"{lang}: no name for the field {name}"
        with urllib.request.urlopen(f"{service.base}/systems", timeout=10) as answer:
            systems = json.loads(answer.read())
        summaries = {e["path"]: e["summary"] for s in systems for e in s["endpoints"]}
        assert summaries
        for path, text in frame.evaluate(
            "() => [...document.querySelectorAll('#endpoint option')].map((o) => [o.value, o.textContent])"
        ):
            if path in summaries:
                assert text == messages.get(f"summary\x04{summaries[path]}", summaries[path]), path
        # The log's count of steps, in the language's plural form.
        steps = player.popover.locator("#log > li details > ol > li").count()
        summary = player.popover.locator("#log > li details > summary").first.inner_text()
        seed = player.results()[-1]["data"]["seed"]
        forms = plurals.get("{count} step, seed {seed}")
        if forms:
            form = forms.get(str(Locale.parse(lang).plural_form(steps)), forms["other"])
        else:
            form = "{count} step, seed {seed}" if steps == 1 else "All {count} steps, seed {seed}"
        assert summary == _filled(form, lang, count=steps, seed=seed)

        # No English left: no text shown is one of the popover's English texts that has another
        # text in this language.
        shown = frame.evaluate(_SHOWN)
        assert shown
        for text in shown:
            for source, instead in english.items():
                if lang == "en" or source == instead:
                    continue
                assert not re.fullmatch(_pattern(source), text.removesuffix(" *")), (text, source)
        # And every text shown is a text of this language's catalog (its placeholders filled), or
        # has no letters (a die, a colon): no text of the popover's escapes the catalogs.
        own = [*messages.values(), *(f for forms in plurals.values() for f in forms.values())]
        if lang == "en":  # an English text without its own message is its id
            from babel.messages.pofile import read_po

            with (ROOT / "service" / "locale" / "playground.pot").open("rb") as pot:
                ids = [m.id for m in read_po(pot) if m.id]
            own += [i for m in ids for i in ([m] if isinstance(m, str) else m)]
            own += [label.removesuffix(" *") for _, label in labels]  # the fields' names
        patterns = [re.compile(_pattern(text)) for text in own]
        for seen in shown:
            text = seen.removesuffix(" *")
            if re.fullmatch(r"[\W\d_]*", text):
                continue
            assert any(p.fullmatch(text) for p in patterns), (
                f"{lang}: {text!r} is no catalog's text"
            )
        names = {s["id"]: s["name"][lang] for s in systems}
        for value, text in frame.evaluate(
            "() => [...document.querySelectorAll('#system option')].map((o) => [o.value, o.textContent])"
        ):
            assert text == names[value], value
        # The dice as the shared card draws them: a group per slot, named in the language, and each
        # die's face in words.
        group = player.popover.locator("#log .dice-group").first
        slot = player.results()[-1]["data"]["dice"][0]
        assert group.locator("h4").inner_text() == messages.get("slot\x04" + slot[0], slot[0])
        face = messages.get("{value} on a d{sides}", "{value} on a d{sides}")
        die = group.locator(".die").first.get_attribute("title") or ""
        assert die.split(", ")[0] == _filled(face, lang, value=slot[2], sides=slot[1]), die
        if lang == "ar":
            for selector in ("#error", "#status", "#roll-form", "#log"):
                direction = frame.evaluate(
                    f"() => getComputedStyle(document.querySelector({json.dumps(selector)})).direction"
                )
                assert direction == "rtl", selector
        assert player.errors == []
        violations = axe(frame)  # in every language: its lang, labels and contrast
        assert violations == [], violations
    finally:
        player.close()


# ------------------------------------------------------------------ the room's theme (issue 45)
def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_the_popover_follows_the_room_s_theme(browser: Any, harness: str, service: Service) -> None:
    """OBR.theme: the popover's background, text and Roll button are the room's, light or dark,
    and follow a change of theme; axe-core finds no contrast fault in either."""
    player = Table(browser, harness, service, role="GM", name="Ada", theme="LIGHT")
    try:
        frame = player.frame()
        themes = player.harness("harness.themes")
        for mode in ("LIGHT", "DARK"):
            if mode == "DARK":
                player.harness("harness.setTheme('DARK')")
            theme = themes[mode]
            frame.wait_for_function(
                "(bg) => getComputedStyle(document.body).backgroundColor === bg",
                arg=_rgb(theme["background"]["paper"]),
            )
            body = frame.evaluate(
                "() => [getComputedStyle(document.body).color,"
                " getComputedStyle(document.querySelector('#roll')).backgroundColor,"
                " getComputedStyle(document.querySelector('#roll')).color,"
                " document.documentElement.dataset.theme]"
            )
            assert body == [
                _rgb(theme["text"]["primary"]),
                _rgb(theme["primary"]["main"]),
                _rgb(theme["primary"]["contrastText"]),
                mode.lower(),
            ], mode
            player.choose("dos", "/dos/test")
            player.roll()
            violations = axe(frame)
            assert violations == [], (mode, violations)
        assert player.errors == []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(ARTIFACTS / "owlbear-popover-dark.png"))
    finally:
        player.close()


def test_an_arabic_notification_reads_right_to_left(
    browser: Any, harness: str, service: Service
) -> None:
    """The review: the OBR notification joining the player's name and an Arabic sentence needs its
    direction. Shown as Owlbear shows it (a left-to-right list), the name stands at the right and
    the sentence reads on to its left."""
    player = Table(browser, harness, service, locale="ar-EG", role="GM", name="Ada")
    try:
        player.frame().wait_for_function("() => document.documentElement.lang === 'ar'")
        player.choose("dos", "/dos/test")
        player.roll()
        [message] = [n["message"] for n in player.harness("harness.notifications")]
        assert message.startswith("\u2067\u2068Ada\u2069: ") and message.endswith("\u2069")
        shown = player.page.locator("#notifications li").last
        words = player.page.evaluate(WORDS, shown.element_handle())
        assert words[0]["word"] == "Ada"
        arabic = [w for w in words[1:] if not w["word"].isascii()]
        assert arabic, words
        # The name rightmost; the first Arabic word at its left, the next further left.
        assert words[0]["left"] > arabic[0]["right"] - 1
        assert arabic[0]["left"] > arabic[1]["right"] - 1
        assert player.errors == []
    finally:
        player.close()
