"""Types every system shares: seeds, scripted dice, the die record, events and the response envelope.

Bounds are named once here (STYLE 7) and used by every system, so the OpenAPI document shows them.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal, NotRequired

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    GetPydanticSchema,
    StringConstraints,
    with_config,
)
from pydantic.json_schema import JsonSchemaValue, SkipJsonSchema
from pydantic_core import CoreSchema, PydanticCustomError, core_schema
from typing_extensions import TypedDict

MAX_STAT = 1_000_000
MAX_POOL = 100
MAX_COMBATANTS = 100
MAX_ATTEMPTS = 1_000
MAX_SCRIPT = 1_000
MAX_SLOTS = 1_000

#: A seed: 1-128 printable ASCII characters (space included).
SeedText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=128, pattern=r"^[\x20-\x7e]+$"),
    Field(description="1-128 printable ASCII characters (space included)."),
]
#: The largest integer JavaScript's numbers hold exactly (2^53 - 1, ``Number.MAX_SAFE_INTEGER``): an
#: integer seed beyond it would not survive a browser's ``JSON.stringify``, so larger seeds are strings.
MAX_SAFE_INTEGER = 2**53 - 1
#: An integer seed stands for its decimal text.
SeedInt = Annotated[
    int,
    Field(
        ge=-MAX_SAFE_INTEGER,
        le=MAX_SAFE_INTEGER,
        description=(
            "An integer within +-9007199254740991 (2^53 - 1, what a JavaScript number holds "
            "exactly); the stream uses its decimal text ('-' for negatives). Send larger seeds as "
            "strings."
        ),
    ),
]


def one_error(kind: str, message: str) -> GetPydanticSchema:
    """A union of scalars refused with one error at its own place: ``message``, of type ``kind``.

    Left to itself pydantic refuses a value that fits no member of a union with one error per member,
    each placed under the member's internal label (``seed.constrained-str``, ``seed.constrained-int``),
    and the first is often the one that does not apply (a too-large integer seed first reads "Input
    should be a valid string"). The message says what the field takes; the JSON schema is unchanged.
    """

    def schema(source: Any, handler: Any) -> CoreSchema:
        core = handler(source)
        if core["type"] != "union":
            raise TypeError(f"one_error is for unions, not {core['type']}")
        return {**core, "custom_error_type": kind, "custom_error_message": message}

    return GetPydanticSchema(schema)


Seed = Annotated[
    SeedText | SeedInt,
    one_error(
        "seed_invalid",
        "a seed is 1-128 printable ASCII characters (space included) or an integer within "
        "+-9007199254740991; send a larger integer as a string",
    ),
]

SLOT_PATTERN = r"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$"
#: A slot name: what a roll is for (`check`, `attempt.3`, `initiative.k1`). ASCII letters, digits,
#: `_`, `-` and `.` between parts.
SlotName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=160, pattern=SLOT_PATTERN),
]
#: An id given by the caller (a combatant, an entity, an item): letters, digits, `_` and `-`.
Id = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$"),
    Field(description="Letters, digits, '_' and '-'; 1-64 characters."),
]
DieValue = Annotated[int, Field(ge=1, le=2**32 - 1)]

#: What free text may not hold: the C0 and C1 control characters (U+0000-U+001F, U+007F-U+009F),
#: which break a table's lines and a terminal's state, and the bidi embeddings and overrides
#: (U+202A-U+202E), which turn the rest of a line around. The pattern is the OpenAPI document's.
TEXT_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u202a-\u202e]*$"
_UNSHOWABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e]")


class Showable:
    """Free text a table can show (STYLE 7): every name, label and description a request carries is
    ``Annotated[str, StringConstraints(...), Showable()]`` (``Name``, ``Label``, ``Note``), the
    length first. A character of :data:`TEXT_PATTERN`'s set is a 422
    at the field that names the character and where it is; the JSON schema gets the pattern."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> CoreSchema:
        return core_schema.no_info_after_validator_function(_showable, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        out = handler(schema)
        out["pattern"] = TEXT_PATTERN
        return out


def _showable(value: str) -> str:
    bad = _UNSHOWABLE.search(value)
    if bad is not None:
        raise PydanticCustomError(
            "text_unshowable",
            "U+{code} at position {at}: free text takes no control characters and no bidi "
            "embeddings or overrides",
            {"code": f"{ord(bad.group()):04X}", "at": bad.start()},
        )
    return value


#: Free text of 1-100 characters (an item's name).
Label = Annotated[str, StringConstraints(min_length=1, max_length=100), Showable()]
#: Free text of 1-200 characters (what an item does).
Note = Annotated[str, StringConstraints(min_length=1, max_length=200), Showable()]


DiceScript = Annotated[
    dict[SlotName, Annotated[list[DieValue], Field(max_length=MAX_SCRIPT)]],
    Field(
        max_length=MAX_SLOTS,
        # patternProperties alone lets other names through; the names' own schema refuses them
        json_schema_extra={
            "propertyNames": {"pattern": SLOT_PATTERN, "minLength": 1, "maxLength": 160}
        },
        description=(
            "Dice rolled by the caller, by slot, used in order instead of the slot's seeded stream. "
            "Each value must fit the die the slot draws; a slot this request does not draw from is "
            "rejected; values left over are returned in `unused_dice`."
        ),
    ),
]
#: A language of the events' texts (rules.narration.LANGUAGES).
Lang = Literal["en", "pl", "fi", "ar"]
#: A name to tell a combatant, a side or an entity by in the events' texts (never in a result).
Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64),
    Showable(),
    Field(
        description=(
            "A name for the events' texts (1-64 characters, no control characters, no bidi "
            "embeddings or overrides); the id is used when absent. It never changes a result."
        )
    ),
]
#: A named participant's grammatical class: its gender, or a group's kind (``rules.narration``: each
#: language's catalog chooses the words that agree with it). Used only for the events' texts.
GrammaticalClass = Literal[
    "feminine", "masculine", "neuter", "plural", "plural-nonhuman", "plural-feminine"
]
Gender = Annotated[
    GrammaticalClass,
    Field(
        description=(
            "How the events' texts make their words agree with this participant (a verb, a "
            "pronoun, an adjective): `feminine`, `masculine` or `neuter` for one person or "
            "creature; for a group named in the plural, `plural` for a group of people or a "
            'mixed one ("the Bandits" take "are beaten", Polish "Rozbójnicy są pokonani", '
            'Arabic "اللصوص يهاجمون"), `plural-nonhuman` for beasts, monsters or things ("the '
            'Wolves", Polish "Wilki są pokonane", Arabic "الذئاب تهاجم"), `plural-feminine` for '
            'a group of women (Polish "Amazonki są pokonane", Arabic "المحاربات يهاجمن"). '
            'Absent: each language\'s form for no one in particular (English "it", the '
            "masculine singular in Polish and Arabic). Used only for the texts: it never "
            "changes a result."
        )
    ),
]
#: A characteristic or any other number of the character sheet, within +-1,000,000.
Stat = Annotated[int, Field(ge=-MAX_STAT, le=MAX_STAT)]
NonNegative = Annotated[int, Field(ge=0, le=MAX_STAT)]


def not_both(a: str, b: str) -> dict[str, Any]:
    given = {"not": {"type": "null"}}
    return {"not": {"required": [a, b], "properties": {a: given, b: given}}}


def exactly_one(a: str, b: str) -> dict[str, Any]:
    return {
        "anyOf": [
            {"required": [a], "properties": {a: {"not": {"type": "null"}}}},
            {"required": [b], "properties": {b: {"not": {"type": "null"}}}},
        ],
        **not_both(a, b),
    }


class Model(BaseModel):
    """Base of every request and result: frozen, strict types, unknown fields rejected.

    Frozen, so a nested model's default is one shared instance (``Field(default=Options())``), not
    a ``default_factory``: pydantic would call the factory, a validation of its own, per request.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: JSON Schema clauses a model class adds to its schema's ``allOf`` (rules between fields that
    #: JSON Schema can state, such as :func:`not_both`); a class has those of its bases too.
    schema_clauses: ClassVar[tuple[dict[str, Any], ...]] = ()

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = super().__get_pydantic_json_schema__(core_schema, handler)
        clauses = [
            c for base in reversed(cls.__mro__) for c in vars(base).get("schema_clauses", ())
        ]
        if clauses:
            handler.resolve_ref_schema(schema).setdefault("allOf", []).extend(clauses)
        return schema


def _no_foundry(value: Any) -> Any:
    raise PydanticCustomError(
        "foundry_none",
        "this system has no Foundry rolls: leave out `foundry`",
    )


class RollRequest(Model):
    """Base of every request that may roll dice: its ``seed``, its scripted ``dice``, its ``lang``.

    An endpoint with Foundry rolls bases its request on :class:`FoundryRollRequest` instead, which
    adds ``foundry``, and its result on :class:`FoundryEnvelope`; here ``foundry`` is out of the
    schema, and refused with a 422 that says why.
    """

    seed: Seed | None = Field(
        default=None,
        description="Seed of the dice streams; when absent the service makes one and returns it.",
    )
    dice: DiceScript = Field(default_factory=dict)
    lang: Lang | None = Field(
        default=None,
        description=(
            "Language of the events' texts: en, pl, fi or ar. Wins over the `Accept-Language` "
            "header; without either, English."
        ),
    )
    foundry: SkipJsonSchema[Annotated[Any, BeforeValidator(_no_foundry)]] = None


class FoundryRollRequest(RollRequest):
    """Base of the requests of a system with Foundry rolls: ``foundry: true`` asks for them."""

    foundry: bool = Field(
        default=False,
        description=(
            "Also answer `foundry: {rolls: [...]}`: each dice pool drawn as a Foundry VTT `Roll` "
            "(`Roll.fromData()`), in draw order (docs/foundry.md)."
        ),
    )


# The two records every response holds many of are typed dicts, not dataclasses: a dict is built
# by one instruction where a dataclass runs its Python __init__ (10-25 per response), and orjson and
# pydantic read them alike (the schema is the same as a dataclass's, and refuses unknown keys).


@with_config(ConfigDict(extra="forbid"))
class Event(TypedDict):
    code: Annotated[str, Field(description="Stable code of what happened, such as `dos.luck`.")]
    params: Annotated[
        dict[str, Any], Field(description="The event's parameters (ids, values, dice).")
    ]
    text: Annotated[
        str,
        Field(
            description=(
                "One sentence for people, in the response's language (`Content-Language`); a "
                "VTT may post it to chat."
            )
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class Roll(TypedDict):
    """One die drawn, in draw order."""

    slot: str
    sides: int
    value: int
    source: Annotated[
        str, Field(description='"seed" (the slot\'s stream) or "dice" (the caller\'s script).')
    ]


#: A Foundry VTT ``Roll`` as ``Roll.fromData()`` takes it (docs/foundry.md); its terms are checked
#: against ``schemas/foundry-roll.schema.json`` by the tests, not described again here.
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
FoundryRoll.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]


@with_config(ConfigDict(extra="forbid"))
class FoundryRolls(TypedDict):
    rolls: Annotated[
        list[FoundryRoll], Field(description="One Roll per dice pool drawn, in draw order.")
    ]


@with_config(ConfigDict(extra="forbid"))
class Envelope(TypedDict):
    """What every resolving endpoint returns besides its system's own fields.

    Results are typed dicts built as dict literals (STYLE 17): a result type derives from this one
    (from :class:`FoundryEnvelope` where its request is a :class:`FoundryRollRequest`), and a
    resolver returns ``{**trace(dice, log), "field": ...}`` with its own keys in declaration order.
    """

    seed: Annotated[
        str | int, Field(description="The seed used (the request's, or the one the service made).")
    ]
    rng: Annotated[str, Field(description='The dice stream algorithm, "sha256-v1".')]
    rules_version: Annotated[
        str,
        Field(
            description=(
                "The version of this system's rules and texts (as `GET /systems` lists it); the "
                "same request and seed replay byte for byte within it."
            )
        ),
    ]
    rolls: Annotated[list[Roll], Field(description="Every die drawn, in draw order.")]
    unused_dice: Annotated[
        dict[str, list[int]],
        Field(description="Scripted values the resolution did not need, by slot."),
    ]
    events: Annotated[list[Event], Field(description="What happened, in order.")]


@with_config(ConfigDict(extra="forbid"))
class FoundryEnvelope(Envelope):
    """The envelope of an answer whose request offers ``foundry`` (:class:`FoundryRollRequest`)."""

    foundry: NotRequired[
        Annotated[
            FoundryRolls,
            Field(description='Only with `"foundry": true`: the dice as Foundry VTT rolls.'),
        ]
    ]


def offers_foundry(result: type[Any]) -> bool:
    return "foundry" in getattr(result, "__annotations__", {})
