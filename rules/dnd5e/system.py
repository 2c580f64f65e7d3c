"""The fifth-edition SRD descriptor (rules/dnd5e.md): its endpoints, odds, texts and Foundry pools,
as the service serves them (``rules.system``)."""

from typing import Any

from rules.dnd5e import attack, budget, foundry, initiative, odds, text, turn
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
from rules.system import ODDS_DOC, Endpoint, Odds, ShapedOdds, System, exact_odds

_D20 = (
    "Advantage rolls two d20s and keeps the higher, disadvantage the lower; both together (any "
    "number of sources, given as booleans or counts) cancel to one d20 (D5E-10)."
)

ENDPOINTS: tuple[Endpoint[Any, Any], ...] = (
    Endpoint(
        path="/initiative",
        outcome=("dnd5e.initiative.order",),
        summary="Surprise and initiative",
        description=(
            "Surprise first (D5E-3): a creature is surprised when every opponent hides and it notices "
            "none of them (a hider is noticed when its Stealth total is below the passive Perception; "
            "equal stays hidden unless `options.surprise_ties` is `noticed`); the GM's `surprised` "
            "wins. Surprised creatures get the first-round restrictions of D5E-4. Then initiative "
            "(D5E-5): d20 + dex_mod + initiative_bonus, one roll per group acting together; highest "
            "first (D5E-6); ties by `tie_break` (D5E-7). " + _D20
        ),
        request=InitiativeRequest,
        result=InitiativeResult,
        resolve=initiative.initiative,
        slots=initiative.initiative_slots,
        slot_doc=(
            "`stealth.<id>` (d20): a hider's Stealth roll when it gives `stealth_mod`, drawn first; "
            "`initiative.<id or group>` (d20): one roll per lone combatant or group, in order of first "
            "appearance; `tiebreak.<id or group>` (d20): tie-break rolls (`tie_break` d20 or "
            "dexterity), one per tied place per round while still tied."
        ),
        work=budget.initiative_work,
        examples={
            "ambush": {
                "combatants": [
                    {"id": "fighter", "side": "players", "dex_mod": 1, "passive_perception": 12},
                    {"id": "rogue", "side": "players", "dex_mod": 4, "passive_perception": 16},
                    {
                        "id": "g1",
                        "side": "gm",
                        "dex_mod": 2,
                        "group": "goblins",
                        "hiding": {"stealth_mod": 6},
                    },
                    {
                        "id": "g2",
                        "side": "gm",
                        "dex_mod": 2,
                        "group": "goblins",
                        "hiding": {"stealth_mod": 6},
                    },
                ],
                "seed": "ambush",
            },
            # short enough for the MCP tool's description (service.mcp_tools)
            "a fighter against a goblin": {
                "combatants": [
                    {"id": "fighter", "side": "players", "dex_mod": 1},
                    {"id": "goblin", "side": "gm", "dex_mod": 2},
                ],
                "seed": "goblin",
            },
        },
    ),
    Endpoint(
        path="/turn",
        outcome=(
            "dnd5e.turn.valid",
            "dnd5e.turn.invalid",
        ),
        summary="Check a turn plan against its budgets",
        description=(
            "Movement up to the speed (a Dash adds the speed again: the action, or a bonus action a "
            "named feature such as Cunning Action grants), one action, a bonus "
            "action only with the feature granting it and at most one, one free object interaction "
            "(a second must use the action), one reaction per round, no move/action/reaction on a "
            "surprised first turn, no actions when incapacitated (D5E-4, D5E-8, D5E-9). Returns "
            "`valid` and every violation with its rule id."
        ),
        request=TurnRequest,
        result=TurnResult,
        resolve=turn.turn,
        slots=turn.turn_slots,
        slot_doc="none: this endpoint rolls no dice.",
        work=budget.turn_work,
        examples={
            "door": {
                "speed": 30,
                "steps": [
                    {"kind": "move", "feet": 15},
                    {"kind": "interaction", "object": "door"},
                    {"kind": "action", "name": "attack"},
                    {"kind": "move", "feet": 15},
                ],
                "seed": "door",
            }
        },
    ),
    Endpoint(
        path="/check",
        outcome=(
            "dnd5e.check.success",
            "dnd5e.check.failure",
        ),
        summary="A d20 test against a DC",
        description="d20 + modifier; success when the total meets or beats the DC (D5E-10). "
        + _D20,
        request=CheckRequest,
        result=CheckResult,
        resolve=attack.check,
        slots=attack.check_slots,
        slot_doc="`d20` (d20): the test's die (two with advantage or disadvantage).",
        work=budget.check_work,
        examples={"lockpick": {"modifier": 5, "dc": 15, "advantage": True, "seed": "lockpick"}},
    ),
    Endpoint(
        path="/attack",
        outcome=(
            "dnd5e.attack.hit",
            "dnd5e.attack.critical",
            "dnd5e.attack.miss",
            "dnd5e.attack.fumble",
            "dnd5e.damage.total",
            "dnd5e.target.unconscious",
            "dnd5e.target.dead",
            "dnd5e.target.monster_dies",
        ),
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
        request=AttackRequest,
        result=AttackResult,
        resolve=attack.attack,
        slots=attack.attack_slots,
        slot_doc=(
            "`attack` (d20): the attack roll; `damage.<n>` (the part's die, or any size when a part "
            "mixes dice), n = the 0-based index of the damage part: its dice terms left to right, then "
            "on a critical the same dice again."
        ),
        work=budget.attack_work,
        examples={
            "greataxe": {
                "attack_bonus": 5,
                "damage": [{"dice": "1d12+3", "type": "slashing"}, {"dice": "2d6", "type": "fire"}],
                "target": {"ac": 13, "hp": 22, "max_hp": 22, "resistances": ["fire"]},
                "seed": "greataxe",
            }
        },
    ),
    Endpoint(
        path="/death-save",
        outcome=(
            "dnd5e.death_save.success",
            "dnd5e.death_save.failure",
            "dnd5e.death_save.nat20",
            "dnd5e.death_save.nat1",
            "dnd5e.death_save.stable",
            "dnd5e.death_save.dead",
        ),
        summary="A death saving throw",
        description=(
            "d20 (+ modifier): 10 or more succeeds, less fails; three successes: stable; three "
            "failures: dead; a natural 1 counts two failures; a natural 20 restores 1 hit point. "
            "Stable or back to 1 hit point, the creature is no longer dying and both counts reset "
            "to 0 (D5E-16). " + _D20
        ),
        request=DeathSaveRequest,
        result=DeathSaveResult,
        resolve=attack.death_save,
        slots=attack.death_save_slots,
        slot_doc="`d20` (d20): the save's die.",
        work=budget.death_save_work,
        examples={"grim": {"successes": 1, "failures": 2, "seed": "grim"}},
    ),
)

CHECK = {"modifier": 3, "dc": 15, "advantage": True}
LONGSWORD = {
    "attack_bonus": 5,
    "damage": [{"dice": "1d8+3", "type": "slashing"}],
    "target": {"ac": 15, "hp": 7, "max_hp": 7, "monster": True},
}

CHECK_ODDS = exact_odds(
    odds.CheckOddsRequest,
    odds.check_odds,
    path="/odds/check",
    of="/check",
    work=budget.check_odds_work,
    summary="Odds of a d20 check (the /dnd5e/check request)",
    description=(
        "`success` (d20 + modifier meets or beats the DC; advantage and disadvantage as D5E-10) "
        "and the distribution of the d20 kept."
    ),
    examples={"DC 15 with advantage": CHECK},
)

ATTACK_ODDS = exact_odds(
    odds.AttackOddsRequest,
    odds.attack_odds,
    path="/odds/attack",
    of="/attack",
    work=budget.attack_odds_work,
    summary="Odds of an attack and its damage (the /dnd5e/attack request)",
    description=(
        "`hit` (critical hits included), `critical`, `miss`; the distribution and mean of the "
        "damage dealt after immunity, resistance and vulnerability (D5E-12, D5E-13; 0 on a "
        "miss); the chance the target drops to 0 hp and that it dies (D5E-14, D5E-15). Damage "
        "dice are limited to 1000 dice x sides (doubled for a critical)."
    ),
    examples={"a longsword on a goblin": LONGSWORD},
)

ODDS: tuple[Odds[Any, Any] | ShapedOdds, ...] = (
    CHECK_ODDS,
    ATTACK_ODDS,
    ShapedOdds(
        path="/odds",
        shapes=(
            CHECK_ODDS.shape("a /dnd5e/check request", frozenset({"modifier", "dc"})),
            ATTACK_ODDS.shape(
                "a /dnd5e/attack request", frozenset({"attack_bonus", "damage", "target"})
            ),
        ),
        summary="Odds of a check or an attack (the request says which)",
        description=(
            "Takes a `/dnd5e/check` or `/dnd5e/attack` request and answers as `/dnd5e/odds/check` "
            "or `/dnd5e/odds/attack` does. The body's keys say which: `attack_bonus`, `damage` or "
            "`target` is an attack, `modifier` or `dc` a check; a body with none of them, or of "
            "both kinds, is a 422 that lists the shapes accepted. " + ODDS_DOC
        ),
        examples={
            "a check: DC 15 with advantage": CHECK,
            "an attack: a longsword on a goblin": LONGSWORD,
        },
    ),
)

SYSTEM = System(
    id="dnd5e",
    name={
        "en": "Fifth-edition SRD combat",
        "pl": "Walka SRD piątej edycji",
        "fi": "Viidennen laitoksen SRD-taistelu",
        "ar": "قتال الإصدار الخامس (SRD)",
    },
    about=(
        "the fifth edition of D&D (SRD 5.1): d20 checks against a DC, attack rolls against AC with"
        " damage, initiative and surprise, turn budgets, death saves"
    ),
    # bumped whenever an answer could change for the same request and seed (System.rules_version)
    rules_version="dnd5e-8",
    endpoints=ENDPOINTS,
    texts=text.TEXTS,
    flavors=text.FLAVORS,
    odds=ODDS,
    foundry=foundry.pools,
    compiled=(
        "rules.dnd5e.attack",
        "rules.dnd5e.d20",
        "rules.dnd5e.damage",
        "rules.dnd5e.initiative",
        "rules.dnd5e.turn",
    ),
)
