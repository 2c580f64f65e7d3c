"""The dice roller's odds budget (rules/budget.py): what ``/dice/odds`` will compute, counted from the
notation before anything is computed."""

from __future__ import annotations

from collections.abc import Mapping

from rules.budget import Work
from rules.notation.models import NotationOddsRequest
from rules.notation.odds import MAX_TERM_BITS, size_of

#: The budget of ``/dice/odds``: the exact fractions' bits the largest term may take (the roller's
#: own limit, ``rules.notation.odds.MAX_TERM_BITS``: ``20d6kh10`` takes 1 ms, this about 0.3 s).
ODDS_BUDGET = MAX_TERM_BITS


def odds_work(req: NotationOddsRequest, shorthands: Mapping[str, str]) -> Work:
    """The largest term's totals x their denominators' bits (the notation read with
    ``shorthands``), refused over :data:`ODDS_BUDGET`; an answer whose exact fractions would be
    too long to send is refused here too."""
    return Work(
        size_of(req.notation, shorthands),
        ("notation",),
        "a term's totals x the bits of their exact fractions",
        unit="bits",
        budget=ODDS_BUDGET,
    )
