"""Generated from openapi/openapi.json by clients/python/generate.py: do not edit by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

from dragonroll_client._transport import AsyncTransport, SyncTransport

OPERATIONS: dict[str, str] = {
    "dos_roll": "/dos/roll",
    "dos_test": "/dos/test",
    "dos_opposed": "/dos/opposed",
    "dos_complex": "/dos/complex",
    "dos_actions": "/dos/actions",
    "dos_initiative": "/dos/initiative",
    "dos_attack": "/dos/attack",
    "dos_damage": "/dos/damage",
    "dos_maneuver": "/dos/maneuver",
    "dos_turn": "/dos/turn",
    "dragon_battle": "/dragon/battle",
    "riders_combat": "/riders/combat",
    "dnd5e_initiative": "/dnd5e/initiative",
    "dnd5e_turn": "/dnd5e/turn",
    "dnd5e_check": "/dnd5e/check",
    "dnd5e_attack": "/dnd5e/attack",
    "dnd5e_death_save": "/dnd5e/death-save",
    "dice_roll": "/dice/roll",
    "dice_draw": "/dice/draw",
    "dos_odds_test": "/dos/odds/test",
    "dos_odds_opposed": "/dos/odds/opposed",
    "dos_odds_attack": "/dos/odds/attack",
    "dos_odds": "/dos/odds",
    "dos_simulate": "/dos/simulate",
    "dragon_odds": "/dragon/odds",
    "dragon_simulate": "/dragon/simulate",
    "riders_odds": "/riders/odds",
    "riders_simulate": "/riders/simulate",
    "dnd5e_odds_check": "/dnd5e/odds/check",
    "dnd5e_odds_attack": "/dnd5e/odds/attack",
    "dnd5e_odds": "/dnd5e/odds",
    "dice_odds": "/dice/odds",
    "list_systems": "/systems",
}


class Action(TypedDict):
    "Action"

    kind: Literal["action"]
    name: str


class ActionsCombatant(TypedDict):
    "ActionsCombatant"

    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    id: str
    speed: int
    opponents: NotRequired[list[str]]


class ActionsEntry(TypedDict):
    "ActionsEntry"

    id: str
    actions: int
    opponents_speed: int


class ActionsRequest(TypedDict):
    "ActionsRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    combatants: list[ActionsCombatant]


class ActionsResult(TypedDict):
    "ActionsResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    actions: list[ActionsEntry]


class Attack(TypedDict):
    "Attack"

    ranged: NotRequired[bool]


class AttackResultPart(TypedDict):
    "AttackResultPart"

    hit: bool
    reason: str
    attack: DosAttackRoll
    defense: DefenseRoll | None
    damage: Damage | None
    location: Literal["head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"] | None
    aimed: bool
    run_stop: RunStop | None


class Attacker(TypedDict):
    "Attacker"

    dexterity: int
    strength: NotRequired[int]
    skill: int
    weapon: Weapon
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]


class Attempt(TypedDict):
    "Attempt"

    n: int
    roll: PoolRoll
    total: int
    success: bool
    outcome: Literal["success", "failure", "luck", "bad_luck"]


class Awaiting(TypedDict):
    "Awaiting"

    by: Literal["initiator", "defender"]
    decision: int
    phase: Literal["rolloff", "counterattack", "damage"]
    choices: list[Option]


class BattleOdds(TypedDict):
    "BattleOdds"

    pairs: list[PairOdds]
    sweep: SweepOdds | None


class BattleOddsRequest(TypedDict):
    "The `/dragon/battle` request without `seed` and `dice`."

    dragon: Dragon
    entities: list[Entity]
    location: NotRequired[Location | None]
    round: NotRequired[int]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    continues: NotRequired[bool]
    options: NotRequired[BattleOptions]


class BattleOptions(TypedDict):
    "BattleOptions"

    hoard: NotRequired[Literal["always", "on_win"]]
    strongest_enemy: NotRequired[Literal["highest_level", "strength_order"]]


class BattleRequest(TypedDict):
    "BattleRequest"

    dragon: Dragon
    entities: list[Entity]
    location: NotRequired[Location | None]
    round: NotRequired[int]
    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    continues: NotRequired[bool]
    options: NotRequired[BattleOptions]


class BattleResult(TypedDict):
    "One round of a dragon battle: the envelope's fields, then the round's."

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    round: int
    order: list[str]
    pools: list[Pool]
    pairs: list[Pair]
    left_over: list[LeftOverParty]
    sweep: list[str]
    sweep_detail: SweepDetail | None
    defeated: list[Defeat]
    prosperity_changes: list[ProsperityChange]
    wounds: Wounds
    slayers_revealed: list[SlayerRevealed]
    dragon_changes: list[Change]
    destruction_change: Change | None
    dragon_defeated: bool
    battle_ended: bool
    hoard: Hoard
    hoard_gained: int
    next_state: BattleState


class BattleSimulateRequest(TypedDict):
    "The `/dragon/battle` request plus `runs` and `rerolls`; no `dice`."

    dragon: Dragon
    entities: list[Entity]
    location: NotRequired[Location | None]
    round: NotRequired[int]
    seed: NotRequired[str | int | None]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    continues: NotRequired[bool]
    options: NotRequired[BattleOptions]
    runs: int
    rerolls: NotRequired[int]


class BattleState(TypedDict):
    "The situation of a round: what a request carries and what ``next_state`` returns."

    dragon: Dragon
    entities: list[Entity]
    location: NotRequired[Location | None]
    round: NotRequired[int]


class BonusAction(TypedDict):
    "BonusAction"

    kind: Literal["bonus_action"]
    name: str
    feature: NotRequired[str | None]


class Bonuses(TypedDict):
    "RDR-2: elemental (unless fatigue 3) + terrain + pre-combat items."

    riders: list[RiderBonus]
    elemental: int
    elemental_counted: bool
    terrain: int
    items: list[ItemUse]
    extra_rolloff_dice: int
    total: int


class Budget(TypedDict):
    "Budget"

    movement: int
    movement_allowed: int
    actions: int
    bonus_actions: int
    free_interactions: int
    reactions: int


class Capability(TypedDict):
    "Something a system may have beyond resolving, each declared by its descriptor's fields."


class Change(TypedDict):
    "Change"

    by: Literal["player", "others"]
    result: int
    level: int | None
    scale: str | None
    against: list[str]


class CheckOdds(TypedDict):
    "CheckOdds"

    success: Prob
    failure: Prob
    natural: Distribution


class CheckOddsRequest(TypedDict):
    "The `/dnd5e/check` request without `seed` and `dice`."

    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    modifier: NotRequired[int]
    dc: int
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]


class CheckRequest(TypedDict):
    "CheckRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    modifier: NotRequired[int]
    dc: int
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]


class CheckResult(TypedDict):
    "CheckResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    d20s: list[int]
    natural: int
    mode: Literal["normal", "advantage", "disadvantage"]
    total: int
    dc: int
    success: bool


class CombatOdds(TypedDict):
    "CombatOdds"

    initiator_wins: Prob
    defender_wins: Prob
    initiator_total: Distribution
    defender_total: Distribution
    counters: list[CounterOdds]


class CombatOddsRequest(TypedDict):
    "The `/riders/combat` request without `seed` and `dice`."

    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    initiator: RidersSideInput
    defender: RidersSideInput
    attack: NotRequired[Attack]
    decisions: NotRequired[list[Decision]]
    auto: NotRequired[bool]


class CombatRequest(TypedDict):
    "CombatRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    initiator: RidersSideInput
    defender: RidersSideInput
    attack: NotRequired[Attack]
    decisions: NotRequired[list[Decision]]
    auto: NotRequired[bool]


class CombatResult(TypedDict):
    "CombatResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    finished: bool
    winner: Literal["initiator", "defender"] | None
    loser: Literal["initiator", "defender"] | None
    bonuses: dict[str, Bonuses]
    rolloff: dict[str, RollOff]
    presumptive_loser: Literal["initiator", "defender"] | None
    counterattack: list[CounterStep]
    conceded: Concession | None
    totals: Totals
    damage: list[FatigueDamage | KnockbackDamage | SwapDamage | ItemDamage]
    damage_instances: int
    damage_skipped: Literal["hide_shield", "ranged"] | None
    state: States
    awaiting: Awaiting | None
    decisions: list[Decision]
    auto_filled: list[int]


class CombatSimulateRequest(TypedDict):
    "The `/riders/combat` request plus `runs`; no `dice`; missing decisions are `auto` (RDR-9)."

    seed: NotRequired[str | int | None]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    initiator: RidersSideInput
    defender: RidersSideInput
    attack: NotRequired[Attack]
    decisions: NotRequired[list[Decision]]
    auto: NotRequired[bool]
    runs: int


class Combatant(TypedDict):
    "Combatant"

    id: str
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    side: Literal["players", "gm"]
    dex_mod: int
    initiative_bonus: NotRequired[int]
    dexterity: NotRequired[int | None]
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]
    group: NotRequired[str | None]
    hiding: NotRequired[Hiding | None]
    passive_perception: NotRequired[int | None]
    surprised: NotRequired[bool | None]


class CombatantState(TypedDict):
    "CombatantState"

    id: str
    actions: int
    actions_used: int
    initiative: int | None
    hp: int
    max_hp: int | None
    incapacitated: bool
    critical: bool
    beaten: bool
    blocks_used: int
    dodges_used: int
    running: bool
    stopped: bool
    moved: int
    waited: bool


class ComplexRequest(TypedDict):
    "ComplexRequest"

    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    stat: int
    skill: int
    dc: int
    attempts: int
    successes_needed: int
    options: NotRequired[TestOptions]


class ComplexResult(TypedDict):
    "ComplexResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    modifier_percent: int
    attempts: list[Attempt]
    successes: int
    success: bool
    partial: bool


class Concession(TypedDict):
    "Concession"

    by: Literal["initiator", "defender"]
    phase: Literal["rolloff", "counterattack"]
    decision: int
    without_rolling: bool


class CounterOdds(TypedDict):
    "CounterOdds"

    side: str
    item: str
    turns: Prob
    given_behind: Prob | None


class CounterStep(TypedDict):
    "RDR-5: one item played in the counterattack."

    decision: int
    by: Literal["initiator", "defender"]
    item: ItemUse
    total: int
    totals: Totals
    leader: Literal["initiator", "defender"]
    lead_changed: bool


class D20Roll(TypedDict):
    "A d20 test's dice (D5E-10): two with advantage or disadvantage, one otherwise."

    d20s: list[int]
    mode: Literal["normal", "advantage", "disadvantage"]
    natural: int
    modifier: int
    total: int


class Damage(TypedDict):
    "Damage dealt and how it was applied (DOS-26, DOS-28)."

    die: int | None
    percent: int | None
    base: int | None
    halved: bool
    armor: int
    amount: int
    kind: Literal["light", "serious", "critical"]
    applied_as: Literal["light", "serious", "critical", "none"]


class DamageOptions(TypedDict):
    "Readings of DOS-28 (the source's plain reading is the default)."

    light_at_zero: NotRequired[Literal["full_bar", "no_refill"]]
    critical_wounds: NotRequired[Literal["at_zero_hp", "while_incapacitated"]]


class DamagePart(TypedDict):
    "DamagePart"

    dice: str
    type: Literal[
        "acid",
        "bludgeoning",
        "cold",
        "fire",
        "force",
        "lightning",
        "necrotic",
        "piercing",
        "poison",
        "psychic",
        "radiant",
        "slashing",
        "thunder",
    ]


class DamageRequest(TypedDict):
    "DamageRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    strength: NotRequired[int]
    weapon: NotRequired[Weapon | None]
    armor: NotRequired[int]
    amount: NotRequired[int | None]
    kind: NotRequired[Literal["light", "serious", "critical"] | None]
    target: DamageTarget
    options: NotRequired[DamageOptions]


class DamageResult(TypedDict):
    "DamageResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    die: int | None
    percent: int | None
    base: int | None
    halved: bool
    armor: int
    amount: int
    kind: Literal["light", "serious", "critical"]
    applied_as: Literal["light", "serious", "critical", "none"]
    target: DamageTarget


class DamageTarget(TypedDict):
    "DamageTarget"

    hp: int
    max_hp: NotRequired[int | None]
    incapacitated: NotRequired[bool]
    critical: NotRequired[bool]
    beaten: NotRequired[bool]
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]


class DeathSaveRequest(TypedDict):
    "DeathSaveRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    successes: NotRequired[int]
    failures: NotRequired[int]
    modifier: NotRequired[int]
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]


class DeathSaveResult(TypedDict):
    "DeathSaveResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    d20s: list[int]
    natural: int
    total: int
    success: bool
    successes: int
    failures: int
    stable: bool
    dead: bool
    hp: int
    conscious: bool


class Decision(TypedDict):
    "One decision, in the order the combat asks for them (RDR-8)."

    by: Literal["initiator", "defender"]
    choice: Literal["use_item", "roll", "concede", "damage"]
    item: NotRequired[str | None]
    damage: NotRequired[Literal["fatigue", "knockback", "swap", "item"] | None]
    direction: NotRequired[Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"] | None]


class Declaration(TypedDict):
    "One thing a combatant declares for the turn; `difficulty`/`modifier_percent` modify its roll."

    defense_difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    defense_modifier_percent: NotRequired[int | None]
    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    action: Literal["attack", "run", "step", "grab", "break_free", "push", "feint_push", "wait"]
    target: NotRequired[str | None]
    count: NotRequired[int]
    aim: NotRequired[
        Literal["head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"] | None
    ]
    ranged: NotRequired[Ranged | None]
    defense: NotRequired[Literal["block", "dodge", "none", "auto"] | None]
    stop_when_down: NotRequired[bool]
    metres: NotRequired[int | None]


class Defeat(TypedDict):
    "Defeat"

    id: str
    successes: int


class Defender(TypedDict):
    "The defender's state for this turn; the response returns the same shape, updated."

    hp: int
    max_hp: NotRequired[int | None]
    incapacitated: NotRequired[bool]
    critical: NotRequired[bool]
    beaten: NotRequired[bool]
    dexterity: int
    block: NotRequired[int]
    dodge: NotRequired[int]
    blocks_used: NotRequired[int]
    dodges_used: NotRequired[int]
    armor: NotRequired[int]
    running: NotRequired[bool]
    stopped: NotRequired[bool]
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]


class DefenseRoll(TypedDict):
    "DefenseRoll"

    kind: Literal["block", "dodge"]
    roll: PoolRoll
    modifier_percent: int
    total: int


class Distribution(TypedDict):
    "Distribution"

    result: list[ValueProb]
    tail: Prob
    mean: float
    percentiles: Percentiles


class Dnd5eAttackOdds(TypedDict):
    "Dnd5eAttackOdds"

    hit: Prob
    critical: Prob
    miss: Prob
    damage: Distribution
    drops_to_0: Prob
    dies: Prob


class Dnd5eAttackOddsRequest(TypedDict):
    "The `/dnd5e/attack` request without `seed` and `dice`."

    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    attack_bonus: int
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]
    damage: list[DamagePart]
    target: Target


class Dnd5eAttackRequest(TypedDict):
    "Dnd5eAttackRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    attack_bonus: int
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]
    damage: list[DamagePart]
    target: Target


class Dnd5eAttackResult(TypedDict):
    "Dnd5eAttackResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    hit: bool
    critical: bool
    attack: Dnd5eAttackRoll
    ac: int
    damage: list[PartRoll]
    by_type: list[TypeDamage]
    damage_total: int
    target: TargetState


class Dnd5eAttackRoll(TypedDict):
    "Dnd5eAttackRoll"

    d20s: list[int]
    natural: int
    mode: Literal["normal", "advantage", "disadvantage"]
    total: int


class Dnd5eInitiativeRequest(TypedDict):
    "Dnd5eInitiativeRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    combatants: list[Combatant]
    tie_break: NotRequired[Literal["d20", "dexterity", "given"]]
    tie_order: NotRequired[list[str]]
    options: NotRequired[InitiativeOptions]


class Dnd5eInitiativeResult(TypedDict):
    "Dnd5eInitiativeResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    round_seconds: int
    order: list[OrderEntry]
    surprised: list[str]
    surprise: list[SurpriseVerdict]
    stealth: dict[str, Stealth]


class Dnd5eTurnRequest(TypedDict):
    "Dnd5eTurnRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    speed: int
    steps: list[Move | Action | BonusAction | Interaction | Reaction | Speech]
    surprised: NotRequired[bool]
    first_turn: NotRequired[bool]
    incapacitated: NotRequired[bool]
    reaction_used: NotRequired[bool]


class Dnd5eTurnResult(TypedDict):
    "Dnd5eTurnResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    valid: bool
    violations: list[Violation]
    budget: Budget


class DosAttackOdds(TypedDict):
    "DosAttackOdds"

    defense: Literal["block", "dodge"] | None
    hit: Prob
    blocked: Prob | None
    dodged: Prob | None
    missed: Prob
    damage: Distribution
    incapacitated: Prob
    critical: Prob
    truncation: Truncation


class DosAttackOddsRequest(TypedDict):
    "The `/dos/attack` request without `seed` and `dice`."

    defense_difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    defense_modifier_percent: NotRequired[int | None]
    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    attacker: Attacker
    defender: Defender
    defense: NotRequired[Literal["block", "dodge", "none", "auto"]]
    ranged: NotRequired[Ranged | None]
    aim: NotRequired[
        Literal["head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"] | None
    ]
    options: NotRequired[DamageOptions]


class DosAttackRequest(TypedDict):
    "DosAttackRequest"

    defense_difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    defense_modifier_percent: NotRequired[int | None]
    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    attacker: Attacker
    defender: Defender
    defense: NotRequired[Literal["block", "dodge", "none", "auto"]]
    ranged: NotRequired[Ranged | None]
    aim: NotRequired[
        Literal["head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"] | None
    ]
    options: NotRequired[DamageOptions]


class DosAttackResult(TypedDict):
    "DosAttackResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    hit: bool
    reason: Literal["total", "luck", "bad_luck", "tie", "no_defense", "dc"]
    attack: DosAttackRoll
    defense: DefenseRoll | None
    damage: Damage | None
    location: Literal["head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"] | None
    aimed: bool
    run_stop: RunStop | None
    defender: Defender


class DosAttackRoll(TypedDict):
    "DosAttackRoll"

    roll: PoolRoll
    modifier_percent: int
    total: int
    dc: int | None
    outcome: Literal["success", "failure", "luck", "bad_luck"] | None


class DosInitiativeRequest(TypedDict):
    "DosInitiativeRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    combatants: list[InitiativeCombatant]
    first: NotRequired[list[str]]


class DosInitiativeResult(TypedDict):
    "DosInitiativeResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    order: list[str]
    entries: list[InitiativeEntry]


class DosTurnRequest(TypedDict):
    "DosTurnRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    combatants: list[TurnCombatant]
    order: NotRequired[list[str] | None]
    first: NotRequired[list[str]]
    options: NotRequired[DamageOptions]


class DosTurnResult(TypedDict):
    "DosTurnResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    order: list[str]
    initiative: list[InitiativeEntry] | None
    actions: list[ActionsEntry]
    results: list[TurnAction]
    combatants: list[CombatantState]


class Dragon(TypedDict):
    "Dragon"

    age: int
    battle: int
    wounds: NotRequired[int]
    features_used: NotRequired[int]
    dragon_die: NotRequired[bool]
    target: str
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]


class DragonSide(TypedDict):
    "DragonSide"

    members: list[str]
    dice: list[int]
    highest: int


class Draw(TypedDict):
    "The next ``count`` dice of ``sides`` sides of ``slot``'s stream, from die ``start``."

    slot: str
    sides: int
    count: int
    start: NotRequired[int]


class DrawRequest(TypedDict):
    "``POST /dice/draw``: dice of one or more slots of a seed, in one request."

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    draws: list[Draw]


class DrawResult(TypedDict):
    "DrawResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    draws: list[Drawn]


class Drawn(TypedDict):
    "One draw answered: the values of dice ``start`` .. ``start + count - 1`` of the slot."

    slot: str
    sides: int
    start: int
    values: list[int]


class EndpointInfo(TypedDict):
    "EndpointInfo"

    path: str
    summary: str
    outcome: list[str]
    odds: NotRequired[str | None]
    simulate: NotRequired[str | None]
    foundry: bool


class Entity(TypedDict):
    "Entity"

    id: str
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    controller: Literal["player", "gm"]
    kind: Literal["individual", "group"]
    prosperity: int
    level: int
    level_features: NotRequired[int]
    die: NotRequired[int | None]
    dragonslayer: NotRequired[bool]
    parent: NotRequired[str | None]
    aside: NotRequired[bool]
    target: NotRequired[str | None]
    if_left_over: NotRequired[str]
    slayer_prosperity: NotRequired[int | None]


class Event(TypedDict):
    "Event"

    code: str
    params: dict[str, Any]
    text: str


class Example(TypedDict):
    "Example"

    outcome: str
    run: int
    seed: str
    length: int


class FatigueDamage(TypedDict):
    "FatigueDamage"

    kind: NotRequired[Literal["fatigue"]]
    decision: int
    fatigue: int
    rider_lost: bool
    riders_lost: list[str]
    rage: int


FoundryRoll = TypedDict(
    "FoundryRoll",
    {
        "class": Literal["Roll"],
        "options": dict[str, Any],
        "dice": list[Any],
        "formula": str,
        "terms": list[dict[str, Any]],
        "total": int,
        "evaluated": bool,
    },
)


class FoundryRolls(TypedDict):
    "FoundryRolls"

    rolls: list[FoundryRoll]


class Hiding(TypedDict):
    "A creature hiding at the start (D5E-3): its Dexterity (Stealth) total, given or rolled."

    stealth_total: NotRequired[int | None]
    stealth_mod: NotRequired[int | None]
    advantage: NotRequired[bool | int]
    disadvantage: NotRequired[bool | int]


class Hoard(TypedDict):
    "Hoard"

    enemies: list[str]
    strongest: str | None
    level: int
    dragonslayer: bool
    amount: int
    dragon_won: bool


class InitiativeCombatant(TypedDict):
    "InitiativeCombatant"

    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    id: str
    speed: int


class InitiativeEntry(TypedDict):
    "InitiativeEntry"

    id: str
    placed: bool
    roll: int | None
    total: int | None
    rerolls: list[Reroll]


class InitiativeOptions(TypedDict):
    "InitiativeOptions"

    surprise_ties: NotRequired[Literal["hidden", "noticed"]]


class Interaction(TypedDict):
    "Interaction"

    kind: Literal["interaction"]
    object: str
    uses_action: NotRequired[bool]


class Item(TypedDict):
    "An item or spell a side may use in this combat, described by the caller (RDR-5, RDR-6)."

    id: str
    name: str
    timing: Literal["pre", "counter", "damage"]
    bonus: NotRequired[int]
    dice: NotRequired[str | None]
    extra_rolloff_dice: NotRequired[int]
    hide_shield: NotRequired[bool]
    ranged: NotRequired[bool]
    damage: NotRequired[str | None]


class ItemDamage(TypedDict):
    "ItemDamage"

    kind: NotRequired[Literal["item"]]
    decision: int
    item: str
    name: str
    effect: str


class ItemUse(TypedDict):
    "ItemUse"

    id: str
    name: str
    bonus: int
    dice: list[int]
    value: int


class JsonValue(TypedDict):
    "JsonValue"


class KnockbackDamage(TypedDict):
    "KnockbackDamage"

    kind: NotRequired[Literal["knockback"]]
    decision: int
    direction: Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    before: Point
    after: Point


class LeftOverParty(TypedDict):
    "LeftOverParty"

    id: str
    action: Literal["wait", "join", "auto_win"]
    reason: str
    ally: str | None
    against: str | None
    note: str | None


class Location(TypedDict):
    "Location"

    id: str
    prosperity: int


class ManeuverPart(TypedDict):
    "ManeuverPart"

    winner: Literal["a", "b"] | None
    success: bool
    a: ManeuverSideResult
    b: ManeuverSideResult


class ManeuverRequest(TypedDict):
    "ManeuverRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    kind: Literal["grab", "break_free", "push", "feint_push"]
    a: ManeuverSide
    b: ManeuverSide


class ManeuverResult(TypedDict):
    "ManeuverResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    kind: Literal["grab", "break_free", "push", "feint_push"]
    winner: Literal["a", "b"] | None
    success: bool
    a: ManeuverSideResult
    b: ManeuverSideResult


class ManeuverSide(TypedDict):
    "ManeuverSide"

    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    dexterity: int
    strength: int
    unarmed: NotRequired[int]
    weapon: NotRequired[int]
    dodge: NotRequired[int]
    stat: NotRequired[Literal["dexterity", "strength"] | None]
    skill: NotRequired[Literal["unarmed", "weapon", "dodge"] | None]
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]


class ManeuverSideResult(TypedDict):
    "ManeuverSideResult"

    stat: Literal["dexterity", "strength"]
    skill: Literal["unarmed", "weapon", "dodge"]
    roll: PoolRoll
    modifier_percent: int
    total: int


class Move(TypedDict):
    "Move"

    kind: Literal["move"]
    feet: int


class NotationOdds(TypedDict):
    "NotationOdds"

    notation: str
    dialect: Literal["foundry", "roll20", "avrae"]
    formula: str
    total: Distribution
    at_least: list[ValueProb]
    at_most: list[ValueProb]
    repeat: int
    sum: Distribution | None
    dc: int | None
    successes: list[ValueProb] | None


class NotationOddsRequest(TypedDict):
    "``POST /dice/odds``: the ``/dice/roll`` request without ``seed`` and ``dice``."

    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    notation: str
    dialect: NotRequired[Literal["foundry", "roll20", "avrae"]]
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    data: NotRequired[dict[str, JsonValue] | None]
    repeat: NotRequired[int | None]


class NotationRollRequest(TypedDict):
    "``POST /dice/roll``: a notation, rolled."

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    notation: str
    dialect: NotRequired[Literal["foundry", "roll20", "avrae"]]
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    data: NotRequired[dict[str, JsonValue] | None]
    repeat: NotRequired[int | None]


class NotationRollResult(TypedDict):
    "NotationRollResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    notation: str
    dialect: Literal["foundry", "roll20", "avrae"]
    command: str | None
    mode: Literal["publicroll", "gmroll", "blindroll", "selfroll"] | None
    advantage: Literal["adv", "dis"] | None
    formula: str
    comment: str | None
    total: int
    terms: list[TermResult]
    pools: list[PoolResult]
    repeat: int
    repetitions: list[Repetition]
    dc: int | None
    successes: int | None


class OpposedOdds(TypedDict):
    "OpposedOdds"

    a_wins: Prob
    b_wins: Prob
    tie: Prob
    a_total: Distribution
    b_total: Distribution
    truncation: Truncation


class OpposedOddsRequest(TypedDict):
    "The `/dos/opposed` request without `seed` and `dice`."

    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    a: OpposedSide
    b: OpposedSide


class OpposedRequest(TypedDict):
    "OpposedRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    a: OpposedSide
    b: OpposedSide


class OpposedResult(TypedDict):
    "OpposedResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    a: SideResult
    b: SideResult
    winner: Literal["a", "b"] | None


class OpposedSide(TypedDict):
    "OpposedSide"

    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    stat: int
    skill: int
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]


class Option(TypedDict):
    "One legal choice: send it back as a decision (with `by`)."

    choice: Literal["use_item", "roll", "concede", "damage"]
    item: NotRequired[str | None]
    damage: NotRequired[Literal["fatigue", "knockback", "swap", "item"] | None]
    directions: NotRequired[list[Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]] | None]


class OrderEntry(TypedDict):
    "OrderEntry"

    id: str
    members: list[str]
    group: bool
    total: int
    roll: D20Roll
    dexterity: int | None
    tiebreak: list[int]


class OutcomeRate(TypedDict):
    "OutcomeRate"

    outcome: str
    runs: int
    rate: float
    ci95: list[float]


class Pair(TypedDict):
    "Pair"

    a: str
    b: str
    a_side: DragonSide
    b_side: DragonSide
    resolved: bool
    winner: str | None
    loser: str | None
    successes: int
    interrupted: bool
    swept: bool


class PairOdds(TypedDict):
    "PairOdds"

    a: str
    b: str
    a_members: list[str]
    b_members: list[str]
    a_wins: Prob
    b_wins: Prob
    interrupted: Prob
    a_successes: list[ValueProb]
    b_successes: list[ValueProb]


class PartRoll(TypedDict):
    "PartRoll"

    dice: str
    type: str
    rolls: list[int]
    critical_rolls: list[int]
    modifier: int
    total: int


class Percentiles(TypedDict):
    "The smallest value whose cumulative probability reaches 5, 25, 50, 75 and 95 %."

    p5: int
    p25: int
    p50: int
    p75: int
    p95: int


class Point(TypedDict):
    "Point"

    x: int
    y: int


class Pool(TypedDict):
    "The dice of one slot: a party's pool, the dragon die or a dragonslayer's extra die."

    owner: str
    slot: str
    sides: int
    dice: list[int]


class PoolDie(TypedDict):
    "PoolDie"

    value: int
    cancelled: bool
    extra: bool


class PoolItem(TypedDict):
    "PoolItem"

    notation: str
    total: int
    kept: bool


class PoolRequest(TypedDict):
    "PoolRequest"

    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    pool: int


class PoolResult(TypedDict):
    "A pool (``{1d20, 1d20}kh``): each expression's total and whether it was kept."

    column: int
    notation: str
    items: list[PoolItem]
    total: int


class PoolRoll(TypedDict):
    "A DoS pool roll (DOS-1..7), dice in draw order."

    slot: str
    dice: list[PoolDie]
    result: int
    luck: bool
    bad_luck: bool


class Position(TypedDict):
    "Position"

    x: int
    y: int
    facing: Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


class Prob(TypedDict):
    "A probability: ``exact`` is the fraction in lowest terms, ``p`` its nearest float."

    p: float
    exact: str


class Problem(TypedDict):
    "An RFC 9457 problem details object."

    type: str
    title: str
    status: int
    detail: str
    instance: NotRequired[str | None]
    request_id: NotRequired[str | None]
    errors: NotRequired[list[ProblemError] | None]
    more_errors: NotRequired[int | None]
    lang: NotRequired[str | None]
    detail_lang: NotRequired[str | None]


class ProblemError(TypedDict):
    "ProblemError"

    loc: list[str | int]
    msg: str
    type: NotRequired[str | None]
    lang: NotRequired[str | None]


class ProsperityChange(TypedDict):
    "ProsperityChange"

    id: str
    what: Literal["entity", "location"]
    before: int
    after: int
    reason: Literal["lost_pair", "swept", "dragon_die"]


class Ranged(TypedDict):
    "Ranged"

    dc: int
    ties: NotRequired[Literal["fail", "succeed"]]


class Reaction(TypedDict):
    "Reaction"

    kind: Literal["reaction"]
    name: str


class Repetition(TypedDict):
    "One repetition of a repeated roll (``repeat``): its own dice and total."

    seed: str
    total: int
    terms: list[TermResult]
    pools: list[PoolResult]
    drawn: int


class Reroll(TypedDict):
    "Reroll"

    roll: int
    total: int


class Rider(TypedDict):
    "Rider"

    id: str
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    current: NotRequired[bool]
    bonuses: NotRequired[dict[str, int]]


class RiderBonus(TypedDict):
    "RiderBonus"

    id: str
    current: bool
    bonus: int


class RidersSide(TypedDict):
    "RidersSide"

    id: str
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    element: Literal["fire", "water", "earth", "lightning", "wind", "metal"]
    riders: NotRequired[list[Rider]]
    fatigue: NotRequired[int]
    rage: NotRequired[int]
    terrain_bonus: NotRequired[int]
    position: NotRequired[Position | None]
    has_rider: NotRequired[bool]
    items: NotRequired[list[Item]]


class RidersSideInput(TypedDict):
    "RidersSideInput"

    id: str
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    element: Literal["fire", "water", "earth", "lightning", "wind", "metal"]
    riders: NotRequired[list[Rider]]
    fatigue: NotRequired[int]
    rage: NotRequired[int]
    terrain_bonus: NotRequired[int]
    position: NotRequired[Position | None]
    has_rider: NotRequired[bool]
    items: NotRequired[list[Item]]


class Roll(TypedDict):
    "One die drawn, in draw order."

    slot: str
    sides: int
    value: int
    source: str


class RollOff(TypedDict):
    "RDR-3: 2d6 + one d6 per rage level + pre items' extra dice, plus the bonus."

    slot: str
    dice: list[int]
    rage_dice: int
    item_dice: int
    sum: int
    bonus: int
    total: int


class RollResult(TypedDict):
    "RollResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    roll: PoolRoll


class RunStop(TypedDict):
    "RunStop"

    die: int
    stopped: bool


class SideResult(TypedDict):
    "SideResult"

    roll: PoolRoll
    modifier_percent: int
    total: int


class Simulation(TypedDict):
    "Simulation"

    seed: str | int
    runs: int
    interval: str
    outcomes: list[OutcomeRate]
    length_unit: str
    mean_length: float
    examples: list[Example]


class Skills(TypedDict):
    "Skills"

    weapon: NotRequired[int]
    unarmed: NotRequired[int]
    thrown: NotRequired[int]
    shooting: NotRequired[int]
    block: NotRequired[int]
    dodge: NotRequired[int]


class SlayerRevealed(TypedDict):
    "SlayerRevealed"

    id: str
    kind: Literal["individual", "group"]
    feature: str | None
    new_entity: str | None
    prosperity: int | None
    sides: int | None


class Speech(TypedDict):
    "Speech"

    kind: Literal["speech"]
    text: NotRequired[str]


class States(TypedDict):
    "States"

    initiator: RidersSide
    defender: RidersSide


class Stealth(TypedDict):
    "Stealth"

    d20s: list[int]
    total: int


class SurpriseVerdict(TypedDict):
    "SurpriseVerdict"

    id: str
    surprised: bool
    reason: Literal["gm", "no_hiding_opponent", "noticed", "unnoticed", "no_opponent"]
    noticed: list[str]
    unnoticed: list[str]
    restrictions: list[Literal["no_move", "no_action", "no_reaction_until_turn_ends"]]


class SwapDamage(TypedDict):
    "SwapDamage"

    kind: NotRequired[Literal["swap"]]
    decision: int
    winner: Position
    loser: Position


class SweepDetail(TypedDict):
    "SweepDetail"

    triggered: bool
    dragon_die: int
    opponent: str
    opponent_highest: int
    steps: list[SweepStep]


class SweepOdds(TypedDict):
    "SweepOdds"

    opponent: str
    triggered: Prob
    sweep: Prob
    sizes: list[ValueProb]


class SweepStep(TypedDict):
    "SweepStep"

    id: str
    highest: int
    running_sum: int
    added: bool


class SystemInfo(TypedDict):
    "SystemInfo"

    id: str
    name: dict[str, str]
    rules_version: str
    languages: list[str]
    game: bool
    capabilities: list[Capability]
    endpoints: list[EndpointInfo]


class Target(TypedDict):
    "Target"

    ac: int
    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    hp: int
    max_hp: int
    temp_hp: NotRequired[int]
    resistances: NotRequired[
        list[
            Literal[
                "acid",
                "bludgeoning",
                "cold",
                "fire",
                "force",
                "lightning",
                "necrotic",
                "piercing",
                "poison",
                "psychic",
                "radiant",
                "slashing",
                "thunder",
            ]
        ]
    ]
    vulnerabilities: NotRequired[
        list[
            Literal[
                "acid",
                "bludgeoning",
                "cold",
                "fire",
                "force",
                "lightning",
                "necrotic",
                "piercing",
                "poison",
                "psychic",
                "radiant",
                "slashing",
                "thunder",
            ]
        ]
    ]
    immunities: NotRequired[
        list[
            Literal[
                "acid",
                "bludgeoning",
                "cold",
                "fire",
                "force",
                "lightning",
                "necrotic",
                "piercing",
                "poison",
                "psychic",
                "radiant",
                "slashing",
                "thunder",
            ]
        ]
    ]
    monster: NotRequired[bool]
    death_save_failures: NotRequired[int]


class TargetState(TypedDict):
    "TargetState"

    hp: int
    temp_hp: int
    unconscious: bool
    dead: bool
    death_save_failures: int
    massive_damage: bool


class TermDie(TypedDict):
    "One die of a term, in draw order."

    value: int
    status: Literal["kept", "dropped", "exploded", "rerolled", "success", "failure"]
    exploded: bool
    counts: int


class TermResult(TypedDict):
    "TermResult"

    slot: str
    notation: str
    label: str | None
    dice: list[TermDie]
    total: int
    matches: list[int] | None


class TestOdds(TypedDict):
    "TestOdds"

    outcomes: TestOutcomes
    succeeds: Prob
    pool: Distribution
    total: Distribution
    truncation: Truncation


class TestOddsRequest(TypedDict):
    "The `/dos/test` request without `seed` and `dice`."

    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    stat: int
    skill: int
    dc: int
    options: NotRequired[TestOptions]


class TestOptions(TypedDict):
    "TestOptions"

    ties: NotRequired[Literal["fail", "succeed"]]


class TestOutcomes(TypedDict):
    "TestOutcomes"

    success: Prob
    failure: Prob
    luck: Prob
    bad_luck: Prob


class TestRequest(TypedDict):
    "TestRequest"

    difficulty: NotRequired[
        Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None
    ]
    modifier_percent: NotRequired[int | None]
    seed: NotRequired[str | int | None]
    dice: NotRequired[dict[str, list[int]]]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    stat: int
    skill: int
    dc: int
    options: NotRequired[TestOptions]


class TestResult(TypedDict):
    "TestResult"

    seed: str | int
    rng: str
    rules_version: str
    rolls: list[Roll]
    unused_dice: dict[str, list[int]]
    events: list[Event]
    foundry: NotRequired[FoundryRolls]
    roll: PoolRoll
    modifier_percent: int
    total: int
    dc: int
    success: bool
    outcome: Literal["success", "failure", "luck", "bad_luck"]
    margin: int


class Totals(TypedDict):
    "Totals"

    initiator: int | None
    defender: int | None


class Truncation(TypedDict):
    "Where the explosion chains were cut (DOS-3)."

    tail_below: float
    tail: Prob
    tail_from: list[int]


class TurnAction(TypedDict):
    "One action resolved in the turn, in resolution order."

    actor: str
    n: int | None
    action: Literal["attack", "run", "step", "grab", "break_free", "push", "feint_push", "wait"]
    target: str | None
    skipped: str | None
    attack: AttackResultPart | None
    maneuver: ManeuverPart | None
    metres: int | None


class TurnCombatant(TypedDict):
    "TurnCombatant"

    name: NotRequired[str | None]
    gender: NotRequired[
        Literal["feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"]
        | None
    ]
    id: str
    side: str
    speed: int
    dexterity: int
    strength: NotRequired[int]
    skills: NotRequired[Skills]
    weapon: NotRequired[Weapon]
    hp: int
    max_hp: NotRequired[int | None]
    armor: NotRequired[int]
    incapacitated: NotRequired[bool]
    critical: NotRequired[bool]
    beaten: NotRequired[bool]
    defense: NotRequired[Literal["block", "dodge", "none", "auto"]]
    opponents: NotRequired[list[str] | None]
    declare: NotRequired[list[Declaration]]


class TurnSimulateRequest(TypedDict):
    "The `/dos/turn` request plus `runs` and `max_turns`; no `dice`."

    seed: NotRequired[str | int | None]
    lang: NotRequired[Literal["en", "pl", "fi", "ar"] | None]
    foundry: NotRequired[bool]
    combatants: list[TurnCombatant]
    order: NotRequired[list[str] | None]
    first: NotRequired[list[str]]
    options: NotRequired[DamageOptions]
    runs: int
    max_turns: NotRequired[int]


class TypeDamage(TypedDict):
    "TypeDamage"

    type: str
    rolled: int
    applied: list[Literal["immunity", "resistance", "vulnerability"]]
    total: int


class ValueProb(TypedDict):
    "ValueProb"

    value: int
    p: Prob


class Violation(TypedDict):
    "Violation"

    rule: str
    step: int | None
    code: str
    message: str


class Weapon(TypedDict):
    "What the attacker strikes with (DOS-26)."

    kind: Literal["unarmed", "melee", "thrown", "shooting"]
    damage: NotRequired[int]
    made_for_throwing: NotRequired[bool]
    damage_kind: NotRequired[Literal["light", "serious"] | None]


class Wounds(TypedDict):
    "Wounds"

    before: int
    gained: int
    after: int


class Client(SyncTransport):
    """dragonroll over httpx, sync: one method per endpoint."""

    def dos_roll(
        self, body: PoolRequest, *, headers: Mapping[str, str] | None = None
    ) -> RollResult:
        "Roll a d10 pool (POST /dos/roll)."
        return cast(RollResult, self._post("/dos/roll", body, headers))

    def dos_test(
        self, body: TestRequest, *, headers: Mapping[str, str] | None = None
    ) -> TestResult:
        "Simple test against a DC (POST /dos/test)."
        return cast(TestResult, self._post("/dos/test", body, headers))

    def dos_opposed(
        self, body: OpposedRequest, *, headers: Mapping[str, str] | None = None
    ) -> OpposedResult:
        "Opposed test between two sides (POST /dos/opposed)."
        return cast(OpposedResult, self._post("/dos/opposed", body, headers))

    def dos_complex(
        self, body: ComplexRequest, *, headers: Mapping[str, str] | None = None
    ) -> ComplexResult:
        "Complex test: several attempts, several successes needed (POST /dos/complex)."
        return cast(ComplexResult, self._post("/dos/complex", body, headers))

    def dos_actions(
        self, body: ActionsRequest, *, headers: Mapping[str, str] | None = None
    ) -> ActionsResult:
        "Actions per turn (POST /dos/actions)."
        return cast(ActionsResult, self._post("/dos/actions", body, headers))

    def dos_initiative(
        self, body: DosInitiativeRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosInitiativeResult:
        "Initiative order (POST /dos/initiative)."
        return cast(DosInitiativeResult, self._post("/dos/initiative", body, headers))

    def dos_attack(
        self, body: DosAttackRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosAttackResult:
        "One attack, melee or ranged, resolved completely (POST /dos/attack)."
        return cast(DosAttackResult, self._post("/dos/attack", body, headers))

    def dos_damage(
        self, body: DamageRequest, *, headers: Mapping[str, str] | None = None
    ) -> DamageResult:
        "Damage by weapon or GM-set, applied to a target (POST /dos/damage)."
        return cast(DamageResult, self._post("/dos/damage", body, headers))

    def dos_maneuver(
        self, body: ManeuverRequest, *, headers: Mapping[str, str] | None = None
    ) -> ManeuverResult:
        "Grab, break free, push: opposed maneuvers (POST /dos/maneuver)."
        return cast(ManeuverResult, self._post("/dos/maneuver", body, headers))

    def dos_turn(
        self, body: DosTurnRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosTurnResult:
        "A whole combat turn (POST /dos/turn)."
        return cast(DosTurnResult, self._post("/dos/turn", body, headers))

    def dragon_battle(
        self, body: BattleRequest, *, headers: Mapping[str, str] | None = None
    ) -> BattleResult:
        "Resolve one round of a dragon's violent conflict (POST /dragon/battle)."
        return cast(BattleResult, self._post("/dragon/battle", body, headers))

    def riders_combat(
        self, body: CombatRequest, *, headers: Mapping[str, str] | None = None
    ) -> CombatResult:
        "Combat, step by step or automatic (POST /riders/combat)."
        return cast(CombatResult, self._post("/riders/combat", body, headers))

    def dnd5e_initiative(
        self, body: Dnd5eInitiativeRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eInitiativeResult:
        "Surprise and initiative (POST /dnd5e/initiative)."
        return cast(Dnd5eInitiativeResult, self._post("/dnd5e/initiative", body, headers))

    def dnd5e_turn(
        self, body: Dnd5eTurnRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eTurnResult:
        "Check a turn plan against its budgets (POST /dnd5e/turn)."
        return cast(Dnd5eTurnResult, self._post("/dnd5e/turn", body, headers))

    def dnd5e_check(
        self, body: CheckRequest, *, headers: Mapping[str, str] | None = None
    ) -> CheckResult:
        "A d20 test against a DC (POST /dnd5e/check)."
        return cast(CheckResult, self._post("/dnd5e/check", body, headers))

    def dnd5e_attack(
        self, body: Dnd5eAttackRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eAttackResult:
        "An attack roll, its damage and what it does to the target (POST /dnd5e/attack)."
        return cast(Dnd5eAttackResult, self._post("/dnd5e/attack", body, headers))

    def dnd5e_death_save(
        self, body: DeathSaveRequest, *, headers: Mapping[str, str] | None = None
    ) -> DeathSaveResult:
        "A death saving throw (POST /dnd5e/death-save)."
        return cast(DeathSaveResult, self._post("/dnd5e/death-save", body, headers))

    def dice_roll(
        self, body: NotationRollRequest, *, headers: Mapping[str, str] | None = None
    ) -> NotationRollResult:
        "Roll any dice notation (POST /dice/roll)."
        return cast(NotationRollResult, self._post("/dice/roll", body, headers))

    def dice_draw(
        self, body: DrawRequest, *, headers: Mapping[str, str] | None = None
    ) -> DrawResult:
        "Draw the next dice of slots of a seed (POST /dice/draw)."
        return cast(DrawResult, self._post("/dice/draw", body, headers))

    def dos_odds_test(
        self, body: TestOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> TestOdds:
        "Odds of a simple test (the /dos/test request) (POST /dos/odds/test)."
        return cast(TestOdds, self._post("/dos/odds/test", body, headers))

    def dos_odds_opposed(
        self, body: OpposedOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> OpposedOdds:
        "Odds of an opposed test (the /dos/opposed request) (POST /dos/odds/opposed)."
        return cast(OpposedOdds, self._post("/dos/odds/opposed", body, headers))

    def dos_odds_attack(
        self, body: DosAttackOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosAttackOdds:
        "Odds of one attack (the /dos/attack request) (POST /dos/odds/attack)."
        return cast(DosAttackOdds, self._post("/dos/odds/attack", body, headers))

    def dos_odds(
        self,
        body: TestOddsRequest | OpposedOddsRequest | DosAttackOddsRequest,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> TestOdds | OpposedOdds | DosAttackOdds:
        "Odds of a test, an opposed test or an attack (the request says which) (POST /dos/odds)."
        return cast(TestOdds | OpposedOdds | DosAttackOdds, self._post("/dos/odds", body, headers))

    def dos_simulate(
        self, body: TurnSimulateRequest, *, headers: Mapping[str, str] | None = None
    ) -> Simulation:
        "Simulate whole fights (the /dos/turn request, turn after turn) (POST /dos/simulate)."
        return cast(Simulation, self._post("/dos/simulate", body, headers))

    def dragon_odds(
        self, body: BattleOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> BattleOdds:
        "Odds of a battle round (the /dragon/battle request) (POST /dragon/odds)."
        return cast(BattleOdds, self._post("/dragon/odds", body, headers))

    def dragon_simulate(
        self, body: BattleSimulateRequest, *, headers: Mapping[str, str] | None = None
    ) -> Simulation:
        "Simulate whole battles (the /dragon/battle request, round after round) (POST /dragon/simulate)."
        return cast(Simulation, self._post("/dragon/simulate", body, headers))

    def riders_odds(
        self, body: CombatOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> CombatOdds:
        "Odds of the roll-off (the /riders/combat request) (POST /riders/odds)."
        return cast(CombatOdds, self._post("/riders/odds", body, headers))

    def riders_simulate(
        self, body: CombatSimulateRequest, *, headers: Mapping[str, str] | None = None
    ) -> Simulation:
        "Simulate whole combats (the /riders/combat request with auto decisions) (POST /riders/simulate)."
        return cast(Simulation, self._post("/riders/simulate", body, headers))

    def dnd5e_odds_check(
        self, body: CheckOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> CheckOdds:
        "Odds of a d20 check (the /dnd5e/check request) (POST /dnd5e/odds/check)."
        return cast(CheckOdds, self._post("/dnd5e/odds/check", body, headers))

    def dnd5e_odds_attack(
        self, body: Dnd5eAttackOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eAttackOdds:
        "Odds of an attack and its damage (the /dnd5e/attack request) (POST /dnd5e/odds/attack)."
        return cast(Dnd5eAttackOdds, self._post("/dnd5e/odds/attack", body, headers))

    def dnd5e_odds(
        self,
        body: CheckOddsRequest | Dnd5eAttackOddsRequest,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> CheckOdds | Dnd5eAttackOdds:
        "Odds of a check or an attack (the request says which) (POST /dnd5e/odds)."
        return cast(CheckOdds | Dnd5eAttackOdds, self._post("/dnd5e/odds", body, headers))

    def dice_odds(
        self, body: NotationOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> NotationOdds:
        "Exact odds of any dice notation (POST /dice/odds)."
        return cast(NotationOdds, self._post("/dice/odds", body, headers))

    def list_systems(self, *, headers: Mapping[str, str] | None = None) -> list[SystemInfo]:
        "The systems served, their versions, languages and endpoints (GET /systems)."
        return cast(list[SystemInfo], self._get("/systems", headers))


class AsyncClient(AsyncTransport):
    """dragonroll over httpx, async: one method per endpoint."""

    async def dos_roll(
        self, body: PoolRequest, *, headers: Mapping[str, str] | None = None
    ) -> RollResult:
        "Roll a d10 pool (POST /dos/roll)."
        return cast(RollResult, await self._post("/dos/roll", body, headers))

    async def dos_test(
        self, body: TestRequest, *, headers: Mapping[str, str] | None = None
    ) -> TestResult:
        "Simple test against a DC (POST /dos/test)."
        return cast(TestResult, await self._post("/dos/test", body, headers))

    async def dos_opposed(
        self, body: OpposedRequest, *, headers: Mapping[str, str] | None = None
    ) -> OpposedResult:
        "Opposed test between two sides (POST /dos/opposed)."
        return cast(OpposedResult, await self._post("/dos/opposed", body, headers))

    async def dos_complex(
        self, body: ComplexRequest, *, headers: Mapping[str, str] | None = None
    ) -> ComplexResult:
        "Complex test: several attempts, several successes needed (POST /dos/complex)."
        return cast(ComplexResult, await self._post("/dos/complex", body, headers))

    async def dos_actions(
        self, body: ActionsRequest, *, headers: Mapping[str, str] | None = None
    ) -> ActionsResult:
        "Actions per turn (POST /dos/actions)."
        return cast(ActionsResult, await self._post("/dos/actions", body, headers))

    async def dos_initiative(
        self, body: DosInitiativeRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosInitiativeResult:
        "Initiative order (POST /dos/initiative)."
        return cast(DosInitiativeResult, await self._post("/dos/initiative", body, headers))

    async def dos_attack(
        self, body: DosAttackRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosAttackResult:
        "One attack, melee or ranged, resolved completely (POST /dos/attack)."
        return cast(DosAttackResult, await self._post("/dos/attack", body, headers))

    async def dos_damage(
        self, body: DamageRequest, *, headers: Mapping[str, str] | None = None
    ) -> DamageResult:
        "Damage by weapon or GM-set, applied to a target (POST /dos/damage)."
        return cast(DamageResult, await self._post("/dos/damage", body, headers))

    async def dos_maneuver(
        self, body: ManeuverRequest, *, headers: Mapping[str, str] | None = None
    ) -> ManeuverResult:
        "Grab, break free, push: opposed maneuvers (POST /dos/maneuver)."
        return cast(ManeuverResult, await self._post("/dos/maneuver", body, headers))

    async def dos_turn(
        self, body: DosTurnRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosTurnResult:
        "A whole combat turn (POST /dos/turn)."
        return cast(DosTurnResult, await self._post("/dos/turn", body, headers))

    async def dragon_battle(
        self, body: BattleRequest, *, headers: Mapping[str, str] | None = None
    ) -> BattleResult:
        "Resolve one round of a dragon's violent conflict (POST /dragon/battle)."
        return cast(BattleResult, await self._post("/dragon/battle", body, headers))

    async def riders_combat(
        self, body: CombatRequest, *, headers: Mapping[str, str] | None = None
    ) -> CombatResult:
        "Combat, step by step or automatic (POST /riders/combat)."
        return cast(CombatResult, await self._post("/riders/combat", body, headers))

    async def dnd5e_initiative(
        self, body: Dnd5eInitiativeRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eInitiativeResult:
        "Surprise and initiative (POST /dnd5e/initiative)."
        return cast(Dnd5eInitiativeResult, await self._post("/dnd5e/initiative", body, headers))

    async def dnd5e_turn(
        self, body: Dnd5eTurnRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eTurnResult:
        "Check a turn plan against its budgets (POST /dnd5e/turn)."
        return cast(Dnd5eTurnResult, await self._post("/dnd5e/turn", body, headers))

    async def dnd5e_check(
        self, body: CheckRequest, *, headers: Mapping[str, str] | None = None
    ) -> CheckResult:
        "A d20 test against a DC (POST /dnd5e/check)."
        return cast(CheckResult, await self._post("/dnd5e/check", body, headers))

    async def dnd5e_attack(
        self, body: Dnd5eAttackRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eAttackResult:
        "An attack roll, its damage and what it does to the target (POST /dnd5e/attack)."
        return cast(Dnd5eAttackResult, await self._post("/dnd5e/attack", body, headers))

    async def dnd5e_death_save(
        self, body: DeathSaveRequest, *, headers: Mapping[str, str] | None = None
    ) -> DeathSaveResult:
        "A death saving throw (POST /dnd5e/death-save)."
        return cast(DeathSaveResult, await self._post("/dnd5e/death-save", body, headers))

    async def dice_roll(
        self, body: NotationRollRequest, *, headers: Mapping[str, str] | None = None
    ) -> NotationRollResult:
        "Roll any dice notation (POST /dice/roll)."
        return cast(NotationRollResult, await self._post("/dice/roll", body, headers))

    async def dice_draw(
        self, body: DrawRequest, *, headers: Mapping[str, str] | None = None
    ) -> DrawResult:
        "Draw the next dice of slots of a seed (POST /dice/draw)."
        return cast(DrawResult, await self._post("/dice/draw", body, headers))

    async def dos_odds_test(
        self, body: TestOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> TestOdds:
        "Odds of a simple test (the /dos/test request) (POST /dos/odds/test)."
        return cast(TestOdds, await self._post("/dos/odds/test", body, headers))

    async def dos_odds_opposed(
        self, body: OpposedOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> OpposedOdds:
        "Odds of an opposed test (the /dos/opposed request) (POST /dos/odds/opposed)."
        return cast(OpposedOdds, await self._post("/dos/odds/opposed", body, headers))

    async def dos_odds_attack(
        self, body: DosAttackOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> DosAttackOdds:
        "Odds of one attack (the /dos/attack request) (POST /dos/odds/attack)."
        return cast(DosAttackOdds, await self._post("/dos/odds/attack", body, headers))

    async def dos_odds(
        self,
        body: TestOddsRequest | OpposedOddsRequest | DosAttackOddsRequest,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> TestOdds | OpposedOdds | DosAttackOdds:
        "Odds of a test, an opposed test or an attack (the request says which) (POST /dos/odds)."
        return cast(
            TestOdds | OpposedOdds | DosAttackOdds, await self._post("/dos/odds", body, headers)
        )

    async def dos_simulate(
        self, body: TurnSimulateRequest, *, headers: Mapping[str, str] | None = None
    ) -> Simulation:
        "Simulate whole fights (the /dos/turn request, turn after turn) (POST /dos/simulate)."
        return cast(Simulation, await self._post("/dos/simulate", body, headers))

    async def dragon_odds(
        self, body: BattleOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> BattleOdds:
        "Odds of a battle round (the /dragon/battle request) (POST /dragon/odds)."
        return cast(BattleOdds, await self._post("/dragon/odds", body, headers))

    async def dragon_simulate(
        self, body: BattleSimulateRequest, *, headers: Mapping[str, str] | None = None
    ) -> Simulation:
        "Simulate whole battles (the /dragon/battle request, round after round) (POST /dragon/simulate)."
        return cast(Simulation, await self._post("/dragon/simulate", body, headers))

    async def riders_odds(
        self, body: CombatOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> CombatOdds:
        "Odds of the roll-off (the /riders/combat request) (POST /riders/odds)."
        return cast(CombatOdds, await self._post("/riders/odds", body, headers))

    async def riders_simulate(
        self, body: CombatSimulateRequest, *, headers: Mapping[str, str] | None = None
    ) -> Simulation:
        "Simulate whole combats (the /riders/combat request with auto decisions) (POST /riders/simulate)."
        return cast(Simulation, await self._post("/riders/simulate", body, headers))

    async def dnd5e_odds_check(
        self, body: CheckOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> CheckOdds:
        "Odds of a d20 check (the /dnd5e/check request) (POST /dnd5e/odds/check)."
        return cast(CheckOdds, await self._post("/dnd5e/odds/check", body, headers))

    async def dnd5e_odds_attack(
        self, body: Dnd5eAttackOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> Dnd5eAttackOdds:
        "Odds of an attack and its damage (the /dnd5e/attack request) (POST /dnd5e/odds/attack)."
        return cast(Dnd5eAttackOdds, await self._post("/dnd5e/odds/attack", body, headers))

    async def dnd5e_odds(
        self,
        body: CheckOddsRequest | Dnd5eAttackOddsRequest,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> CheckOdds | Dnd5eAttackOdds:
        "Odds of a check or an attack (the request says which) (POST /dnd5e/odds)."
        return cast(CheckOdds | Dnd5eAttackOdds, await self._post("/dnd5e/odds", body, headers))

    async def dice_odds(
        self, body: NotationOddsRequest, *, headers: Mapping[str, str] | None = None
    ) -> NotationOdds:
        "Exact odds of any dice notation (POST /dice/odds)."
        return cast(NotationOdds, await self._post("/dice/odds", body, headers))

    async def list_systems(self, *, headers: Mapping[str, str] | None = None) -> list[SystemInfo]:
        "The systems served, their versions, languages and endpoints (GET /systems)."
        return cast(list[SystemInfo], await self._get("/systems", headers))
