"""Every 5e result and the records inside it are typed dicts written by orjson in insertion order:
each dict the engine builds must hold exactly its type's keys, in declaration order, or the response's
bytes change. The golden files pin the order for their cases only; this walks every dict of many
results (the golden requests with several seeds, and requests reaching every place a record is
built)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.dnd5e import models
from rules.dnd5e.models import (
    AttackResult,
    CheckResult,
    DeathSaveResult,
    InitiativeResult,
    TurnResult,
)
from tests.rules.dnd5e.helpers import (
    run_attack,
    run_check,
    run_death_save,
    run_initiative,
    run_turn,
    target,
)
from tests.rules.record_keys import KeyWalk, golden_requests, seeded, typed_dicts

#: Each endpoint's resolver (as the tests run it) and its result type.
ENDPOINTS: dict[str, tuple[Callable[..., Any], Any]] = {
    "/dnd5e/initiative": (run_initiative, InitiativeResult),
    "/dnd5e/turn": (run_turn, TurnResult),
    "/dnd5e/check": (run_check, CheckResult),
    "/dnd5e/attack": (run_attack, AttackResult),
    "/dnd5e/death-save": (run_death_save, DeathSaveResult),
}

#: Requests reaching the places a record is built that the golden requests may not reach: a given
#: Stealth total, every surprise verdict, tie-breaks, a violation of every kind of step, a miss (no
#: damage parts), damage types with resistance, and each way a death save ends.
EXTRA: list[tuple[str, dict[str, Any]]] = [
    (
        "/dnd5e/initiative",
        {
            "tie_break": "d20",
            "combatants": [
                {"id": "hero", "side": "players", "dex_mod": 2, "passive_perception": 10},
                {"id": "gm-said", "side": "players", "dex_mod": 2, "surprised": True},
                {"id": "imp", "side": "gm", "dex_mod": 2, "hiding": {"stealth_total": 14}},
                {"id": "spy", "side": "gm", "dex_mod": 2, "hiding": {"stealth_mod": 3}},
            ],
            "dice": {"stealth.spy": [2], "initiative.hero": [10], "initiative.gm-said": [10]},
        },
    ),
    (
        "/dnd5e/turn",
        {
            "speed": 30,
            "surprised": True,
            "reaction_used": True,
            "steps": [
                {"kind": "move", "feet": 40},
                {"kind": "action", "name": "Dash"},
                {"kind": "bonus_action", "name": "hide"},
                {"kind": "interaction", "object": "door"},
                {"kind": "interaction", "object": "lever", "uses_action": True},
                {"kind": "reaction", "name": "shield"},
                {"kind": "speech", "text": "Now!"},
            ],
        },
    ),
    (
        "/dnd5e/attack",
        {
            "attack_bonus": 0,
            "damage": [{"dice": "1d6", "type": "fire"}],
            "target": target(),
            "dice": {"attack": [1]},
        },
    ),
    (
        "/dnd5e/attack",
        {
            "attack_bonus": 5,
            "advantage": True,
            "damage": [{"dice": "1d6+2", "type": "fire"}, {"dice": "1d4", "type": "cold"}],
            "target": target(hp=3, resistances=["fire"], vulnerabilities=["cold"]),
            "dice": {"attack": [12, 4], "damage.0": [5], "damage.1": [3]},
        },
    ),
    ("/dnd5e/death-save", {"successes": 2, "dice": {"d20": [11]}}),
    ("/dnd5e/death-save", {"failures": 2, "dice": {"d20": [1]}}),
    ("/dnd5e/death-save", {"dice": {"d20": [20]}}),
]


def _site(name: str, record: dict[str, Any], where: str) -> str:
    """Which of the engine's constructions of a record type built this one (for coverage)."""
    if name == "Stealth":
        return "rolled" if record["d20s"] else "given"
    return ""


def test_every_record_holds_its_keys_in_declaration_order() -> None:
    walk = KeyWalk(_site)
    golden = golden_requests("dnd5e")
    for n, (path, body) in enumerate([*golden, *EXTRA]):
        resolve, result = ENDPOINTS[path]
        for seeded_body in seeded(body):
            walk.check(resolve(**seeded_body), result, f"request {n} ({path}): ")
    # Every record type of the five results, and both ways a hider's Stealth is built, were walked.
    records = {record.__name__ for record in typed_dicts(models)}
    assert records <= set(walk.seen), records - set(walk.seen)
    assert walk.seen["Stealth"] == {"rolled", "given"}
