"""Work budgets of the ``/dos`` endpoints (``rules.budget``): the base d10s a request can roll.

Counted from the request before any die is drawn; a pool's extra dice (DOS-3, bounded by the pool
itself) and initiative tie-break rerolls (DOS-15) are not counted.
"""

from __future__ import annotations

from rules.budget import NO_DICE, Work
from rules.dos.models import (
    ActionsRequest,
    AttackRequest,
    ComplexRequest,
    DamageRequest,
    InitiativeRequest,
    ManeuverRequest,
    ManeuverSide,
    OpposedRequest,
    PoolRequest,
    TestRequest,
    TurnCombatant,
    TurnRequest,
)

#: An attack's dice besides the two pools: run_stop, location and damage (one d10 each, DOS-22..27).
ATTACK_EXTRA = 3


def roll_work(req: PoolRequest) -> Work:
    return Work(req.pool, ("pool",), "pool")


def test_work(req: TestRequest) -> Work:
    return Work(req.skill, ("skill",), "skill")


def opposed_work(req: OpposedRequest) -> Work:
    side = "a" if req.a.skill >= req.b.skill else "b"
    return Work(req.a.skill + req.b.skill, (side, "skill"), "a.skill + b.skill")


def complex_work(req: ComplexRequest) -> Work:
    return Work(
        req.attempts * req.skill, ("attempts",), f"attempts x skill = {req.attempts} x {req.skill}"
    )


def actions_work(req: ActionsRequest) -> Work:
    return NO_DICE


def initiative_work(req: InitiativeRequest) -> Work:
    rolled = len(req.combatants) - len(set(req.first))
    return Work(rolled, ("combatants",), "one d10 per combatant not placed first")


def damage_work(req: DamageRequest) -> Work:
    return Work(1, ("weapon",), "the damage die") if req.weapon is not None else NO_DICE


def attack_work(req: AttackRequest) -> Work:
    defense = max(req.defender.block, req.defender.dodge)
    return Work(
        req.attacker.skill + defense + ATTACK_EXTRA,
        ("attacker", "skill"),
        "attacker.skill + the defender's larger defense skill + 3",
    )


def _maneuver_pool(side: ManeuverSide) -> int:
    return max(side.unarmed, side.weapon, side.dodge)


def maneuver_work(req: ManeuverRequest) -> Work:
    a, b = _maneuver_pool(req.a), _maneuver_pool(req.b)
    return Work(a + b, ("a" if a >= b else "b",), "the two sides' largest skills")


def _attack_pool(c: TurnCombatant) -> int:
    """The skill of the combatant's weapon kind (DOS-17, DOS-21): its attack pool."""
    kind = c.weapon.kind
    return int(getattr(c.skills, "weapon" if kind == "melee" else kind))


def _maneuver_skill(c: TurnCombatant) -> int:
    s = c.skills
    return max(s.unarmed, s.weapon, s.dodge)


def turn_work(req: TurnRequest) -> Work:
    """Initiative, then each declared attack (its pool, the target's larger defense pool and the
    three single dice) and maneuver (both sides' largest skills); an unknown target counts 0 (the
    resolver refuses it)."""
    by_id = {c.id: c for c in req.combatants}
    dice = len(req.combatants) if req.order is None else 0
    for c in req.combatants:
        for d in c.declare:
            target = by_id.get(d.target) if d.target is not None else None
            if d.action == "attack":
                defense = max(target.skills.block, target.skills.dodge) if target else 0
                dice += d.count * (_attack_pool(c) + defense + ATTACK_EXTRA)
            elif d.action in ("grab", "break_free", "push", "feint_push"):
                dice += _maneuver_skill(c) + (_maneuver_skill(target) if target else 0)
    return Work(dice, ("combatants",), "the declared attacks' and maneuvers' pools")
