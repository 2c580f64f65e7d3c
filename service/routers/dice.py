"""``/dice``: the common dice notation, any game (rules/notation, docs/notation.md)."""

from __future__ import annotations

from fastapi import APIRouter

from rules.notation import endpoints as e
from rules.notation import odds
from rules.notation.models import (
    NotationOdds,
    NotationOddsRequest,
    NotationRollRequest,
    NotationRollResult,
)
from rules.notation.parser import SHORTHANDS
from rules.notation.roll import Roller
from service.odds import add_odds
from service.routing import add_resolver
from service.settings import Settings

#: The endpoints' functions, over the default shorthands and the deployment's (:func:`configure`).
ROLLER = Roller(dict(SHORTHANDS))

router = APIRouter(prefix=e.PREFIX, tags=[e.TAG])

add_resolver(
    router,
    "/roll",
    resolver=ROLLER.roll,
    slots=ROLLER.slots,
    work=ROLLER.work,
    request_model=NotationRollRequest,
    response_model=NotationRollResult,
    summary=e.ROLL_SUMMARY,
    description=e.ROLL_DESCRIPTION,
    system=e.SYSTEM,
    slot_doc=e.ROLL_SLOTS,
)
add_odds(
    router,
    "/odds",
    answer=lambda req: odds.notation_odds(req, ROLLER.shorthands),
    request_model=NotationOddsRequest,
    response_model=NotationOdds,
    summary=e.ODDS_SUMMARY,
    description=e.ODDS_DESCRIPTION,
    system=e.SYSTEM,
    examples=e.ODDS_EXAMPLES,
)


def configure(settings: Settings) -> None:
    """The shorthand table of the process: the defaults and ``DRAGONROLL_DICE_SHORTHANDS``."""
    table = ROLLER.shorthands
    assert isinstance(table, dict)
    table.clear()
    table.update({**SHORTHANDS, **settings.dice_shorthands})
