"""The dice roller's registry entry (docs/notation.md): an entry without a game, ``notation``,
served at ``/dice`` (``rules.system``)."""

from __future__ import annotations

from typing import Any

from rules.notation import budget, foundry, odds, text
from rules.notation import endpoints as e
from rules.notation.models import (
    NotationOdds,
    NotationOddsRequest,
    NotationRollRequest,
    NotationRollResult,
)
from rules.notation.roll import ROLLER, configure
from rules.system import Endpoint, Odds, System

__all__ = ["ROLLER", "SYSTEM", "configure"]


def notation_odds(req: NotationOddsRequest) -> Any:
    return odds.notation_odds(req, ROLLER.shorthands)


SYSTEM = System(
    id=e.SYSTEM,
    path=e.PREFIX,
    name={"en": "Dice notation", "pl": "Notacja kości", "fi": "Noppanotaatio", "ar": "صيغة الفصوص"},
    # bumped whenever an answer could change for the same request and seed (System.rules_version)
    rules_version="notation-1",
    endpoints=(
        Endpoint(
            path="/roll",
            outcome=("notation.total",),
            summary=e.ROLL_SUMMARY,
            description=e.ROLL_DESCRIPTION,
            request=NotationRollRequest,
            result=NotationRollResult,
            resolve=ROLLER.roll,
            slots=ROLLER.slots,
            slot_doc=e.ROLL_SLOTS,
            work=ROLLER.work,
            examples=e.ROLL_EXAMPLES,
        ),
    ),
    texts=text.TEXTS,
    flavors=text.FLAVORS,
    odds=(
        Odds(
            path="/odds",
            summary=e.ODDS_SUMMARY,
            description=e.ODDS_DESCRIPTION,
            result=NotationOdds,
            examples=e.ODDS_EXAMPLES,
            request=NotationOddsRequest,
            answer=notation_odds,
            of="/roll",
            work=budget.odds_work,
        ),
    ),
    foundry=foundry.pools,
    tag=e.TAG,
    game=False,
)
