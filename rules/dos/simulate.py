"""Whole DoS fights: ``/dos/turn`` played turn after turn until at most one side stands, or
``max_turns`` (DOS-14..28). Run i, turn t is the ``/dos/turn`` request with seed ``{seed}/{i}/{t}``
(docs/odds.md, "Simulations").
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from rules.dice import DiceSource
from rules.dos import turn
from rules.dos.models import TurnRequest, TurnResult
from rules.odds import NoScript, Runs, Simulation, run_seed, summarize

DRAW = "draw"


class TurnSimulateRequest(NoScript, TurnRequest):
    """The `/dos/turn` request plus `runs` and `max_turns`; no `dice`."""

    runs: Runs
    max_turns: Annotated[
        int, Field(ge=1, le=100, description="Turns per fight at most, 1-100.")
    ] = 20


def simulate(req: TurnSimulateRequest) -> Simulation:
    assert req.seed is not None, "the service gives a simulation a seed"
    sides = list(dict.fromkeys(c.side for c in req.combatants))
    endings = [_fight(req, run_seed(req.seed, i)) for i in range(req.runs)]
    return summarize(req.seed, endings, [*sides, DRAW], "turns")


def _fight(req: TurnSimulateRequest, seed: str) -> tuple[str, int]:
    body = req.model_dump(exclude={"runs", "max_turns", "seed", "dice"})
    for t in range(1, req.max_turns + 1):
        result = turn.turn(TurnRequest(**body), DiceSource(f"{seed}/{t}", None, None))
        body = _next(body, result)
        standing = _standing(body)
        if len(standing) <= 1:
            return (standing[0] if standing else DRAW), t
    return DRAW, req.max_turns


def _standing(body: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(c["side"] for c in body["combatants"] if not c["incapacitated"]))


def _next(body: dict[str, Any], result: TurnResult) -> dict[str, Any]:
    """The next turn's request: new life states, the order kept, attacks on the fallen retargeted."""
    states = {s["id"]: s for s in result["combatants"]}
    combatants = []
    for c in body["combatants"]:
        s = states[c["id"]]
        combatants.append(
            {
                **c,
                "hp": s["hp"],
                "incapacitated": s["incapacitated"],
                "critical": s["critical"],
                "beaten": s["beaten"],
            }
        )
    down = {c["id"] for c in combatants if c["incapacitated"]}
    for c in combatants:
        foes = [f["id"] for f in combatants if f["side"] != c["side"] and f["id"] not in down]
        c["declare"] = [
            {**d, "target": foes[0]} if d.get("target") in down and foes else d
            for d in c["declare"]
        ]
    return {**body, "combatants": combatants, "order": result["order"], "first": []}
