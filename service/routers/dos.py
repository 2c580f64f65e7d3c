"""``/dos``: Dragons of Shadows (rules/dos.md)."""

from fastapi import APIRouter

from rules.dos import budget, checks, combat, turn
from rules.dos.models import (
    ActionsRequest,
    ActionsResult,
    AttackRequest,
    AttackResult,
    ComplexRequest,
    ComplexResult,
    DamageRequest,
    DamageResult,
    InitiativeRequest,
    InitiativeResult,
    ManeuverRequest,
    ManeuverResult,
    OpposedRequest,
    OpposedResult,
    PoolRequest,
    RollResult,
    TestRequest,
    TestResult,
    TurnRequest,
    TurnResult,
)
from service.routing import add_resolver

router = APIRouter(prefix="/dos", tags=["Dragons of Shadows"])

_POOL = (
    "A pool is `skill` d10 (DOS-1): each 1 cancels the highest other die (DOS-2), each surviving "
    "10 adds an extra die, chaining on 10s (DOS-3); more 10s than other dice is luck (automatic "
    "success), more 1s is bad luck (automatic failure) (DOS-5, DOS-6). Dice are drawn base dice "
    "first, then each surviving 10's chain in order (DOS-7)."
)

add_resolver(
    router,
    "/roll",
    resolver=checks.roll,
    slots=checks.roll_slots,
    work=budget.roll_work,
    request_model=PoolRequest,
    response_model=RollResult,
    summary="Roll a d10 pool",
    description=_POOL,
    system="dos",
    slot_doc="`roll` (d10): the pool's base dice, then its extra dice.",
)
add_resolver(
    router,
    "/test",
    resolver=checks.test,
    slots=checks.test_slots,
    work=budget.test_work,
    request_model=TestRequest,
    response_model=TestResult,
    summary="Simple test against a DC",
    description=(
        "Total = floor((stat + dice result) x (100 + modifier) / 100) (DOS-8); success when the "
        "total exceeds the DC (ties fail unless `options.ties` is `succeed`); luck always succeeds "
        "and bad luck always fails (DOS-11). " + _POOL
    ),
    system="dos",
    slot_doc="`check` (d10): the pool.",
)
add_resolver(
    router,
    "/opposed",
    resolver=checks.opposed,
    slots=checks.opposed_slots,
    work=budget.opposed_work,
    request_model=OpposedRequest,
    response_model=OpposedResult,
    summary="Opposed test between two sides",
    description=(
        "Both sides roll; luck beats no luck, bad luck loses to no bad luck, otherwise the higher "
        "total wins; equal totals are a tie with no winner (DOS-12). " + _POOL
    ),
    system="dos",
    slot_doc="`a` (d10): side a's pool; `b` (d10): side b's pool.",
)
add_resolver(
    router,
    "/complex",
    resolver=checks.complex_test,
    slots=checks.complex_slots,
    work=budget.complex_work,
    request_model=ComplexRequest,
    response_model=ComplexResult,
    summary="Complex test: several attempts, several successes needed",
    description=(
        "Attempts are simple tests rolled one after another until `successes_needed` is reached or "
        "`attempts` run out; a failure with at least one success is `partial` (DOS-13). " + _POOL
    ),
    system="dos",
    slot_doc="`attempt.<n>` (d10), n = 1 .. attempts: the pool of attempt n.",
)

# ---------------------------------------------------------------- combat (DOS-14..29)

_DAMAGE = (
    "Base damage (DOS-26): unarmed = strength (light); melee = strength + weapon damage "
    "(serious); thrown = strength + weapon damage, halved unless made for throwing (serious); "
    "shooting = weapon damage (serious). Damage d10: 1 deals exactly 1; 2: 30%, 3: 50%, 4: 70%, "
    "5: 90%, 6-8: 100%, 9: 110%, 10: 120%; amount = floor(base x percent [/ 2] / 100), then "
    "armor (extension) is subtracted, never below 0. Applying it (DOS-28): light damage lowers hp "
    "(never below 0) with no status; light damage taken at 0 hp counts as serious (decision: the "
    "bar is not refilled); serious damage that brings hp to 0 incapacitates; any damage to an "
    "incapacitated target is a critical wound (`critical` stays set)."
)
_ATTACK_SLOTS = (
    "`attack` (d10): the attacker's pool; `defense` (d10): the defender's block or dodge pool; "
    "`run_stop` (d10): after a successful defense by a running defender, 1-5 stops it; "
    "`location` (d10): hit location (10 head, 9 right arm, 8 left arm, 5-7 torso, 3-4 right leg, "
    "1-2 left leg) unless `aim` is given; `damage` (d10): the damage die. Only what is needed is "
    "drawn: no defense, stop, location or damage on a miss."
)

add_resolver(
    router,
    "/actions",
    resolver=combat.actions,
    slots=combat.actions_slots,
    work=budget.actions_work,
    request_model=ActionsRequest,
    response_model=ActionsResult,
    summary="Actions per turn",
    description=(
        "DOS-14: each combatant has floor(own speed / sum of the speeds of all the opponents it "
        "fights) actions per turn, never less than 1 (1 with no opponent). Opponent ids must be "
        "combatants (not itself, not repeated); combatant ids are unique."
    ),
    system="dos",
    slot_doc="none: this endpoint rolls no dice (any `dice` script is rejected).",
)
add_resolver(
    router,
    "/initiative",
    resolver=combat.initiative,
    slots=combat.initiative_slots,
    work=budget.initiative_work,
    request_model=InitiativeRequest,
    response_model=InitiativeResult,
    summary="Initiative order",
    description=(
        "DOS-15: initiative = d10 + speed (no explosion, no 1/10 effects), highest first. Tied "
        "combatants roll again (d10 + speed) among themselves as often as needed: a reroll only "
        "orders them among themselves, their place against everybody else stays. Ids in `first` "
        "(the GM's placement: one who waited or ambushes) go before everyone rolled, in that order, "
        "and roll nothing."
    ),
    system="dos",
    slot_doc=(
        "`initiative.<id>` (d10), one per combatant not in `first`: its first value is the "
        "initiative die, later values its tie-break rerolls (tie groups from the highest total "
        "down, request order within a group)."
    ),
)
add_resolver(
    router,
    "/attack",
    resolver=combat.attack,
    slots=combat.attack_slots,
    work=budget.attack_work,
    request_model=AttackRequest,
    response_model=AttackResult,
    summary="One attack, melee or ranged, resolved completely",
    description=(
        "Melee (DOS-17): opposed test, attacker dexterity + pool(skill) against the defender's "
        "dexterity + pool(block or dodge); the attack hits only by exceeding the defense total "
        "(equal totals: the defender holds, DOS-20); luck beats no luck, bad luck loses (DOS-12). "
        "Blocks: block skill + 1 per turn; dodges: dodge skill per turn; one defense per attack "
        "(DOS-18). No defense left or none chosen: the attack hits unless the attacker has bad "
        "luck (DOS-19). Ranged (DOS-21, weapon `thrown` or `shooting`, `ranged.dc` required): a "
        "simple test against the DC; normally no defense (`auto` = `none`), a named defense is "
        "rolled only when the shot would hit. A running defender (DOS-22) defends at -50% (added "
        "to any defense modifier, clamped to -100) and after each successful defense rolls "
        "`run_stop`. **`defense: auto`** picks, among the defenses with uses left, the one with the "
        "higher skill (more dice, higher expected total), `block` on equal skill (blocks are the "
        "more plentiful resource: skill + 1 against skill, so the scarcer dodge is kept); `none` "
        "when nothing is left, for an incapacitated defender, and for ranged attacks. Naming a "
        "defense the defender has no use of left is a 422 at `defense`. On a hit: location "
        "(DOS-27) and damage (DOS-26, DOS-28). `defender` in the response is the defender's new "
        "state (uses spent, hp, incapacitated, critical, running/stopped): send it as the next "
        "attack's `defender`. " + _DAMAGE
    ),
    system="dos",
    slot_doc=_ATTACK_SLOTS,
)
add_resolver(
    router,
    "/damage",
    resolver=combat.damage,
    slots=combat.damage_slots,
    work=budget.damage_work,
    request_model=DamageRequest,
    response_model=DamageResult,
    summary="Damage by weapon or GM-set, applied to a target",
    description=(
        "Either `weapon` (+ `strength`, `armor`): rolled damage; or `amount` + `kind`: damage set "
        "by the GM (fire, falling: DOS-29), applied as given, no die, no armor. " + _DAMAGE
    ),
    system="dos",
    slot_doc="`damage` (d10): the damage die (weapon damage only).",
)
add_resolver(
    router,
    "/maneuver",
    resolver=combat.maneuver,
    slots=combat.maneuver_slots,
    work=budget.maneuver_work,
    request_model=ManeuverRequest,
    response_model=ManeuverResult,
    summary="Grab, break free, push: opposed maneuvers",
    description=(
        "Opposed tests (DOS-12) with the stat and skill each kind uses (DOS-24, DOS-25); each "
        "side may override its `stat` or `skill` (the GM's call) and carry a difficulty. "
        + "`grab`: a = grabber dexterity + unarmed, b = target dexterity + dodge. `break_free`: "
        "a = the one grabbed, b = the grabber, both strength + unarmed. `push`: both strength + "
        "unarmed (`skill: weapon` for weapon combat). `feint_push`: both dexterity + weapon "
        "combat. `success` is side a winning; a tie is no winner (the target holds)."
    ),
    system="dos",
    slot_doc="`a` (d10): side a's pool; `b` (d10): side b's pool.",
)
add_resolver(
    router,
    "/turn",
    resolver=turn.turn,
    slots=turn.turn_slots,
    work=budget.turn_work,
    request_model=TurnRequest,
    response_model=TurnResult,
    summary="A whole combat turn",
    description=(
        "Every combatant with its full state and its declarations. The service works out actions "
        "per turn (DOS-14; opponents default to every combatant of another `side` not "
        "incapacitated), the initiative order (DOS-15; everyone rolls, incapacitated included, so "
        "the order stays complete; or takes `order`), then resolves each "
        "combatant's declarations in that order: attacks as in `/dos/attack` (the target defends "
        "with its own `defense` choice, `auto` by default; blocks and dodges are counted from 0 "
        "for the turn; a preferred defense with no use left becomes none), maneuvers as in "
        "`/dos/maneuver` (push uses weapon combat when the pusher holds a melee weapon), `run` "
        "(all actions, alone; the runner defends at -50% all turn and loses its turn if stopped "
        "before it comes), `step` (1 action, once, at most floor(speed / 4) m), `wait` (alone; the "
        "GM may place it `first` next turn). Incapacitated combatants take no action; remaining "
        "attacks on a target that falls are skipped unless `stop_when_down` is false. Declaring "
        "more actions than the combatant has, unknown or duplicate ids, a target that is not a "
        "combatant are 422s whose `loc` and message name the combatant and field. At most 1000 "
        "actions declared in all. The response has everyone's new state and the full event log."
    ),
    system="dos",
    slot_doc=(
        "declared actions of combatant `<id>` are numbered n = 1, 2 ... in declaration order (an "
        "attack with `count: 3` takes three numbers; step, grab, break_free, push, feint_push one "
        "each; run and wait none); the numbering depends only on the declarations. "
        "`initiative.<id>` (d10): initiative die then tie-break rerolls, when no `order` is given; "
        "`<id>.<n>.attack`, `<id>.<n>.defense`, `<id>.<n>.run_stop`, `<id>.<n>.location`, "
        "`<id>.<n>.damage` (d10): attack n, as in `/dos/attack`; `<id>.<n>.a`, `<id>.<n>.b` (d10): "
        "maneuver n (b = the target), as in `/dos/maneuver`."
    ),
)
