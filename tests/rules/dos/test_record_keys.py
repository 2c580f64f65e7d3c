"""Every DoS result and record is a typed dict, and an attack's new defender state (a damage's new
target state) a plain dict of the ``Defender`` (``Target``) model's fields, all written by orjson in
insertion order: every dict the engine builds must hold exactly its type's keys (a typed dict's, or
a model's fields), in declaration order, or the response's bytes change. The golden files pin the order for their cases
only; this walks every record of many results of every DoS endpoint (the golden requests with
several seeds, and requests reaching every place a record is built)."""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rules.dice import DiceSource
from rules.dos import checks, combat, models, turn
from tests.rules.dos.test_combat_turn import ignatius, kobold
from tests.rules.record_keys import KeyWalk, golden_requests, seeded, typed_dicts

#: path -> (resolver, slots, request model), as ``rules.dos.system`` lists them.
ENDPOINTS: dict[str, tuple[Callable[..., Any], Callable[..., Any], type[BaseModel]]] = {
    "/dos/roll": (checks.roll, checks.roll_slots, models.PoolRequest),
    "/dos/test": (checks.test, checks.test_slots, models.TestRequest),
    "/dos/opposed": (checks.opposed, checks.opposed_slots, models.OpposedRequest),
    "/dos/complex": (checks.complex_test, checks.complex_slots, models.ComplexRequest),
    "/dos/actions": (combat.actions, combat.actions_slots, models.ActionsRequest),
    "/dos/initiative": (combat.initiative, combat.initiative_slots, models.InitiativeRequest),
    "/dos/attack": (combat.attack, combat.attack_slots, models.AttackRequest),
    "/dos/damage": (combat.damage, combat.damage_slots, models.DamageRequest),
    "/dos/maneuver": (combat.maneuver, combat.maneuver_slots, models.ManeuverRequest),
    "/dos/turn": (turn.turn, turn.turn_slots, models.TurnRequest),
}

SWORD = {"dexterity": 25, "strength": 18, "skill": 2, "weapon": {"kind": "melee", "damage": 5}}
BOW = {"dexterity": 20, "skill": 2, "weapon": {"kind": "shooting", "damage": 12}}
KOBOLD = {"dexterity": 9, "block": 1, "dodge": 2, "hp": 12, "max_hp": 12}

#: Requests reaching the places a record is built that the golden requests may not reach: both
#: kinds of pool die (a base die, an extra die of a surviving 10), both attack rolls (melee, ranged),
#: both defenses, both run stops, a hit on every kind of defender, and the same inside a turn.
EXTRA: list[tuple[str, dict[str, Any]]] = [
    (  # a dodge; the attacker's 10 explodes (an extra die); a hit
        "/dos/attack",
        {
            "attacker": SWORD,
            "defender": KOBOLD,
            "defense": "dodge",
            "dice": {"attack": [10, 3, 4], "defense": [2, 2]},
        },
    ),
    (  # no defense: a hit (a location rolled, damage to 0 hp: incapacitated)
        "/dos/attack",
        {"attacker": SWORD, "defender": {**KOBOLD, "hp": 3}, "defense": "none"},
    ),
    (  # an incapacitated defender: critical damage
        "/dos/attack",
        {
            "attacker": SWORD,
            "defender": {**KOBOLD, "hp": 0, "incapacitated": True},
            "dice": {"attack": [5, 5]},
        },
    ),
    (  # ranged, aimed: a hit without defense
        "/dos/attack",
        {"attacker": BOW, "defender": KOBOLD, "ranged": {"dc": 0}, "aim": "head"},
    ),
    (  # ranged: a miss
        "/dos/attack",
        {"attacker": BOW, "defender": KOBOLD, "ranged": {"dc": 1000}, "dice": {"attack": [5, 5]}},
    ),
    (  # ranged with a defense the GM allows
        "/dos/attack",
        {
            "attacker": BOW,
            "defender": KOBOLD,
            "ranged": {"dc": 5, "ties": "succeed"},
            "defense": "dodge",
            "defense_difficulty": "very_hard",
        },
    ),
    (  # a runner defends and stops
        "/dos/attack",
        {
            "attacker": {**SWORD, "dexterity": 0},
            "defender": {**KOBOLD, "running": True},
            "dice": {"attack": [2, 2], "defense": [8, 8], "run_stop": [5]},
        },
    ),
    (  # a runner defends and keeps running
        "/dos/attack",
        {
            "attacker": {**SWORD, "dexterity": 0},
            "defender": {**KOBOLD, "running": True},
            "dice": {"attack": [2, 2], "defense": [8, 8], "run_stop": [6]},
        },
    ),
    (  # a runner hit: no stop roll
        "/dos/attack",
        {
            "attacker": SWORD,
            "defender": {**KOBOLD, "running": True, "armor": 2},
            "dice": {"attack": [5, 5], "defense": [3, 3]},
        },
    ),
    (  # every object's keys in reverse declaration order; a defender without max_hp
        "/dos/attack",
        {
            "aim": "torso",
            "defense": "block",
            "defender": dict(reversed({"dexterity": 9, "block": 1, "hp": 12, "armor": 1}.items())),
            "attacker": dict(reversed({**SWORD, "weapon": {"damage": 5, "kind": "melee"}}.items())),
            "seed": "reversed",
        },
    ),
    (  # a turn: a runner defends by luck (a run stop), a ranged attack, a grab, a push
        "/dos/turn",
        {
            "combatants": [
                ignatius(
                    skills={"weapon": 2, "unarmed": 1},
                    opponents=["k1"],
                    declare=[
                        {"action": "attack", "target": "k1"},
                        {"action": "grab", "target": "k2"},
                    ],
                ),
                kobold("k1", declare=[{"action": "run"}]),
                kobold(
                    "k2",
                    weapon={"kind": "thrown", "damage": 2},
                    skills={"thrown": 2, "dodge": 1, "unarmed": 1},
                    declare=[{"action": "attack", "target": "ignatius", "ranged": {"dc": 4}}],
                ),
                kobold("k3", declare=[{"action": "push", "target": "ignatius"}]),
            ],
            "dice": {"ignatius.1.attack": [2, 2], "ignatius.1.defense": [10, 5]},
        },
    ),
]


def _requests() -> list[tuple[str, dict[str, Any]]]:
    return [
        (path, seeded_body)
        for path, body in [*golden_requests("dos"), *EXTRA]
        for seeded_body in seeded(body)
    ]


def _resolve(path: str, body: dict[str, Any]) -> Any:
    resolver, slots, model = ENDPOINTS[path]
    req: Any = model.model_validate_json(json.dumps(body))  # as the service does: strictly
    return resolver(
        req, DiceSource(req.seed if req.seed is not None else "keys", req.dice, slots(req))
    )


def _site(name: str, record: dict[str, Any], where: str) -> str:
    """Which of the engine's constructions of a record type built this one (for coverage)."""
    if name == "PoolDie":
        return "extra" if record["extra"] else "base"
    if name == "AttackRoll":
        return "melee" if record["dc"] is None else "ranged"
    if name == "DefenseRoll":
        return str(record["kind"])
    if name == "RunStop":
        return "stopped" if record["stopped"] else "keeps running"
    return ""


def _resolve_attack(body: dict[str, Any]) -> tuple[Any, BaseModel]:
    req = models.AttackRequest.model_validate_json(json.dumps(body))
    seed = req.seed if req.seed is not None else "keys"
    return combat.attack(req, DiceSource(seed, req.dice, combat.attack_slots(req))), req.defender


def test_every_record_holds_its_keys_in_declaration_order() -> None:
    walk = KeyWalk(_site)
    seen = walk.seen
    paths: set[str] = set()
    changed: set[str] = set()  # the defender's fields an attack changed, or "nothing"
    for n, (path, body) in enumerate(_requests()):
        res = _resolve(path, body)
        walk.check(
            res, typing.get_type_hints(ENDPOINTS[path][0])["return"], f"request {n} ({path})"
        )
        paths.add(path)
        if path == "/dos/attack":
            res, defender = _resolve_attack(body)
            assert (
                res["defender"] is not defender.__dict__
            )  # a copy: never the frozen request's own
            before = defender.model_dump()
            changed |= {k for k, v in res["defender"].items() if before[k] != v} or {"nothing"}
    assert paths == set(ENDPOINTS), set(ENDPOINTS) - paths
    assert seen["Defender"] == {"dict"} and seen["DamageTarget"] == {"dict"}
    assert changed == {
        "nothing",
        "blocks_used",
        "dodges_used",
        "running",
        "stopped",
        "hp",
        "incapacitated",
        "critical",
    }
    # Every record type of DoS, and every place the engine builds one, was walked.
    records = {record.__name__ for record in typed_dicts(models)}
    assert records <= set(seen), records - set(seen)  # Roll and Event are walked too
    assert seen["PoolDie"] == {"base", "extra"}
    assert seen["AttackRoll"] == {"melee", "ranged"}
    assert seen["DefenseRoll"] == {"block", "dodge"}
    assert seen["RunStop"] == {"stopped", "keeps running"}
