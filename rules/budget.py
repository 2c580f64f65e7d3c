"""Work budgets (no cheap amplification): what a request asks the engine to roll, counted from the
request alone, before any die is drawn.

A request within its schema can still ask for a great deal: 1,000 attempts of 100 dice, or 100
combatants declaring 1,000 attacks between them, and its answer lists every die. Each endpoint has
a budget function beside its resolvers (``rules/<system>/budget.py``) that counts the **base dice**
the request can roll at most, the dice it asks for before explosions, tie-break rerolls and other
draws the rules bound on their own, and names the field that drives the count. The service checks
it in one place (``service.routing.ResolverRoute.resolve``) against its budget (``DRAGONROLL_MAX_DICE``,
:data:`MAX_DICE` by default) and refuses a request over it with a 422 ``limit-exceeded``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import FieldError, LimitExceeded, Loc

#: Base dice a request may roll by default (docs/hardening.md): a 1,000-die answer is about 140 KB.
MAX_DICE = 10_000


@dataclass(frozen=True, slots=True)
class Work:
    """The base dice a request can roll at most, the field that drives them, and how they count."""

    dice: int
    loc: Loc
    how: str


#: A request that rolls no dice (its answer grows with the request alone).
NO_DICE = Work(0, (), "no dice")


def check(work: Work, budget: int) -> None:
    """Refuse ``work`` over ``budget`` base dice: a 422 ``limit-exceeded`` naming the field."""
    if work.dice > budget:
        field = ".".join(str(part) for part in work.loc)
        msg = (
            f"{field}: {work.how} = {work.dice:,} base dice; the budget is {budget:,} base dice "
            "a request"
        )
        raise LimitExceeded(msg, [FieldError(work.loc, msg)])
