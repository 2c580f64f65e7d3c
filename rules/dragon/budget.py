"""Work budget of ``/dragon/battle`` (``rules.budget``): the base dice of one round.

The dragon's pool (battle + features used, DRG-6) and its dragon die (DRG-7), each entity's
prosperity dice (DRG-5) and an individual dragonslayer's extra die (DRG-8); an entity standing
aside (DRG-4) rolls nothing.
"""

from __future__ import annotations

from rules.budget import Work
from rules.dragon.models import BattleRequest


def battle_work(req: BattleRequest) -> Work:
    dragon = req.dragon
    dice = dragon.battle + dragon.features_used + int(dragon.dragon_die)
    for e in req.entities:
        if not e.aside:
            dice += e.prosperity + int(e.dragonslayer and e.kind == "individual")
    return Work(dice, ("entities",), "the dragon's pool + the entities' prosperity dice")
