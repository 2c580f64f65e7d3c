"""What every ``foundry`` roll of an answer must satisfy (tests/foundry): the schema, the grammar of
its formula, its terms' arithmetic, our own number for its pool, and the dice of the record."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from rules.notation.parser import DEPTH
from tests.foundry.notation import compare, parse

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "schemas" / "foundry-roll.schema.json").read_text()
)
Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = Draft202012Validator(SCHEMA)


def die_value(term: dict[str, Any]) -> int:
    """A ``Die``'s total as Foundry counts it: active results, by ``count`` when set."""
    return sum(r.get("count", r["result"]) for r in term["results"] if r["active"])


def term_value(term: dict[str, Any]) -> int:
    if term["class"] in ("Die", "FateDie"):
        return die_value(term)
    if term["class"] == "ParentheticalTerm":
        return int(term["roll"]["total"])
    return int(term["number"])


def arithmetic(terms: list[dict[str, Any]]) -> int:
    """The terms evaluated as Foundry reads an expression: ``*`` and ``/`` before ``+`` and ``-``,
    left to right, a unary ``-`` on the term it precedes; ``/`` floors (our total, not Foundry's
    fraction: the roll carries ours)."""
    at = 0

    def is_op(i: int, *ops: str) -> bool:
        return (
            i < len(terms) and terms[i]["class"] == "OperatorTerm" and terms[i]["operator"] in ops
        )

    def operand() -> int:
        nonlocal at
        sign = 1
        while is_op(at, "-"):
            sign, at = -sign, at + 1
        assert at < len(terms) and terms[at]["class"] != "OperatorTerm", terms
        value = sign * term_value(terms[at])
        at += 1
        return value

    def product() -> int:
        nonlocal at
        value = operand()
        while is_op(at, "*", "/"):
            op = terms[at]["operator"]
            at += 1
            right = operand()
            if op == "*":
                value *= right
            else:
                assert right != 0, terms
                value //= right
        return value

    total = product()
    while is_op(at, "+", "-"):
        op = terms[at]["operator"]
        at += 1
        total = total + product() if op == "+" else total - product()
    assert at == len(terms), terms
    return total


#: The formulas of the systems before /dice (``4d10 + 20 - 5``, ``2d20kh + 2``, ``3d6cs>4``):
#: dice and numbers, ``+`` and ``-``, keep one and count successes over a bar; nothing else.
PLAIN = re.compile(
    r"(?:[0-9]+d[0-9]+(?:kh|kl|cs>[0-9]+)*|[0-9]+)(?: [+-] (?:[0-9]+d[0-9]+(?:kh|kl|cs>[0-9]+)*|[0-9]+))*"
)


def check_notation(roll: dict[str, Any], written: list[Any] | None = None) -> None:
    """The formula parses and says what the terms are, labels (``[fire]``, a term's flavor) and
    parenthesised groups (a ``ParentheticalTerm`` whose roll is the group's) included."""
    parsed = parse(roll["formula"]) if written is None else written
    assert len(parsed) == len(roll["terms"]), roll["formula"]
    for words, term in zip(parsed, roll["terms"], strict=True):
        kind = term["class"]
        label = term["options"].get("flavor")
        if kind in ("Die", "FateDie"):
            faces = "F" if kind == "FateDie" else term["faces"]
            head: tuple[Any, ...] = ("dice", term["number"], faces, term["modifiers"])
        elif kind == "NumericTerm":
            head = ("number", term["number"])
        elif kind == "ParentheticalTerm":
            assert words[0] == "group", (words, term)
            inner = term["roll"]
            assert term["term"] == inner["formula"] == words[2], term
            check_notation(inner, words[1])
            assert arithmetic(inner["terms"]) == inner["total"], inner
            head = ("group", words[1], words[2])
        else:
            assert label is None, term
            head = ("op", term["operator"])
        assert words == (head if label is None else (*head, label)), (words, term)


#: The order the roller applies a term's modifiers in (rules/notation/roll.py: rerolls, then
#: explosions, min/max, keep and drop, success counting); Foundry applies them as written.
RANK = {"r": 0, "x": 1, "mi": 2, "ma": 3, "k": 4, "d": 4, "cs": 5, "df": 6}


def rank(modifier: str) -> int:
    if modifier.startswith(("cs", "df", "mi", "ma")):
        return RANK[modifier[:2]]
    return RANK[modifier[0]]


def _compare_of(modifier: str, prefix: str) -> Any:
    return compare(modifier.removeprefix(prefix))


def check_die(term: dict[str, Any], *, strict: bool = False) -> None:
    """Each result fits its die and its modifiers as Foundry's API docs describe them: ``r`` rerolls
    once and ``rr`` again (each rerolled result inactive, its new die appended), ``x`` explodes
    again and ``xo`` once (each new die appended), ``min``/``max`` clamp what a die counts, ``kh``,
    ``kl``, ``dh``, ``dl`` keep or drop (``kh``/``kl`` alone: one), ``cs`` counts each success 1 and
    ``df`` deducts each failure 1. ``strict`` (a /dice roll) also refuses the flags no modifier
    explains (a DoS pool discards its cancelled dice and explodes its 10s by its own rules)."""
    results = term["results"]
    number = term["number"]
    fate = term["class"] == "FateDie"
    low, high = (-1, 1) if fate else (1, term["faces"])
    assert all(low <= r["result"] <= high for r in results), term
    for r in results:
        flags = (r["active"], r.get("discarded", False), r.get("rerolled", False))
        assert sum(flags) == 1, r
    mods: list[str] = term["modifiers"]
    ranks = [rank(m) for m in mods]
    assert ranks == sorted(ranks), mods
    kinds = [m[:2] if m.startswith(("cs", "df", "mi", "ma")) else m[0] for m in mods]
    assert all(kinds.count(k) == 1 for k in kinds if k not in ("k", "d")), mods
    assert ("df" not in kinds) or ("cs" in kinds), "df deducts failures of a cs count"
    by = {k: m for k, m in zip(kinds, mods, strict=True)}

    rerolled = [r for r in results if r.get("rerolled")]
    exploded = [r for r in results if r.get("exploded")]
    assert len(results) == number + len(rerolled) + len(exploded), term
    initial = number + len(rerolled)  # the base dice and their rerolls; then the explosions

    reroll = by.get("r")
    if reroll is None:
        assert not rerolled, term
    else:
        recursive = reroll.startswith("rr")
        when = _compare_of(reroll, "rr" if recursive else "r")
        assert all(when(r["result"]) for r in rerolled), term
        if recursive:
            standing = [r for r in results[:initial] if not r.get("rerolled") and when(r["result"])]
            assert not standing or len(rerolled) >= DEPTH, term  # only a chain cut stands
        else:
            assert len(rerolled) <= number
            assert all(r.get("rerolled", False) == when(r["result"]) for r in results[:number]), (
                term
            )
            assert not any(r.get("rerolled") for r in results[number:]), term
    explode = by.get("x")
    if explode is None:
        if strict:
            assert not exploded, term
    else:
        once = explode.startswith("xo")
        rest = explode.removeprefix("xo" if once else "x")
        when = compare(rest) if rest else (lambda v: v == high)
        assert all(when(r["result"]) for r in exploded), term
        if once:
            for r in results[:initial]:
                if not r.get("rerolled"):
                    assert r.get("exploded", False) == when(r["result"]), term
            assert not any(r.get("exploded") for r in results[initial:]), term
        else:
            standing = [
                r
                for r in results
                if not r.get("rerolled") and not r.get("exploded") and when(r["result"])
            ]
            assert not standing or len(exploded) >= DEPTH, term

    least = int(by["mi"][3:]) if "mi" in by else None
    most = int(by["ma"][3:]) if "ma" in by else None

    def clamp(v: int) -> int:
        if least is not None:
            v = max(v, least)
        if most is not None:
            v = min(v, most)
        return v

    live = [clamp(r["result"]) for r in results if not r.get("rerolled")]
    keeps = [m for k, m in zip(kinds, mods, strict=True) if k in ("k", "d")]
    for keep in keeps:
        how, n = keep[:2], int(keep[2:] or 1)
        ranked = sorted(live, reverse=True)
        n = min(n, len(ranked))
        live = {"kh": ranked[:n], "kl": ranked[len(ranked) - n :], "dh": ranked[n:]}.get(
            how, ranked[: len(ranked) - n]
        )
    kept = [clamp(r["result"]) for r in results if r["active"]]
    if keeps or strict:
        assert sorted(kept) == sorted(live), term
    if keeps:
        assert len(kept) == len(live)

    success = _compare_of(by["cs"], "cs") if "cs" in by else None
    failure = _compare_of(by["df"], "df") if "df" in by else None
    for r in results:
        if success is None:
            assert "success" not in r and "failure" not in r, r
            shown = clamp(r["result"])
            if r["active"] and shown != r["result"]:
                assert r["count"] == shown, r
            else:
                assert "count" not in r, r
        elif not r["active"]:
            assert not {"success", "failure", "count"} & set(r), r
        else:
            v = clamp(r["result"])
            count = 1 if success(v) else -1 if failure is not None and failure(v) else 0
            assert r["count"] == count and r["success"] == (count == 1), r
            assert r.get("failure", False) == (count == -1), r


def dice_terms(terms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dice terms, left to right, those of parenthesised groups included."""
    out: list[dict[str, Any]] = []
    for term in terms:
        if term["class"] in ("Die", "FateDie"):
            out.append(term)
        elif term["class"] == "ParentheticalTerm":
            out += dice_terms(term["roll"]["terms"])
    return out


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
    return any(m.startswith("cs") for t in dice_terms(roll["terms"]) for m in t["modifiers"])


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


def check_dice_roll(answer: dict[str, Any], roll: dict[str, Any]) -> Counter[tuple[str, int]]:
    """A /dice roll: one ``Roll`` of the whole formula, its dice terms those of the answer, in order
    (each its own slot), each showing the answer's dice of the term and its total; the roll's total
    the answer's. Returns the dice it shows, by slot (a Fate die's result -1..1 drawn as 1..3)."""
    ours_ = answer["terms"]
    mine = dice_terms(roll["terms"])
    assert len(mine) == len(ours_), (roll["formula"], answer["formula"])
    assert roll["total"] == answer["total"], roll
    shown: Counter[tuple[str, int]] = Counter()
    for term, our in zip(mine, ours_, strict=True):
        check_die(term, strict=True)
        assert [r["result"] for r in term["results"]] == [d["value"] for d in our["dice"]], term
        assert die_value(term) == our["total"], (term, our)
        assert term["options"].get("flavor") == our["label"], (term, our)
        lift = 2 if term["class"] == "FateDie" else 0
        shown.update((our["slot"], r["result"] + lift) for r in term["results"])
    assert roll["options"]["dragonroll"]["slot"] == ours_[0]["slot"]
    return shown


def check_answer(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every check on the answer's ``foundry`` rolls; returns them."""
    rolls = answer["foundry"]["rolls"]
    plain = {k: v for k, v in answer.items() if k != "foundry"}
    stated = ours(plain)
    dice_roller = answer["rules_version"].startswith("notation-")
    if dice_roller:  # one roll of the whole formula, if it draws any die
        assert len(rolls) == (1 if answer["rolls"] else 0), rolls
    shown: Counter[tuple[str, int]] = Counter()
    for roll in rolls:
        VALIDATOR.validate(roll)
        check_notation(roll)
        if dice_roller:
            shown += check_dice_roll(answer, roll)
        else:
            assert PLAIN.fullmatch(roll["formula"]), roll["formula"]
            for term in roll["terms"]:
                assert term["class"] != "FateDie" and not term["options"], term
                if term["class"] == "Die":
                    check_die(term)
                    shown.update(
                        (roll["options"]["dragonroll"]["slot"], r["result"])
                        for r in term["results"]
                    )
        assert arithmetic(roll["terms"]) == roll["total"], roll
        if dice_roller or not counts_successes(roll):
            assert roll["total"] in stated, roll
        origin = roll["options"]["dragonroll"]
        assert (origin["seed"], origin["rng"], origin["rules_version"]) == (
            answer["seed"],
            answer["rng"],
            answer["rules_version"],
        )
    if not dice_roller:
        check_successes(answer, [r for r in rolls if counts_successes(r)])
    drawn = Counter((d["slot"], d["value"]) for d in answer["rolls"])
    assert shown == drawn, "each die drawn is shown exactly once, under its slot"
    first = {d["slot"]: i for i, d in reversed(list(enumerate(answer["rolls"])))}
    order = [first[r["options"]["dragonroll"]["slot"]] for r in rolls]
    assert order == sorted(order), "rolls follow the draw order"
    return rolls
