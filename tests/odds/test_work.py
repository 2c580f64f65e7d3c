"""An odds or simulation entry may carry a work function (``rules.system.Odds.work``): the service
checks it against the app's budget before answering, as it does a resolver's."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import httpx
from pydantic import Field

from rules.budget import Work
from rules.models import RollRequest
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
