"""Dragons of Shadows: request and result types of the tests (DOS-1..13)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.models import (
    MAX_ATTEMPTS,
    MAX_POOL,
    Model,
    Resolution,
    RollRequest,
    Stat,
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


class TestOptions(Model):
    ties: Ties = Field(
        default="fail",
        description="DOS-11: whether a total equal to the DC fails (default) or succeeds.",
    )


# ---------------------------------------------------------------- requests


class PoolRequest(RollRequest):
    pool: Skill


class TestRequest(RollRequest, Modified):
    __test__ = False  # not a pytest class

    stat: Stat = Field(description="The stat (or sum of stats) the skill depends on.")
    skill: Skill
    dc: Stat = Field(description="The value the total must exceed (DOS-11).")
    options: TestOptions = Field(default_factory=TestOptions)


class OpposedSide(Modified):
    stat: Stat
    skill: Skill


class OpposedRequest(RollRequest):
    a: OpposedSide
    b: OpposedSide


class ComplexRequest(RollRequest, Modified):
    stat: Stat
    skill: Skill
    dc: Stat
    attempts: Annotated[int, Field(ge=1, le=MAX_ATTEMPTS, description="Attempts allowed (1-1000).")]
    successes_needed: Annotated[
        int, Field(ge=1, le=MAX_ATTEMPTS, description="Successes required (1-1000, <= attempts).")
    ]
    options: TestOptions = Field(default_factory=TestOptions)

    @model_validator(mode="after")
    def _reachable(self) -> ComplexRequest:
        if self.successes_needed > self.attempts:
            raise ValueError(
                f"successes_needed ({self.successes_needed}) is more than attempts "
                f"({self.attempts}): the test could never succeed"
            )
        return self


# ---------------------------------------------------------------- results


class PoolDie(Model):
    value: int = Field(description="1-10.")
    cancelled: bool = Field(description="Cancelled by a 1 (DOS-2): counts 0.")
    extra: bool = Field(description="An extra die added by a surviving 10 (DOS-3).")


class PoolRoll(Model):
    """A DoS pool roll (DOS-1..7), dice in draw order."""

    slot: str
    dice: list[PoolDie]
    result: int = Field(description="Non-cancelled base dice + every extra die (DOS-4).")
    luck: bool = Field(description="More base 10s than other base dice (DOS-6).")
    bad_luck: bool = Field(description="More base 1s than other base dice (DOS-5).")


class RollResult(Resolution):
    roll: PoolRoll


class TestResult(Resolution):
    __test__ = False

    roll: PoolRoll
    modifier_percent: int
    total: int = Field(description="floor((stat + dice result) x (100 + modifier) / 100) (DOS-8).")
    dc: int
    success: bool
    outcome: Outcome
    margin: int = Field(description="total - dc.")


class SideResult(Model):
    roll: PoolRoll
    modifier_percent: int
    total: int


class OpposedResult(Resolution):
    a: SideResult
    b: SideResult
    winner: Literal["a", "b"] | None = Field(description="null on a tie (DOS-12).")


class Attempt(Model):
    n: int
    roll: PoolRoll
    total: int
    success: bool
    outcome: Outcome


class ComplexResult(Resolution):
    modifier_percent: int
    attempts: list[Attempt] = Field(
        description="The attempts rolled, stopping at success (DOS-13)."
    )
    successes: int
    success: bool
    partial: bool = Field(description="Failed, but at least one attempt succeeded.")
