from __future__ import annotations

import json
from typing import Any

from rules.dice import DiceSource
from rules.dragon import battle
from rules.dragon.models import BattleRequest, BattleResult


def request(**fields: Any) -> BattleRequest:
    """Validate a request the way the service does: from JSON, strictly."""
    return BattleRequest.model_validate_json(json.dumps(fields))


def run(**fields: Any) -> BattleResult:
    req = request(**fields)
    seed = req.seed if req.seed is not None else "test"
    return battle.battle(req, DiceSource(seed, req.dice, battle.battle_slots(req)))


def ent(
    id: str,
    controller: str = "gm",
    kind: str = "group",
    prosperity: int = 2,
    level: int = 1,
    **more: Any,
) -> dict[str, Any]:
    return {
        "id": id,
        "controller": controller,
        "kind": kind,
        "prosperity": prosperity,
        "level": level,
        **more,
    }


def dragon(target: str, age: int = 1, battle: int = 2, **more: Any) -> dict[str, Any]:
    return {"age": age, "battle": battle, "target": target, **more}


def prosperity(res: BattleResult) -> dict[str, int]:
    return {e["id"]: e["prosperity"] for e in res["next_state"]["entities"]}
