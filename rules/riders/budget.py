"""Work budget of ``/riders/combat`` (``rules.budget``): the base dice of one combat.

Both roll-offs (2d6 + rage + pre items' extra dice, RDR-3) and every item's dice (RDR-5, RDR-6), each
item counted once (an item is used at most once a combat).
"""

from __future__ import annotations

from rules.budget import Work
from rules.riders.models import BASE_ROLLOFF_DICE, CombatRequest, parse_dice


def combat_work(req: CombatRequest) -> Work:
    dice = 0
    items: dict[str, int] = {}
    for name, side in (("initiator", req.initiator), ("defender", req.defender)):
        dice += BASE_ROLLOFF_DICE + side.rage + side.extra_rolloff_dice
        items[name] = sum(parse_dice(i.dice)[0] for i in side.items if i.dice is not None)
    most = max(items, key=lambda name: items[name])
    return Work(dice + sum(items.values()), (most, "items"), "both roll-offs + the items' dice")
