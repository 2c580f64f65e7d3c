"""Dragon battle: request, state and result types (DRG-T1..T4, DRG-1..17).

The state types (:class:`Dragon`, :class:`Entity`, :class:`Location`) are the same in the request
and in the result's ``next_state``, so a result's ``next_state`` can be sent back as the next round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints, model_validator, with_config
from typing_extensions import TypedDict

from rules.models import (
    MAX_ATTEMPTS,
    MAX_COMBATANTS,
    MAX_POOL,
    FoundryEnvelope,
    FoundryRollRequest,
    Gender,
    Id,
    Model,
    Name,
    NonNegative,
    Showable,
)

#: The id by which the dragon is named as a target, a pair member, a winner or an ally.
DRAGON = "dragon"

Age = Annotated[int, Field(ge=1, le=6, description="The dragon's age, 1-6 (DRG-T1, DRG-T2).")]
Dice = Annotated[int, Field(ge=0, le=MAX_POOL)]
Level = Annotated[
    int, Field(ge=1, le=6, description="The entity's level, 1-6; its die by DRG-T3 (d4 .. d20).")
]
Sides = Annotated[
    int,
    Field(
        ge=2,
        le=1000,
        description=(
            "The entity's die size outright (2-1000), replacing the DRG-T3 lookup from `level` and "
            "`level_features`."
        ),
    ),
]
Target = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_\-]+$",
        description="`dragon` or the id of an entity of the other side taking part.",
    ),
]
LeftOver = Annotated[
    str,
    Field(
        pattern=r"^(wait|join:[A-Za-z0-9_\-]{1,64}|auto_win:[^\x00-\x1f\x7f-\x9f\u202a-\u202e]{1,100})$",
        description=(
            "What the party does if it is left over (DRG-3): `wait` (idle until the next round), "
            "`join:<id>` (add its dice to that ally's roll; the ally must be in a pair; `dragon` is "
            "an ally of the player's entities), or `auto_win:<name>` (an automatic win against an "
            "entity outside the battle, reported for the narration; no dice)."
        ),
    ),
]


class Dragon(Model):
    age: Age
    battle: Annotated[
        int,
        Field(ge=1, le=MAX_POOL, description="The dragon's battle: its number of dice (DRG-6)."),
    ]
    wounds: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_POOL,
            description="Wounds taken (DRG-14); at wounds >= battle the dragon is defeated.",
        ),
    ] = 0
    features_used: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_POOL,
            description="Battle features meaningfully worked into the description: +1 die each (DRG-6).",
        ),
    ] = 0
    dragon_die: bool = Field(
        default=False, description="The player uses the dragon die this round (DRG-7, DRG-13)."
    )
    target: Target = Field(description="The id of the free (GM) entity the dragon attacks (DRG-1).")
    name: Name | None = None
    gender: Gender | None = None

    @model_validator(mode="after")
    def _pool_fits(self) -> Dragon:
        if self.battle + self.features_used > MAX_POOL:
            raise ValueError(
                f"battle + features_used is {self.battle + self.features_used} dice: "
                f"a pool holds at most {MAX_POOL}"
            )
        return self


class Entity(Model):
    id: Id
    name: Annotated[str, StringConstraints(max_length=200), Showable()] | None = Field(
        default=None, description="For people; free text (no control characters)."
    )
    gender: Gender | None = None
    controller: Literal["player", "gm"] = Field(
        description="`player`: subjugated, on the dragon's side; `gm`: free, the other side."
    )
    kind: Literal["individual", "group"] = Field(
        description="An individual (becomes a dragonslayer itself) or a group (reveals one)."
    )
    prosperity: Dice = Field(description="How many dice the entity rolls (DRG-5), 0-100.")
    level: Level
    level_features: NonNegative = Field(
        default=0, description="Battle features raising the entity's level: one die step each."
    )
    die: Sides | None = Field(
        default=None,
        description=(
            "The entity's die size outright (2-1000), replacing the DRG-T3 lookup from `level` "
            "and `level_features`."
        ),
    )
    dragonslayer: bool = Field(
        default=False,
        description=(
            "A dragonslayer (DRG-8, DRG-14): an individual rolls one extra die one step above its "
            "own; a group so marked is a dragonslayer minority (its step is in its features)."
        ),
    )
    parent: Id | None = Field(default=None, description="The id of the entity it belongs to.")
    aside: bool = Field(
        default=False, description="Stands aside while its dragonslayer fights (DRG-4)."
    )
    target: Target | None = Field(
        default=None, description="Whom it attacks (DRG-1); none: it is left over (DRG-2)."
    )
    if_left_over: LeftOver = "wait"
    slayer_prosperity: Dice | None = Field(
        default=None,
        description=(
            "Groups only: the prosperity of the dragonslayer minority revealed if this group beats "
            "the dragon (DRG-14), 0 .. the group's prosperity; default the group's prosperity."
        ),
    )


class Location(Model):
    id: Id
    prosperity: NonNegative = Field(description="Loses 1 when the dragon die is used (DRG-13).")


class BattleOptions(Model):
    hoard: Literal["always", "on_win"] = Field(
        default="always",
        description=(
            "DRG-17. `always` (the source): when the battle ends the player gains the strongest "
            "enemy's level - 1. `on_win` (rules/dragon.md): only when the dragon won its pair or "
            "swept this round."
        ),
    )
    strongest_enemy: Literal["highest_level", "strength_order"] = Field(
        default="strength_order",
        description=(
            "DRG-17, which enemy that fought gives the hoard (its level - 1, a dragonslayer "
            "counting one level higher). `strength_order` (the source, which defines strength by "
            "prosperity): the first of them in the DRG-2 strength order. `highest_level` "
            "(rules/dragon.md): the first of the highest level, a dragonslayer's +1 included."
        ),
    )


Round = Annotated[int, Field(ge=1, le=MAX_ATTEMPTS, description="The round number, 1-1000.")]


class BattleState(Model):
    """The situation of a round: what a request carries and what ``next_state`` returns."""

    dragon: Dragon = Field(description="The player's dragon.")
    entities: Annotated[list[Entity], Field(max_length=MAX_COMBATANTS)] = Field(
        description="Every entity of the battle, at most 100, in request order."
    )
    location: Location | None = Field(
        default=None, description="Where the battle is; loses prosperity to the dragon die."
    )
    round: Round = 1


class BattleRequest(FoundryRollRequest, BattleState):
    # DRG-16, as the schema says it: a battle goes on to round 1000 at most
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"continues": {"const": True}}, "required": ["continues"]},
            "then": {"properties": {"round": {"maximum": MAX_ATTEMPTS - 1}}},
        }
    )
    continues: bool = Field(
        default=False,
        description=(
            "DRG-16: the battle goes on after this round (the player spends a reroll or the GM "
            "continues). Default false: the battle ends after this round and hoard is gained. "
            "A defeated dragon ends it whatever this says."
        ),
    )
    options: BattleOptions = Field(default=BattleOptions(), description="House-rule switches.")


# ---------------------------------------------------------------- results

# Every result type is a typed dict, like ``rules.models.Roll`` and ``Event`` (STYLE 17: one shape per
# direction): the engine builds each as a dict literal, and pydantic writes its schema. A dict is
# written in insertion order, so the engine gives every key, in the order declared here
# (tests/rules/dragon/test_record_keys.py walks many results to check it).


@with_config(ConfigDict(extra="forbid"))
class Pool(TypedDict):
    """The dice of one slot: a party's pool, the dragon die or a dragonslayer's extra die."""

    owner: Annotated[str, Field(description="`dragon` or an entity id.")]
    slot: Annotated[
        str, Field(description="`pool.dragon`, `dragon_die`, `pool.<id>` or `slayer.<id>`.")
    ]
    sides: Annotated[int, Field(description="The die size.")]
    dice: Annotated[list[int], Field(description="In draw order.")]


@with_config(ConfigDict(extra="forbid"))
class LeftOverParty(TypedDict):
    id: Annotated[str, Field(description="The left-over party (DRG-3).")]
    action: Annotated[Literal["wait", "join", "auto_win"], Field(description="What it did.")]
    reason: Annotated[
        str, Field(description="Why it was left over: no target, or its target was taken.")
    ]
    ally: Annotated[
        str | None, Field(description="For `join`: the ally whose roll it adds its dice to.")
    ]
    against: Annotated[
        str | None, Field(description="For `auto_win`: the entity outside the battle.")
    ]
    note: Annotated[str | None, Field(description="Why a `join` fell back to `wait`, if it did.")]


@with_config(ConfigDict(extra="forbid"))
class Side(TypedDict):
    members: Annotated[
        list[str], Field(description="The pair member first, then the parties joined to it.")
    ]
    dice: Annotated[list[int], Field(description="Every die of the side's roll.")]
    highest: Annotated[int, Field(description="The side's highest die; 0 when it rolled nothing.")]


@with_config(ConfigDict(extra="forbid"))
class Pair(TypedDict):
    a: Annotated[str, Field(description="The party that chose its target (the stronger).")]
    b: Annotated[str, Field(description="Its target.")]
    a_side: Annotated[Side, Field(description="`a` and the parties joined to it, with their dice.")]
    b_side: Annotated[Side, Field(description="`b` and the parties joined to it, with their dice.")]
    resolved: Annotated[
        bool, Field(description="False when a dragon-die sweep took one of its parties.")
    ]
    winner: Annotated[str | None, Field(description="Null when interrupted or not resolved.")]
    loser: Annotated[str | None, Field(description="Null when interrupted or not resolved.")]
    successes: Annotated[
        int, Field(description="Winner's dice strictly above the loser's highest (DRG-9).")
    ]
    interrupted: Annotated[bool, Field(description="Equal highest dice (DRG-10): no consequences.")]
    swept: Annotated[
        bool, Field(description="The dragon's pair won by a dragon-die sweep (DRG-11).")
    ]


@with_config(ConfigDict(extra="forbid"))
class SweepStep(TypedDict):
    id: Annotated[str, Field(description="A weakest entity tried.")]
    highest: Annotated[int, Field(description="Its highest die (0 if it rolled nothing).")]
    running_sum: Annotated[
        int, Field(description="The opponent's highest plus every highest so far.")
    ]
    added: Annotated[bool, Field(description="False for the entity that stopped the sweep.")]


@with_config(ConfigDict(extra="forbid"))
class SweepDetail(TypedDict):
    triggered: Annotated[
        bool, Field(description="The dragon die showed the dragon side's highest result.")
    ]
    dragon_die: Annotated[int, Field(description="The dragon die's result.")]
    opponent: Annotated[str, Field(description="The dragon's pair opponent.")]
    opponent_highest: Annotated[int, Field(description="The highest die of the opponent's side.")]
    steps: Annotated[list[SweepStep], Field(description="The weakest entities tried, in order.")]


@with_config(ConfigDict(extra="forbid"))
class Defeat(TypedDict):
    id: Annotated[str, Field(description="A swept entity.")]
    successes: Annotated[int, Field(description="The dragon side's dice above its highest die.")]


Reason = Literal["lost_pair", "swept", "dragon_die"]


@with_config(ConfigDict(extra="forbid"))
class ProsperityChange(TypedDict):
    id: Annotated[str, Field(description="An entity id, or the location's id.")]
    what: Annotated[Literal["entity", "location"], Field(description="An entity or the location.")]
    before: Annotated[int, Field(description="Prosperity before.")]
    after: Annotated[int, Field(description="Prosperity after (never below 0).")]
    reason: Annotated[
        Reason,
        Field(
            description="`lost_pair` (DRG-12), `swept` (DRG-11), `dragon_die` (DRG-13's extra 1)."
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class Wounds(TypedDict):
    before: Annotated[int, Field(description="The dragon's wounds before the round.")]
    gained: Annotated[int, Field(description="0 or 1: one wound per loss (DRG-14).")]
    after: Annotated[
        int, Field(description="before + gained; >= battle defeats the dragon (DRG-15).")
    ]


@with_config(ConfigDict(extra="forbid"))
class SlayerRevealed(TypedDict):
    id: Annotated[str, Field(description="The entity that beat the dragon.")]
    kind: Annotated[Literal["individual", "group"], Field(description="The winner's kind.")]
    feature: Annotated[
        str | None, Field(description="`dragonslayer` when an individual gains the feature.")
    ]
    new_entity: Annotated[
        str | None, Field(description="A group's new dragonslayer minority entity id.")
    ]
    prosperity: Annotated[int | None, Field(description="The new minority's prosperity.")]
    sides: Annotated[int | None, Field(description="The new minority's die.")]


@with_config(ConfigDict(extra="forbid"))
class Change(TypedDict):
    by: Annotated[
        Literal["player", "others"],
        Field(
            description="`player`: the dragon's change (DRG-12); `others`: the destruction (DRG-13)."
        ),
    ]
    result: Annotated[int, Field(description="The die result the level comes from.")]
    level: Annotated[
        int | None, Field(description="DRG-T4 level (0 individual .. 6 world); null below 3.")
    ]
    scale: Annotated[
        str | None, Field(description="What the level reaches: `an individual` .. `the world`.")
    ]
    against: Annotated[
        list[str], Field(description="The defeated entities (for the player's change).")
    ]


@with_config(ConfigDict(extra="forbid"))
class Hoard(TypedDict):
    enemies: Annotated[
        list[str], Field(description="The enemies that fought the dragon's side this round.")
    ]
    strongest: Annotated[str | None, Field(description="The enemy the hoard comes from.")]
    level: Annotated[int, Field(description="Its level, +1 for a dragonslayer (DRG-17).")]
    dragonslayer: Annotated[
        bool, Field(description="The strongest enemy is (or was revealed) a dragonslayer.")
    ]
    amount: Annotated[
        int, Field(description="level - 1, not below 0; 0 under `on_win` without a win.")
    ]
    dragon_won: Annotated[bool, Field(description="The dragon won its pair or swept this round.")]


if TYPE_CHECKING:

    class NextState(TypedDict):
        """What the engine puts in ``next_state``: the :class:`BattleState` as plain dicts.

        Each dict holds every field of its model in declaration order, the bytes the model's own
        serialiser writes; copying a request model's ``__dict__`` costs far less than building a
        model (tests/rules/dragon/test_record_keys.py checks the keys).
        """

        dragon: dict[str, Any]
        entities: list[dict[str, Any]]
        location: dict[str, Any] | None
        round: int

else:  # for pydantic, the documented schema: the request-shaped model
    NextState = BattleState


@with_config(ConfigDict(extra="forbid"))
class BattleResult(FoundryEnvelope):
    """One round of a dragon battle: the envelope's fields, then the round's."""

    round: Annotated[int, Field(description="The round resolved.")]
    order: Annotated[
        list[str], Field(description="Strength order (DRG-2): the dragon, then the entities.")
    ]
    pools: Annotated[list[Pool], Field(description="Every pool rolled, in draw order.")]
    pairs: Annotated[
        list[Pair], Field(description="The battle pairs, in the order they formed (DRG-2).")
    ]
    left_over: Annotated[
        list[LeftOverParty], Field(description="Parties left over and what they did.")
    ]
    sweep: Annotated[
        list[str], Field(description="Ids the dragon die took (opponent included); or empty.")
    ]
    sweep_detail: Annotated[
        SweepDetail | None,
        Field(
            description="How the dragon die's sweep was tried (DRG-11); null without the dragon die."
        ),
    ]
    defeated: Annotated[
        list[Defeat], Field(description="Every entity the dragon defeated this round.")
    ]
    prosperity_changes: Annotated[
        list[ProsperityChange],
        Field(description="Every prosperity loss with its reason, in order (DRG-11..13)."),
    ]
    wounds: Annotated[Wounds, Field(description="The dragon's wounds (DRG-14).")]
    slayers_revealed: Annotated[
        list[SlayerRevealed], Field(description="Dragonslayers revealed (DRG-14).")
    ]
    dragon_changes: Annotated[list[Change], Field(description="The player's change(s) (DRG-12).")]
    destruction_change: Annotated[
        Change | None, Field(description="DRG-13, when the dragon die was used.")
    ]
    dragon_defeated: Annotated[
        bool, Field(description="wounds >= battle (DRG-15): the dragon cannot go on.")
    ]
    battle_ended: Annotated[
        bool,
        Field(
            description="The battle ends after this round: `continues` is false or the dragon is defeated."
        ),
    ]
    hoard: Annotated[Hoard, Field(description="The hoard this battle pays when it ends (DRG-17).")]
    hoard_gained: Annotated[
        int, Field(description="Hoard gained now: `hoard.amount` if the battle ended.")
    ]
    next_state: Annotated[
        NextState,
        Field(description="The next round's state, in the request's shape (DRG-16): send it back."),
    ]
