"""What every ``foundry`` roll of an answer must satisfy (tests/foundry): the schema, the grammar of
its formula, its terms' arithmetic, our own number for its pool, and the dice of the record."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from tests.foundry.notation import parse

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "schemas" / "foundry-roll.schema.json").read_text()
)
Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = Draft202012Validator(SCHEMA)


def die_value(term: dict[str, Any]) -> int:
    """A ``Die``'s total as Foundry counts it: active results, by ``count`` when set."""
    return sum(r.get("count", r["result"]) for r in term["results"] if r["active"])


def arithmetic(terms: list[dict[str, Any]]) -> int:
    """The terms evaluated left to right: dice, numbers, ``+`` and ``-``."""
    total, sign = 0, 1
    for term in terms:
        if term["class"] == "OperatorTerm":
            sign = 1 if term["operator"] == "+" else -1
        else:
            total += sign * (die_value(term) if term["class"] == "Die" else term["number"])
    return total


def check_notation(roll: dict[str, Any]) -> None:
    """The formula parses and says what the terms are."""
    parsed = parse(roll["formula"])
    assert len(parsed) == len(roll["terms"]), roll["formula"]
    for written, term in zip(parsed, roll["terms"], strict=True):
        if term["class"] == "Die":
            assert written == ("dice", term["number"], term["faces"], term["modifiers"])
        elif term["class"] == "NumericTerm":
            assert written == ("number", term["number"])
        else:
            assert written == ("op", term["operator"])


def check_die(term: dict[str, Any]) -> None:
    """Each result fits its die and its modifiers as Foundry reads them."""
    results = term["results"]
    assert len(results) >= term["number"]
    assert all(1 <= r["result"] <= term["faces"] for r in results)
    for r in results:
        assert r["active"] != r.get("discarded", False), r
    for modifier in term["modifiers"]:
        if modifier in ("kh", "kl"):
            kept = [r["result"] for r in results if r["active"]]
            assert len(kept) == 1
            pick = max if modifier == "kh" else min
            assert kept[0] == pick(r["result"] for r in results)
        else:
            bar = int(modifier.removeprefix("cs>"))
            for r in results:
                assert r["success"] == (r["result"] > bar) and r["count"] == int(r["success"])


def ours(value: Any) -> set[int]:
    """Every number our own answer states as a total, a result, successes or a die (any depth)."""
    found: set[int] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("total", "result", "successes", "value", "roll") and type(item) is int:
                found.add(item)
            found |= ours(item)
    elif isinstance(value, list):
        for item in value:
            found |= ours(item)
    return found


def counts_successes(roll: dict[str, Any]) -> bool:
    return any(m.startswith("cs>") for t in roll["terms"] for m in t.get("modifiers", ()))


def check_successes(answer: dict[str, Any], rolls: list[dict[str, Any]]) -> None:
    """Dragon pools: an owner's rolls (and those of the entities joined to it) add up to the
    successes of the pair it won (DRG-9), to at least one for the dragon's sweep (DRG-11), else to
    none."""
    events = answer["events"]
    owner = {
        e["params"]["slot"]: e["params"]["owner"]
        for e in events
        if e["code"] == "dragon.pool.rolled"
    }
    won = {
        e["params"]["winner"]: e["params"]["successes"]
        for e in events
        if e["code"] == "dragon.pair.won"
    }
    swept = any(e["code"] == "dragon.sweep.taken" for e in events)
    ally = {
        e["params"]["id"]: e["params"]["ally"]
        for e in events
        if e["code"] == "dragon.left_over.join"
    }
    sums: Counter[str] = Counter()
    for roll in rolls:
        who = owner[roll["options"]["dragonroll"]["slot"]]
        sums[ally.get(who, who)] += roll["total"]
    dragon = owner.get("pool.dragon")
    for who, total in sums.items():
        if who in won:
            assert total == won[who], (who, total)
        elif swept and who == dragon:
            assert total >= 1
        else:
            assert total == 0, (who, total)


def check_answer(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every check on the answer's ``foundry`` rolls; returns them."""
    rolls = answer["foundry"]["rolls"]
    plain = {k: v for k, v in answer.items() if k != "foundry"}
    stated = ours(plain)
    shown: Counter[tuple[str, int]] = Counter()
    for roll in rolls:
        VALIDATOR.validate(roll)
        check_notation(roll)
        for term in roll["terms"]:
            if term["class"] == "Die":
                check_die(term)
                shown.update(
                    (roll["options"]["dragonroll"]["slot"], r["result"]) for r in term["results"]
                )
        assert arithmetic(roll["terms"]) == roll["total"], roll
        if not counts_successes(roll):
            assert roll["total"] in stated, roll
        origin = roll["options"]["dragonroll"]
        assert (origin["seed"], origin["rng"], origin["rules_version"]) == (
            answer["seed"],
            answer["rng"],
            answer["rules_version"],
        )
    check_successes(answer, [r for r in rolls if counts_successes(r)])
    drawn = Counter((d["slot"], d["value"]) for d in answer["rolls"])
    assert shown == drawn, "each die drawn is shown exactly once, under its slot"
    first = {d["slot"]: i for i, d in reversed(list(enumerate(answer["rolls"])))}
    order = [first[r["options"]["dragonroll"]["slot"]] for r in rolls]
    assert order == sorted(order), "rolls follow the draw order"
    return rolls
