"""Dragon Riders combat: request and result types (RDR-1..10, rules/riders.md)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypeAlias

from pydantic import ConfigDict, Field, StringConstraints, model_validator, with_config
from typing_extensions import TypedDict

from rules.models import (
    MAX_ATTEMPTS,
    MAX_POOL,
    FoundryEnvelope,
    FoundryRollRequest,
    Gender,
    Id,
    Label,
    Model,
    Name,
    Note,
    Stat,
)

Element = Literal["fire", "water", "earth", "lightning", "wind", "metal"]
SideName = Literal["initiator", "defender"]
Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
Timing = Literal["pre", "counter", "damage"]
Choice = Literal["use_item", "roll", "concede", "damage"]
DamageKind = Literal["fatigue", "knockback", "swap", "item"]
Phase = Literal["rolloff", "counterattack", "damage"]
Skip = Literal["hide_shield", "ranged"]

#: RDR-6: one space in each compass direction; x grows east, y grows south (N is (0, -1)).
DIRECTIONS: dict[Direction, tuple[int, int]] = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}

#: RDR-3: the roll-off is 2d6 before rage and item dice.
BASE_ROLLOFF_DICE = 2
MAX_FATIGUE = 3
MAX_ITEMS = 100
MAX_RIDERS = 100
MAX_DIE_SIDES = 1000
#: Board coordinates stay within +-1,000,000 like any other stat.
Coordinate = Stat

#: Item dice: ``<count>d<sides>``, count 1-100, sides 2-1000. Parsed by :func:`parse_dice`, never eval'd.
DICE_RE = re.compile(r"^([1-9][0-9]{0,2})d([1-9][0-9]{0,3})$")
DiceNotation = Annotated[
    str,
    # count 1-100, sides 2-1000, as parse_dice reads them
    StringConstraints(pattern=r"^([1-9][0-9]?|100)d([2-9]|[1-9][0-9]{1,2}|1000)$", max_length=8),
    Field(
        description=(
            'Dice the item adds, as "<count>d<sides>" (such as "1d6", "2d6"): count 1-100, '
            "sides 2-1000."
        )
    ),
]


def parse_dice(text: str) -> tuple[int, int]:
    """``"2d6"`` -> ``(2, 6)``; raises ``ValueError`` outside count 1-100, sides 2-1000."""
    match = DICE_RE.fullmatch(text)
    if match is None:
        raise ValueError(f'{text!r} is not dice notation like "1d6" or "2d6"')
    count, sides = int(match.group(1)), int(match.group(2))
    if not 1 <= count <= MAX_POOL:
        raise ValueError(f"{text!r}: at most {MAX_POOL} dice")
    if not 2 <= sides <= MAX_DIE_SIDES:
        raise ValueError(f"{text!r}: dice have 2-{MAX_DIE_SIDES} sides")
    return count, sides


Fatigue = Annotated[int, Field(ge=0, le=MAX_FATIGUE, description="Fatigue, 0-3.")]
Rage = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_POOL,
        description=(
            "Rage levels: one extra roll-off d6 each (RDR-3); 2 + rage + pre items' extra dice "
            "must stay <= 100 (a level gained at that limit is not added)."
        ),
    ),
]
TerrainBonus = Annotated[
    int, Field(ge=0, le=4, description="Mountain bonus of the dragon's space, 0-4 (RDR-2).")
]
Bonus = Annotated[int, Field(ge=-1_000_000, le=1_000_000, description="A flat bonus, +-1,000,000.")]


# ---------------------------------------------------------------- the situation


class Rider(Model):
    id: Id
    name: Name | None = None
    gender: Gender | None = None
    current: bool = Field(
        default=True,
        description="True for the rider the dragon carries now, false for a delivered rider.",
    )
    bonuses: dict[Element, Bonus] = Field(
        default_factory=dict,
        description="Elemental bonus against a dragon of each element (RDR-2).",
    )


class Position(Model):
    x: Coordinate = Field(description="Column; grows east.")
    y: Coordinate = Field(description="Row; grows south.")
    facing: Direction = Field(description="Compass direction the dragon faces.")


class Item(Model):
    """An item or spell a side may use in this combat, described by the caller (RDR-5, RDR-6)."""

    # RDR-5, RDR-6 as the schema says it: extra roll-off dice only on pre items, a damage item
    # says what it does
    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                {
                    "if": {"properties": {"timing": {"not": {"const": "pre"}}}},
                    "then": {"properties": {"extra_rolloff_dice": {"const": 0}}},
                },
                {
                    "if": {"properties": {"timing": {"const": "damage"}}},
                    "then": {"required": ["damage"], "properties": {"damage": {"type": "string"}}},
                },
            ]
        }
    )

    id: Id = Field(description="Unique across both sides; its dice roll in slot `item.<id>`.")
    name: Label = Field(description="Name shown in the events (1-100 characters).")
    timing: Timing = Field(
        description=(
            '"pre": used in Phase 1 (every listed pre item is used); "counter": played by '
            'decision in the counterattack; "damage": only as a damage choice (needs `damage`).'
        )
    )
    bonus: Bonus = Field(default=0, description="Flat amount added to the side's total.")
    dice: DiceNotation | None = Field(
        default=None, description="Dice added to the total, rolled in slot `item.<id>`."
    )
    extra_rolloff_dice: Annotated[int, Field(ge=0, le=MAX_POOL)] = Field(
        default=0,
        description="Pre items only: extra d6 in the side's roll-off (a Rage Potion), 0-100.",
    )
    hide_shield: bool = Field(
        default=False, description="A Hide Shield: a winner that used it deals no damage (RDR-6)."
    )
    ranged: bool = Field(
        default=False,
        description="A ranged attack: a loser that used it takes no damage (RDR-6).",
    )
    damage: Note | None = Field(
        default=None,
        description=(
            "What the item does as combat damage (a Hookshot); when set, the winner may use it, "
            "if still unused, in place of fatigue, knockback or swap (RDR-6)."
        ),
    )

    # `dice` needs no check here: its pattern is exactly what parse_dice reads (count 1-100, sides
    # 2-1000; tests/rules/riders/test_combat.py compares them)
    @model_validator(mode="after")
    def _consistent(self) -> Item:
        if self.extra_rolloff_dice and self.timing != "pre":
            raise ValueError("extra_rolloff_dice only applies to pre items")
        if self.timing == "damage" and self.damage is None:
            raise ValueError('a "damage" item must say what it does in `damage`')
        return self


class Side(Model):
    # a dragon without its Dragon Rider carries no current rider, as the schema says it
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"has_rider": {"const": False}}, "required": ["has_rider"]},
            "then": {
                "properties": {
                    "riders": {
                        "items": {
                            "properties": {"current": {"const": False}},
                            "required": ["current"],
                        }
                    }
                }
            },
        }
    )
    id: Id = Field(description="The dragon (or player).")
    name: Name | None = None
    gender: Gender | None = None
    element: Element = Field(description="The dragon's element.")
    riders: Annotated[list[Rider], Field(max_length=MAX_RIDERS)] = Field(
        default_factory=list, description="Current and delivered riders (0-100)."
    )
    fatigue: Fatigue = 0
    rage: Rage = 0
    terrain_bonus: TerrainBonus = 0
    position: Position | None = Field(
        default=None, description="Needed for knockback (the loser's) and swap (both)."
    )
    has_rider: bool = Field(
        default=True,
        description="Whether the dragon carries a Dragon Rider now (lost to fatigue at 3).",
    )
    items: Annotated[list[Item], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=list, description="Items and spells the side may use (0-100)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> Side:
        if not self.has_rider and any(r.current for r in self.riders):
            raise ValueError("has_rider is false, but a rider is marked current")
        if not self.items and self.rage <= MAX_POOL - BASE_ROLLOFF_DICE:
            return self  # the common case, without summing the items (every request validates it)
        dice = BASE_ROLLOFF_DICE + self.rage + self.extra_rolloff_dice
        if dice > MAX_POOL:
            raise ValueError(
                f"the roll-off would be {dice} d6 (2 + rage + pre items' extra dice): "
                f"at most {MAX_POOL}"
            )
        return self

    @property
    def extra_rolloff_dice(self) -> int:
        return sum(i.extra_rolloff_dice for i in self.items if i.timing == "pre")


def rage_cap(side: Side) -> int:
    """The most rage ``side`` can hold: its roll-off (2 + rage + pre items' extra dice, RDR-3) stays
    within a pool of :data:`MAX_POOL` d6, so that the state a combat returns is a valid request."""
    return MAX_POOL - BASE_ROLLOFF_DICE - side.extra_rolloff_dice


class Attack(Model):
    ranged: bool = Field(
        default=False,
        description="The initiator's attack is ranged: if it loses, it takes no damage (RDR-6).",
    )


class Decision(Model):
    """One decision, in the order the combat asks for them (RDR-8)."""

    by: SideName
    choice: Choice = Field(
        description=(
            '"roll" or "concede" (the defender after the initiator\'s roll-off); "use_item" or '
            '"concede" (the presumptive loser); "damage" (the winner).'
        )
    )
    item: Id | None = Field(default=None, description='The item, for "use_item" and damage "item".')
    damage: DamageKind | None = Field(default=None, description='The damage kind, for "damage".')
    direction: Direction | None = Field(default=None, description="For damage knockback.")


class CombatRequest(FoundryRollRequest):
    initiator: Side
    defender: Side
    attack: Attack = Field(default=Attack(), description="The initiator's attack.")
    decisions: Annotated[list[Decision], Field(max_length=MAX_ATTEMPTS)] = Field(
        default_factory=list, description="The decisions taken so far, in order (0-1000)."
    )
    auto: bool = Field(
        default=False,
        description=(
            "Fill missing decisions with the default policy (RDR-9): the defender rolls; a "
            "presumptive loser plays its counter items in order while not higher, then concedes; "
            "the winner picks fatigue."
        ),
    )


# ---------------------------------------------------------------- results

if TYPE_CHECKING:
    #: A side's state in a result (:class:`States`, :class:`SwapDamage`): the plain dict of
    #: :class:`Side`'s fields in declaration order, its riders, position and items dicts of their
    #: models' fields too, the bytes the model's own serialiser writes. Copying the request models'
    #: ``__dict__`` costs far less than a model (tests/rules/riders/test_record_keys.py checks it).
    SideState: TypeAlias = dict[str, Any]
    #: A position in a result, the plain dict of :class:`Position`'s fields (as ``SideState``).
    PositionState: TypeAlias = dict[str, Any]
    #: A decision taken, in a result's ``decisions``: the plain dict of :class:`Decision`'s fields.
    DecisionState: TypeAlias = dict[str, Any]
else:  # for pydantic, the documented schema: the request-shaped models
    SideState = Side
    PositionState = Position
    DecisionState = Decision

# The result and the records inside it are typed dicts (STYLE 17: one shape per direction), like
# ``rules.models.Roll`` and ``Event``: the engine builds each with a dict display, every key in the
# order declared here, which is the order orjson writes (see tests/rules/riders/test_record_keys.py).
# The result derives from ``rules.models.Envelope`` and starts with ``**trace(dice, log)``. A key
# whose dataclass field had a default is ``NotRequired`` with that default in its ``Field``: the
# schema still leaves it out of ``required`` and shows the default (``kind`` stays the damage
# union's discriminator); the engine always writes it.


@with_config(ConfigDict(extra="forbid"))
class RiderBonus(TypedDict):
    id: str
    current: bool
    bonus: Annotated[int, Field(description="Its bonus against the opponent's element.")]


@with_config(ConfigDict(extra="forbid"))
class ItemUse(TypedDict):
    id: str
    name: str
    bonus: int
    dice: Annotated[list[int], Field(description="The item's dice, slot `item.<id>`.")]
    value: Annotated[int, Field(description="bonus + dice.")]


@with_config(ConfigDict(extra="forbid"))
class Bonuses(TypedDict):
    """RDR-2: elemental (unless fatigue 3) + terrain + pre-combat items."""

    riders: list[RiderBonus]
    elemental: Annotated[int, Field(description="Sum of the riders' bonuses against the opponent.")]
    elemental_counted: Annotated[bool, Field(description="False when the side has 3 fatigue.")]
    terrain: int
    items: Annotated[list[ItemUse], Field(description="Pre-combat items used.")]
    extra_rolloff_dice: Annotated[int, Field(description="Extra roll-off d6 from pre items.")]
    total: int


@with_config(ConfigDict(extra="forbid"))
class RollOff(TypedDict):
    """RDR-3: 2d6 + one d6 per rage level + pre items' extra dice, plus the bonus."""

    slot: str
    dice: list[int]
    rage_dice: int
    item_dice: int
    sum: int
    bonus: int
    total: int


@with_config(ConfigDict(extra="forbid"))
class Totals(TypedDict):
    initiator: Annotated[int | None, Field(description="null until the side has rolled.")]
    defender: Annotated[
        int | None, Field(description="null until the side has rolled (or if it conceded).")
    ]


@with_config(ConfigDict(extra="forbid"))
class CounterStep(TypedDict):
    """RDR-5: one item played in the counterattack."""

    decision: Annotated[int, Field(description="Index of the decision.")]
    by: SideName
    item: ItemUse
    total: Annotated[int, Field(description="The side's new total.")]
    totals: Totals
    leader: Annotated[SideName, Field(description="Who leads after the item.")]
    lead_changed: bool


@with_config(ConfigDict(extra="forbid"))
class Concession(TypedDict):
    by: SideName
    phase: Literal["rolloff", "counterattack"]
    decision: Annotated[int, Field(description="Index of the decision.")]
    without_rolling: Annotated[
        bool, Field(description="RDR-7: the defender conceded before rolling.")
    ]


@with_config(ConfigDict(extra="forbid"))
class Point(TypedDict):
    x: int
    y: int


@with_config(ConfigDict(extra="forbid"))
class FatigueDamage(TypedDict):
    kind: NotRequired[Annotated[Literal["fatigue"], Field(default="fatigue")]]
    decision: int
    fatigue: Annotated[int, Field(description="The loser's fatigue after.")]
    rider_lost: Annotated[bool, Field(description="At 3 fatigue the loser loses its Dragon Rider.")]
    riders_lost: Annotated[list[str], Field(description="Ids of the current riders lost.")]
    rage: Annotated[int, Field(description="The loser's rage after (+1 when at 3 fatigue).")]


@with_config(ConfigDict(extra="forbid"))
class KnockbackDamage(TypedDict):
    kind: NotRequired[Annotated[Literal["knockback"], Field(default="knockback")]]
    decision: int
    direction: Direction
    before: Annotated[Point, Field(description="The loser's square before.")]
    after: Annotated[Point, Field(description="The loser's square after (facing unchanged).")]


@with_config(ConfigDict(extra="forbid"))
class SwapDamage(TypedDict):
    kind: NotRequired[Annotated[Literal["swap"], Field(default="swap")]]
    decision: int
    winner: Annotated[PositionState, Field(description="The winner's position and facing after.")]
    loser: Annotated[PositionState, Field(description="The loser's position and facing after.")]


@with_config(ConfigDict(extra="forbid"))
class ItemDamage(TypedDict):
    kind: NotRequired[Annotated[Literal["item"], Field(default="item")]]
    decision: int
    item: str
    name: str
    effect: Annotated[str, Field(description="The item's `damage` text: the caller applies it.")]


Damage = Annotated[
    FatigueDamage | KnockbackDamage | SwapDamage | ItemDamage, Field(discriminator="kind")
]


@with_config(ConfigDict(extra="forbid"))
class Option(TypedDict):
    """One legal choice: send it back as a decision (with `by`)."""

    choice: Choice
    item: NotRequired[Annotated[str | None, Field(default=None)]]
    damage: NotRequired[Annotated[DamageKind | None, Field(default=None)]]
    directions: NotRequired[
        Annotated[
            list[Direction] | None,
            Field(
                default=None,
                description="For knockback: the directions allowed (set one `direction`).",
            ),
        ]
    ]


@with_config(ConfigDict(extra="forbid"))
class Awaiting(TypedDict):
    by: SideName
    decision: Annotated[int, Field(description="Index the next decision takes in `decisions`.")]
    phase: Phase
    choices: list[Option]


@with_config(ConfigDict(extra="forbid"))
class States(TypedDict):
    initiator: SideState
    defender: SideState


@with_config(ConfigDict(extra="forbid"))
class CombatResult(FoundryEnvelope):
    finished: bool
    winner: SideName | None
    loser: SideName | None
    bonuses: dict[SideName, Bonuses]
    rolloff: Annotated[dict[SideName, RollOff], Field(description="The roll-offs made so far.")]
    presumptive_loser: Annotated[SideName | None, Field(description="After the roll-off (RDR-3).")]
    counterattack: list[CounterStep]
    conceded: Concession | None
    totals: Annotated[Totals, Field(description="The totals as they stand now.")]
    damage: Annotated[list[Damage], Field(description="Damage applied, in order.")]
    damage_instances: Annotated[
        int, Field(description="1, or 2 after a concession without rolling (RDR-7).")
    ]
    damage_skipped: Annotated[
        Skip | None,
        Field(
            description="Why no damage was dealt: the winner's Hide Shield or the loser's ranged attack."
        ),
    ]
    state: Annotated[States, Field(description="Each side's state now, in the request's shape.")]
    awaiting: Awaiting | None
    decisions: Annotated[
        list[DecisionState],
        Field(description="Every decision taken, auto-filled ones included: replayable as is."),
    ]
    auto_filled: Annotated[
        list[int], Field(description="Indexes of the decisions filled by `auto`.")
    ]
