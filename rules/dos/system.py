"""The Dragons of Shadows descriptor (rules/dos.md): its endpoints, odds, simulation, texts and
Foundry pools, as the service serves them (``rules.system``)."""

from typing import Any

from rules.dos import budget, checks, combat, foundry, odds, simulate, text, turn
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
from rules.system import (
    ODDS_DOC,
    Endpoint,
    Odds,
    ShapedOdds,
    Simulator,
    System,
    exact_odds,
    simulation,
)

_POOL = (
    "A pool is `skill` d10 (DOS-1): each 1 cancels the highest other die (DOS-2), each surviving "
    "10 adds an extra die, chaining on 10s (DOS-3); more 10s than other dice is luck (automatic "
    "success), more 1s is bad luck (automatic failure) (DOS-5, DOS-6). Dice are drawn base dice "
    "first, then each surviving 10's chain in order (DOS-7)."
)

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

ENDPOINTS: tuple[Endpoint[Any, Any], ...] = (
    Endpoint(
        path="/roll",
        outcome=("dos.pool.result",),
        summary="Roll a d10 pool",
        description=_POOL,
        request=PoolRequest,
        result=RollResult,
        resolve=checks.roll,
        slots=checks.roll_slots,
        slot_doc="`roll` (d10): the pool's base dice, then its extra dice.",
        work=budget.roll_work,
        examples={"table-1": {"pool": 4, "seed": "table-1"}},
    ),
    Endpoint(
        path="/test",
        outcome=(
            "dos.test.success",
            "dos.test.failure",
            "dos.test.luck",
            "dos.test.bad_luck",
        ),
        summary="Simple test against a DC",
        description=(
            "Total = floor((stat + dice result) x (100 + modifier) / 100) (DOS-8); success when the "
            "total exceeds the DC (ties fail unless `options.ties` is `succeed`); luck always succeeds "
            "and bad luck always fails (DOS-11). " + _POOL
        ),
        request=TestRequest,
        result=TestResult,
        resolve=checks.test,
        slots=checks.test_slots,
        slot_doc="`check` (d10): the pool.",
        work=budget.test_work,
        examples={
            "Sarathael": {
                "stat": 24,
                "skill": 3,
                "dc": 43,
                "difficulty": "normal",
                "seed": "Sarathael",
            }
        },
    ),
    Endpoint(
        path="/opposed",
        outcome=(
            "dos.opposed.winner",
            "dos.opposed.tie",
        ),
        summary="Opposed test between two sides",
        description=(
            "Both sides roll; luck beats no luck, bad luck loses to no bad luck, otherwise the higher "
            "total wins; equal totals are a tie with no winner (DOS-12). " + _POOL
        ),
        request=OpposedRequest,
        result=OpposedResult,
        resolve=checks.opposed,
        slots=checks.opposed_slots,
        slot_doc="`a` (d10): side a's pool; `b` (d10): side b's pool.",
        work=budget.opposed_work,
        examples={
            "arm-wrestling": {
                "a": {"stat": 25, "skill": 2},
                "b": {"stat": 9, "skill": 1, "difficulty": "hard"},
                "seed": "arm-wrestling",
            }
        },
    ),
    Endpoint(
        path="/complex",
        outcome=(
            "dos.complex.success",
            "dos.complex.failure",
        ),
        summary="Complex test: several attempts, several successes needed",
        description=(
            "Attempts are simple tests rolled one after another until `successes_needed` is reached or "
            "`attempts` run out; a failure with at least one success is `partial` (DOS-13). "
            + _POOL
        ),
        request=ComplexRequest,
        result=ComplexResult,
        resolve=checks.complex_test,
        slots=checks.complex_slots,
        slot_doc="`attempt.<n>` (d10), n = 1 .. attempts: the pool of attempt n.",
        work=budget.complex_work,
        examples={
            "Baltir": {
                "stat": 9,
                "skill": 2,
                "dc": 20,
                "attempts": 6,
                "successes_needed": 3,
                "seed": "Baltir",
            }
        },
    ),
    Endpoint(
        path="/actions",
        outcome=("dos.actions.count",),
        summary="Actions per turn",
        description=(
            "DOS-14: each combatant has floor(own speed / sum of the speeds of all the opponents it "
            "fights) actions per turn, never less than 1 (1 with no opponent). Opponent ids must be "
            "combatants (not itself, not repeated); combatant ids are unique."
        ),
        request=ActionsRequest,
        result=ActionsResult,
        resolve=combat.actions,
        slots=combat.actions_slots,
        slot_doc="none: this endpoint rolls no dice (any `dice` script is rejected).",
        work=budget.actions_work,
        examples={
            "kobold-fight": {
                "combatants": [
                    {"id": "ignatius", "speed": 32, "opponents": ["kobold"]},
                    {"id": "kobold", "speed": 9, "opponents": ["ignatius"]},
                ],
                "seed": "kobold-fight",
            }
        },
    ),
    Endpoint(
        path="/initiative",
        outcome=("dos.initiative.order",),
        summary="Initiative order",
        description=(
            "DOS-15: initiative = d10 + speed (no explosion, no 1/10 effects), highest first. Tied "
            "combatants roll again (d10 + speed) among themselves as often as needed: a reroll only "
            "orders them among themselves, their place against everybody else stays. Ids in `first` "
            "(the GM's placement: one who waited or ambushes) go before everyone rolled, in that order, "
            "and roll nothing."
        ),
        request=InitiativeRequest,
        result=InitiativeResult,
        resolve=combat.initiative,
        slots=combat.initiative_slots,
        slot_doc=(
            "`initiative.<id>` (d10), one per combatant not in `first`: its first value is the "
            "initiative die, later values its tie-break rerolls (tie groups from the highest total "
            "down, request order within a group)."
        ),
        work=budget.initiative_work,
        examples={
            "kobold-cave": {
                "combatants": [
                    {"id": "Sarathi", "speed": 12},
                    {"id": "Lethi", "speed": 9},
                    {"id": "k1", "speed": 9},
                    {"id": "k2", "speed": 9},
                ],
                "seed": "kobold-cave",
            }
        },
    ),
    Endpoint(
        path="/attack",
        outcome=(
            "dos.attack.hit",
            "dos.attack.miss",
            "dos.damage.applied",
            "dos.damage.incapacitated",
        ),
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
        request=AttackRequest,
        result=AttackResult,
        resolve=combat.attack,
        slots=combat.attack_slots,
        slot_doc=_ATTACK_SLOTS,
        work=budget.attack_work,
        examples={
            "Ignatius": {
                "attacker": {
                    "dexterity": 25,
                    "strength": 18,
                    "skill": 2,
                    "weapon": {"kind": "melee", "damage": 5},
                },
                "defender": {"dexterity": 9, "block": 1, "hp": 12, "max_hp": 12},
                "seed": "Ignatius",
            }
        },
    ),
    Endpoint(
        path="/damage",
        outcome=(
            "dos.damage.applied",
            "dos.damage.none",
            "dos.damage.incapacitated",
        ),
        summary="Damage by weapon or GM-set, applied to a target",
        description=(
            "Either `weapon` (+ `strength`, `armor`): rolled damage; or `amount` + `kind`: damage set "
            "by the GM (fire, falling: DOS-29), applied as given, no die, no armor. " + _DAMAGE
        ),
        request=DamageRequest,
        result=DamageResult,
        resolve=combat.damage,
        slots=combat.damage_slots,
        slot_doc="`damage` (d10): the damage die (weapon damage only).",
        work=budget.damage_work,
        examples={
            "dagger": {
                "strength": 18,
                "weapon": {"kind": "melee", "damage": 5},
                "target": {"hp": 12, "max_hp": 12},
                "seed": "dagger",
            }
        },
    ),
    Endpoint(
        path="/maneuver",
        outcome=(
            "dos.maneuver.grab.success",
            "dos.maneuver.grab.failure",
            "dos.maneuver.break_free.success",
            "dos.maneuver.break_free.failure",
            "dos.maneuver.push.success",
            "dos.maneuver.push.failure",
            "dos.maneuver.feint_push.success",
            "dos.maneuver.feint_push.failure",
        ),
        summary="Grab, break free, push: opposed maneuvers",
        description=(
            "Opposed tests (DOS-12) with the stat and skill each kind uses (DOS-24, DOS-25); each "
            "side may override its `stat` or `skill` (the GM's call) and carry a difficulty. "
            + "`grab`: a = grabber dexterity + unarmed, b = target dexterity + dodge. `break_free`: "
            "a = the one grabbed, b = the grabber, both strength + unarmed. `push`: both strength + "
            "unarmed (`skill: weapon` for weapon combat). `feint_push`: both dexterity + weapon "
            "combat. `success` is side a winning; a tie is no winner (the target holds)."
        ),
        request=ManeuverRequest,
        result=ManeuverResult,
        resolve=combat.maneuver,
        slots=combat.maneuver_slots,
        slot_doc="`a` (d10): side a's pool; `b` (d10): side b's pool.",
        work=budget.maneuver_work,
        examples={
            "grab": {
                "kind": "grab",
                "a": {"dexterity": 10, "strength": 12, "unarmed": 1},
                "b": {"dexterity": 10, "strength": 12, "dodge": 1},
                "seed": "grab",
            }
        },
    ),
    Endpoint(
        path="/turn",
        outcome=(
            "dos.damage.applied",
            "dos.damage.incapacitated",
            "dos.turn.stopped",
        ),
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
        request=TurnRequest,
        result=TurnResult,
        resolve=turn.turn,
        slots=turn.turn_slots,
        slot_doc=(
            "declared actions of combatant `<id>` are numbered n = 1, 2 ... in declaration order (an "
            "attack with `count: 3` takes three numbers; step, grab, break_free, push, feint_push one "
            "each; run and wait none); the numbering depends only on the declarations. "
            "`initiative.<id>` (d10): initiative die then tie-break rerolls, when no `order` is given; "
            "`<id>.<n>.attack`, `<id>.<n>.defense`, `<id>.<n>.run_stop`, `<id>.<n>.location`, "
            "`<id>.<n>.damage` (d10): attack n, as in `/dos/attack`; `<id>.<n>.a`, `<id>.<n>.b` (d10): "
            "maneuver n (b = the target), as in `/dos/maneuver`."
        ),
        work=budget.turn_work,
        examples={
            "goblin ambush": {
                "combatants": [
                    {
                        "id": "ignatius",
                        "side": "heroes",
                        "speed": 32,
                        "dexterity": 25,
                        "strength": 18,
                        "skills": {"weapon": 2, "block": 2},
                        "weapon": {"kind": "melee", "damage": 5},
                        "hp": 30,
                        "declare": [{"action": "attack", "target": "k1", "count": 3}],
                    },
                    {
                        "id": "k1",
                        "side": "kobolds",
                        "speed": 9,
                        "dexterity": 9,
                        "strength": 6,
                        "skills": {"block": 1, "unarmed": 1},
                        "hp": 12,
                        "declare": [{"action": "attack", "target": "ignatius"}],
                    },
                ],
                "seed": "goblin ambush",
            },
            # short enough for the MCP tool's description (service.mcp_tools)
            "a hero against an orc": {
                "combatants": [
                    {
                        "id": "hero",
                        "side": "a",
                        "speed": 12,
                        "dexterity": 14,
                        "strength": 12,
                        "hp": 20,
                        "declare": [{"action": "attack", "target": "orc"}],
                    },
                    {
                        "id": "orc",
                        "side": "b",
                        "speed": 9,
                        "dexterity": 10,
                        "strength": 14,
                        "hp": 15,
                    },
                ],
                "seed": "ambush",
            },
        },
    ),
)

# ---------------------------------------------------------------- odds (docs/odds.md)

_CHAINS = (
    " Exact: the pool is counted over every roll (ones cancel the highest dice, surviving tens "
    "explode in chains, luck and bad luck: DOS-1..7). The chains are cut where the mass beyond "
    "is below `truncation.tail_below` (1e-15); that mass is `tail`, and counts as the result "
    "`tail_from` (the smallest a cut roll can have), so an outcome decided below it is exact."
)
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

TEST_ODDS = exact_odds(
    odds.TestOddsRequest,
    odds.test_odds,
    path="/odds/test",
    of="/test",
    work=budget.test_odds_work,
    summary="Odds of a simple test (the /dos/test request)",
    description=(
        "`outcomes` (success, failure, luck, bad_luck: exclusive, as `/dos/test`'s `outcome`), "
        "`succeeds` (success + luck), the distribution of the pool's dice result and of the "
        "total with their mean and 5/25/50/75/95 percentiles."
    ),
    examples={"Sarathael": SARATHAEL},
    then=_CHAINS,
)

OPPOSED_ODDS = exact_odds(
    odds.OpposedOddsRequest,
    odds.opposed_odds,
    path="/odds/opposed",
    of="/opposed",
    work=budget.opposed_odds_work,
    summary="Odds of an opposed test (the /dos/opposed request)",
    description=(
        "`a_wins`, `b_wins`, `tie` (DOS-12: luck beats no luck, bad luck loses to no bad luck, "
        "then the higher total) and each side's total."
    ),
    examples={"even": EVEN},
    then=_CHAINS,
)

ATTACK_ODDS = exact_odds(
    odds.AttackOddsRequest,
    odds.attack_odds,
    path="/odds/attack",
    of="/attack",
    work=budget.attack_odds_work,
    summary="Odds of one attack (the /dos/attack request)",
    description=(
        "The defense the attack meets (`auto` chosen as `/dos/attack` chooses it), `hit`, "
        "`blocked` or `dodged`, `missed`; the distribution of the damage dealt after armor (0 "
        "on a miss; each damage die resolved by the `/dos/damage` rules); the chance the "
        "defender is incapacitated by this attack, and of a critical wound."
    ),
    examples={"Ignatius on the kobold": IGNATIUS},
    then=_CHAINS,
)

ODDS: tuple[Odds[Any, Any] | ShapedOdds, ...] = (
    TEST_ODDS,
    OPPOSED_ODDS,
    ATTACK_ODDS,
    ShapedOdds(
        path="/odds",
        shapes=(
            TEST_ODDS.shape("a /dos/test request", frozenset({"stat", "skill", "dc"})),
            OPPOSED_ODDS.shape("a /dos/opposed request", frozenset({"a", "b"})),
            ATTACK_ODDS.shape("a /dos/attack request", frozenset({"attacker", "defender"})),
        ),
        summary="Odds of a test, an opposed test or an attack (the request says which)",
        description=(
            "Takes a `/dos/test`, `/dos/opposed` or `/dos/attack` request and answers as "
            "`/dos/odds/test`, `/dos/odds/opposed` or `/dos/odds/attack` does. The body's keys say "
            "which: `a` or `b` is an opposed test, `attacker` or `defender` an attack, `stat`, "
            "`skill` or `dc` a test; a body with none of them, or of two kinds, is a 422 that "
            "lists the shapes accepted. " + ODDS_DOC + _CHAINS
        ),
        examples={
            "a test: Sarathael": SARATHAEL,
            "an opposed test": EVEN,
            "an attack: Ignatius on the kobold": IGNATIUS,
        },
    ),
)

SIMULATIONS: tuple[Simulator[Any], ...] = (
    simulation(
        simulate.TurnSimulateRequest,
        simulate.simulate,
        of="/turn",
        work=budget.simulate_work,
        summary="Simulate whole fights (the /dos/turn request, turn after turn)",
        description=(
            "Each run plays `/dos/turn` turn after turn until at most one side has anyone "
            "standing or `max_turns` (default 20) have passed (a `draw`). Turn t of run i is the "
            "`/dos/turn` request seeded `{seed}/{i}/{t}`: the request's combatants with the hp, "
            "incapacitated and critical the last turn left, the first turn's initiative order "
            "(DOS-15), and attacks on a fallen target turned on the first standing combatant of "
            "another side."
        ),
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
    ),
)

SYSTEM = System(
    id="dos",
    name={
        "en": "Dragons of Shadows",
        "pl": "Smoki Cieni",
        "fi": "Varjojen lohikäärmeet",
        "ar": "تنانين الظلال",
    },
    about=(
        "a Polish fantasy RPG of d10 pools: a stat plus skill dice against a DC, 1s cancel the"
        " highest die, 10s explode, luck and bad luck; opposed tests, attacks, whole combat turns"
    ),
    # bumped whenever an answer could change for the same request and seed (System.rules_version)
    rules_version="dos-8",
    endpoints=ENDPOINTS,
    texts=text.TEXTS,
    flavors=text.FLAVORS,
    odds=ODDS,
    simulations=SIMULATIONS,
    foundry=foundry.pools,
    compiled=("rules.dos.pool", "rules.dos.checks", "rules.dos.combat", "rules.dos.turn"),
)
