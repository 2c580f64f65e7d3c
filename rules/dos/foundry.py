"""Foundry rolls of a DoS result, read from its events: a pool one ``Die`` of its base d10s with no
``x`` modifier (DOS-3 is not Foundry's explosion), its extra dice generation by generation; the
single d10s the record's plain leftovers (docs/foundry.md, "Dragons of Shadows").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.foundry import Json, Pool, Say, die, plain, plus, result

#: Events that total the pool just rolled (the stat is under ``value`` for a maneuver side), by the
#: key of their flavor (``dos.foundry.<key>``, rules/dos/text.py).
TOTALS: dict[str, str] = {
    "dos.test.success": "test",
    "dos.test.failure": "test",
    "dos.test.luck": "test",
    "dos.test.bad_luck": "test",
    "dos.opposed.total": "opposed",
    "dos.complex.attempt": "complex",
    "dos.attack.total": "attack",
    "dos.attack.ranged": "ranged",
    "dos.defense.total": "defense",
    "dos.maneuver.side": "maneuver",
}
#: The flavors of the rolls no event totals, and of luck and bad luck (around another flavor).
OTHERS: dict[str, str] = {
    "dos.initiative.rolled": "initiative",
    "dos.initiative.reroll": "initiative_reroll",
    "dos.luck": "luck",
    "dos.bad_luck": "bad_luck",
}


def flavor(say: Say, key: str, luck: str | None, params: Mapping[str, Any]) -> str:
    what = say(key, params)
    return what if luck is None else say(OTHERS[luck], {"what": what})


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


def pools(req: Any, res: Mapping[str, Any], say: Say) -> list[Pool]:
    out: list[Pool] = []
    rolled: Mapping[str, Any] = {}
    cancelled: set[int] = set()
    chains: dict[int, list[int]] = {}
    luck: str | None = None
    open_pool: Pool | None = None
    # Pools told only if no event totals them (a bare /dos/roll): one flavor rendered per pool.
    untold: list[tuple[Pool, str | None, Mapping[str, Any]]] = []
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
            open_pool = Pool(p["slot"], [term], p["result"], "", claims)
            out.append(open_pool)
            untold.append((open_pool, luck, rolled))
        elif code in TOTALS and open_pool is not None:
            stat = p.get("value", p.get("stat"))
            if not isinstance(stat, int):  # a complex attempt names no stat: the request's
                stat = req.stat
            open_pool.terms += plus(stat, p["total"] - (stat + open_pool.total))
            open_pool.total = p["total"]
            open_pool.flavor = flavor(say, TOTALS[code], luck, p)
            open_pool = None
        elif code in ("dos.initiative.rolled", "dos.initiative.reroll"):
            terms = [plain(10, [p["roll"]]), *plus(p["speed"])]
            text = flavor(say, OTHERS[code], None, p)
            out.append(Pool(f"initiative.{p['id']}", terms, p["total"], text, [p["roll"]]))
    for pool, pool_luck, params in untold:
        if not pool.flavor:
            pool.flavor = flavor(say, "pool", pool_luck, params)
    return out
