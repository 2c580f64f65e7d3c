"""Fifth-edition SRD combat: request and result types (rules/dnd5e.md, D5E-1..16)."""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pydantic import (
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
    with_config,
)
from typing_extensions import TypedDict

from rules.dnd5e.damage import Formula, parse
from rules.models import (
    MAX_ATTEMPTS,
    MAX_COMBATANTS,
    FoundryEnvelope,
    FoundryRollRequest,
    Gender,
    Id,
    Model,
    Name,
    NonNegative,
    Showable,
    Stat,
    exactly_one,
    one_error,
)

#: D5E-10: advantage or disadvantage, given as a flag or as a count of sources. Any source of
#: each (count >= 1 or true) cancels the other, whatever the counts.
Edge = Annotated[
    bool | Annotated[int, Field(ge=0, le=100)],
    one_error("edge_invalid", "true, false, or a number of sources from 0 to 100"),
    Field(
        description=(
            "true/false, or the number of sources (0-100). Advantage and disadvantage together "
            "cancel to one d20 whatever their counts (D5E-10)."
        )
    ),
]
Side = Literal["players", "gm"]
DamageType = Literal[
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
DamageTypes = Annotated[
    list[DamageType],
    Field(max_length=50, description="Damage types; repeats count once (D5E-13)."),
]
Applied = Literal["immunity", "resistance", "vulnerability"]
D20Mode = Literal["normal", "advantage", "disadvantage"]
MAX_PARTS = 20
#: A hit point count: 0 .. 1,000,000.
HitPoints = NonNegative

# Results and the records inside them are typed dicts (STYLE 17: one shape per direction), like
# ``rules.models.Roll`` and ``Event``: the engine builds each as a dict literal with every key in the
# order declared here, which is the order orjson writes (tests/rules/dnd5e/test_record_keys.py
# checks it). A result derives from ``rules.models.Envelope`` and starts with
# ``**trace(dice, log)``. Pydantic writes the schema from them and refuses unknown keys in it.


@with_config(ConfigDict(extra="forbid"))
class D20Roll(TypedDict):
    """A d20 test's dice (D5E-10): two with advantage or disadvantage, one otherwise."""

    d20s: Annotated[list[int], Field(description="The d20s rolled, in draw order.")]
    mode: Annotated[
        D20Mode, Field(description="Advantage and disadvantage together give `normal`.")
    ]
    natural: Annotated[
        int, Field(description="The d20 kept: the higher with advantage, lower with dis.")
    ]
    modifier: int
    total: Annotated[int, Field(description="natural + modifier.")]


# ------------------------------------------------------------------ initiative (D5E-3..7)


class Hiding(Model):
    """A creature hiding at the start (D5E-3): its Dexterity (Stealth) total, given or rolled."""

    model_config = ConfigDict(json_schema_extra=exactly_one("stealth_total", "stealth_mod"))

    stealth_total: Stat | None = Field(
        default=None, description="The Stealth check total already rolled."
    )
    stealth_mod: Stat | None = Field(
        default=None,
        description="Roll d20 + this in slot `stealth.<id>` (with advantage/disadvantage below).",
    )
    advantage: Edge = False
    disadvantage: Edge = False

    @model_validator(mode="after")
    def _one_of(self) -> Hiding:
        if (self.stealth_total is None) == (self.stealth_mod is None):
            raise ValueError("give exactly one of `stealth_total` and `stealth_mod`")
        return self


class Combatant(Model):
    id: Id
    name: Name | None = None
    gender: Gender | None = None
    side: Side = Field(description='"players" (the characters) or "gm" (monsters, NPCs).')
    dex_mod: Stat = Field(description="Dexterity modifier, added to the initiative d20 (D5E-5).")
    initiative_bonus: Stat = Field(default=0, description="Any other initiative bonus.")
    dexterity: NonNegative | None = Field(
        default=None, description="Dexterity score; needed by `tie_break: dexterity` (D5E-7)."
    )
    advantage: Edge = False
    disadvantage: Edge = False
    group: Id | None = Field(
        default=None,
        description=(
            "Group of identical creatures: one roll for the group, acting together (D5E-5). "
            "Members must share side, modifiers, advantage, disadvantage and dexterity."
        ),
    )
    hiding: Hiding | None = Field(default=None, description="Set when the creature hides (D5E-3).")
    passive_perception: Stat | None = Field(
        default=None,
        description="Passive Wisdom (Perception); needed when every opponent hides (D5E-3).",
    )
    surprised: bool | None = Field(
        default=None,
        description="The GM's ruling, surprised or not; when set it wins over the comparison.",
    )


class InitiativeOptions(Model):
    surprise_ties: Literal["hidden", "noticed"] = Field(
        default="hidden",
        description=(
            "A Stealth total equal to a passive Perception: the hider stays `hidden` "
            "(default; a passive score is a DC) or is `noticed` (D5E-3)."
        ),
    )


class InitiativeRequest(FoundryRollRequest):
    # D5E-7, as the schema says it: a dexterity tie-break needs every dexterity
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"tie_break": {"const": "dexterity"}}, "required": ["tie_break"]},
            "then": {
                "properties": {
                    "combatants": {
                        "items": {
                            "required": ["dexterity"],
                            "properties": {"dexterity": {"type": "integer"}},
                        }
                    }
                }
            },
        }
    )
    combatants: Annotated[list[Combatant], Field(min_length=1, max_length=MAX_COMBATANTS)]
    tie_break: Literal["d20", "dexterity", "given"] = Field(
        default="d20",
        description=(
            "D5E-7. `d20`: tied places roll a d20, highest first, again while still tied. "
            "`dexterity`: higher Dexterity score first, then d20. `given`: `tie_order` decides."
        ),
    )
    tie_order: Annotated[list[Id], Field(max_length=2 * MAX_COMBATANTS)] = Field(
        default_factory=list,
        description="With `tie_break: given`: combatant or group ids, first acts first.",
    )
    options: InitiativeOptions = Field(default=InitiativeOptions())


@with_config(ConfigDict(extra="forbid"))
class Stealth(TypedDict):
    d20s: Annotated[list[int], Field(description="Empty when the total was given.")]
    total: int


SurpriseReason = Literal["gm", "no_hiding_opponent", "noticed", "unnoticed", "no_opponent"]


@with_config(ConfigDict(extra="forbid"))
class SurpriseVerdict(TypedDict):
    id: str
    surprised: bool
    reason: Annotated[
        SurpriseReason,
        Field(
            description="`gm`: the GM's ruling; `no_hiding_opponent`: an opponent is in plain view; `noticed`: "
            "it noticed at least one hider; `unnoticed`: every opponent hides and it noticed none; "
            "`no_opponent`: the other side is empty."
        ),
    ]
    noticed: Annotated[
        list[str], Field(description="Hiders whose Stealth did not beat its passive score.")
    ]
    unnoticed: Annotated[list[str], Field(description="Hiders it failed to notice.")]
    restrictions: Annotated[
        list[Literal["no_move", "no_action", "no_reaction_until_turn_ends"]],
        Field(description="First-round limits of a surprised creature (D5E-4)."),
    ]


@with_config(ConfigDict(extra="forbid"))
class OrderEntry(TypedDict):
    id: Annotated[str, Field(description="The combatant id, or the group id for a group.")]
    members: Annotated[
        list[str], Field(description="The combatants acting at this place, request order.")
    ]
    group: bool
    total: Annotated[int, Field(description="d20 + Dexterity modifier + initiative bonus (D5E-5).")]
    roll: D20Roll
    dexterity: int | None
    tiebreak: Annotated[list[int], Field(description="Tie-break d20s, in draw order (D5E-7).")]


@with_config(ConfigDict(extra="forbid"))
class InitiativeResult(FoundryEnvelope):
    round_seconds: Annotated[int, Field(description="A round is 6 seconds of game time (D5E-1).")]
    order: Annotated[
        list[OrderEntry], Field(description="Highest total first; the same every round.")
    ]
    surprised: Annotated[list[str], Field(description="Surprised combatant ids, in request order.")]
    surprise: Annotated[
        list[SurpriseVerdict], Field(description="Every combatant's verdict (D5E-3).")
    ]
    stealth: Annotated[dict[str, Stealth], Field(description="The hiders' Stealth totals, by id.")]


# ------------------------------------------------------------------ turn (D5E-4, D5E-8, D5E-9)


#: A step's free text: what is done, the feature that grants it, the object (0-100 characters).
StepText = Annotated[str, StringConstraints(max_length=100), Showable()]


class Move(Model):
    kind: Literal["move"]
    feet: NonNegative = Field(description="Distance of this movement segment, in feet.")


class Action(Model):
    kind: Literal["action"]
    name: StepText = Field(
        description="Attack, Dash, Dodge, Ready ... A Dash adds the speed to the movement budget."
    )


class BonusAction(Model):
    kind: Literal["bonus_action"]
    name: StepText = Field(
        description=(
            "A Dash granted by the named feature (such as Cunning Action) adds the speed to the "
            "movement budget, as the Dash action does."
        )
    )
    feature: StepText | None = Field(
        default=None,
        description="The feature, spell or ability granting it; without one it is refused (D5E-9).",
    )


class Interaction(Model):
    kind: Literal["interaction"]
    object: StepText
    uses_action: bool = Field(
        default=False,
        description="Taken as the turn's action (a second interaction, an item needing an action).",
    )


class Reaction(Model):
    kind: Literal["reaction"]
    name: StepText


class Speech(Model):
    kind: Literal["speech"]
    text: Annotated[str, StringConstraints(max_length=500), Showable()] = ""


Step = Annotated[
    Move | Action | BonusAction | Interaction | Reaction | Speech, Field(discriminator="kind")
]


class TurnRequest(FoundryRollRequest):
    speed: NonNegative = Field(description="Walking speed in feet.")
    steps: Annotated[list[Step], Field(max_length=MAX_ATTEMPTS)] = Field(
        description="The plan, in order."
    )
    surprised: bool = Field(default=False, description="Surprised at the start of combat (D5E-3).")
    first_turn: bool = Field(default=True, description="This is the creature's first turn.")
    incapacitated: bool = Field(default=False, description="Cannot take actions or reactions.")
    reaction_used: bool = Field(
        default=False, description="Its reaction has already been used this round."
    )


@with_config(ConfigDict(extra="forbid"))
class Violation(TypedDict):
    rule: Annotated[str, Field(description="The rule id broken, such as `D5E-9`.")]
    step: Annotated[
        int | None, Field(description="0-based index of the step, or null for the whole plan.")
    ]
    code: str
    message: str


@with_config(ConfigDict(extra="forbid"))
class Budget(TypedDict):
    movement: int
    movement_allowed: int
    actions: int
    bonus_actions: int
    free_interactions: int
    reactions: int


@with_config(ConfigDict(extra="forbid"))
class TurnResult(FoundryEnvelope):
    valid: bool
    violations: list[Violation]
    budget: Annotated[Budget, Field(description="What the plan uses.")]


# ------------------------------------------------------------------ check (D5E-10)


class CheckRequest(FoundryRollRequest):
    modifier: Stat = 0
    dc: Stat = Field(description="Difficulty class; success when the total meets or beats it.")
    advantage: Edge = False
    disadvantage: Edge = False


@with_config(ConfigDict(extra="forbid"))
class CheckResult(FoundryEnvelope):
    d20s: list[int]
    natural: int
    mode: D20Mode
    total: int
    dc: int
    success: bool


# ------------------------------------------------------------------ attack (D5E-11..15)


class DamagePart(Model):
    dice: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description=(
            "Dice notation: `2d6+3`, `1d8+1d6+4`, `d20`, `-1`, `1d10-2`. At most 100 dice in a "
            "part, 1-100 per term, dice of 2-1000 sides, 20 terms."
        )
    )
    type: DamageType

    @field_validator("dice")
    @classmethod
    def _parses(cls, value: str) -> str:
        parse(value)  # raises a ValueError naming the position and what was expected
        return value

    @cached_property
    def formula(self) -> Formula:
        """The parsed ``dice``, parsed once for the slots and the roll (validation parsed it too)."""
        return parse(self.dice)


class Target(Model):
    ac: Stat = Field(description="Armor class.")
    name: Name | None = None
    gender: Gender | None = None
    hp: HitPoints = Field(description="Current hit points (0 .. max_hp).")
    max_hp: Annotated[int, Field(ge=1, le=1_000_000)]
    temp_hp: HitPoints = 0
    resistances: DamageTypes = Field(default_factory=list)
    vulnerabilities: DamageTypes = Field(default_factory=list)
    immunities: DamageTypes = Field(default_factory=list)
    monster: bool = Field(
        default=False,
        description="A monster dies at 0 hp (D5E-14); set false when the GM lets it fall dying.",
    )
    death_save_failures: Annotated[int, Field(ge=0, le=2)] = Field(
        default=0, description="Failures it already has (at 0 hp)."
    )

    @model_validator(mode="after")
    def _hp_within_max(self) -> Target:
        if self.hp > self.max_hp:
            raise ValueError(f"hp ({self.hp}) is more than max_hp ({self.max_hp})")
        return self


class AttackRequest(FoundryRollRequest):
    attack_bonus: Stat = Field(description="Added to the d20 (D5E-11).")
    advantage: Edge = False
    disadvantage: Edge = False
    damage: Annotated[list[DamagePart], Field(max_length=MAX_PARTS)] = Field(
        description="Damage parts, rolled in order on a hit, part n in slot `damage.<n>`."
    )
    target: Target


@with_config(ConfigDict(extra="forbid"))
class PartRoll(TypedDict):
    dice: Annotated[str, Field(description="The formula as parsed (normalised).")]
    type: str
    rolls: Annotated[list[int], Field(description="Each die, signed by its term, in draw order.")]
    critical_rolls: Annotated[
        list[int], Field(description="The second roll of the dice on a critical.")
    ]
    modifier: int
    total: Annotated[int, Field(description="Dice + modifier, never below 0 (D5E-12).")]


@with_config(ConfigDict(extra="forbid"))
class TypeDamage(TypedDict):
    type: str
    rolled: int
    applied: list[Applied]
    total: Annotated[
        int, Field(description="After immunity, resistance, then vulnerability (D5E-13).")
    ]


@with_config(ConfigDict(extra="forbid"))
class AttackRoll(TypedDict):
    d20s: list[int]
    natural: int
    mode: D20Mode
    total: int


@with_config(ConfigDict(extra="forbid"))
class TargetState(TypedDict):
    hp: int
    temp_hp: int
    unconscious: bool
    dead: bool
    death_save_failures: int
    massive_damage: Annotated[
        bool, Field(description="Killed outright by massive damage (D5E-14).")
    ]


@with_config(ConfigDict(extra="forbid"))
class AttackResult(FoundryEnvelope):
    hit: bool
    critical: bool
    attack: AttackRoll
    ac: int
    damage: list[PartRoll]
    by_type: list[TypeDamage]
    damage_total: Annotated[int, Field(description="Damage dealt after resistances etc. (D5E-13).")]
    target: TargetState


# ------------------------------------------------------------------ death save (D5E-16)


class DeathSaveRequest(FoundryRollRequest):
    successes: Annotated[int, Field(ge=0, le=2)] = Field(default=0, description="So far.")
    failures: Annotated[int, Field(ge=0, le=2)] = Field(default=0, description="So far.")
    modifier: Stat = Field(default=0, description="Any bonus to the save (a spell, a feature).")
    advantage: Edge = False
    disadvantage: Edge = False


@with_config(ConfigDict(extra="forbid"))
class DeathSaveResult(FoundryEnvelope):
    d20s: list[int]
    natural: int
    total: int
    success: bool
    successes: Annotated[
        int,
        Field(description="Successes after this save; 0 once stable or back to 1 hp (both reset)."),
    ]
    failures: Annotated[
        int,
        Field(description="Failures after this save (3 = dead); 0 once stable or back to 1 hp."),
    ]
    stable: Annotated[bool, Field(description="The third success: stable at 0 hp (D5E-16).")]
    dead: bool
    hp: Annotated[int, Field(description="1 after a natural 20, otherwise 0.")]
    conscious: bool
