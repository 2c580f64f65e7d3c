"""Work budget of ``/dragon/battle`` (``rules.budget``): the base dice of one round.

The dragon's pool (battle + features used, DRG-6) and its dragon die (DRG-7), each entity's
prosperity dice (DRG-5) and an individual dragonslayer's extra die (DRG-8); an entity standing
aside (DRG-4) rolls nothing.
"""

from __future__ import annotations

from rules.budget import Work
from rules.dragon.models import BattleRequest
from rules.dragon.simulate import BattleSimulateRequest


def battle_work(req: BattleRequest) -> Work:
    dragon = req.dragon
    dice = dragon.battle + dragon.features_used + int(dragon.dragon_die)
    for e in req.entities:
        if not e.aside:
            dice += e.prosperity + int(e.dragonslayer and e.kind == "individual")
    return Work(dice, ("entities",), "the dragon's pool + the entities' prosperity dice")


#: Dice a simulation may roll, all its runs and rounds together (docs/hardening.md, "Calibration").
SIMULATION_DICE = 5_000_000
#: Each party (the dragon and every entity) counts as this many dice a round besides its pool:
#: ordering, pairing, the next state cost about that much (measured: 7-15 us a party and round,
#: 0.1 us a die drawn in a pool).
ROUND_OVERHEAD = 100


def simulate_work(req: BattleSimulateRequest) -> Work:
    """Every run plays up to ``rerolls + 1`` rounds, each rolling at most the first round's dice
    (:func:`battle_work`: a round's next state never adds dice) plus :data:`ROUND_OVERHEAD` a
    party."""
    rounds = req.rerolls + 1
    per_round = battle_work(req).dice + ROUND_OVERHEAD * (len(req.entities) + 1)
    return Work(
        req.runs * rounds * per_round,
        ("runs",),
        f"runs x rounds x (a round's dice and {ROUND_OVERHEAD} a party) = "
        f"{req.runs} x {rounds} x {per_round:,}",
        unit="dice",
        budget=SIMULATION_DICE,
    )
