"""The playground page end to end in headless Chromium (Debian's `chromium`, driven by Playwright).

For one endpoint of every system, in two languages: the page loads from the service alone, sends the
request, and shows the dice (one per die drawn, scripted ones told apart, cancelled ones struck
through), the outcome, the narration in the chosen language and direction, the seed with a working
Replay, and "copy as curl"; with no console errors and no serious or critical accessibility violation
found by axe-core (npm, injected by the test). The page is also used at a phone's width and from the
keyboard alone; every endpoint of every system is rolled; each language's texts are checked against
its catalog. Screenshots go to `test-artifacts/` (or `$DRAGONROLL_ARTIFACTS`).

`make test` installs axe-core (`npm ci` in this folder, from the Makefile); chromium comes from the
system (CI installs Debian's, see .ci/run). Outside CI the test is skipped, naming what is missing; in CI
(`CI=true`) a missing piece fails it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rules.narration import LANGUAGES as NARRATION_LANGUAGES
from rules.registry import SYSTEMS, find
from tests.pages import CHROMIUM, chromium
from tests.service.test_ops_server import Server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(os.environ.get("DRAGONROLL_ARTIFACTS", ROOT / "test-artifacts"))
CATALOGS = ROOT / "service" / "static" / "playground" / "i18n"
ESBUILD = ROOT / "clients" / "typescript" / "node_modules" / ".bin" / "esbuild"
IN_CI = os.environ.get("CI") == "true"
_MISSING = [
    what
    for what, present in [
        ("chromium (apt-get install chromium)", CHROMIUM is not None),
        ("axe-core (npm ci --prefix tests/browser; `make test` runs it)", AXE.exists()),
    ]
    if not present
]
if _MISSING and not IN_CI:
    pytest.skip("missing: " + ", ".join(_MISSING), allow_module_level=True)
assert not _MISSING, "CI must have " + ", ".join(_MISSING)

if IN_CI:
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api")

LANGUAGES = ["en", "pl", "fi", "ar"]


def catalog(lang: str) -> dict[str, str]:
    messages: dict[str, str] = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))[
        "messages"
    ]
    return messages


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


@pytest.fixture
def own_server() -> Iterator[Server]:
    """A server of the test's own, started and stopped with it: the longest browser test shares none."""
    srv = Server()
    try:
        yield srv
    finally:
        try:
            srv.stop()
        except subprocess.TimeoutExpired:
            srv.proc.kill()
            srv.proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


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

    def open(self, path: str = "", lang: str | None = None) -> None:
        query = f"?lang={lang}" if lang else ""
        self.page.goto(self.server.url(f"/{query}#{path}"))
        self.page.wait_for_selector("body[data-ready]", state="attached")

    def roll(self, button: str = "#send") -> dict[str, Any]:
        """Click a button that sends the request; the answer, once the page has shown it."""
        with self.page.expect_response(
            lambda r: r.request.method == "POST" and "/odds" not in r.url
        ) as info:
            self.page.click(button)
        answer: dict[str, Any] = info.value.json()
        self.page.wait_for_function(
            "seed => document.querySelector('#result .seed')?.textContent === seed",
            arg=str(answer["seed"]),
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
        assert page.page.inner_text("#result .seed") == str(answer["seed"])
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


@pytest.mark.parametrize("lang", ["en", "pl", "ar"])
def test_a_bad_request_shows_the_problem_one_language_per_line(
    browser: Any, server: Server, lang: str
) -> None:
    """The page's own words ("Refused (422)") on a line of their own, in the page's language; the
    problem's title, detail and each field's message each on its own line, marked with the language
    the service wrote them in (its Content-Language, else English)."""
    page = Page(browser, server)
    try:
        page.open("/dos/test", lang=lang)
        page.page.click("#tab-json")
        page.page.fill("#json", json.dumps({"stat": 44, "skill": "three", "dc": 47}))
        with page.page.expect_response(lambda r: r.url.endswith("/dos/test")) as info:
            page.page.click("#send")
        problem = info.value.json()
        spoken = info.value.headers.get("content-language", "en")
        page.page.wait_for_selector("#result .status.bad")
        refused = catalog(lang).get("Refused ({status})", "Refused ({status})")
        status = page.page.locator("#result .status.bad")
        shown = re.sub("[\u2066-\u2069]", "", status.inner_text())
        assert shown == refused.replace("{status}", "422")
        assert status.evaluate("n => n.closest('[lang]').lang") == lang
        # Each text's language as the problem says it (`lang`, `detail_lang`, `errors[].lang`),
        # else its Content-Language.
        title_lang = problem.get("lang", spoken)
        lines = page.page.locator("#result .problem-title, #result .problem-detail")
        assert lines.all_inner_texts() == [problem["title"], problem["detail"]]
        marked = lines.evaluate_all("ns => ns.map(n => n.lang)")
        assert marked == [title_lang, problem.get("detail_lang", title_lang)]
        messages = page.page.locator("#result .problem-errors li span")
        assert messages.all_inner_texts() == [e["msg"] for e in problem["errors"]]
        marked = messages.evaluate_all("ns => ns.map(n => n.lang)")
        assert marked == [e.get("lang", title_lang) for e in problem["errors"]]
        assert "skill" in page.page.inner_text("#result .problem-errors")
        page.page.fill("#json", "{not json")
        page.page.click("#send")
        assert page.page.inner_text("#json-error")
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
        page.page.wait_for_selector("#result .seed")
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
        assert "Success by the total" in text and "Luck" in text
        # The chance of each outcome as the service gave it, and the total's distribution as bars.
        # A GM's words, the exact fraction in the tooltip.
        cell = page.page.locator(
            "#odds tr", has=page.page.locator("th", has_text=re.compile("^Success by the total$"))
        )
        percent = float(cell.locator("td").inner_text().rstrip("%"))
        assert abs(percent - 100 * odds["outcomes"]["success"]["p"]) <= 0.05 + 1e-9
        fraction = odds["outcomes"]["success"]["exact"]
        assert cell.locator(".chance").get_attribute("title") == f"exactly {fraction}"
        assert "·" not in text and "tail" not in text and "truncation" not in text
        first_chart = page.page.locator("#odds svg").first.locator("rect")
        assert first_chart.count() == min(60, len(odds["pool"]["result"]))
        # Editing a field asks again, with the new request (no seed, no dice).
        with page.page.expect_response(lambda r: "/dos/odds/test" in r.url) as again:
            page.page.fill("#f-skill", "5")
            page.page.locator("#f-skill").dispatch_event("change")
        sent = json.loads(again.value.request.post_data or "{}")
        assert sent["skill"] == 5 and "seed" not in sent and "dice" not in sent
        page.page.wait_for_function(
            "n => document.querySelector('#odds svg').querySelectorAll('rect').length === n",
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
        ("/dragon/simulate", None),  # its answer is the odds; /dragon/odds would refuse `runs`
        ("/riders/simulate", None),
    ],
)
def test_each_endpoint_asks_its_own_odds_or_none(
    browser: Any, server: Server, path: str, odds: str | None
) -> None:
    """An endpoint with no odds asks none (``/dos/odds`` would refuse a complex test with a 422)."""
    page = Page(browser, server)
    asked: list[str] = []
    page.page.on(
        "request",
        lambda r: asked.append(r.url) if r.method == "POST" and "/odds" in r.url else None,
    )
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


def english_texts_shown(page: Any, lang: str) -> list[str]:
    """The page's own English texts (those without placeholders that the catalog translates
    differently) that are on the page in ``lang`` all the same."""
    english = catalog("en")
    visible = page.evaluate("() => document.body.innerText")
    return [
        msgid
        for msgid, text in catalog(lang).items()
        if "\x04" not in msgid
        and "{" not in msgid
        and text != msgid
        and len(msgid) > 3
        and english.get(msgid, msgid) in visible
        and english.get(msgid, msgid) not in text
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_speaks_the_chosen_language(browser: Any, server: Server, lang: str) -> None:
    messages = catalog(lang)
    page = Page(browser, server)
    try:
        page.open("/dos/attack", lang=lang)
        page.page.wait_for_selector("#odds:not([hidden]) table")
        html = page.page.evaluate(
            "() => [document.documentElement.lang, document.documentElement.dir]"
        )
        assert html == [lang, "rtl" if lang == "ar" else "ltr"]
        # The languages offered are those the service speaks (GET /systems), each in its own name.
        options = page.page.eval_on_selector_all("#lang option", "os => os.map(o => o.value)")
        assert options == list(NARRATION_LANGUAGES)
        names = page.page.eval_on_selector_all("#lang option", "os => os.map(o => o.textContent)")
        assert names[:2] == ["English", "Polski"]
        # Every fixed text of the page is its catalog's.
        for msgid, shown in page.page.evaluate(
            "() => [...document.querySelectorAll('[data-i18n]')].map(n => [n.dataset.i18n, n.textContent])"
        ):
            assert shown == messages.get(msgid, msgid), msgid
        assert page.page.title() == messages.get("dragonroll playground", "dragonroll playground")
        # The form's field names, and the system's name as GET /systems gives it.
        labels = page.page.locator("#form-view label").all_inner_texts()
        assert messages.get("field\x04dexterity", "dexterity") in labels
        system = page.page.locator("#system option:checked").inner_text()
        assert system == find("dos").display_name(lang)
        answer = page.roll()
        # The outcome: the answer's own events of the endpoint's outcome codes, in its language.
        (endpoint,) = [e for e in find("dos").endpoints if e.path == "/attack"]
        told = [e["text"] for e in answer["events"] if e["code"] in endpoint.outcome]
        assert told and page.page.inner_text("#result .sentence") == " ".join(told)
        assert page.page.locator("#result .sentence").get_attribute("lang") == lang
        # Each group of dice headed by its slot's name in the language, never by the slot's id.
        headings = page.page.locator("#result .dice-group h4").all_inner_texts()
        slots = list(dict.fromkeys(r["slot"] for r in answer["rolls"]))
        assert headings == [messages[f"slot\x04{slot}"] for slot in slots]
        assert page.page.locator("#result table.words th").first.text_content() == messages.get(
            "field\x04hit", "hit"
        )
        if lang != "en":
            assert english_texts_shown(page.page, lang) == []
            assert page.page.inner_text("#send") != "Roll"
        if lang == "ar":
            # The layout mirrors: the request panel (first in the document) stands on the right.
            request, result = (page.page.locator(".panel").nth(i).bounding_box() for i in range(2))
            assert request is not None and result is not None
            assert request["x"] > result["x"]
            assert page.page.evaluate("() => getComputedStyle(document.body).direction") == "rtl"
        assert page.errors == []
        assert page.axe() == []
        page.shot(f"language-{lang}")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["pl", "ar"])
def test_map_keys_and_compound_slots_are_words(browser: Any, server: Server, lang: str) -> None:
    """A map's keys (a rider's `bonuses` by element) are values in words; a slot named after an
    entity (`pool.dragon`, `pool.<id>`) is the slot's name and the entity's; a field the catalog
    translates is never shown by its key."""
    messages = catalog(lang)
    page = Page(browser, server)
    try:
        page.open("/riders/combat", lang=lang)
        labels = page.page.locator("#form-view label").all_inner_texts()
        assert messages["value\x04water"] in labels and "water" not in labels
        assert page.errors == []
    finally:
        page.close()
    page = Page(browser, server)
    try:
        page.open("/dragon/battle", lang=lang)
        labels = page.page.locator("#form-view label").all_inner_texts()
        assert messages["field\x04prosperity"] in labels and "prosperity" not in labels
        answer = page.roll()
        headings = page.page.locator("#result .dice-group h4").all_inner_texts()
        pool, dragon = messages["slot\x04pool"], messages["slot\x04dragon"]
        assert f"{pool} · {dragon}" in headings
        raw = {part for r in answer["rolls"] for part in (r["slot"], *r["slot"].split("."))}
        assert not raw & set(headings), headings
        assert page.errors == []
    finally:
        page.close()


def test_switching_the_language_retranslates_the_page(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        page.open("/dnd5e/check")
        page.roll()
        assert page.page.inner_text("#send") == "Roll"
        page.page.select_option("#lang", "fi")
        fi = catalog("fi")
        page.page.wait_for_function(
            "t => document.querySelector('#send').textContent === t", arg=fi["Roll"]
        )
        assert page.page.evaluate("() => document.documentElement.lang") == "fi"
        assert page.page.inner_text("#result h3 >> nth=0") == fi["Dice"]
        assert page.errors == []
    finally:
        page.close()


def test_every_endpoint_of_every_system_rolls_its_example(browser: Any, own_server: Server) -> None:
    """Each system, each endpoint, its example rolled (the languages taken in turn): no 4xx or 5xx
    answer (odds included) and no console error."""
    server = own_server
    page = Page(browser, server)
    failed: list[str] = []
    page.page.on(
        "response",
        lambda r: (
            failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None
        ),
    )
    rolled: list[str] = []
    try:
        page.open()
        systems = page.page.eval_on_selector_all("#system option", "os => os.map(o => o.value)")
        assert systems == [s.id for s in SYSTEMS]  # GET /systems: the registry's, /dice too
        for system in systems:
            page.page.select_option("#system", system)
            paths = page.page.eval_on_selector_all("#endpoint option", "os => os.map(o => o.value)")
            for path in paths:
                lang = LANGUAGES[len(rolled) % len(LANGUAGES)]
                page.page.select_option("#lang", lang)
                page.page.select_option("#endpoint", path)
                page.page.wait_for_timeout(350)  # the odds are asked 300 ms after a change
                answer = page.roll()
                assert page.page.inner_text("#result .sentence").strip(), path
                assert answer["seed"] is not None
                rolled.append(path)
                page.page.wait_for_load_state("networkidle")
        posts = [
            p
            for p, item in json.loads((ROOT / "openapi" / "openapi.json").read_text("utf-8"))[
                "paths"
            ].items()
            if "post" in item and "/odds" not in p
        ]
        assert sorted(rolled) == sorted(posts)
        assert failed == []
        assert page.errors == []
    finally:
        page.close()


def test_a_simulation_shows_its_win_rates_with_their_intervals(
    browser: Any, server: Server
) -> None:
    page = Page(browser, server)
    try:
        page.open("/dragon/simulate")
        answer = page.roll()
        rows = page.page.locator("#result .win-row")
        assert rows.count() == len(answer["outcomes"])
        for i, outcome in enumerate(answer["outcomes"]):
            value = rows.nth(i).locator(".win-value").inner_text()
            low, high = outcome["ci95"]
            assert f"{100 * outcome['rate']:.1f}".rstrip("0").rstrip(".") in value
            assert f"{100 * high:.1f}".rstrip("0").rstrip(".") in value
            width = rows.nth(i).locator(".rate").evaluate("n => n.style.inlineSize")
            assert abs(float(width.rstrip("%")) - 100 * outcome["rate"]) < 1e-3
            start = rows.nth(i).locator(".ci").evaluate("n => n.style.insetInlineStart")
            assert abs(float(start.rstrip("%")) - 100 * low) < 1e-3
        assert page.page.locator("#odds").is_hidden()
        assert page.errors == []
        assert page.axe() == []
        page.shot("simulate-dragon")
    finally:
        page.close()


def test_a_battles_odds_show_each_pair(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        with page.page.expect_response(lambda r: "/dragon/odds" in r.url) as info:
            page.open("/dragon/battle")
        odds = info.value.json()
        page.page.wait_for_selector("#odds table.pair")
        pairs = page.page.locator("#odds table.pair")
        assert pairs.count() == len(odds["pairs"])
        for i, pair in enumerate(odds["pairs"]):
            titles = pairs.nth(i).locator(".chance").evaluate_all("ns => ns.map(n => n.title)")
            assert titles == [
                f"exactly {pair[k]['exact']}" for k in ("a_wins", "b_wins", "interrupted")
            ]
            assert "nobody loses" in pairs.nth(i).inner_text()
        assert page.errors == []
    finally:
        page.close()


def test_the_typescript_client_bundled_for_a_browser_calls_the_service(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """clients/typescript bundled by esbuild (locked in its package-lock.json) into one script for a
    page, then used from Chromium: /dos/test and /dragon/battle through the client."""
    if not ESBUILD.exists():
        assert not IN_CI, "CI runs npm ci in clients/typescript (esbuild)"
        pytest.skip("no esbuild: npm ci --prefix clients/typescript")
    entry = tmp_path / "page.js"
    entry.write_text(
        f'import {{ createDragonrollClient, unwrap }} from "{ROOT}/clients/typescript/src/index.js";\n'
        "window.dragonroll = { createDragonrollClient, unwrap };\n",
        encoding="utf-8",
    )
    bundle = tmp_path / "page.bundle.js"
    subprocess.run(
        [
            *(str(ESBUILD), str(entry), "--bundle", "--platform=browser", "--format=iife"),
            *(f"--outfile={bundle}", "--log-level=warning"),
        ],
        check=True,
        timeout=60,
    )
    page = Page(browser, server)
    try:
        # A page of the service's origin (its /livez; the browser's favicon request answered here).
        page.page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
        page.page.goto(server.url("/livez"))
        page.page.add_script_tag(path=str(bundle))
        result = page.page.evaluate(
            """async (baseUrl) => {
              const client = window.dragonroll.createDragonrollClient({ baseUrl });
              const { unwrap } = window.dragonroll;
              const test = unwrap(await client.POST("/dos/test", { body: { stat: 24, skill: 3, dc: 43, seed: "x" } }));
              const battle = unwrap(await client.POST("/dragon/battle", { body: {
                seed: "vale", dragon: { age: 3, battle: 2, target: "tribe" },
                entities: [{ id: "tribe", controller: "gm", kind: "group", prosperity: 4, level: 2, target: "dragon" }],
              } }));
              return { total: test.total, success: test.success, battleSeed: battle.seed };
            }""",
            server.url(""),
        )
        assert result["success"] == (result["total"] > 43)
        assert result["battleSeed"] == "vale"
        assert page.errors == []
    finally:
        page.close()


# ------------------------------------------------------------------ the newcomer's findings


def test_dropped_dice_look_as_the_legend_says(browser: Any, server: Server) -> None:
    """A /dice/roll's dropped dice are marked and styled as the legend's dropped die, unlike kept
    ones; the dice are headed by their term's formula, not "Term · 0"."""
    page = Page(browser, server)
    try:
        page.open("/dice/roll")
        page.page.click("#tab-json")
        page.page.fill("#json", json.dumps({"notation": "4d6kh3 + 2d8dl1", "seed": "dropped"}))
        answer = page.roll()
        statuses = [d["status"] for term in answer["terms"] for d in term["dice"]]
        dice = page.page.locator("#result .dice .die")
        classes = dice.evaluate_all("ns => ns.map(n => n.classList.contains('dropped'))")
        assert classes == [status == "dropped" for status in statuses] and sum(classes) == 2
        style = "n => { const s = getComputedStyle(n); return [s.borderTopStyle, s.color, s.backgroundColor]; }"
        legend = page.page.locator("footer .legend .die.dropped").evaluate(style)
        shown = dice.evaluate_all(f"ns => ns.map({style})")
        for dropped, look in zip(classes, shown, strict=True):
            assert (look == legend) == dropped, (look, legend)
        headings = page.page.locator("#result .dice-group h4").all_inner_texts()
        assert headings == ["4d6kh3", "2d8dl1"]
        assert page.errors == []
    finally:
        page.close()


def chances(table: Any) -> list[tuple[str, Fraction, float]]:
    """A table of chances: each row's label, its exact fraction (the tooltip) and its percentage."""
    rows: list[list[str]] = table.locator("tr").evaluate_all(
        "rs => rs.map(r => [r.cells[0].textContent, r.querySelector('.chance').title,"
        " r.querySelector('.chance').textContent])"
    )
    plain = [[re.sub("[\u2066-\u2069]", "", cell) for cell in row] for row in rows]
    return [
        (label, Fraction(title.rsplit(" ", 1)[-1]), float(shown.rstrip("%")))
        for label, title, shown in plain
    ]


@pytest.mark.parametrize(
    "path",
    [
        "/dos/attack",
        "/dos/test",
        "/dos/opposed",
        "/dragon/battle",
        "/riders/combat",
        "/dnd5e/attack",
    ],
)
def test_the_odds_outcomes_add_up_to_one(browser: Any, server: Server, path: str) -> None:
    """Every table of outcomes adds up to exactly 1 (its exact fractions) and to 100% as shown: a
    chance counted within another (a block that holds is a miss, a critical hit is a hit) is told
    as such, in the table of what goes with them, never beside them as a third outcome."""
    page = Page(browser, server)
    try:
        with page.page.expect_response(
            lambda r: "/odds" in r.url and r.request.method == "POST"
        ) as info:
            page.open(path)
        odds = info.value.json()
        page.page.wait_for_selector("#odds table.outcomes")
        tables = page.page.locator("#odds table.outcomes")
        assert tables.count() >= 1
        for i in range(tables.count()):
            rows = chances(tables.nth(i))
            assert sum(exact for _, exact, _ in rows) == 1, rows
            assert abs(sum(shown for _, _, shown in rows) - 100) <= 0.05 * len(rows), rows
        if path == "/dos/attack":
            assert odds["blocked"] == odds["missed"]
            labels = [label for label, _, _ in chances(tables.first)]
            assert labels == ["Hits", "Misses: the block holds"]
        if path == "/dnd5e/attack":
            also = [label for label, _, _ in chances(page.page.locator("#odds table.also"))]
            assert "A critical hit (counted among the hits)" in also
        assert page.errors == []
    finally:
        page.close()


def test_chart_titles_say_what_their_bars_are(browser: Any, server: Server) -> None:
    page = Page(browser, server)
    try:
        page.open("/dice/roll")
        page.page.wait_for_selector("#odds svg")
        titles = page.page.locator("#odds svg").evaluate_all(
            "ns => ns.map(n => n.getAttribute('aria-label'))"
        )
        assert titles == [
            "How likely each total is",
            "The chance of at least each total",
            "The chance of at most each total",
        ]
        captions = " ".join(page.page.locator("#odds figcaption").all_inner_texts())
        assert "Distribution of" not in captions
    finally:
        page.close()


@pytest.mark.parametrize(
    ("path", "lang"), [("/dos/attack", "pl"), ("/dnd5e/attack", "en"), ("/dnd5e/death-save", "fi")]
)
def test_the_result_shows_first_what_changed(
    browser: Any, server: Server, path: str, lang: str
) -> None:
    """The outcome in a line, then what changed at the table (hit points before and after, the
    conditions), in the table's words; the answer's other fields folded away, not shown first."""
    messages = catalog(lang)
    page = Page(browser, server)
    try:
        page.open(path, lang=lang)
        answer = page.roll()
        request = json.loads(page.answers[-1].request.post_data or "{}")
        children = page.page.locator("#result > *").evaluate_all("ns => ns.map(n => n.className)")
        assert children[:2] == ["status ok sentence", "changes"]
        rows = page.page.locator("#result .changes dd").all_inner_texts()
        text = re.sub("[\u2066-\u2069]", "", " | ".join(rows))
        if path == "/dos/attack":
            before, after = request["defender"]["hp"], answer["defender"]["hp"]
            hp = messages["field\x04dos.hp"]
            assert f"{hp}: {before} → {after}" in text
            assert answer["defender"]["incapacitated"] and messages["out of the fight"] in text
            dt = page.page.locator("#result .changes dt").first.text_content()
            assert dt == messages["field\x04defender"]
        elif path == "/dnd5e/attack":
            assert f"HP: {request['target']['hp']} → {answer['target']['hp']} of" in text
        else:
            assert answer["dead"] and messages["dead"] in text
            failures = messages["field\x04failures"]
            assert f"{failures}: {answer['failures']}" in text
        folded = page.page.locator("#result details.rest")
        assert folded.get_attribute("open") is None and folded.locator("table.words").count() == 1
        assert page.errors == []
    finally:
        page.close()


def test_paths_keep_their_order_in_arabic(browser: Any, server: Server) -> None:
    """In right-to-left text an endpoint's path reads left to right, its slash first (the review
    saw `dos/roll/`): the option's text isolates it, and laid out right to left the slash stands
    left of the path's letters. The same text without the isolate would put it at the other end."""
    page = Page(browser, server)
    try:
        page.open("/dos/roll", lang="ar")
        option = page.page.locator("#endpoint option:checked").inner_text()
        assert option.startswith("\u2066/dos/roll\u2069 · ")
        where = """text => {
          const probe = document.createElement("p");
          probe.dir = "rtl";
          probe.style.fontSize = "20px";
          probe.textContent = text;
          document.body.append(probe);
          const node = probe.firstChild;
          const x = (i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
            return r.getBoundingClientRect().x; };
          const slash = text.indexOf("/"), d = text.indexOf("d");
          const out = [x(slash), x(d)];
          probe.remove();
          return out;
        }"""
        slash, d = page.page.evaluate(where, option)
        assert slash < d
        slash, d = page.page.evaluate(where, option.replace("\u2066", "").replace("\u2069", ""))
        assert slash > d  # the bug the isolate fixes
    finally:
        page.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_dragon_battles_form_names_its_things(browser: Any, server: Server, lang: str) -> None:
    """The battle's `location` is a place, not a hit location; its entities are headed by their own
    names, not "entities 1", and each Remove button says which it removes."""
    messages = catalog(lang)
    page = Page(browser, server)
    try:
        page.open("/dragon/battle", lang=lang)
        legends = page.page.locator("#form-view legend").all_inner_texts()
        place = messages.get("field\x04dragon.location") or "location"
        hit = messages.get("field\x04dos.location") or "hit location"
        assert place in legends and hit not in legends and place != hit
        example = json.loads(page.page.input_value("#json"))
        ids = [entity["id"] for entity in example["entities"]]
        assert all(entity in legends for entity in ids)
        assert not any(re.search(r"\d$", legend) for legend in legends), legends
        removes = page.page.locator("#form-view button.small").all_inner_texts()
        remove = messages.get("Remove: {name}", "Remove: {name}")
        for entity in ids:
            assert remove.replace("{name}", entity) in [
                re.sub("[\u2066-\u2069]", "", r) for r in removes
            ]
        assert page.errors == []
    finally:
        page.close()
