"""Whole dragon battles: ``/dragon/battle`` round after round until the battle ends (DRG-14..16). Run
i, round r is the ``/dragon/battle`` request with seed ``{seed}/{i}/{r}``, each round after the first
the previous one's ``next_state`` (docs/odds.md, "Simulations").
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rules.dice import DiceSource
from rules.dragon.battle import battle
from rules.dragon.models import BattleRequest, BattleResult
from rules.odds import NoScript, Runs, Simulation, run_seed, summarize

ENDINGS = ("dragon_won", "dragon_defeated", "not_won")


class BattleSimulateRequest(NoScript, BattleRequest):
    """The `/dragon/battle` request plus `runs` and `rerolls`; no `dice`."""

    runs: Runs
    rerolls: Annotated[
        int,
        Field(ge=0, le=20, description="Rerolls the dragon spends while it can (DRG-16), 0-20."),
    ] = 0


def simulate(req: BattleSimulateRequest) -> Simulation:
    assert req.seed is not None, "the service gives a simulation a seed"
    endings = [_battle(req, run_seed(req.seed, i)) for i in range(req.runs)]
    return summarize(req.seed, endings, ENDINGS, "rounds")


def _battle(req: BattleSimulateRequest, seed: str) -> tuple[str, int]:
    body = req.model_dump(exclude={"runs", "rerolls", "seed", "dice"})
    for r in range(1, req.rerolls + 2):
        body["continues"] = r <= req.rerolls
        result = battle(BattleRequest(**body), DiceSource(f"{seed}/{r}", None, None))
        if result["battle_ended"]:
            return _ending(result), r
        body = {**result["next_state"], "continues": False, "options": body["options"]}
    return _ending(result), req.rerolls + 1


def _ending(result: BattleResult) -> str:
    if result["dragon_defeated"]:
        return "dragon_defeated"
    return "dragon_won" if result["hoard"]["dragon_won"] else "not_won"
