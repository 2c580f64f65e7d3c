"""Dragons of Shadows: request and result types of the tests (DOS-1..13)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import (
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_validator,
    with_config,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

from rules.models import (
    MAX_ATTEMPTS,
    MAX_COMBATANTS,
    MAX_POOL,
    MAX_STAT,
    FoundryEnvelope,
    FoundryRollRequest,
    Gender,
    Id,
    Model,
    Name,
    NonNegative,
    Stat,
    exactly_one,
    not_both,
)

Difficulty = Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"]

#: DOS-9: the modifier of each difficulty status, in percent.
DIFFICULTY_PERCENT: dict[str, int] = {
    "trivial": 50,
    "easy": 20,
    "normal": 0,
    "hard": -20,
    "very_hard": -50,
    "impossible": -90,
}

Skill = Annotated[
    int,
    Field(ge=0, le=MAX_POOL, description="Skill level = number of d10 in the pool (0-100)."),
]
ModifierPercent = Annotated[
    int, Field(ge=-100, le=100, description="Explicit difficulty modifier in percent (-100..+100).")
]
Ties = Literal["fail", "succeed"]
Outcome = Literal["success", "failure", "luck", "bad_luck"]


class Modified(Model):
    """A roll with a difficulty (DOS-9): a status or an explicit percentage, not both."""

    difficulty: Difficulty | None = Field(
        default=None,
        description=(
            "Difficulty status (DOS-9): trivial +50%, easy +20%, normal 0, hard -20%, "
            "very_hard -50%, impossible -90%. Default normal."
        ),
    )
    modifier_percent: ModifierPercent | None = None

    schema_clauses: ClassVar[tuple[dict[str, Any], ...]] = (
        not_both("difficulty", "modifier_percent"),
    )

    @model_validator(mode="after")
    def _one_modifier(self) -> Modified:
        if self.difficulty is not None and self.modifier_percent is not None:
            raise ValueError("give either `difficulty` or `modifier_percent`, not both")
        return self

    @property
    def percent(self) -> int:
        if self.modifier_percent is not None:
            return self.modifier_percent
        return DIFFICULTY_PERCENT[self.difficulty or "normal"]


class DefenseModified(Model):
    """The difficulty of the defense against an attack (DOS-9): a status or a percentage, not both."""

    defense_difficulty: Difficulty | None = Field(
        default=None, description="Difficulty status of the defense against it (DOS-9)."
    )
    defense_modifier_percent: ModifierPercent | None = Field(
        default=None, description="Explicit defense modifier in percent (-100..+100)."
    )

    schema_clauses: ClassVar[tuple[dict[str, Any], ...]] = (
        not_both("defense_difficulty", "defense_modifier_percent"),
    )

    @model_validator(mode="after")
    def _one_defense_modifier(self) -> DefenseModified:
        if self.defense_difficulty is not None and self.defense_modifier_percent is not None:
            raise ValueError(
                "give either `defense_difficulty` or `defense_modifier_percent`, not both"
            )
        return self

    @property
    def defense_percent(self) -> int:
        if self.defense_modifier_percent is not None:
            return self.defense_modifier_percent
        return DIFFICULTY_PERCENT[self.defense_difficulty or "normal"]


class TestOptions(Model):
    ties: Ties = Field(
        default="fail",
        description="DOS-11: whether a total equal to the DC fails (default) or succeeds.",
    )


# ---------------------------------------------------------------- requests


class PoolRequest(FoundryRollRequest):
    pool: Skill


class TestRequest(FoundryRollRequest, Modified):
    __test__ = False  # not a pytest class

    stat: Stat = Field(description="The stat (or sum of stats) the skill depends on.")
    skill: Skill
    dc: Stat = Field(description="The value the total must exceed (DOS-11).")
    options: TestOptions = Field(default=TestOptions())


class OpposedSide(Modified):
    stat: Stat
    skill: Skill
    name: Name | None = None
    gender: Gender | None = None


class OpposedRequest(FoundryRollRequest):
    a: OpposedSide
    b: OpposedSide


class ComplexRequest(FoundryRollRequest, Modified):
    stat: Stat
    skill: Skill
    dc: Stat
    attempts: Annotated[int, Field(ge=1, le=MAX_ATTEMPTS, description="Attempts allowed (1-1000).")]
    successes_needed: Annotated[
        int, Field(ge=1, le=MAX_ATTEMPTS, description="Successes required (1-1000, <= attempts).")
    ]
    options: TestOptions = Field(default=TestOptions())

    @model_validator(mode="after")
    def _reachable(self) -> ComplexRequest:
        if self.successes_needed > self.attempts:
            raise ValueError(
                f"successes_needed ({self.successes_needed}) is more than attempts "
                f"({self.attempts}): the test could never succeed"
            )
        return self


# ---------------------------------------------------------------- results

# Results are typed dicts (STYLE 17: one shape per direction), like ``rules.models.Roll`` and
# ``Event``: a top-level result derives from ``rules.models.Envelope`` and the engine builds it as a
# dict literal ``{**trace(dice, log), "roll": ...}``; every record likewise. A dict is written in
# insertion order, so the engine passes every key, in the order declared here
# (tests/rules/dos/test_record_keys.py).


@with_config(ConfigDict(extra="forbid"))
class PoolDie(TypedDict):
    value: Annotated[int, Field(description="1-10.")]
    cancelled: Annotated[bool, Field(description="Cancelled by a 1 (DOS-2): counts 0.")]
    extra: Annotated[bool, Field(description="An extra die added by a surviving 10 (DOS-3).")]


@with_config(ConfigDict(extra="forbid"))
class PoolRoll(TypedDict):
    """A DoS pool roll (DOS-1..7), dice in draw order."""

    slot: str
    dice: list[PoolDie]
    result: Annotated[int, Field(description="Non-cancelled base dice + every extra die (DOS-4).")]
    luck: Annotated[bool, Field(description="More base 10s than other base dice (DOS-6).")]
    bad_luck: Annotated[bool, Field(description="More base 1s than other base dice (DOS-5).")]


@with_config(ConfigDict(extra="forbid"))
class RollResult(FoundryEnvelope):
    roll: PoolRoll


@with_config(ConfigDict(extra="forbid"))
class TestResult(FoundryEnvelope):
    roll: PoolRoll
    modifier_percent: int
    total: Annotated[
        int, Field(description="floor((stat + dice result) x (100 + modifier) / 100) (DOS-8).")
    ]
    dc: int
    success: bool
    outcome: Outcome
    margin: Annotated[int, Field(description="total - dc.")]


@with_config(ConfigDict(extra="forbid"))
class SideResult(TypedDict):
    roll: PoolRoll
    modifier_percent: int
    total: int


@with_config(ConfigDict(extra="forbid"))
class OpposedResult(FoundryEnvelope):
    a: SideResult
    b: SideResult
    winner: Annotated[Literal["a", "b"] | None, Field(description="null on a tie (DOS-12).")]


@with_config(ConfigDict(extra="forbid"))
class Attempt(TypedDict):
    n: int
    roll: PoolRoll
    total: int
    success: bool
    outcome: Outcome


@with_config(ConfigDict(extra="forbid"))
class ComplexResult(FoundryEnvelope):
    modifier_percent: int
    attempts: Annotated[
        list[Attempt], Field(description="The attempts rolled, stopping at success (DOS-13).")
    ]
    successes: int
    success: bool
    partial: Annotated[bool, Field(description="Failed, but at least one attempt succeeded.")]


# ================================================================ combat (DOS-14..29)

Speed = Annotated[
    int,
    Field(
        ge=1,
        le=MAX_STAT,
        description=(
            "Speed (1..1,000,000): compared for actions per turn (DOS-14), added to the initiative "
            "d10 (DOS-15), metres covered by a run (DOS-22)."
        ),
    ),
]
Hp = Annotated[int, Field(ge=0, le=MAX_STAT, description="Life points (PŻ), 0..1,000,000.")]
Uses = Annotated[
    int,
    Field(ge=0, le=MAX_POOL + 1, description="Defenses of this kind already used this turn."),
]
Count = Annotated[
    int,
    Field(ge=1, le=MAX_ATTEMPTS, description="Number of actions spent on it (1..1000)."),
]
WeaponKind = Literal["unarmed", "melee", "thrown", "shooting"]
DamageKind = Literal["light", "serious", "critical"]
AppliedKind = Literal["light", "serious", "critical", "none"]
Location = Literal["head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"]
DefenseChoice = Literal["block", "dodge", "none", "auto"]
DefenseKind = Literal["block", "dodge"]
Combatants = Annotated[int, Field(ge=1, le=MAX_COMBATANTS)]

_DEFENSE_DOC = (
    "How the defender meets the attack (DOS-18, DOS-19): `block`, `dodge`, `none`, or `auto`. "
    "`auto` picks, among the defenses the defender still has uses of this turn, the one with the "
    "higher skill (more dice: a higher expected total); on equal skill it picks `block`, because "
    "blocks are the more plentiful resource (skill + 1 per turn against skill for dodges), which "
    "keeps the scarcer dodge for later. With no use left (or an incapacitated defender) `auto` is "
    "`none`. For a ranged attack `auto` is `none` (DOS-21: normally no defense; name `block` or "
    "`dodge` when the GM allows one, with its penalty in `defense_difficulty`)."
)


class Weapon(Model):
    """What the attacker strikes with (DOS-26)."""

    # DOS-26, as the schema says it: an unarmed attack has no weapon damage
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"kind": {"const": "unarmed"}}, "required": ["kind"]},
            "then": {"properties": {"damage": {"const": 0}}},
        }
    )

    kind: WeaponKind = Field(
        description=(
            "`unarmed` (fists; unarmed combat skill; base damage = strength, light), `melee` "
            "(weapon combat skill; strength + damage, serious), `thrown` (thrown-weapons skill; "
            "strength + damage, halved unless made for throwing; serious; a ranged attack), "
            "`shooting` (firearms/bows skill; the weapon's damage alone; serious; a ranged attack)."
        )
    )
    damage: NonNegative = Field(
        default=0, description="The weapon's damage value (0..1,000,000); must be 0 for unarmed."
    )
    made_for_throwing: bool = Field(
        default=True,
        description=(
            "Only for `thrown`: `false` for an object not made for throwing (a sword, a chair), "
            "which deals half (DOS-26); a thrown weapon is made for throwing unless it says not."
        ),
    )
    damage_kind: Literal["light", "serious"] | None = Field(
        default=None,
        description=(
            "Overrides the usual damage kind of the weapon kind (the source says 'usually': some "
            "improvised weapons deal light damage)."
        ),
    )

    @model_validator(mode="after")
    def _unarmed_has_no_damage(self) -> Weapon:
        if self.kind == "unarmed" and self.damage != 0:
            raise ValueError(
                f"an unarmed attack deals strength alone (DOS-26): damage must be 0, not "
                f"{self.damage}; use kind `melee` for a weapon"
            )
        return self

    @property
    def ranged(self) -> bool:
        return self.kind in ("thrown", "shooting")


# ---------------------------------------------------------------- actions (DOS-14)


_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")


class NamedCombatant(Model):
    """A combatant whose schema errors name it: "combatant 'k1': ..." beside the index in `loc`."""

    name: Name | None = None
    gender: Gender | None = None

    @model_validator(mode="wrap")
    @classmethod
    def _name_the_combatant(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(data)
        except ValidationError as exc:
            id_ = data.get("id") if isinstance(data, dict) else None
            if not isinstance(id_, str) or not _ID.match(id_):
                raise
            errors = [
                InitErrorDetails(
                    type=PydanticCustomError(e["type"], f"combatant '{id_}': {e['msg']}"),
                    loc=e["loc"],
                    input=e["input"],
                )
                for e in exc.errors(include_url=False)
            ]
            raise ValidationError.from_exception_data(exc.title, errors) from None


class ActionsCombatant(NamedCombatant):
    id: Id
    speed: Speed
    opponents: list[Id] = Field(
        default_factory=list,
        max_length=MAX_COMBATANTS,
        description=(
            "Ids of the combatants this one is fighting (each must be in `combatants`, not itself, "
            "no repeats). With none the result is the minimum, 1 action."
        ),
    )


class ActionsRequest(FoundryRollRequest):
    combatants: list[ActionsCombatant] = Field(
        min_length=1, max_length=MAX_COMBATANTS, description="1..100 combatants, unique ids."
    )


@with_config(ConfigDict(extra="forbid"))
class ActionsEntry(TypedDict):
    id: Annotated[str, Field(description="The combatant's id.")]
    actions: Annotated[
        int, Field(description="floor(speed / sum of the opponents' speeds), at least 1 (DOS-14).")
    ]
    opponents_speed: Annotated[
        int, Field(description="Sum of the opponents' speeds (0 with none).")
    ]


@with_config(ConfigDict(extra="forbid"))
class ActionsResult(FoundryEnvelope):
    actions: Annotated[
        list[ActionsEntry], Field(description="One entry per combatant, in request order.")
    ]


# ---------------------------------------------------------------- initiative (DOS-15)


class InitiativeCombatant(NamedCombatant):
    id: Id
    speed: Speed


class InitiativeRequest(FoundryRollRequest):
    combatants: list[InitiativeCombatant] = Field(
        min_length=1, max_length=MAX_COMBATANTS, description="1..100 combatants, unique ids."
    )
    first: list[Id] = Field(
        default_factory=list,
        max_length=MAX_COMBATANTS,
        description=(
            "Combatants the GM places ahead of everyone rolled (one who waited or ambushes), in "
            "this order. They roll no initiative. Each must be in `combatants`, once."
        ),
    )


@with_config(ConfigDict(extra="forbid"))
class Reroll(TypedDict):
    roll: Annotated[int, Field(description="The tie-break d10 (1-10).")]
    total: Annotated[int, Field(description="roll + speed.")]


@with_config(ConfigDict(extra="forbid"))
class InitiativeEntry(TypedDict):
    id: Annotated[str, Field(description="The combatant's id.")]
    placed: Annotated[bool, Field(description="Placed first by the GM (`first`): no roll.")]
    roll: Annotated[
        int | None, Field(description="The initiative d10 (no explosion, no 1/10 effects).")
    ]
    total: Annotated[int | None, Field(description="roll + speed.")]
    rerolls: Annotated[
        list[Reroll],
        Field(
            description="Tie-break rolls, in order: they only order the tied combatants among themselves."
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class InitiativeResult(FoundryEnvelope):
    order: Annotated[list[str], Field(description="Ids, first to act first (DOS-15).")]
    entries: Annotated[
        list[InitiativeEntry], Field(description="One per combatant, in request order.")
    ]


# ---------------------------------------------------------------- damage (DOS-26..29)

_BEATEN_DOC = (
    "On its second life bar (DOS-28): light damage at 0 hp refilled the bar and was dealt as "
    "serious; from then on light damage counts as serious and the bar is not refilled again."
)


class DamageOptions(Model):
    """Readings of DOS-28 (the source's plain reading is the default)."""

    light_at_zero: Literal["full_bar", "no_refill"] = Field(
        default="full_bar",
        description=(
            "DOS-28, light damage taken at 0 hp. `full_bar` (the source: 'they start dealing "
            "serious damage as if the life bar were initially full'): it is dealt as serious "
            "damage against a full bar (`max_hp`), once; the target is then `beaten`. Without "
            "`max_hp` there is no bar to refill and it counts as serious at 0 hp. `no_refill`: "
            "it counts as serious at 0 hp (hp stays 0: incapacitated)."
        ),
    )
    critical_wounds: Literal["at_zero_hp", "while_incapacitated"] = Field(
        default="at_zero_hp",
        description=(
            "DOS-28, critical wounds. `at_zero_hp` (the source: 'if wounded while having no life "
            "points'): damage counting as serious taken at 0 hp is critical, incapacitated or not "
            "(light damage at 0 hp follows `light_at_zero`). `while_incapacitated`: any damage "
            "taken while already incapacitated is critical."
        ),
    )


class Target(Model):
    """Life state of whoever takes damage (DOS-28)."""

    hp: Hp
    max_hp: Hp | None = Field(default=None, description="Full life bar; when given, hp <= max_hp.")
    incapacitated: bool = Field(
        default=False, description="Already at 0 hp from serious damage: cannot fight (DOS-28)."
    )
    critical: bool = Field(
        default=False, description="Has taken a critical wound (DOS-28): sticks once set."
    )
    beaten: bool = Field(default=False, description=_BEATEN_DOC)

    @model_validator(mode="after")
    def _hp_within_max(self) -> Target:
        if self.max_hp is not None and self.hp > self.max_hp:
            raise ValueError(f"hp ({self.hp}) is more than max_hp ({self.max_hp})")
        return self


class DamageTarget(Target):
    name: Name | None = None
    gender: Gender | None = None


class DamageRequest(FoundryRollRequest):
    # a weapon, or an amount with its kind (DOS-26, DOS-29), as the schema says it
    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                exactly_one("weapon", "amount"),
                not_both("weapon", "kind"),
                {
                    "if": {"properties": {"amount": {"type": "integer"}}, "required": ["amount"]},
                    "then": {"properties": {"kind": {"type": "string"}}, "required": ["kind"]},
                },
            ]
        }
    )
    strength: Stat = Field(
        default=0, description="The attacker's strength (unused by `shooting` and by `amount`)."
    )
    weapon: Weapon | None = Field(
        default=None, description="Weapon damage rolled with the damage d10 (DOS-26)."
    )
    armor: NonNegative = Field(
        default=0,
        description=(
            "Extension: subtracted from a weapon's damage after the table, never below 0 "
            "(0..1,000,000). Not applied to a GM-set `amount`."
        ),
    )
    amount: NonNegative | None = Field(
        default=None,
        description="GM-set damage (fire, falling: DOS-29), applied as given with no die.",
    )
    kind: DamageKind | None = Field(
        default=None, description="Kind of a GM-set `amount` (required with it)."
    )
    target: DamageTarget = Field(description="Who takes the damage: its life state now.")
    options: DamageOptions = Field(
        default=DamageOptions(),
        description="Readings of DOS-28 (light damage at 0 hp, critical wounds).",
    )

    @model_validator(mode="after")
    def _weapon_or_amount(self) -> DamageRequest:
        if (self.weapon is None) == (self.amount is None):
            raise ValueError(
                "give either `weapon` (rolled damage, DOS-26) or `amount` with `kind` "
                "(GM-set damage, DOS-29), not both and not neither"
            )
        if self.amount is not None and self.kind is None:
            raise ValueError("a GM-set `amount` needs its `kind` (light, serious or critical)")
        if self.weapon is not None and self.kind is not None:
            raise ValueError(
                "`kind` goes with a GM-set `amount`; for a weapon use weapon.damage_kind"
            )
        return self


@with_config(ConfigDict(extra="forbid"))
class Damage(TypedDict):
    """Damage dealt and how it was applied (DOS-26, DOS-28)."""

    die: Annotated[
        int | None, Field(description="The damage d10 ('skuteczność'); null for GM-set damage.")
    ]
    percent: Annotated[
        int | None,
        Field(
            description="Percent of the base the die gives; null when the die shows 1 (exactly 1)."
        ),
    ]
    base: Annotated[
        int | None, Field(description="Base damage by weapon kind; null for GM-set damage.")
    ]
    halved: Annotated[bool, Field(description="A thrown object not made for throwing: x 1/2.")]
    armor: Annotated[int, Field(description="Armor subtracted (after the table).")]
    amount: Annotated[int, Field(description="Damage taken, >= 0.")]
    kind: Annotated[DamageKind, Field(description="The kind dealt (weapon kind or GM-set).")]
    applied_as: Annotated[
        AppliedKind,
        Field(
            description="How it counted against the target (DOS-28): light at 0 hp, or once beaten, "
            "counts as serious; serious damage at 0 hp is critical (see `options`); `none` when the "
            "amount is 0."
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class DamageResult(FoundryEnvelope):
    die: Annotated[int | None, Field(description="The damage d10; null for GM-set damage.")]
    percent: Annotated[
        int | None, Field(description="Percent of the base; null for a 1 or GM-set damage.")
    ]
    base: Annotated[int | None, Field(description="Base damage by weapon kind (DOS-26).")]
    halved: Annotated[bool, Field(description="A thrown object not made for throwing: x 1/2.")]
    armor: Annotated[int, Field(description="Armor subtracted (0 for GM-set damage).")]
    amount: Annotated[int, Field(description="Damage taken, >= 0.")]
    kind: Annotated[DamageKind, Field(description="The kind dealt (weapon kind or GM-set).")]
    applied_as: Annotated[
        AppliedKind,
        Field(description="How it counted (DOS-28): light, serious, critical, or none for 0."),
    ]
    target: Annotated[TargetState, Field(description="The target's new state (DOS-28).")]


# ---------------------------------------------------------------- attack (DOS-17..22, 27)


class Attacker(Model):
    dexterity: Stat = Field(description="Dexterity, the attack's stat (+-1,000,000).")
    strength: Stat = Field(default=0, description="For damage (DOS-26).")
    skill: Skill = Field(
        description=(
            "Skill of the weapon kind: unarmed combat, weapon combat, thrown weapons or firearms "
            "(0..100 dice)."
        )
    )
    weapon: Weapon = Field(description="The weapon (or fists) and its kind.")
    name: Name | None = None
    gender: Gender | None = None


class Defender(Target):
    """The defender's state for this turn; the response returns the same shape, updated."""

    #: DOS-22, as the schema says it: a runner that was stopped is no longer running
    schema_clauses: ClassVar[tuple[dict[str, Any], ...]] = (
        {
            "not": {
                "required": ["running", "stopped"],
                "properties": {"running": {"const": True}, "stopped": {"const": True}},
            }
        },
    )

    dexterity: Stat = Field(description="Dexterity, the stat of blocks and dodges.")
    block: Skill = Field(default=0, description="Block skill: block skill + 1 blocks per turn.")
    dodge: Skill = Field(default=0, description="Dodge skill: dodge skill dodges per turn.")
    blocks_used: Uses = 0
    dodges_used: Uses = 0
    armor: NonNegative = Field(default=0, description="Subtracted from damage (extension).")
    running: bool = Field(
        default=False,
        description="Running this turn (DOS-22): defends as very_hard (-50%), may be stopped.",
    )
    stopped: bool = Field(
        default=False,
        description="A runner stopped this turn by a d10 of 1-5 (DOS-22); no longer running.",
    )
    name: Name | None = None
    gender: Gender | None = None

    @model_validator(mode="after")
    def _uses_within_skill(self) -> Defender:
        if self.blocks_used > self.block + 1:
            raise ValueError(
                f"blocks_used ({self.blocks_used}) is more than block skill + 1 ({self.block + 1})"
            )
        if self.dodges_used > self.dodge:
            raise ValueError(
                f"dodges_used ({self.dodges_used}) is more than the dodge skill ({self.dodge})"
            )
        if self.running and self.stopped:
            raise ValueError("a defender cannot be both running and stopped")
        return self


class Ranged(Model):
    dc: Stat = Field(description="DC set by the GM from weather, size, distance, precision.")
    ties: Ties = Field(default="fail", description="DOS-11: whether total == DC hits.")


class AttackRequest(FoundryRollRequest, Modified, DefenseModified):
    # DOS-21 and DOS-28, as the schema says it: `ranged` exactly for thrown and shooting weapons;
    # an incapacitated defender neither blocks nor dodges
    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                {
                    "if": {
                        "properties": {
                            "attacker": {
                                "properties": {
                                    "weapon": {
                                        "properties": {"kind": {"enum": ["thrown", "shooting"]}}
                                    }
                                }
                            }
                        }
                    },
                    "then": {
                        "required": ["ranged"],
                        "properties": {"ranged": {"type": "object"}},
                    },
                    "else": {"properties": {"ranged": {"type": "null"}}},
                },
                {
                    "if": {
                        "properties": {
                            "defender": {
                                "properties": {"incapacitated": {"const": True}},
                                "required": ["incapacitated"],
                            }
                        }
                    },
                    "then": {"properties": {"defense": {"enum": ["auto", "none"]}}},
                },
            ]
        }
    )
    attacker: Attacker = Field(description="Who attacks: stats, skill and weapon.")
    defender: Defender = Field(
        description="The defender's state this turn (send back the `defender` of the last result)."
    )
    defense: DefenseChoice = Field(default="auto", description=_DEFENSE_DOC)
    ranged: Ranged | None = Field(
        default=None,
        description="Required exactly when weapon.kind is `thrown` or `shooting` (DOS-21).",
    )
    aim: Location | None = Field(
        default=None,
        description="Aimed at a body part: no location roll (DOS-27); its difficulty is the GM's.",
    )
    options: DamageOptions = Field(
        default=DamageOptions(),
        description="Readings of DOS-28 (light damage at 0 hp, critical wounds).",
    )


if TYPE_CHECKING:
    #: What the engine puts in a damage result's ``target`` and an attack result's ``defender``:
    #: the :class:`Target` or :class:`Defender` as a plain dict, every field of the model in
    #: declaration order (the bytes its own serialiser writes); copying the request model's
    #: ``__dict__`` costs far less than a model copy, and orjson writes it with the rest
    #: (tests/rules/dos/test_record_keys.py checks the keys and values).
    TargetState: TypeAlias = dict[str, Any]
    DefenderState: TypeAlias = dict[str, Any]
else:  # for pydantic, the documented schemas: the request-shaped models
    TargetState = DamageTarget
    DefenderState = Defender


@with_config(ConfigDict(extra="forbid"))
class AttackRoll(TypedDict):
    roll: Annotated[PoolRoll, Field(description="The attacker's pool (DOS-1..7).")]
    modifier_percent: Annotated[
        int, Field(description="The attack's difficulty modifier in percent.")
    ]
    total: Annotated[int, Field(description="dexterity + dice, with the modifier (DOS-8).")]
    dc: Annotated[int | None, Field(description="The ranged DC (DOS-21); null in melee.")]
    outcome: Annotated[
        Outcome | None, Field(description="Ranged: the simple test's outcome; null in melee.")
    ]


@with_config(ConfigDict(extra="forbid"))
class DefenseRoll(TypedDict):
    kind: Annotated[DefenseKind, Field(description="block or dodge.")]
    roll: Annotated[PoolRoll, Field(description="The defender's pool.")]
    modifier_percent: Annotated[
        int, Field(description="Includes -50 for a running defender (DOS-22).")
    ]
    total: Annotated[int, Field(description="dexterity + dice, with the modifier (DOS-8).")]


@with_config(ConfigDict(extra="forbid"))
class RunStop(TypedDict):
    die: Annotated[int, Field(description="d10 after a successful defense while running (DOS-22).")]
    stopped: Annotated[
        bool, Field(description="1-5: the runner stops and loses the rest of its turn.")
    ]


@with_config(ConfigDict(extra="forbid"))
class AttackResult(FoundryEnvelope):
    hit: Annotated[bool, Field(description="The attack hit (DOS-17..21).")]
    reason: Annotated[
        Literal["total", "luck", "bad_luck", "tie", "no_defense", "dc"],
        Field(
            description="Why: `total` (higher total), `luck`/`bad_luck` (DOS-12 overrides), `tie` (equal "
            "totals: the defender holds, DOS-20), `no_defense` (DOS-19: hits unless bad luck), "
            "`dc` (ranged simple test, DOS-21)."
        ),
    ]
    attack: Annotated[AttackRoll, Field(description="The attacker's roll.")]
    defense: Annotated[DefenseRoll | None, Field(description="null when no defense was rolled.")]
    damage: Annotated[Damage | None, Field(description="null on a miss.")]
    location: Annotated[
        Location | None, Field(description="Hit location (DOS-27); null on a miss.")
    ]
    aimed: Annotated[bool, Field(description="The location was aimed, not rolled.")]
    run_stop: Annotated[
        RunStop | None, Field(description="The running defender's stop roll, if any.")
    ]
    defender: Annotated[
        DefenderState,
        Field(
            description="The defender's new state; send it as `defender` of the next attack this turn."
        ),
    ]


# ---------------------------------------------------------------- maneuvers (DOS-24, DOS-25)

ManeuverKind = Literal["grab", "break_free", "push", "feint_push"]
StatName = Literal["dexterity", "strength"]
SkillName = Literal["unarmed", "weapon", "dodge"]

_MANEUVER_DOC = (
    "`grab` (DOS-24): a = grabber dexterity + unarmed, b = target dexterity + dodge. "
    "`break_free` (DOS-24): a = the one grabbed, b = the grabber, both strength + unarmed "
    "(`stat: dexterity` on a side switches it). `push` (DOS-25): both strength + unarmed "
    "(`skill: weapon` on a side for strength + weapon combat). `feint_push` (DOS-25): both "
    "dexterity + weapon combat. Side a wins only by the DOS-12 opposed test; a tie is no winner."
)


class ManeuverSide(Modified):
    dexterity: Stat = Field(description="Dexterity (+-1,000,000).")
    strength: Stat = Field(description="Strength (+-1,000,000).")
    unarmed: Skill = Field(default=0, description="Unarmed combat skill (0..100).")
    weapon: Skill = Field(default=0, description="Weapon combat skill (0..100).")
    dodge: Skill = Field(default=0, description="Dodge skill (0..100).")
    stat: StatName | None = Field(
        default=None, description="Overrides the stat the kind uses (the GM's call)."
    )
    skill: SkillName | None = Field(
        default=None, description="Overrides the skill the kind uses (the GM's call)."
    )
    name: Name | None = None
    gender: Gender | None = None


class ManeuverRequest(FoundryRollRequest):
    kind: ManeuverKind = Field(description=_MANEUVER_DOC)
    a: ManeuverSide = Field(description="The side making the maneuver.")
    b: ManeuverSide = Field(description="The side resisting it.")


@with_config(ConfigDict(extra="forbid"))
class ManeuverSideResult(TypedDict):
    stat: Annotated[StatName, Field(description="The stat used.")]
    skill: Annotated[SkillName, Field(description="The skill whose pool was rolled.")]
    roll: Annotated[PoolRoll, Field(description="The pool.")]
    modifier_percent: Annotated[
        int, Field(description="The side's difficulty modifier in percent.")
    ]
    total: Annotated[int, Field(description="stat + dice, with the modifier (DOS-8).")]


@with_config(ConfigDict(extra="forbid"))
class ManeuverResult(FoundryEnvelope):
    kind: Annotated[ManeuverKind, Field(description="The maneuver resolved.")]
    winner: Annotated[Literal["a", "b"] | None, Field(description="null on a tie (DOS-12).")]
    success: Annotated[bool, Field(description="Side a won: grabbed, broke free, pushed.")]
    a: Annotated[ManeuverSideResult, Field(description="Side a's stat, skill, roll and total.")]
    b: Annotated[ManeuverSideResult, Field(description="Side b's stat, skill, roll and total.")]


# ---------------------------------------------------------------- a whole turn (DOS-14..29)

ActionKind = Literal["attack", "run", "step", "grab", "break_free", "push", "feint_push", "wait"]
#: The actions that need a `target` (DOS-17, DOS-24, DOS-25).
TARGETED_ACTIONS = ("attack", "grab", "break_free", "push", "feint_push")


class Skills(Model):
    weapon: Skill = Field(default=0, description="Weapon combat (melee weapons).")
    unarmed: Skill = Field(default=0, description="Unarmed combat.")
    thrown: Skill = Field(default=0, description="Thrown weapons.")
    shooting: Skill = Field(default=0, description="Firearms, bows, crossbows.")
    block: Skill = Field(default=0, description="Block: block + 1 blocks per turn.")
    dodge: Skill = Field(default=0, description="Dodge: dodge dodges per turn.")


class Declaration(Modified, DefenseModified):
    """One thing a combatant declares for the turn; `difficulty`/`modifier_percent` modify its roll."""

    # which fields go with which action (DOS-17..25), as the schema says it
    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                {
                    "if": {"properties": {"action": {"enum": list(TARGETED_ACTIONS)}}},
                    "then": {"required": ["target"], "properties": {"target": {"type": "string"}}},
                    "else": {"properties": {"target": {"type": "null"}}},
                },
                {
                    "if": {"properties": {"action": {"not": {"const": "attack"}}}},
                    "then": {
                        "properties": {
                            "aim": {"type": "null"},
                            "ranged": {"type": "null"},
                            "defense": {"type": "null"},
                            "count": {"const": 1},
                        }
                    },
                },
                {
                    "if": {"properties": {"action": {"not": {"const": "step"}}}},
                    "then": {"properties": {"metres": {"type": "null"}}},
                },
            ]
        }
    )

    action: ActionKind = Field(
        description=(
            "`attack` (count actions, one attack each, DOS-17/21), `run` (all actions, DOS-22; "
            "alone), `step` (1 action, once per turn, DOS-23), `grab`/`break_free` (1 action, "
            "DOS-24), `push`/`feint_push` (1 action, DOS-25), `wait` (no action this turn; alone)."
        )
    )
    target: Id | None = Field(
        default=None, description="Required for attack, grab, break_free, push, feint_push."
    )
    count: Count = Field(default=1, description="Attacks only: actions (= attacks) spent, 1..1000.")
    aim: Location | None = Field(default=None, description="Attacks: aimed location (DOS-27).")
    ranged: Ranged | None = Field(
        default=None, description="Required for an attack with a thrown or shooting weapon."
    )
    defense: DefenseChoice | None = Field(
        default=None,
        description=(
            "Overrides the target's own `defense` for these attacks; for ranged attacks the "
            "default is `none` (DOS-21)."
        ),
    )
    stop_when_down: bool = Field(
        default=True,
        description="Attacks: skip the remaining attacks once the target is incapacitated.",
    )
    metres: NonNegative | None = Field(
        default=None, description="Step: metres wanted (default and cap floor(speed / 4))."
    )


class TurnCombatant(NamedCombatant):
    # run and wait are declared alone (DOS-22); a dodge needs a dodge skill (DOS-18), as the
    # schema says it
    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                {
                    "if": {
                        "properties": {
                            "declare": {
                                "contains": {"properties": {"action": {"enum": ["run", "wait"]}}}
                            }
                        },
                        "required": ["declare"],
                    },
                    "then": {"properties": {"declare": {"maxItems": 1}}},
                },
                {  # DOS-21: attacks with a thrown or shooting weapon are ranged
                    "if": {
                        "properties": {
                            "weapon": {
                                "properties": {"kind": {"enum": ["thrown", "shooting"]}},
                                "required": ["kind"],
                            }
                        },
                        "required": ["weapon"],
                    },
                    "then": {
                        "properties": {
                            "declare": {
                                "items": {
                                    "if": {"properties": {"action": {"const": "attack"}}},
                                    "then": {
                                        "required": ["ranged"],
                                        "properties": {"ranged": {"type": "object"}},
                                    },
                                }
                            }
                        }
                    },
                    "else": {
                        "properties": {
                            "declare": {"items": {"properties": {"ranged": {"type": "null"}}}}
                        }
                    },
                },
                {
                    "if": {"properties": {"defense": {"const": "dodge"}}, "required": ["defense"]},
                    "then": {
                        "required": ["skills"],
                        "properties": {
                            "skills": {
                                "required": ["dodge"],
                                "properties": {"dodge": {"minimum": 1}},
                            }
                        },
                    },
                },
            ]
        }
    )
    id: Id
    side: Id = Field(description="Team id: by default a combatant fights every other side.")
    speed: Speed
    dexterity: Stat = Field(description="Dexterity: attacks, blocks, dodges (+-1,000,000).")
    strength: Stat = Field(default=0, description="Strength: damage, push (+-1,000,000).")
    skills: Skills = Field(default=Skills(), description="Skill levels (0..100 each).")
    weapon: Weapon = Field(default=Weapon(kind="unarmed"), description="Default: unarmed.")
    hp: Hp
    max_hp: Hp | None = Field(default=None, description="Full life bar; hp <= max_hp.")
    armor: NonNegative = Field(
        default=0, description="Subtracted from weapon damage (extension, 0..1,000,000)."
    )
    incapacitated: bool = Field(default=False, description="Cannot act (DOS-28).")
    critical: bool = Field(default=False, description="Has a critical wound (DOS-28).")
    beaten: bool = Field(default=False, description=_BEATEN_DOC)
    defense: DefenseChoice = Field(default="auto", description=_DEFENSE_DOC)
    opponents: list[Id] | None = Field(
        default=None,
        max_length=MAX_COMBATANTS,
        description=(
            "Whom it fights (DOS-14); default: every combatant of another side not incapacitated "
            "at the start of the turn."
        ),
    )
    declare: list[Declaration] = Field(
        default_factory=list, max_length=MAX_ATTEMPTS, description="What it does this turn."
    )

    @model_validator(mode="after")
    def _hp_within_max(self) -> TurnCombatant:
        if self.max_hp is not None and self.hp > self.max_hp:
            raise ValueError(
                f"combatant '{self.id}': hp ({self.hp}) is more than max_hp ({self.max_hp})"
            )
        return self


class TurnRequest(FoundryRollRequest):
    # DOS-15, as the schema says it: `first` only when initiative is rolled (no `order`)
    model_config = ConfigDict(
        json_schema_extra={
            "not": {
                "required": ["order", "first"],
                "properties": {"order": {"type": "array"}, "first": {"minItems": 1}},
            }
        }
    )
    combatants: list[TurnCombatant] = Field(
        min_length=1, max_length=MAX_COMBATANTS, description="1..100 combatants, unique ids."
    )
    order: list[Id] | None = Field(
        default=None,
        max_length=MAX_COMBATANTS,
        description=(
            "A given initiative order (the order holds from turn to turn, DOS-15): every "
            "combatant exactly once. When absent, initiative is rolled."
        ),
    )
    first: list[Id] = Field(
        default_factory=list,
        max_length=MAX_COMBATANTS,
        description="When initiative is rolled: ids the GM places first, in order (DOS-15).",
    )
    options: DamageOptions = Field(
        default=DamageOptions(),
        description="Readings of DOS-28 (light damage at 0 hp, critical wounds).",
    )


@with_config(ConfigDict(extra="forbid"))
class TurnAction(TypedDict):
    """One action resolved in the turn, in resolution order."""

    actor: Annotated[str, Field(description="Who acts.")]
    n: Annotated[
        int | None, Field(description="The actor's action number (slot prefix `<actor>.<n>`).")
    ]
    action: Annotated[ActionKind, Field(description="What was declared.")]
    target: Annotated[str | None, Field(description="The target's id, if any.")]
    skipped: Annotated[str | None, Field(description="Why it was not resolved, if not.")]
    attack: Annotated[
        AttackResultPart | None, Field(description="An attack's result, as `/dos/attack` gives it.")
    ]
    maneuver: Annotated[
        ManeuverPart | None, Field(description="A maneuver's result, as `/dos/maneuver` gives it.")
    ]
    metres: Annotated[int | None, Field(description="Run or step: metres moved.")]


@with_config(ConfigDict(extra="forbid"))
class AttackResultPart(TypedDict):
    hit: Annotated[bool, Field(description="The attack hit (DOS-17..21).")]
    reason: Annotated[str, Field(description="Why: total, luck, bad_luck, tie, no_defense or dc.")]
    attack: Annotated[AttackRoll, Field(description="The attacker's roll.")]
    defense: Annotated[DefenseRoll | None, Field(description="The defense rolled, or null.")]
    damage: Annotated[
        Damage | None, Field(description="Damage on a hit (DOS-26, DOS-28), else null.")
    ]
    location: Annotated[
        Location | None, Field(description="Hit location (DOS-27), null on a miss.")
    ]
    aimed: Annotated[bool, Field(description="The location was aimed, not rolled.")]
    run_stop: Annotated[
        RunStop | None, Field(description="A running target's stop roll (DOS-22), or null.")
    ]


@with_config(ConfigDict(extra="forbid"))
class ManeuverPart(TypedDict):
    winner: Annotated[Literal["a", "b"] | None, Field(description="null on a tie (DOS-12).")]
    success: Annotated[bool, Field(description="The actor (side a) won.")]
    a: Annotated[ManeuverSideResult, Field(description="The actor's side.")]
    b: Annotated[ManeuverSideResult, Field(description="The target's side.")]


@with_config(ConfigDict(extra="forbid"))
class CombatantState(TypedDict):
    id: Annotated[str, Field(description="The combatant's id.")]
    actions: Annotated[int, Field(description="Actions this turn (DOS-14).")]
    actions_used: Annotated[int, Field(description="Actions spent (a run spends all).")]
    initiative: Annotated[int | None, Field(description="Position in the order, 1 = first.")]
    hp: Annotated[int, Field(description="Life points now, >= 0.")]
    max_hp: Annotated[int | None, Field(description="As given.")]
    incapacitated: Annotated[bool, Field(description="At 0 hp from serious damage (DOS-28).")]
    critical: Annotated[bool, Field(description="Has a critical wound (DOS-28).")]
    beaten: Annotated[bool, Field(description=_BEATEN_DOC)]
    blocks_used: Annotated[int, Field(description="Blocks spent this turn (<= block + 1).")]
    dodges_used: Annotated[int, Field(description="Dodges spent this turn (<= dodge).")]
    running: Annotated[bool, Field(description="Ran this turn and was not stopped (DOS-22).")]
    stopped: Annotated[bool, Field(description="Stopped while running: lost the rest of its turn.")]
    moved: Annotated[int, Field(description="Metres moved this turn (run or step).")]
    waited: Annotated[bool, Field(description="Waited: the GM may place it `first` next turn.")]


@with_config(ConfigDict(extra="forbid"))
class TurnResult(FoundryEnvelope):
    order: Annotated[list[str], Field(description="The initiative order used.")]
    initiative: Annotated[
        list[InitiativeEntry] | None,
        Field(description="The initiative rolls, null when `order` was given."),
    ]
    actions: Annotated[list[ActionsEntry], Field(description="Actions per turn of each (DOS-14).")]
    results: Annotated[list[TurnAction], Field(description="Every action, in the order resolved.")]
    combatants: Annotated[
        list[CombatantState], Field(description="Everyone's new state, in request order.")
    ]
