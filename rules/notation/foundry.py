"""The Foundry roll of a ``/dice/roll`` answer: one ``Roll`` of the whole formula written in Foundry's
dialect, each dice term a ``Die`` with every result flagged as Foundry flags it; the total is ours
(docs/notation.md, "Foundry").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.foundry import Json, Pool, Say, formula, numeric, operator
from rules.notation.parser import Binary, Call, Dice, Group, Negate, Node, Number, parse
from rules.notation.parser import Pool as Kept
from rules.notation.roll import evaluate


def pools(req: Any, res: Mapping[str, Any], say: Say) -> list[Pool]:
    """One Foundry roll of the formula; repeated, one a repetition (its dice: the next
    ``drawn`` of ``rolls``)."""
    # the normalised formula, in its dialect: shorthands expanded
    tree = parse(res["formula"], {}, res["dialect"]).tree
    flavor = say("roll", {"roller": req.name, "formula": res["formula"]})
    rolls = res["rolls"]
    out: list[Pool] = []
    start = 0
    for rolled in res["repetitions"] or [{**res, "drawn": len(rolls)}]:
        end = start + rolled["drawn"]
        pool = _pool(tree, rolled, rolls[start:end], flavor)
        start = end
        if pool is not None:
            out.append(pool)
    return out


def _pool(
    tree: Node, rolled: Mapping[str, Any], rolls: list[Mapping[str, Any]], flavor: str
) -> Pool | None:
    terms = node_terms(tree, {t["slot"]: t for t in rolled["terms"]})
    drawn: dict[str, list[int]] = {}
    for die in rolls:
        drawn.setdefault(die["slot"], []).append(die["value"])
    if not drawn:
        return None
    first, *others = list(drawn)
    more = {slot: drawn[slot] for slot in others}
    return Pool(first, terms, rolled["total"], flavor, drawn[first], more)


def node_terms(node: Node, terms: Mapping[str, Mapping[str, Any]]) -> list[Json]:
    if isinstance(node, Dice):
        return [die_term(node, terms[node.slot])]
    if isinstance(node, Number):
        term = numeric(node.value)
        return [{**term, "options": {"flavor": node.label}} if node.label else term]
    if isinstance(node, Negate):
        return [operator("-"), *node_terms(node.operand, terms)]
    if isinstance(node, Binary):
        left, right = node_terms(node.left, terms), node_terms(node.right, terms)
        return [*left, operator(node.op), *right]
    totals = {int(slot.split(".")[1]): t["total"] for slot, t in terms.items()}
    if isinstance(node, Call | Kept):
        # no function or pool term here: its value, its text as the flavor
        return [{**numeric(evaluate(node, totals)), "options": {"flavor": node.text("foundry")}}]
    inner = node_terms(node.inner, terms)
    return [parenthetical(node, inner, evaluate(node.inner, totals))]


def parenthetical(node: Group, inner: list[Json], total: int) -> Json:
    text = formula(inner)
    return {
        "class": "ParentheticalTerm",
        "options": {"flavor": node.label} if node.label else {},
        "evaluated": True,
        "term": text,
        "roll": {
            "class": "Roll",
            "options": {},
            "dice": [],
            "formula": text,
            "terms": inner,
            "total": total,
            "evaluated": True,
        },
    }


def die_term(spec: Dice, shown: Mapping[str, Any]) -> Json:
    counting = spec.success is not None
    results: list[Json] = []
    for d in shown["dice"]:
        status = d["status"]
        r: Json = {"result": d["value"], "active": status not in ("rerolled", "dropped")}
        if status == "rerolled":
            r["rerolled"] = True
        if status == "dropped":
            r["discarded"] = True
        if d["exploded"]:
            r["exploded"] = True
        if counting and r["active"]:
            r["success"] = status == "success"
            if status == "failure":
                r["failure"] = True
            r["count"] = d["counts"]
        elif spec.failures_only and r["active"]:  # cf alone: each failure counts 1
            r["failure"] = status == "failure"
            r["count"] = d["counts"]
        elif r["active"] and d["counts"] != d["value"]:
            r["count"] = d["counts"]  # min/max
        results.append(r)
    return {
        "class": "FateDie" if spec.kind == "fate" else "Die",
        "options": {"flavor": spec.label} if spec.label else {},
        "evaluated": True,
        # nested dice ((2d6)d6): the count its expression rolled
        "number": spec.count if spec.count_from is None else len(shown["dice"]),
        "faces": spec.sides,
        "modifiers": spec.modifiers("foundry", explicit=True),
        "results": results,
    }
