from __future__ import annotations

from typing import Any

from rules.dnd5e import attack, initiative, turn
from rules.dnd5e.models import (
    AttackRequest,
    AttackResult,
    CheckRequest,
    CheckResult,
    DeathSaveRequest,
    DeathSaveResult,
    InitiativeRequest,
    InitiativeResult,
    TurnRequest,
    TurnResult,
)
from tests.rules.dos.helpers import build, source


def run_initiative(**fields: Any) -> InitiativeResult:
    req = build(InitiativeRequest, **fields)
    return initiative.initiative(req, source(req, initiative.initiative_slots))


def run_turn(**fields: Any) -> TurnResult:
    req = build(TurnRequest, **fields)
    return turn.turn(req, source(req, turn.turn_slots))


def run_check(**fields: Any) -> CheckResult:
    req = build(CheckRequest, **fields)
    return attack.check(req, source(req, attack.check_slots))


def run_attack(**fields: Any) -> AttackResult:
    req = build(AttackRequest, **fields)
    return attack.attack(req, source(req, attack.attack_slots))


def run_death_save(**fields: Any) -> DeathSaveResult:
    req = build(DeathSaveRequest, **fields)
    return attack.death_save(req, source(req, attack.death_save_slots))


def target(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"ac": 15, "hp": 20, "max_hp": 20}
    return base | fields
