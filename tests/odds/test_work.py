"""An odds or simulation entry may carry a work function (``rules.system.Odds.work``): the service
checks it against the app's budget before answering, as it does a resolver's."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

import httpx
import orjson
import pytest
from pydantic import Field

import rules.dragon.budget as dragon_budget
import rules.riders.budget as riders_budget
from rules.budget import MAX_DICE, Work, check
from rules.dragon.odds import BattleOddsRequest
from rules.errors import LimitExceeded
from rules.models import RollRequest
from rules.riders.odds import CombatOddsRequest, combat_odds
from rules.system import Odds, System
from service.app import create_app
from service.settings import Settings
from tests.conftest import assert_problem


class CoinOddsRequest(RollRequest):
    flips: Annotated[int, Field(ge=1, le=1000)]


def heads_odds(req: CoinOddsRequest) -> dict[str, Any]:
    return {"flips": req.flips, "all_heads": f"1/{2**req.flips}"}


COIN = System(
    id="coin",
    name={"en": "Coin"},
    rules_version="coin-1",
    endpoints=(),
    texts=(),
    odds=(
        Odds(
            path="/odds",
            summary="Odds of all heads",
            description="No die drawn.",
            result=dict[str, Any],
            examples={"ten": {"flips": 10}},
            request=CoinOddsRequest,
            answer=heads_odds,
            work=lambda req: Work(req.flips, ("flips",), "flips"),
        ),
    ),
)


def post(app: Any, body: dict[str, Any]) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.post("/coin/odds", json=body)

    return asyncio.run(go())


def test_an_odds_entry_s_work_is_checked_against_the_budget() -> None:
    app = create_app(Settings(log_level="warning", max_dice=20), systems=(COIN,))
    assert post(app, {"flips": 20}).json() == {"flips": 20, "all_heads": "1/1048576"}
    problem = assert_problem(post(app, {"flips": 21}), 422, "limit-exceeded")
    assert problem["errors"][0]["loc"] == ["body", "flips"]


# --- the estimates against the loops they estimate, timed without any counting hook -------------


def _riders(pre: list[str], counters: int) -> dict[str, Any]:
    def side(name: str, element: str) -> dict[str, Any]:
        items: list[dict[str, Any]] = [
            {"id": f"{name}p{i}", "name": "p", "timing": "pre", "dice": d}
            for i, d in enumerate(pre)
        ]
        items += [
            {"id": f"{name}c{i}", "name": "c", "timing": "counter", "bonus": 1}
            for i in range(counters)
        ]
        return {"id": name, "element": element, "items": items}

    return {"initiator": side("a", "fire"), "defender": side("b", "water")}


def _cpu(fn: Any, *args: Any) -> tuple[Any, float]:
    start = time.process_time()
    out = fn(*args)
    return out, time.process_time() - start


@pytest.mark.parametrize(
    "body",
    [
        _riders(["50d100"], 1),  # 358 bytes: 10 s of CPU before
        _riders(["99d100"], 0),  # 28.6 s before its 422 (the answer, 8.3 MB, checked after)
        _riders([], 0) | {"initiator": {"id": "a", "element": "fire", "items": [
            {"id": "x", "name": "X", "timing": "counter", "dice": "100d1000"}]}},  # a 71 s power
    ],
)  # fmt: skip
def test_riders_odds_that_took_seconds_are_refused_by_their_estimate(body: dict[str, Any]) -> None:
    req = CombatOddsRequest.model_validate(body)
    work, spent = _cpu(riders_budget.odds_work, req)
    with pytest.raises(LimitExceeded):
        check(work, MAX_DICE)
    assert spent < 0.01, spent


def test_the_worst_riders_odds_accepted_stay_inside_the_cpu_limit() -> None:
    """20d100 pre a side: just inside the budget; answered in well under the 1.5 s limit."""
    req = CombatOddsRequest.model_validate(_riders(["20d100"], 0))
    work = riders_budget.odds_work(req)
    check(work, MAX_DICE)
    assert work.dice > riders_budget.ODDS_WORK * 0.9
    answer, spent = _cpu(combat_odds, req)
    assert len(orjson.dumps(answer)) <= work.answer
    print(f"20d100 a side: {work.dice:,} steps, {spent:.2f} s")
    assert spent < 1.5, spent


def test_a_refused_dragon_odds_request_costs_a_few_milliseconds() -> None:
    """14 pairs of 100 d1000 and the dragon die: the sweep's fractions were built before the
    refusal (0.4 s; 1.5 s with 49 pairs); now only the values are counted."""
    entities = []
    for i in range(14):
        for me, foe, who in ((f"a{i}", f"b{i}", "gm"), (f"b{i}", f"a{i}", "player")):
            entities.append(
                {"id": me, "controller": who, "kind": "individual", "prosperity": 100,
                 "level": 6, "die": 1000, "target": foe}
            )  # fmt: skip
    body = {"dragon": {"age": 6, "battle": 100, "dragon_die": True, "target": "a0"},
            "entities": entities}  # fmt: skip
    req = BattleOddsRequest.model_validate(body)
    work, spent = _cpu(dragon_budget.odds_work, req)
    with pytest.raises(LimitExceeded):
        check(work, MAX_DICE)
    assert spent < 0.1, spent
