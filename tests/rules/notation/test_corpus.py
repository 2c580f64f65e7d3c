"""The independent checks (issue 44): strings as users paste them into Foundry VTT, Roll20, avrae and
Dice Maiden, from each tool's public documentation (corpus.json cites the page of each), read as that
tool reads them or refused with a 422 that says what to write instead. avrae's are rolled by d20
itself on the dice we drew (its ``string_search_adv`` word applied as avrae applies it); the others'
totals are the documented meaning, worked by hand on a script of dice. No string is silently
misread: each either reads to its tool's total or is refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import d20  # type: ignore[import-untyped]
import d20.expression  # type: ignore[import-untyped]
import pytest

from rules.dice import DiceSource
from rules.errors import InvalidRequest
from rules.notation.models import NotationRollRequest
from rules.notation.roll import Roller

CORPUS = json.loads((Path(__file__).parent / "corpus.json").read_text(encoding="utf-8"))
ROLLER = Roller()
DIALECT = {"foundry": "foundry", "roll20": "roll20", "avrae": "avrae", "dice-maiden": "foundry"}


def _id(case: dict[str, Any]) -> str:
    return f"{case['tool']}: {case['text']}"


def test_every_case_cites_a_source() -> None:
    for case in CORPUS["cases"]:
        assert case["source"] in CORPUS["sources"], case


def d20_total(expr: str, values: list[int], adv: str | None) -> int:
    """d20 rolling ``expr`` as avrae hands it over (comments allowed, the adv word applied) on
    ``values``, every one of them."""
    supply: Iterator[int] = iter(values)

    def randrange(size: int, *rest: Any) -> int:
        return next(supply) - 1

    advantage = {"adv": d20.AdvType.ADV, "dis": d20.AdvType.DIS}.get(adv or "", d20.AdvType.NONE)
    with mock.patch.object(d20.expression.random, "randrange", randrange):
        result = d20.roll(expr, advantage=advantage, allow_comments=True)
    assert next(supply, None) is None, "d20 drew fewer dice than we did"
    return int(result.total)


@pytest.mark.parametrize("case", CORPUS["cases"], ids=_id)
def test_each_string_reads_as_its_tool_reads_it(case: dict[str, Any]) -> None:
    body: dict[str, Any] = {
        "notation": case["text"],
        "dialect": case.get("dialect", DIALECT[case["tool"]]),
        "data": case.get("data"),
        "seed": f"corpus {case['text']}",
    }
    if "script" in case:
        body["dice"] = case["script"]
    req = NotationRollRequest(**body)
    source = DiceSource(req.seed or "s", req.dice, ROLLER.slots(req) if req.dice else None)
    if "refused" in case:
        with pytest.raises(InvalidRequest) as info:
            ROLLER.roll(req, source)
        assert case["refused"] in str(info.value), str(info.value)
        return
    result = ROLLER.roll(req, source)
    for key in ("formula", "mode", "command", "comment"):
        if key in case:
            assert result[key] == case[key], (key, result[key])
    if "total" in case:
        assert result["total"] == case["total"]
        assert not result["unused_dice"], "the documented dice, every one of them"
    if "d20" in case:  # on many seeds: each its dice
        for seed in range(25):
            again = NotationRollRequest(**{**body, "seed": seed})
            _as_d20_rolls_it(case["d20"], ROLLER.roll(again, DiceSource(seed)))


def _as_d20_rolls_it(spec: dict[str, Any], result: Any) -> None:
    """Each roll (each repetition of !rr and !rrr) is d20's total on the same dice."""
    rolls = [r["value"] for r in result["rolls"]]
    repetitions = result["repetitions"] or [{"total": result["total"], "drawn": len(rolls)}]
    assert len(repetitions) == spec.get("repeat", 1)
    start = 0
    for repetition in repetitions:
        values = rolls[start : start + repetition["drawn"]]
        start += repetition["drawn"]
        assert d20_total(spec["expr"], values, spec.get("adv")) == repetition["total"], values
    if "dc" in spec:  # avrae's iterroll: a success is a total of at least the DC
        totals = [r["total"] for r in repetitions]
        assert result["successes"] == sum(t >= spec["dc"] for t in totals)
