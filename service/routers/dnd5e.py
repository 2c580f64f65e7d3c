"""``/dnd5e``: fifth-edition SRD combat (rules/dnd5e.md)."""

from fastapi import APIRouter

from rules.dnd5e import attack, budget, initiative, turn
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
from service.routing import add_resolver

router = APIRouter(prefix="/dnd5e", tags=["Fifth-edition SRD combat"])

_D20 = (
    "Advantage rolls two d20s and keeps the higher, disadvantage the lower; both together (any "
    "number of sources, given as booleans or counts) cancel to one d20 (D5E-10)."
)

add_resolver(
    router,
    "/initiative",
    resolver=initiative.initiative,
    slots=initiative.initiative_slots,
    work=budget.initiative_work,
    request_model=InitiativeRequest,
    response_model=InitiativeResult,
    summary="Surprise and initiative",
    description=(
        "Surprise first (D5E-3): a creature is surprised when every opponent hides and it notices "
        "none of them (a hider is noticed when its Stealth total is below the passive Perception; "
        "equal stays hidden unless `options.surprise_ties` is `noticed`); the GM's `surprised` "
        "wins. Surprised creatures get the first-round restrictions of D5E-4. Then initiative "
        "(D5E-5): d20 + dex_mod + initiative_bonus, one roll per group acting together; highest "
        "first (D5E-6); ties by `tie_break` (D5E-7). " + _D20
    ),
    system="dnd5e",
    slot_doc=(
        "`stealth.<id>` (d20): a hider's Stealth roll when it gives `stealth_mod`, drawn first; "
        "`initiative.<id or group>` (d20): one roll per lone combatant or group, in order of first "
        "appearance; `tiebreak.<id or group>` (d20): tie-break rolls (`tie_break` d20 or "
        "dexterity), one per tied place per round while still tied."
    ),
)
add_resolver(
    router,
    "/turn",
    resolver=turn.turn,
    slots=turn.turn_slots,
    work=budget.turn_work,
    request_model=TurnRequest,
    response_model=TurnResult,
    summary="Check a turn plan against its budgets",
    description=(
        "Movement up to the speed (a Dash adds the speed again: the action, or a bonus action a "
        "named feature such as Cunning Action grants), one action, a bonus "
        "action only with the feature granting it and at most one, one free object interaction "
        "(a second must use the action), one reaction per round, no move/action/reaction on a "
        "surprised first turn, no actions when incapacitated (D5E-4, D5E-8, D5E-9). Returns "
        "`valid` and every violation with its rule id."
    ),
    system="dnd5e",
    slot_doc="none: this endpoint rolls no dice.",
)
add_resolver(
    router,
    "/check",
    resolver=attack.check,
    slots=attack.check_slots,
    work=budget.check_work,
    request_model=CheckRequest,
    response_model=CheckResult,
    summary="A d20 test against a DC",
    description="d20 + modifier; success when the total meets or beats the DC (D5E-10). " + _D20,
    system="dnd5e",
    slot_doc="`d20` (d20): the test's die (two with advantage or disadvantage).",
)
add_resolver(
    router,
    "/attack",
    resolver=attack.attack,
    slots=attack.attack_slots,
    work=budget.attack_work,
    request_model=AttackRequest,
    response_model=AttackResult,
    summary="An attack roll, its damage and what it does to the target",
    description=(
        "d20 + attack_bonus against AC; a natural 20 always hits and is critical, a natural 1 "
        "always misses (D5E-11). On a hit each damage part is rolled in dice notation, dice plus "
        "modifiers and never below 0; a critical rolls the dice twice and adds modifiers once "
        "(D5E-12). Parts of one type are summed, then immunity (0), resistance (halved, rounded "
        "down), then vulnerability (doubled) (D5E-13). Temporary hit points absorb first; at 0 hp "
        "the target is unconscious (a `monster` dies); left-over damage >= max_hp kills outright "
        "(D5E-14); damage at 0 hp adds a death save failure, two on a critical, three kill "
        "(D5E-15). " + _D20
    ),
    system="dnd5e",
    slot_doc=(
        "`attack` (d20): the attack roll; `damage.<n>` (the part's die, or any size when a part "
        "mixes dice), n = the 0-based index of the damage part: its dice terms left to right, then "
        "on a critical the same dice again."
    ),
)
add_resolver(
    router,
    "/death-save",
    resolver=attack.death_save,
    slots=attack.death_save_slots,
    work=budget.death_save_work,
    request_model=DeathSaveRequest,
    response_model=DeathSaveResult,
    summary="A death saving throw",
    description=(
        "d20 (+ modifier): 10 or more succeeds, less fails; three successes: stable; three "
        "failures: dead; a natural 1 counts two failures; a natural 20 restores 1 hit point. "
        "Stable or back to 1 hit point, the creature is no longer dying and both counts reset "
        "to 0 (D5E-16). " + _D20
    ),
    system="dnd5e",
    slot_doc="`d20` (d20): the save's die.",
)
