"""Whole Dragon Riders combats: `/riders/combat` with `auto` decisions (RDR-9), run after run.

Run i is the `/riders/combat` request with `auto: true` and seed ``{seed}/{i}``: replayable as is.
"""

from __future__ import annotations

from rules.dice import DiceSource
from rules.odds import NoScript, Runs, Simulation, run_seed, summarize
from rules.riders.combat import resolve_combat
from rules.riders.models import CombatRequest

SIDES = ("initiator", "defender")


class CombatSimulateRequest(NoScript, CombatRequest):
    """The `/riders/combat` request plus `runs`; no `dice`; missing decisions are `auto` (RDR-9)."""

    runs: Runs


def simulate(req: CombatSimulateRequest) -> Simulation:
    assert req.seed is not None, "the service gives a simulation a seed"
    body = CombatRequest(**{**req.model_dump(exclude={"runs", "seed", "dice"}), "auto": True})
    endings = []
    for i in range(req.runs):
        result = resolve_combat(body, DiceSource(run_seed(req.seed, i), None, None))
        endings.append((result["winner"] or "unfinished", len(result["decisions"])))
    return summarize(req.seed, endings, [*SIDES, "unfinished"], "decisions")
