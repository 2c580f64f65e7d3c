"""A fifth system, added in this file alone (issue 26; docs/development.md, "Adding a system").

A toy coin: one endpoint, one text, one example, no odds and no Foundry pools. Handed to
``create_app`` beside the registry's systems, it is served, documented in the OpenAPI document and
``GET /systems``, narrated in every language (English: no catalog has its text), budgeted and
replayable, and what it lacks is a clear 4xx, with no other file of the project touched.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import httpx
import pytest
from pydantic import Field

from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.events import EventLog, trace
from rules.models import Envelope, RollRequest
from rules.narration import FSI, LANGUAGES, PDI, codes, counted, sentence
from rules.registry import SYSTEMS
from rules.system import Endpoint, System
from service.app import create_app
from service.settings import Settings
from tests.conftest import assert_problem

# ---------------------------------------------------------------- the system, as its package would be

TEXTS = (
    sentence("coin.flipped", "{heads} in {flips} flips."),
    counted("coin.flipped#heads", "{heads} head", "{heads} heads"),
)
VERSION = "coin-1"


class FlipRequest(RollRequest):
    flips: Annotated[int, Field(ge=1, le=1000, description="How many times the coin is flipped.")]


class FlipResult(Envelope):
    heads: int


def flip(req: FlipRequest, dice: DiceSource) -> FlipResult:
    """Each flip a d2 in slot ``coin``: 2 is heads."""
    log = EventLog(codes(TEXTS))
    heads = sum(1 for value in dice.roll_many("coin", 2, req.flips) if value == 2)
    log.add("coin.flipped", heads=heads, flips=req.flips)
    return {**trace(dice, log), "heads": heads}


def flip_slots(req: FlipRequest) -> SlotSpec:
    return {"coin": 2}


def flip_work(req: FlipRequest) -> Work:
    return Work(req.flips, ("flips",), "flips")


COIN = System(
    id="coin",
    name={"en": "Coin", "pl": "Moneta"},
    rules_version=VERSION,
    endpoints=(
        Endpoint(
            path="/flip",
            outcome=("coin.flipped",),
            summary="Flip a coin",
            description="Each flip is heads or tails.",
            request=FlipRequest,
            result=FlipResult,
            resolve=flip,
            slots=flip_slots,
            slot_doc="`coin` (d2): one per flip, 2 is heads.",
            work=flip_work,
            examples={"three flips": {"flips": 3, "seed": "toss"}},
        ),
    ),
    texts=TEXTS,
)

# ---------------------------------------------------------------- the app that serves it


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(Settings(log_level="warning", max_dice=50), systems=(*SYSTEMS, COIN))


def call(app: Any, method: str, path: str, **kwargs: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.request(method, path, **kwargs)

    return asyncio.run(go())


def test_the_fifth_system_is_served_and_replayable(app: Any) -> None:
    first = call(app, "POST", "/coin/flip", json={"flips": 20})
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["rules_version"] == VERSION
    assert [r["slot"] for r in answer["rolls"]] == ["coin"] * 20
    assert answer["heads"] == sum(r["value"] == 2 for r in answer["rolls"])
    # Replayed from the seed the service made: the same bytes.
    again = call(app, "POST", "/coin/flip", json={"flips": 20, "seed": answer["seed"]})
    assert again.content == first.content
    # Replayed from its own dice, scripted: the same result.
    script = {"coin": [r["value"] for r in answer["rolls"]]}
    scripted = call(app, "POST", "/coin/flip", json={"flips": 20, "dice": script}).json()
    assert scripted["heads"] == answer["heads"]
    assert {r["source"] for r in scripted["rolls"]} == {"dice"}


def test_the_fifth_system_is_budgeted(app: Any) -> None:
    over = call(app, "POST", "/coin/flip", json={"flips": 51, "seed": 1})
    problem = assert_problem(over, 422, "limit-exceeded")
    assert "flips" in problem["detail"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fifth_system_is_narrated_in_every_language(app: Any, lang: str) -> None:
    body = {"flips": 3, "seed": "toss", "dice": {"coin": [2, 1, 2]}, "lang": lang}
    answer = call(app, "POST", "/coin/flip", json=body)
    assert answer.headers["content-language"] == lang
    (event,) = answer.json()["events"]
    # No catalog has the text: every language tells it in English (in Arabic, values in isolates).
    assert event["text"].replace(FSI, "").replace(PDI, "") == "2 heads in 3 flips."
    # The systems of the registry keep their own catalogs in the same app.
    roll = call(app, "POST", "/dos/roll", json={"pool": 1, "seed": 1, "lang": lang}).json()
    english = call(app, "POST", "/dos/roll", json={"pool": 1, "seed": 1}).json()
    assert (roll["events"][0]["text"] == english["events"][0]["text"]) == (lang == "en")


def test_the_fifth_system_is_in_the_openapi_document_and_in_get_systems(app: Any) -> None:
    doc = call(app, "GET", "/openapi.json").json()
    op = doc["paths"]["/coin/flip"]["post"]
    assert op["tags"] == ["Coin"]
    assert op["operationId"] == "coin_flip"
    assert "`coin` (d2)" in op["description"]
    assert op["requestBody"]["content"]["application/json"]["example"] == {
        "flips": 3,
        "seed": "toss",
    }
    example = op["responses"]["200"]["content"]["application/json"]["example"]
    assert example["rules_version"] == VERSION and len(example["rolls"]) == 3
    systems = {s["id"]: s for s in call(app, "GET", "/systems").json()}
    assert list(systems)[-1] == "coin"
    assert systems["coin"] == {
        "id": "coin",
        "name": {"en": "Coin", "pl": "Moneta", "fi": "Coin", "ar": "Coin"},
        "rules_version": VERSION,
        "languages": ["en"],
        "game": True,
        "capabilities": ["counted"],  # no Foundry rolls, odds or simulation
        "endpoints": [
            {
                "path": "/coin/flip",
                "summary": "Flip a coin",
                "outcome": ["coin.flipped"],
                "foundry": False,  # its request does not offer it
            }
        ],
    }
    # what it lacks, its request does not offer
    assert "foundry" not in doc["components"]["schemas"]["FlipRequest"]["properties"]


def test_what_the_fifth_system_lacks_is_a_clear_4xx(app: Any) -> None:
    foundry = call(app, "POST", "/coin/flip", json={"flips": 1, "foundry": True})
    # its request has no `foundry` (rules.system.Capability): a schema error that says why
    problem = assert_problem(foundry, 422, "validation-error")
    assert problem["errors"][0]["loc"] == ["body", "foundry"]
    assert "no Foundry rolls" in problem["detail"]
    assert_problem(call(app, "POST", "/coin/odds", json={"flips": 1}), 404, "not-found")
    assert_problem(call(app, "POST", "/coin/simulate", json={"flips": 1}), 404, "not-found")


def test_the_registry_s_app_does_not_serve_it() -> None:
    plain = create_app(Settings(log_level="warning"))
    assert_problem(call(plain, "POST", "/coin/flip", json={"flips": 1}), 404, "not-found")
    assert "coin" not in {s["id"] for s in call(plain, "GET", "/systems").json()}
