"""Requests and results of ``/dice/roll`` and ``/dice/odds`` (docs/notation.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints, with_config
from typing_extensions import TypedDict

from rules.models import FoundryEnvelope, FoundryRollRequest, Gender, Name
from rules.notation.parser import MAX_LENGTH, Dialect
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
        int, Field(description="The term's total (successes less failures when counting).")
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


class NotationRollResult(FoundryEnvelope):
    notation: Annotated[str, Field(description="The notation as sent.")]
    dialect: Annotated[Dialect, Field(description="The dialect it was read in.")]
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
    total: int
    terms: Annotated[list[TermResult], Field(description="Each dice term, left to right.")]
    pools: Annotated[
        list[PoolResult],
        Field(description="Each pool (`{1d20, 1d20}kh`), left to right, outer before inner."),
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
