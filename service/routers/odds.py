"""Odds before anyone rolls, and whole fights simulated (issue 18; docs/odds.md).

One router per system, with the system's prefix and tag, mounted beside the system's own router.
"""

from fastapi import APIRouter

from rules.dnd5e import budget as dnd5e_budget
from rules.dnd5e import odds as dnd5e_odds
from rules.dos import budget as dos_budget
from rules.dos import odds as dos_odds
from rules.dos import simulate as dos_simulate
from rules.dragon import budget as dragon_budget
from rules.dragon import odds as dragon_odds
from rules.dragon import simulate as dragon_simulate
from rules.odds import Simulation
from rules.riders import budget as riders_budget
from rules.riders import odds as riders_odds
from rules.riders import simulate as riders_simulate
from service.odds import Shape, add_odds, add_shaped_odds

_ODDS = (
    "Takes the resolving endpoint's request without `seed` and `dice` (either is a 422) and "
    'answers without drawing a die. Every probability is `{"p": float, "exact": "n/d"}`, '
    "`exact` in lowest terms; the outcomes of one question sum to exactly 1."
)
_CHAINS = (
    " Exact: the pool is counted over every roll (ones cancel the highest dice, surviving tens "
    "explode in chains, luck and bad luck: DOS-1..7). The chains are cut where the mass beyond "
    "is below `truncation.tail_below` (1e-15); that mass is `tail`, and counts as the result "
    "`tail_from` (the smallest a cut roll can have), so an outcome decided below it is exact."
)

dos = APIRouter(prefix="/dos", tags=["Dragons of Shadows"])

IGNATIUS = {
    "attacker": {
        "dexterity": 25,
        "strength": 18,
        "skill": 2,
        "weapon": {"kind": "melee", "damage": 5},
    },
    "defender": {"dexterity": 9, "block": 1, "hp": 12},
}
SARATHAEL = {"stat": 24, "skill": 3, "dc": 43}
EVEN = {"a": {"stat": 30, "skill": 4}, "b": {"stat": 32, "skill": 3}}

add_odds(
    dos,
    "/odds/test",
    answer=dos_odds.test_odds,
    work=dos_budget.test_odds_work,
    request_model=dos_odds.TestOddsRequest,
    response_model=dos_odds.TestOdds,
    summary="Odds of a simple test (the /dos/test request)",
    description=(
        "`outcomes` (success, failure, luck, bad_luck: exclusive, as `/dos/test`'s `outcome`), "
        "`succeeds` (success + luck), the distribution of the pool's dice result and of the "
        "total with their mean and 5/25/50/75/95 percentiles. " + _ODDS + _CHAINS
    ),
    system="dos",
    examples={"Sarathael": SARATHAEL},
)
add_odds(
    dos,
    "/odds/opposed",
    answer=dos_odds.opposed_odds,
    work=dos_budget.opposed_odds_work,
    request_model=dos_odds.OpposedOddsRequest,
    response_model=dos_odds.OpposedOdds,
    summary="Odds of an opposed test (the /dos/opposed request)",
    description=(
        "`a_wins`, `b_wins`, `tie` (DOS-12: luck beats no luck, bad luck loses to no bad luck, "
        "then the higher total) and each side's total. " + _ODDS + _CHAINS
    ),
    system="dos",
    examples={"even": EVEN},
)
add_odds(
    dos,
    "/odds/attack",
    answer=dos_odds.attack_odds,
    work=dos_budget.attack_odds_work,
    request_model=dos_odds.AttackOddsRequest,
    response_model=dos_odds.AttackOdds,
    summary="Odds of one attack (the /dos/attack request)",
    description=(
        "The defense the attack meets (`auto` chosen as `/dos/attack` chooses it), `hit`, "
        "`blocked` or `dodged`, `missed`; the distribution of the damage dealt after armor (0 on "
        "a miss; each damage die resolved by the `/dos/damage` rules); the chance the defender is "
        "incapacitated by this attack, and of a critical wound. " + _ODDS + _CHAINS
    ),
    system="dos",
    examples={"Ignatius on the kobold": IGNATIUS},
)
add_shaped_odds(
    dos,
    "/odds",
    shapes=[
        Shape(
            "a /dos/test request",
            frozenset({"stat", "skill", "dc"}),
            dos_odds.TestOddsRequest,
            dos_odds.test_odds,
            dos_budget.test_odds_work,
        ),
        Shape(
            "a /dos/opposed request",
            frozenset({"a", "b"}),
            dos_odds.OpposedOddsRequest,
            dos_odds.opposed_odds,
            dos_budget.opposed_odds_work,
        ),
        Shape(
            "a /dos/attack request",
            frozenset({"attacker", "defender"}),
            dos_odds.AttackOddsRequest,
            dos_odds.attack_odds,
            dos_budget.attack_odds_work,
        ),
    ],
    response_model=dos_odds.TestOdds | dos_odds.OpposedOdds | dos_odds.AttackOdds,
    summary="Odds of a test, an opposed test or an attack (the request says which)",
    description=(
        "Takes a `/dos/test`, `/dos/opposed` or `/dos/attack` request and answers as "
        "`/dos/odds/test`, `/dos/odds/opposed` or `/dos/odds/attack` does. The body's keys say "
        "which: `a` or `b` is an opposed test, `attacker` or `defender` an attack, `stat`, "
        "`skill` or `dc` a test; a body with none of them, or of two kinds, is a 422 that lists "
        "the shapes accepted. " + _ODDS + _CHAINS
    ),
    system="dos",
    examples={
        "a test: Sarathael": SARATHAEL,
        "an opposed test": EVEN,
        "an attack: Ignatius on the kobold": IGNATIUS,
    },
)

dnd5e = APIRouter(prefix="/dnd5e", tags=["Fifth-edition SRD combat"])

CHECK = {"modifier": 3, "dc": 15, "advantage": True}
LONGSWORD = {
    "attack_bonus": 5,
    "damage": [{"dice": "1d8+3", "type": "slashing"}],
    "target": {"ac": 15, "hp": 7, "max_hp": 7, "monster": True},
}

add_odds(
    dnd5e,
    "/odds/check",
    answer=dnd5e_odds.check_odds,
    work=dnd5e_budget.check_odds_work,
    request_model=dnd5e_odds.CheckOddsRequest,
    response_model=dnd5e_odds.CheckOdds,
    summary="Odds of a d20 check (the /dnd5e/check request)",
    description=(
        "`success` (d20 + modifier meets or beats the DC; advantage and disadvantage as D5E-10) "
        "and the distribution of the d20 kept. " + _ODDS
    ),
    system="dnd5e",
    examples={"DC 15 with advantage": CHECK},
)
add_odds(
    dnd5e,
    "/odds/attack",
    answer=dnd5e_odds.attack_odds,
    work=dnd5e_budget.attack_odds_work,
    request_model=dnd5e_odds.AttackOddsRequest,
    response_model=dnd5e_odds.AttackOdds,
    summary="Odds of an attack and its damage (the /dnd5e/attack request)",
    description=(
        "`hit` (critical hits included), `critical`, `miss`; the distribution and mean of the "
        "damage dealt after immunity, resistance and vulnerability (D5E-12, D5E-13; 0 on a "
        "miss); the chance the target drops to 0 hp and that it dies (D5E-14, D5E-15). Damage "
        "dice are limited to 1000 dice x sides (doubled for a critical). " + _ODDS
    ),
    system="dnd5e",
    examples={"a longsword on a goblin": LONGSWORD},
)
add_shaped_odds(
    dnd5e,
    "/odds",
    shapes=[
        Shape(
            "a /dnd5e/check request",
            frozenset({"modifier", "dc"}),
            dnd5e_odds.CheckOddsRequest,
            dnd5e_odds.check_odds,
            dnd5e_budget.check_odds_work,
        ),
        Shape(
            "a /dnd5e/attack request",
            frozenset({"attack_bonus", "damage", "target"}),
            dnd5e_odds.AttackOddsRequest,
            dnd5e_odds.attack_odds,
            dnd5e_budget.attack_odds_work,
        ),
    ],
    response_model=dnd5e_odds.CheckOdds | dnd5e_odds.AttackOdds,
    summary="Odds of a check or an attack (the request says which)",
    description=(
        "Takes a `/dnd5e/check` or `/dnd5e/attack` request and answers as `/dnd5e/odds/check` "
        "or `/dnd5e/odds/attack` does. The body's keys say which: `attack_bonus`, `damage` or "
        "`target` is an attack, `modifier` or `dc` a check; a body with none of them, or of "
        "both kinds, is a 422 that lists the shapes accepted. " + _ODDS
    ),
    system="dnd5e",
    examples={
        "a check: DC 15 with advantage": CHECK,
        "an attack: a longsword on a goblin": LONGSWORD,
    },
)

dragon = APIRouter(prefix="/dragon", tags=["Dragon battle"])

VILLAGE = {
    "dragon": {"age": 3, "battle": 3, "dragon_die": True, "target": "village"},
    "entities": [
        {
            "id": "village",
            "controller": "gm",
            "kind": "group",
            "prosperity": 4,
            "level": 2,
            "target": "dragon",
        }
    ],
}

add_odds(
    dragon,
    "/odds",
    answer=dragon_odds.battle_odds,
    work=dragon_budget.odds_work,
    request_model=dragon_odds.BattleOddsRequest,
    response_model=dragon_odds.BattleOdds,
    summary="Odds of a battle round (the /dragon/battle request)",
    description=(
        "For every pair the round forms (as `/dragon/battle` forms them, DRG-2, DRG-3): `a_wins`, "
        "`b_wins`, `interrupted` (equal highest dice) and the successes of each winner (DRG-9, "
        "DRG-10). With the dragon die: the chance it triggers a sweep, sweeps, and takes each "
        "number of entities (DRG-11). A pair's odds are its own roll's; a sweep leaves the pairs "
        "it takes from unresolved. " + _ODDS
    ),
    system="dragon",
    examples={"a village against an age-3 dragon": VILLAGE},
)

riders = APIRouter(prefix="/riders", tags=["Dragon Riders"])

DUEL = {
    "initiator": {"id": "red", "element": "fire", "rage": 1, "terrain_bonus": 2},
    "defender": {
        "id": "blue",
        "element": "water",
        "riders": [{"id": "r1", "bonuses": {"fire": 2}}],
        "items": [{"id": "wand", "name": "Wand", "timing": "counter", "dice": "1d6"}],
    },
}

add_odds(
    riders,
    "/odds",
    answer=riders_odds.combat_odds,
    work=riders_budget.odds_work,
    request_model=riders_odds.CombatOddsRequest,
    response_model=riders_odds.CombatOdds,
    summary="Odds of the roll-off (the /riders/combat request)",
    description=(
        "`initiator_wins` and `defender_wins` of the roll-off (RDR-2, RDR-3: 2d6 + a d6 per rage "
        "level + pre items' extra dice, plus the bonuses; the defender rolls; the initiator wins "
        "ties), each side's total, and for every counter item the chance it alone turns the "
        "roll-off for its side (`turns`: behind, and the item puts it strictly ahead; "
        "`given_behind`: the same knowing it is behind) (RDR-5). `decisions` and `auto` are "
        "accepted and do not change the odds. " + _ODDS
    ),
    system="riders",
    examples={"fire against water": DUEL},
)

# ---------------------------------------------------------------- whole fights

SIMULATE_SLOTS = (
    "a run draws the resolving endpoint's own slots from its own seeds (`{seed}/{i}`, and per "
    "turn or round `{seed}/{i}/{t}`); `dice` is refused."
)

_SIMULATE = (
    " Takes the resolving endpoint's request plus `runs` (1-1000); `dice` is refused; without a "
    "`seed` the service makes one and returns it. Run i is seeded `{seed}/{i}`. The answer: each "
    "ending's count, rate and 95% Wilson score interval, the mean length, and example runs (the "
    "first of each ending, the longest) to replay. The dice a simulation may roll are bounded "
    "(a 422 `limit-exceeded` beyond)."
)

add_odds(
    dos,
    "/simulate",
    answer=dos_simulate.simulate,
    work=dos_budget.simulate_work,
    request_model=dos_simulate.TurnSimulateRequest,
    response_model=Simulation,
    summary="Simulate whole fights (the /dos/turn request, turn after turn)",
    description=(
        "Each run plays `/dos/turn` turn after turn until at most one side has anyone standing "
        "or `max_turns` (default 20) have passed (a `draw`). Turn t of run i is the `/dos/turn` "
        "request seeded `{seed}/{i}/{t}`: the request's combatants with the hp, incapacitated and "
        "critical the last turn left, the first turn's initiative order (DOS-15), and attacks on "
        "a fallen target turned on the first standing combatant of another side." + _SIMULATE
    ),
    system="dos",
    examples={
        "Ignatius against the kobold": {
            "seed": "cellar",
            "runs": 100,
            "combatants": [
                {
                    "id": "ignatius",
                    "side": "heroes",
                    "speed": 32,
                    "dexterity": 25,
                    "strength": 18,
                    "skills": {"weapon": 2},
                    "weapon": {"kind": "melee", "damage": 5},
                    "hp": 30,
                    "declare": [{"action": "attack", "target": "kobold", "count": 3}],
                },
                {
                    "id": "kobold",
                    "side": "kobolds",
                    "speed": 9,
                    "dexterity": 9,
                    "strength": 8,
                    "skills": {"block": 1, "unarmed": 2},
                    "hp": 12,
                    "declare": [{"action": "attack", "target": "ignatius"}],
                },
            ],
        }
    },
    seeded=True,
    slot_doc=SIMULATE_SLOTS,
)
add_odds(
    dragon,
    "/simulate",
    answer=dragon_simulate.simulate,
    work=dragon_budget.simulate_work,
    request_model=dragon_simulate.BattleSimulateRequest,
    response_model=Simulation,
    summary="Simulate whole battles (the /dragon/battle request, round after round)",
    description=(
        "Each run plays `/dragon/battle` rounds: round r of run i is seeded `{seed}/{i}/{r}`, "
        "the first the request, each next one the last result's `next_state`; the dragon "
        "continues (spends a reroll, DRG-16) while `rerolls` (default 0) last and it is not "
        "defeated. Endings: `dragon_won` (it won its pair or swept in the last round), "
        "`dragon_defeated` (DRG-15), `not_won`; length in rounds." + _SIMULATE
    ),
    system="dragon",
    examples={"a village against an age-3 dragon": {**VILLAGE, "seed": "vale", "runs": 200}},
    seeded=True,
    slot_doc=SIMULATE_SLOTS,
)
add_odds(
    riders,
    "/simulate",
    answer=riders_simulate.simulate,
    work=riders_budget.simulate_work,
    request_model=riders_simulate.CombatSimulateRequest,
    response_model=Simulation,
    summary="Simulate whole combats (the /riders/combat request with auto decisions)",
    description=(
        "Each run is the `/riders/combat` request with `auto: true` (RDR-9: the defender rolls, "
        "the side behind plays its counter items in order, the winner picks fatigue) seeded "
        "`{seed}/{i}`. Endings: the winner; length in decisions taken." + _SIMULATE
    ),
    system="riders",
    examples={"fire against water": {**DUEL, "seed": "sky", "runs": 200}},
    seeded=True,
    slot_doc=SIMULATE_SLOTS,
)

ROUTERS = [dos, dragon, riders, dnd5e]
