"""Work budgets of the ``/dnd5e`` endpoints (``rules.budget``): the base dice a request can roll.

A d20 roll is two dice with advantage or disadvantage alone (D5E-10); a critical hit doubles the
damage dice (D5E-12), so an attack counts its damage dice twice. Initiative's tie-break rolls (D5E-7)
are bounded by the engine itself and not counted; a group (D5E-5) is counted per member.
"""

from __future__ import annotations

from rules.budget import NO_DICE, Work
from rules.dnd5e.models import (
    AttackRequest,
    CheckRequest,
    DeathSaveRequest,
    Edge,
    InitiativeRequest,
    TurnRequest,
)
from rules.dnd5e.odds import AttackOddsRequest, CheckOddsRequest


def d20s(advantage: Edge, disadvantage: Edge) -> int:
    """1, or 2 with advantage or disadvantage but not both (any source of each cancels the other)."""
    return 2 if bool(advantage) != bool(disadvantage) else 1


def initiative_work(req: InitiativeRequest) -> Work:
    """Each combatant's initiative d20s and a hiding creature's rolled stealth (D5E-3: two d20s at
    most, an upper bound)."""
    dice = 0
    for c in req.combatants:
        dice += d20s(c.advantage, c.disadvantage)
        if c.hiding is not None and c.hiding.stealth_mod is not None:
            dice += 2
    return Work(dice, ("combatants",), "the combatants' initiative and stealth d20s")


def turn_work(req: TurnRequest) -> Work:
    return NO_DICE


def check_work(req: CheckRequest) -> Work:
    return Work(d20s(req.advantage, req.disadvantage), ("advantage",), "the d20s")


def attack_work(req: AttackRequest) -> Work:
    damage = sum(part.formula.dice_count for part in req.damage)
    return Work(
        d20s(req.advantage, req.disadvantage) + 2 * damage,
        ("damage",),
        "the attack d20s + the damage dice, doubled on a critical",
    )


def death_save_work(req: DeathSaveRequest) -> Work:
    return Work(d20s(req.advantage, req.disadvantage), ("advantage",), "the d20s")


#: Damage dice per odds request, counted as dice x sides of every polynomial raised: the plain
#: damage once and a critical's (its dice doubled) again, 3 x dice x sides. 1,500 is what the
#: earlier count of 1,000 (dice x sides doubled) let through: 20d20 is 1,200.
ODDS_DAMAGE_WORK = 1500


def check_odds_work(req: CheckOddsRequest) -> Work:
    """The d20 kept: 20 values, each asked of the check resolver."""
    return NO_DICE


def attack_odds_work(req: AttackOddsRequest) -> Work:
    work = 3 * sum(t.count * t.sides for p in req.damage for t in p.formula.dice_terms)
    return Work(
        work,
        ("damage",),
        "the damage dice x sides, once plain and twice for a critical",
        unit="dice x sides",
        budget=ODDS_DAMAGE_WORK,
    )
