"""Foundry rolls of a dragon battle (docs/foundry.md): each pool rolled (one die size a slot) is a
``Die`` counting successes, ``cs>N`` with N the highest die it had to beat (DRG-9, DRG-11), so the
rolls of a winner add up to its successes; a party that won nothing counts against its own highest
die, 0 successes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.foundry import Json, Pool, Say, die, result


def counted(p: Mapping[str, Any], against: int | None, say: Say) -> Pool:
    """The pool's ``Die`` counting the dice above ``against`` (its own highest: none)."""
    bar = max(p["dice"]) if against is None else against
    results: list[Json] = [result(v, success=v > bar, count=int(v > bar)) for v in p["dice"]]
    successes = sum(r["count"] for r in results)
    key = "none" if against is None else "won"
    text = say(key, {**p, "against": bar, "successes": successes})
    term = die(p["sides"], results, modifiers=[f"cs>{bar}"])
    return Pool(p["slot"], [term], successes, text, list(p["dice"]))


def pools(req: Any, res: Mapping[str, Any], say: Say) -> list[Pool]:
    """One pool per ``dragon.pool.rolled``, counted when its owner's pair (or sweep) is resolved."""
    pending: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    out: list[tuple[int, Pool]] = []
    order = 0
    dragon = "dragon"  # the dragon's id: the owner of slot pool.dragon

    joined: dict[str, str] = {}  # a left-over entity's dice add to its ally's roll

    def settle(owner: str, against: int | None) -> None:
        for who in [owner, *(j for j, ally in joined.items() if ally == owner)]:
            for index, p in pending.pop(who, []):
                out.append((index, counted(p, against, say)))

    for event in res["events"]:
        code, p = event["code"], event["params"]
        if code == "dragon.pool.rolled":
            pending.setdefault(p["owner"], []).append((order, p))
            order += 1
            if p["slot"] == "pool.dragon":
                dragon = p["owner"]
        elif code == "dragon.left_over.join":
            joined[p["id"]] = p["ally"]
        elif code == "dragon.pair.won":
            settle(p["winner"], p["loser_highest"])
        elif code == "dragon.sweep.taken":
            settle(dragon, p["opponent_highest"])
    for owner in list(pending):
        settle(owner, None)
    return [pool for _, pool in sorted(out, key=lambda x: x[0])]
