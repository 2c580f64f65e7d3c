"""Foundry rolls of a 5e result: a d20 roll, its advantage's dropped die discarded; a damage part as
written, a critical's dice doubled (docs/foundry.md, "Fifth-edition SRD (5e)").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.foundry import Json, Pool, Say, die, operator, plus, result

KEEP = {"advantage": "kh", "disadvantage": "kl"}
#: The d20 rolls an event records, by their flavor's key (and slot: ``initiative.<id>``).
ROLLED = {"dnd5e.initiative.rolled": "initiative", "dnd5e.stealth.rolled": "stealth"}


def d20_pool(slot: str, flavor: str, d20s: list[int], how: str, total: int) -> Pool:
    """``1d20 + m`` or ``2d20kh``/``2d20kl + m``: the die not kept discarded."""
    if len(d20s) == 1:
        term, natural = die(20, [result(d20s[0])]), d20s[0]
    else:
        natural = max(d20s) if how == "advantage" else min(d20s)
        kept = d20s.index(natural)
        results = [
            result(v) if i == kept else result(v, active=False, discarded=True)
            for i, v in enumerate(d20s)
        ]
        term = die(20, results, modifiers=[KEEP[how]])
    return Pool(slot, [term, *plus(total - natural)], total, flavor, list(d20s))


def damage_pool(req: Any, n: int, part: Mapping[str, Any], say: Say) -> Pool:
    """A damage part's dice as written, each term's critical dice in the same ``Die``."""
    terms: list[Json] = []
    rolls, crit = iter(part["rolls"]), iter(part["critical_rolls"])
    claims: list[int] = []
    critical = bool(part["critical_rolls"])
    for t in req.damage[n].formula.dice_terms:
        values = [abs(next(rolls)) for _ in range(t.count)]
        if critical:
            values += [abs(next(crit)) for _ in range(t.count)]
        claims += values
        if terms or t.sign < 0:
            terms.append(operator("-" if t.sign < 0 else "+"))
        terms.append(die(t.sides, [result(v) for v in values]))
    raw = sum(part["rolls"]) + sum(part["critical_rolls"]) + part["modifier"]
    terms += plus(part["modifier"], part["total"] - raw)
    key = "damage_critical" if critical else "damage"
    return Pool(f"damage.{n}", terms, part["total"], say(key, part), claims)


def pools(req: Any, res: Mapping[str, Any], say: Say) -> list[Pool]:
    out: list[Pool] = []
    if "attack" in res:
        a = res["attack"]
        out.append(d20_pool("attack", say("attack", a), a["d20s"], a["mode"], a["total"]))
        out += [damage_pool(req, n, part, say) for n, part in enumerate(res["damage"])]
    elif "d20s" in res:  # a check or a death save
        kind = "check" if "dc" in res else "death_save"
        how = res.get("mode") or ("advantage" if req.advantage else "disadvantage")
        out.append(d20_pool("d20", say(kind, res), res["d20s"], how, res["total"]))
    for event in res["events"]:
        code, p = event["code"], event["params"]
        rolled = ROLLED.get(code)
        if rolled is not None:
            text = say(rolled, p)
            out.append(d20_pool(f"{rolled}.{p['id']}", text, p["d20s"], p["mode"], p["total"]))
    return out
