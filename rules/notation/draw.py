"""``POST /dice/draw``: the next values of a slot's stream, for a client that rolls dice of its own
and wants them from the seeded stream, such as the Foundry module's Dice Fulfillment method
(docs/dice.md, "Drawing a slot's values").
"""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.dice.stream import MAX_SIDES
from rules.errors import InvalidRequest
from rules.events import EventLog, trace
from rules.models import (
    MAX_COMBATANTS,
    MAX_POOL,
    MAX_SCRIPT,
    Envelope,
    Model,
    RollRequest,
    SlotName,
)
from rules.notation.sentences import SENTENCES
from rules.system import Endpoint

#: Bytes of the answer a die drawn costs at most (its ``rolls`` record, with a 160-character slot
#: and a 10-digit value; its value in ``draws``), and a draw (its record and its event, in Arabic).
DIE_BYTES = 230
DRAW_BYTES = 900
ANSWER_BASE = 600


class Draw(Model):
    """The next ``count`` dice of ``sides`` sides of ``slot``'s stream, from die ``start``."""

    slot: SlotName = Field(description="The slot: its own stream of the seed (`u1.7`, `term.0`).")
    sides: Annotated[int, Field(ge=2, le=MAX_SIDES, description="The die size, 2..2^32-1.")]
    count: Annotated[int, Field(ge=1, le=MAX_POOL, description="How many dice, 1..100.")]
    start: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_SCRIPT - MAX_POOL,
            description=(
                "The first die wanted, counted from 0 (0..900: a draw's dice fit a slot's script of "
                "1,000 values): the dice before it are drawn too (listed in `rolls`), since a die's "
                "value depends on the words the dice before it took."
            ),
        ),
    ] = 0


class DrawRequest(RollRequest):
    """``POST /dice/draw``: dice of one or more slots of a seed, in one request."""

    draws: Annotated[
        list[Draw],
        Field(
            min_length=1,
            max_length=MAX_COMBATANTS,
            description="1..100 draws, each of its own slot (a slot drawn twice is a 422).",
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class Drawn(TypedDict):
    """One draw answered: the values of dice ``start`` .. ``start + count - 1`` of the slot."""

    slot: str
    sides: int
    start: int
    values: Annotated[list[int], Field(description="The dice asked for, in the stream's order.")]


class DrawResult(Envelope):
    draws: Annotated[list[Drawn], Field(description="The draws, in the request's order.")]


def slots(req: DrawRequest) -> SlotSpec:
    return {d.slot: d.sides for d in req.draws}


def work(req: DrawRequest) -> Work:
    """Every die drawn: each draw's ``start + count`` (the dice before ``start`` are drawn too);
    the answer's bytes at most."""
    dice = sum(d.start + d.count for d in req.draws)
    return Work(
        dice,
        ("draws",),
        "the start + count of each draw",
        answer=ANSWER_BASE + DRAW_BYTES * len(req.draws) + DIE_BYTES * dice,
        answer_how="the answer's size, counted from the dice drawn",
    )


def draw(req: DrawRequest, dice: DiceSource) -> DrawResult:
    seen: dict[str, int] = {}
    for i, d in enumerate(req.draws):
        if d.slot in seen:
            msg = (
                f"draws[{i}].slot: '{d.slot}' appears twice (draws[{seen[d.slot]}] draws it "
                "already): one draw per slot, asking for all its dice"
            )
            raise InvalidRequest.at(("draws", i, "slot"), msg)
        seen[d.slot] = i
    log = EventLog(SENTENCES)
    answered: list[Drawn] = []
    for d in req.draws:
        values = dice.roll_many(d.slot, d.sides, d.start + d.count)[d.start :]
        answered.append({"slot": d.slot, "sides": d.sides, "start": d.start, "values": values})
        log.add(
            "notation.drawn",
            stream=d.slot,  # not `slot`: its terms (notation.slot=term) would rename a slot "term"
            one=d.count == 1,
            first=d.start,
            last=d.start + d.count - 1,
            count=d.count,
            sides=d.sides,
            dice=values,
        )
    return {**trace(dice, log), "draws": answered}


SUMMARY = "Draw the next dice of slots of a seed"
DESCRIPTION = (
    "The values of a slot's stream (`sha256-v1`, docs/dice.md) for a client that rolls dice of its "
    "own: for each draw, dice `start` .. `start + count - 1` of `slot`'s stream of `sides`-sided "
    "dice (`draws`, in the request's order), with every die drawn to reach them in `rolls` (the "
    "dice before `start` too: a die's value depends on the words the dice before it took) and an "
    "event telling each draw. Several slots are one request (the Foundry module asks for a "
    "term's dice at once, docs/foundry.md); each slot once. Without `seed` the service makes one "
    "(a table's session seed). Anyone with the seed recomputes every value from the stream's "
    "specification (`rng-vectors.json`)."
)
SLOTS = "any slot name a draw gives, its die the draw's `sides`; each drawn from its first die."
EXAMPLES: dict[str, dict[str, object]] = {
    "a term of four d6": {
        "seed": "table-session-1",
        "draws": [{"slot": "u1.0", "sides": 6, "count": 4}],
    },
    "an explosion's next die, and a d20": {
        "seed": "table-session-1",
        "draws": [
            {"slot": "u1.1", "sides": 10, "count": 1, "start": 3},
            {"slot": "u1.2", "sides": 20, "count": 1},
        ],
    },
}

#: ``POST /dice/draw``, an endpoint of the notation's entry (rules/notation/system.py).
ENDPOINT = Endpoint(
    path="/draw",
    outcome=("notation.drawn",),
    summary=SUMMARY,
    description=DESCRIPTION,
    request=DrawRequest,
    result=DrawResult,
    resolve=draw,
    slots=slots,
    slot_doc=SLOTS,
    work=work,
    examples=EXAMPLES,
)
