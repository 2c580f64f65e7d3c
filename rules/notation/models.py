"""Requests and results of ``/dice/roll`` and ``/dice/odds`` (docs/notation.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, JsonValue, StringConstraints, with_config
from typing_extensions import TypedDict

from rules.models import FoundryEnvelope, FoundryRollRequest, Gender, Name
from rules.notation.parser import MAX_LENGTH, Dialect
from rules.notation.pasted import MAX_ITERATIONS, Mode
from rules.odds import Distribution, NoDice, ValueProb

NotationText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_LENGTH, pattern=r"^[\x20-\x7e]+$"),
    Field(
        description=(
            "Dice notation (docs/notation.md): `4d6kh3`, `2d20kl1+5`, `8d10cs>=7`, `3d6!`, "
            "`(1d8+3)*2`, `2d6[fire]+1d4[cold]`, or a shorthand such as `adv`. Printable ASCII, "
            f"at most {MAX_LENGTH} characters."
        ),
        examples=["4d6kh3", "2d20kl1+5", "8d10cs>=7"],
    ),
]


class NotationRollRequest(FoundryRollRequest):
    """``POST /dice/roll``: a notation, rolled."""

    notation: NotationText
    dialect: Dialect = Field(
        default="foundry",
        description=(
            'How the notation is read (docs/notation.md, "Dialects"): as Foundry VTT reads it '
            "(`r` rerolls once, `rr` again and again, `cs`/`cf` count, `>` strict, modifiers in "
            "lower case), as Roll20 does (`8d10>7f1` counts successes and deducts failures, `>` "
            "holds its target, `cs`/`cf` mark criticals, `!!` compounds) or as avrae/d20 does "
            "(`rr`, `ro`, `e6`, `mi`, `ma`, `k3` keeps the 3s, `pl1`, a trailing comment)."
        ),
    )
    name: Name | None = Field(default=None, description="Who rolls, for the events' texts.")
    gender: Gender | None = None
    data: dict[str, JsonValue] | None = Field(
        default=None,
        description=(
            "The values the notation's data references read: Foundry's `@abilities.str.mod` is "
            "`data.abilities.str.mod`, Roll20's `@{selected|strength_mod}` is "
            "`data.selected.strength_mod` (each `|` a level). A value is a whole number or a "
            'formula (`"1d8 + 3"`), put in the notation\'s text as the tools put it; a '
            "reference the data does not hold is a 422."
        ),
        examples=[{"abilities": {"str": {"mod": 3}}, "prof": 2}],
    )
    repeat: int | None = Field(
        default=None,
        ge=1,
        le=MAX_ITERATIONS,
        description=(
            f"Roll the notation this many times (1-{MAX_ITERATIONS}), each repetition with its "
            "own dice and total: repetition i (from 1) draws from the seed `{seed}/{i}`, so an "
            "ordinary request with that seed replays it alone. A notation's own repeat (avrae's "
            "`!rr 6 4d6kh3`) is the same; if both are given they must agree. Odds: one "
            "repetition's, and their sum's."
        ),
    )


class NotationOddsRequest(NoDice, NotationRollRequest):
    """``POST /dice/odds``: the ``/dice/roll`` request without ``seed`` and ``dice``."""


Status = Literal["kept", "dropped", "exploded", "rerolled", "success", "failure"]


@with_config(ConfigDict(extra="forbid"))
class TermDie(TypedDict):
    """One die of a term, in draw order."""

    value: Annotated[int, Field(description="What it shows (a Fate die: -1, 0 or 1).")]
    status: Annotated[
        Status,
        Field(
            description=(
                "`rerolled` (replaced by a later die), `dropped` (kept out by kh/kl/dh/dl), "
                "`success`/`failure` (counted by cs/cf), `exploded` (counted, and it drew one more "
                "die), else `kept`."
            )
        ),
    ]
    exploded: Annotated[bool, Field(description="It drew one more die (!, x, xo).")]
    counts: Annotated[
        int,
        Field(
            description="What it adds to the term: its value (min/max applied), 1/-1/0 counting, 0 when not kept."
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class TermResult(TypedDict):
    slot: Annotated[str, Field(description="`term.<n>`, n = 0, 1 ... left to right.")]
    notation: Annotated[str, Field(description="The term, normalised (`4d6kh3`, `2d6[fire]`).")]
    label: Annotated[str | None, Field(description="Its label (`fire`), if any.")]
    dice: list[TermDie]
    total: Annotated[
        int,
        Field(
            description=(
                "The term's total (successes less failures when counting; with Roll20's `mt`, "
                "how many values matched)."
            )
        ),
    ]
    matches: Annotated[
        list[int] | None,
        Field(
            description=(
                "Roll20's matches (`m`, `mt`): the values that matched (shown by 2 or more dice, "
                "or the `m` count, and meeting its target), in order; null without them."
            )
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class PoolItem(TypedDict):
    notation: Annotated[str, Field(description="The expression, in the request's dialect.")]
    total: int
    kept: Annotated[bool, Field(description="Whether the pool's keep or drop kept it.")]


@with_config(ConfigDict(extra="forbid"))
class PoolResult(TypedDict):
    """A pool (``{1d20, 1d20}kh``): each expression's total and whether it was kept."""

    column: Annotated[int, Field(description="Where the pool starts in the notation (1-based).")]
    notation: Annotated[str, Field(description="The pool, in the request's dialect.")]
    items: list[PoolItem]
    total: Annotated[int, Field(description="The kept totals' sum.")]


@with_config(ConfigDict(extra="forbid"))
class Repetition(TypedDict):
    """One repetition of a repeated roll (``repeat``): its own dice and total."""

    seed: Annotated[
        str, Field(description="`{seed}/{i}`: an ordinary request with this seed replays it.")
    ]
    total: int
    terms: list[TermResult]
    pools: list[PoolResult]
    drawn: Annotated[
        int,
        Field(description="The dice it drew: the next `drawn` entries of the answer's `rolls`."),
    ]


class NotationRollResult(FoundryEnvelope):
    notation: Annotated[str, Field(description="The notation as sent.")]
    dialect: Annotated[Dialect, Field(description="The dialect it was read in.")]
    command: Annotated[
        str | None,
        Field(
            description=(
                "The chat command the notation was pasted with, as written (`/r`, `/gmr`, `!rr "
                "6`, `[[ ]]` for an inline roll); null: none."
            )
        ),
    ]
    mode: Annotated[
        Mode | None,
        Field(
            description=(
                "Who may see the roll, as its command asks (Foundry's names: `publicroll`, "
                "`gmroll`, `blindroll`, `selfroll`), for the caller to honour; null: the command "
                "says nothing (the table's own choice)."
            )
        ),
    ]
    advantage: Annotated[
        Literal["adv", "dis"] | None,
        Field(
            description=(
                "avrae's `adv`/`dis` word, applied as avrae applies it (its leftmost 1d20 rolled as "
                "2d20kh1 or 2d20kl1, in `formula`); null: none, or not applied (avrae applies it "
                "to a leftmost 1d20 only)."
            )
        ),
    ]
    formula: Annotated[
        str,
        Field(
            description=(
                "The notation written back in its dialect, normalised (shorthands expanded): it "
                "reads back to the same roll."
            )
        ),
    ]
    comment: Annotated[
        str | None,
        Field(
            description="What followed the notation: avrae's comment, Foundry's `# flavor`; null: none."
        ),
    ]
    total: Annotated[
        int,
        Field(description="The total; repeated (`repeat` over 1), the repetitions' totals' sum."),
    ]
    terms: Annotated[
        list[TermResult],
        Field(description="Each dice term, left to right (repeated: empty, see `repetitions`)."),
    ]
    pools: Annotated[
        list[PoolResult],
        Field(
            description=(
                "Each pool (`{1d20, 1d20}kh`), left to right, outer before inner (repeated: empty)."
            )
        ),
    ]
    repeat: Annotated[int, Field(description="How many times the notation was rolled (1: once).")]
    repetitions: Annotated[
        list[Repetition],
        Field(description="Repeated: each repetition, in order; else empty."),
    ]
    dc: Annotated[
        int | None,
        Field(description="avrae's `!rrr` DC (a repetition succeeds at a total of at least it)."),
    ]
    successes: Annotated[
        int | None, Field(description="With a DC: the repetitions that reached it; else null.")
    ]


@with_config(ConfigDict(extra="forbid"))
class NotationOdds(TypedDict):
    notation: str
    dialect: Annotated[Dialect, Field(description="The dialect it was read in.")]
    formula: Annotated[str, Field(description="The notation written back in its dialect.")]
    total: Annotated[
        Distribution,
        Field(
            description=(
                "The total's exact distribution. `tail` is the mass of the rolls where a die's "
                "chain of explosions (or rerolls) reached the depth and would have gone on; those "
                "rolls are counted as the roller counts them in `mean`, `percentiles`, `at_least` "
                "and `at_most`, and left out of `result`."
            )
        ),
    ]
    at_least: Annotated[
        list[ValueProb], Field(description="P(total >= value) for every value the total can take.")
    ]
    at_most: Annotated[
        list[ValueProb], Field(description="P(total <= value) for every value the total can take.")
    ]
    repeat: Annotated[
        int, Field(description="The repetitions asked (`repeat`, avrae's `!rr N`); 1: once.")
    ]
    sum: Annotated[
        Distribution | None,
        Field(
            description=(
                "Repeated: the exact distribution of the repetitions' totals' sum (the roll's "
                "`total`); `total` above is one repetition's. Null when not repeated, or when the "
                "sum takes more values than an answer lists (5,000)."
            )
        ),
    ]
    dc: Annotated[int | None, Field(description="avrae's `!rrr` DC; null: none.")]
    successes: Annotated[
        list[ValueProb] | None,
        Field(
            description=(
                "With a DC: the chance that exactly `value` of the repetitions reach it (a total "
                "of at least the DC), for 0 to `repeat`; null without one."
            )
        ),
    ]
