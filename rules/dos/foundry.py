"""Foundry rolls of a DoS result (docs/foundry.md), read from its events.

A pool (``dos.pool.rolled`` ... ``dos.pool.result``) is one ``Die`` of its base d10s with no ``x``
modifier (DOS-3 is not Foundry's explosion): a cancelled die is ``active: false, discarded: true``,
a surviving 10 ``exploded: true``, and the extra dice follow as plain results generation by
generation. The event that totals the pool (a test, a side, an attack, a defense) adds ``+ stat``
and the difficulty percentage as one more number, total - (stat + result). Initiative d10s add the
speed. The single d10s (damage, location, running) are the record's plain leftovers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.foundry import Json, Pool, die, plain, plus, result

#: What each roll was (moved to the gettext catalogs later): format templates over the parameters
#: of the event that totals the pool (``dos.test.*`` share one), or of the pool itself.
FLAVOR: dict[str, str] = {
    "dos.pool.result": "{slot}: {size}d10",
    "dos.test": "Test against DC {dc}",
    "dos.opposed.total": "Opposed test, side {side}",
    "dos.complex.attempt": "Complex test, attempt {n} against DC {dc}",
    "dos.attack.total": "{attacker} attacks",
    "dos.attack.ranged": "{attacker} shoots against DC {dc}",
    "dos.defense.total": "{defender}: {kind}",
    "dos.maneuver.side": "{who}: {kind} ({stat} + {skill})",
    "dos.initiative.rolled": "{id}: initiative",
    "dos.initiative.reroll": "{id}: initiative tie-break",
    "dos.luck": "{what}: luck!",
    "dos.bad_luck": "{what}: bad luck!",
}

#: Events that total the pool just rolled (the stat is under ``value`` for a maneuver side), by the
#: key of their flavor.
TOTALS: dict[str, str] = {
    "dos.test.success": "dos.test",
    "dos.test.failure": "dos.test",
    "dos.test.luck": "dos.test",
    "dos.test.bad_luck": "dos.test",
    "dos.opposed.total": "dos.opposed.total",
    "dos.complex.attempt": "dos.complex.attempt",
    "dos.attack.total": "dos.attack.total",
    "dos.attack.ranged": "dos.attack.ranged",
    "dos.defense.total": "dos.defense.total",
    "dos.maneuver.side": "dos.maneuver.side",
}


def flavor(key: str, luck: str | None, params: Mapping[str, Any]) -> str:
    what = FLAVOR[key].format(**params)
    return what if luck is None else FLAVOR[luck].format(what=what)


def pool_term(rolled: Mapping[str, Any], cancelled: set[int], chains: dict[int, list[int]]) -> Json:
    """The pool's ``Die``: base dice, then the extra dice generation by generation."""
    results = [
        result(v, active=False, discarded=True)
        if i in cancelled
        else result(v, exploded=True)
        if i in chains
        else result(v)
        for i, v in enumerate(rolled["dice"])
    ]
    depth = max((len(c) for c in chains.values()), default=0)
    for generation in range(depth):
        for i in sorted(chains):
            if generation < len(chains[i]):
                v = chains[i][generation]
                more = generation + 1 < len(chains[i])
                results.append(result(v, exploded=True) if more else result(v))
    return die(10, results, number=rolled["size"])


def pools(req: Any, res: Mapping[str, Any]) -> list[Pool]:
    """The pools and initiative rolls of a DoS result, in event order."""
    out: list[Pool] = []
    rolled: Mapping[str, Any] = {}
    cancelled: set[int] = set()
    chains: dict[int, list[int]] = {}
    luck: str | None = None
    open_pool: Pool | None = None
    for event in res["events"]:
        code, p = event["code"], event["params"]
        if code == "dos.pool.rolled":
            rolled, cancelled, chains, luck = p, set(), {}, None
        elif code == "dos.pool.all_cancelled":
            cancelled = set(range(p["ones"] + p["others"]))
        elif code == "dos.die.cancelled":
            cancelled.add(p["index"])
        elif code == "dos.die.exploded":
            chains[p["index"]] = p["extra"]
        elif code in ("dos.luck", "dos.bad_luck"):
            luck = code
        elif code == "dos.pool.result":
            claims = list(rolled["dice"]) + [v for c in chains.values() for v in c]
            term = pool_term(rolled, cancelled, chains)
            text = flavor(code, luck, rolled)
            open_pool = Pool(p["slot"], [term], p["result"], text, claims)
            out.append(open_pool)
        elif code in TOTALS and open_pool is not None:
            stat = p.get("value", p.get("stat"))
            if not isinstance(stat, int):  # a complex attempt names no stat: the request's
                stat = req.stat
            open_pool.terms += plus(stat, p["total"] - (stat + open_pool.total))
            open_pool.total = p["total"]
            open_pool.flavor = flavor(TOTALS[code], luck, p)
            open_pool = None
        elif code in ("dos.initiative.rolled", "dos.initiative.reroll"):
            terms = [plain(10, [p["roll"]]), *plus(p["speed"])]
            text = flavor(code, None, p)
            out.append(Pool(f"initiative.{p['id']}", terms, p["total"], text, [p["roll"]]))
    return out
