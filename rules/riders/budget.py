"""Work budget of ``/riders/combat`` (``rules.budget``): the base dice of one combat.

Both roll-offs (2d6 + rage + pre items' extra dice, RDR-3) and every item's dice (RDR-5, RDR-6), each
item counted once (an item is used at most once a combat).
"""

from __future__ import annotations

from rules.budget import Work
from rules.riders.models import BASE_ROLLOFF_DICE, CombatRequest, Side, parse_dice
from rules.riders.odds import D6, CombatOddsRequest
from rules.riders.simulate import CombatSimulateRequest


def combat_work(req: CombatRequest) -> Work:
    ini_rolloff, ini_items = _side_dice(req.initiator)
    dfd_rolloff, dfd_items = _side_dice(req.defender)
    most = "defender" if dfd_items > ini_items else "initiator"  # the initiator on a tie
    dice = ini_rolloff + ini_items + dfd_rolloff + dfd_items
    return Work(dice, (most, "items"), "both roll-offs + the items' dice")


def _side_dice(side: Side) -> tuple[int, int]:
    """A side's roll-off dice (RDR-3) and its items' dice, in one pass over its items."""
    rolloff = BASE_ROLLOFF_DICE + side.rage
    dice = 0
    for item in side.items:
        if item.timing == "pre":
            rolloff += item.extra_rolloff_dice
        if item.dice is not None:
            dice += parse_dice(item.dice)[0]
    return rolloff, dice


#: Dice a simulation may roll, all its runs together (docs/hardening.md, "Calibration").
SIMULATION_DICE = 1_000_000
#: Each item counts as this many dice besides its own in every run (its decision, its events).
ITEM_OVERHEAD = 20


def simulate_work(req: CombatSimulateRequest) -> Work:
    """Every run is the whole combat (:func:`combat_work`: both roll-offs and every item's dice)
    plus :data:`ITEM_OVERHEAD` an item."""
    combat = combat_work(req)
    items = len(req.initiator.items) + len(req.defender.items)
    per_run = combat.dice + ITEM_OVERHEAD * (items + 2)
    return Work(
        req.runs * per_run,
        ("runs",),
        f"runs x (both roll-offs, the items' dice and {ITEM_OVERHEAD} an item) = "
        f"{req.runs} x {per_run:,}",
        unit="dice",
        budget=SIMULATION_DICE,
    )


#: Dice x sides summed per odds request (the roll-offs, pre items and counter items): each is one
#: polynomial of that many terms, convolved with the rest (``rules.odds.dice``).
ODDS_WORK = 20_000


def odds_work(req: CombatOddsRequest) -> Work:
    """Every polynomial the roll-off's odds raise: both roll-offs' d6 and every item's dice, as
    dice x sides; the answer lists both totals (a value each per face of those dice)."""
    work = {}
    for name, side in (("initiator", req.initiator), ("defender", req.defender)):
        work[name] = (BASE_ROLLOFF_DICE + side.rage + side.extra_rolloff_dice) * D6
        for item in side.items:
            if item.dice is not None:
                count, sides = parse_dice(item.dice)
                work[name] += count * sides
    most = "defender" if work["defender"] > work["initiator"] else "initiator"
    return Work(
        work["initiator"] + work["defender"],
        (most,),
        "both roll-offs' and every item's dice x sides",
        unit="dice x sides",
        budget=ODDS_WORK,
    )
