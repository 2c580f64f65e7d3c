"""Work budgets (no cheap amplification): what a request can cost at most (:class:`Work`), counted
from the request alone by each endpoint's work function before the work starts, and the checks the
service makes (``service.endpoints.Endpoint.admit``): base dice for a resolver (:data:`MAX_DICE` by
default), each odds or simulation endpoint's own unit and budget, the answer's bytes
(:data:`MAX_ANSWER`). docs/hardening.md, "The work budget".
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import FieldError, LimitExceeded, Loc

#: Base dice a request may roll by default (docs/hardening.md): a 1,000-die answer is about 140 KB.
MAX_DICE = 10_000
#: The largest answer an accepted request may have, in bytes (docs/hardening.md).
MAX_ANSWER = 4 * 1024 * 1024

#: The unit of a resolver's work.
BASE_DICE = "base dice"


@dataclass(frozen=True, slots=True)
class Work:
    """What a request costs at most: ``dice`` of ``unit`` (base dice, odds terms, simulated dice),
    the field that drives them and how they count; ``budget``, the budget of that unit when it is
    not the service's dice budget; ``answer``, the answer's size in bytes at most (0: not bounded
    here, the answer's size follows from the dice), counted as ``answer_how``."""

    dice: int
    loc: Loc
    how: str
    unit: str = BASE_DICE
    budget: int | None = None
    answer: int = 0
    answer_how: str = "the answer's size"


#: A request that rolls no dice (its answer grows with the request alone).
NO_DICE = Work(0, (), "no dice")


def check(work: Work, budget: int) -> None:
    """Refuse ``work`` over its budget (``budget`` base dice for a resolver, else its own), or an
    answer over :data:`MAX_ANSWER`: a 422 ``limit-exceeded`` naming the field."""
    limit = budget if work.budget is None else work.budget
    if work.dice > limit:
        _refuse(work.loc, f"{work.how} = {work.dice:,} {work.unit}", f"{limit:,} {work.unit}")
    if work.answer > MAX_ANSWER:
        _refuse(
            work.loc,
            f"{work.answer_how} = {work.answer:,} bytes at most",
            f"{MAX_ANSWER:,} bytes an answer (4 MiB)",
            per_request=False,
        )


def check_answer(size: int) -> None:
    """The last guard of :data:`MAX_ANSWER`, on the encoded answer: an endpoint whose work function
    does not count its answer's bytes (those whose dice budget keeps them far below it) is still
    never answered over 4 MiB; the request is refused as one over its estimate would be."""
    if size > MAX_ANSWER:
        _refuse(
            (),
            f"the answer = {size:,} bytes",
            f"{MAX_ANSWER:,} bytes an answer (4 MiB)",
            per_request=False,
        )


def _refuse(loc: Loc, counted: str, budget: str, *, per_request: bool = True) -> None:
    field = ".".join(str(part) for part in loc)
    per = " a request" if per_request else ""
    msg = (
        f"{field}: {counted}; the budget is {budget}{per}"
        if field
        else f"{counted}; the budget is {budget}{per}"
    )
    raise LimitExceeded(msg, [FieldError(loc, msg)])
