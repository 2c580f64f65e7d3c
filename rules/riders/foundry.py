"""Foundry rolls of a Dragon Riders result (docs/foundry.md): each roll-off is ``Nd6 + bonus``, each
item that rolls dice its dice plus whatever else its value holds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.foundry import Pool, Say, plain, plus

ITEMS = ("riders.item.pre", "riders.counter.item")


def pools(req: Any, res: Mapping[str, Any], say: Say) -> list[Pool]:
    sides = {d["slot"]: d["sides"] for d in res["rolls"]}
    out: list[Pool] = []
    for event in res["events"]:
        code, p = event["code"], event["params"]
        if code == "riders.rolloff":
            terms = [plain(6, p["dice"]), *plus(p["bonus"])]
            text = say("rolloff", p)
            out.append(Pool(f"rolloff.{p['side']}", terms, p["total"], text, list(p["dice"])))
        elif code in ITEMS and p["dice"]:
            slot = f"item.{p['item']}"
            terms = [plain(sides[slot], p["dice"]), *plus(p["value"] - sum(p["dice"]))]
            out.append(Pool(slot, terms, p["value"], say("item", p), list(p["dice"])))
    return out
