"""The dice roller's odds budget (rules/budget.py): what ``/dice/odds`` will compute, counted from the
notation before anything is computed."""

from __future__ import annotations

from collections.abc import Mapping

from rules.budget import Work
from rules.notation.models import NotationOddsRequest
from rules.notation.odds import MAX_STEPS, estimate
from rules.notation.roll import Roller

#: The budget of ``/dice/odds``: the steps its loops may take, every term and every operator
#: counted (``rules.notation.odds.estimate``; about a second of CPU at most, docs/notation.md).
ODDS_BUDGET = MAX_STEPS


def odds_work(req: NotationOddsRequest, shorthands: Mapping[str, str]) -> Work:
    """The steps the odds take (each term's dice, explosions and values, each operator's pairs,
    the answer's fractions; the notation read with ``shorthands``), refused over
    :data:`ODDS_BUDGET`; what the estimate refuses on its own (too many pairs, an answer too long
    to send) is refused here too."""
    roller = Roller(shorthands)
    return Work(
        estimate(roller.notation(req), roller.repeat(req)),
        ("notation",),
        "the steps of the exact odds (each term's dice, explosions and values, each operator's "
        "pairs)",
        unit="steps",
        budget=ODDS_BUDGET,
    )
