"""Builders for Dragon Riders combat requests, validated the way the service validates them."""

from __future__ import annotations

import json
from typing import Any

from rules.dice import DiceSource
from rules.riders import combat
from rules.riders.models import CombatRequest, CombatResult


def side(id: str = "red", element: str = "fire", **fields: Any) -> dict[str, Any]:
    return {"id": id, "element": element, **fields}


def red(**fields: Any) -> dict[str, Any]:
    return side("red", fields.pop("element", "fire"), **fields)


def blue(**fields: Any) -> dict[str, Any]:
    return side("blue", fields.pop("element", "water"), **fields)


def item(id: str, timing: str = "counter", **fields: Any) -> dict[str, Any]:
    return {"id": id, "name": fields.pop("name", id.title()), "timing": timing, **fields}


def dec(by: str, choice: str, **fields: Any) -> dict[str, Any]:
    return {"by": by, "choice": choice, **fields}


ROLL = dec("defender", "roll")


def request(**fields: Any) -> CombatRequest:
    fields.setdefault("initiator", red())
    fields.setdefault("defender", blue())
    return CombatRequest.model_validate_json(json.dumps(fields))


def run(**fields: Any) -> CombatResult:
    req = request(**fields)
    seed = req.seed if req.seed is not None else "test"
    return combat.resolve_combat(req, DiceSource(seed, req.dice, combat.combat_slots(req)))


def rolled(i: list[int], d: list[int] | None = None, **items: list[int]) -> dict[str, list[int]]:
    """A dice script: the initiator's roll-off, the defender's, then item slots by id."""
    script = {"rolloff.initiator": i}
    if d is not None:
        script["rolloff.defender"] = d
    script.update({f"item.{k}": v for k, v in items.items()})
    return script
