"""The dice roller's registry entry (docs/notation.md): an entry without a game, ``notation``, served
at ``/dice``. :func:`system` builds it over a shorthand table (``adv`` for ``2d20kh1``), ``SYSTEM``
over the defaults; a deployment with more (``DRAGONROLL_DICE_SHORTHANDS``) serves
``SYSTEM.configured(extra)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from rules.notation import budget, draw, foundry, odds, text
from rules.notation import endpoints as e
from rules.notation.models import (
    NotationOdds,
    NotationOddsRequest,
    NotationRollRequest,
    NotationRollResult,
)
from rules.notation.parser import SHORTHANDS
from rules.notation.roll import Roller
from rules.system import Endpoint, Odds, System

__all__ = ["SYSTEM", "system"]


def system(shorthands: Mapping[str, str] = SHORTHANDS) -> System:
    """The entry whose roll and odds read ``shorthands`` (the defaults and a deployment's)."""
    roller = Roller(dict(shorthands))
    return System(
        id=e.SYSTEM,
        path=e.PREFIX,
        name={
            "en": "Dice notation",
            "pl": "Notacja kości",
            "fi": "Noppanotaatio",
            "ar": "صيغة الفصوص",
        },
        about=(
            "any dice roll written in the notation of Foundry VTT (the default), Roll20 or avrae, as"
            " their users type it: keep and drop, exploding dice, success counts, chat commands"
        ),
        # bumped whenever an answer could change for the same request and seed (System.rules_version)
        rules_version="notation-4",
        endpoints=(
            Endpoint(
                path="/roll",
                outcome=("notation.total", "notation.repeated"),
                summary=e.ROLL_SUMMARY,
                description=e.ROLL_DESCRIPTION,
                request=NotationRollRequest,
                result=NotationRollResult,
                resolve=roller.roll,
                slots=roller.slots,
                slot_doc=e.ROLL_SLOTS,
                work=roller.work,
                examples=e.ROLL_EXAMPLES,
            ),
            draw.ENDPOINT,
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
                answer=partial(odds.notation_odds, shorthands=roller.shorthands),
                of="/roll",
                work=partial(budget.odds_work, shorthands=roller.shorthands),
            ),
        ),
        foundry=foundry.pools,
        tag=e.TAG,
        game=False,
        with_shorthands=lambda extra: system({**SHORTHANDS, **extra}),
    )


SYSTEM = system()
