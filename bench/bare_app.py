"""The baseline: a bare FastAPI app with one POST endpoint taking a ~10-field pydantic model.

It is what "plain FastAPI" means in the benchmark: the route, FastAPI's request handling, the body
validated into a model, a small response model serialised by FastAPI. No middleware, no error
handlers. Run it with ``uvicorn bench.bare_app:app``.
"""

from __future__ import annotations

from typing import Literal

from fastapi import FastAPI
from pydantic import BaseModel, Field


class Options(BaseModel):
    ties: Literal["fail", "succeed"] = "fail"


class Check(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    stat: int = Field(ge=-1_000_000, le=1_000_000)
    skill: int = Field(ge=0, le=100)
    dc: int = Field(ge=-1_000_000, le=1_000_000)
    difficulty: Literal["trivial", "easy", "normal", "hard", "very_hard", "impossible"] | None = (
        None
    )
    modifier_percent: int | None = Field(default=None, ge=-100, le=100)
    seed: str | int | None = None
    dice: dict[str, list[int]] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list, max_length=16)
    options: Options = Field(default_factory=Options)


class Verdict(BaseModel):
    name: str
    total: int
    dc: int
    success: bool
    margin: int


app = FastAPI(title="bare")


@app.post("/check")
async def check(body: Check) -> Verdict:
    total = body.stat + body.skill
    return Verdict(
        name=body.name, total=total, dc=body.dc, success=total > body.dc, margin=total - body.dc
    )
