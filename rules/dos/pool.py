"""The DoS pool roll (DOS-1..8, DOS-10) and the outcome of a roll against a DC (DOS-11, DOS-12)."""

from __future__ import annotations

from typing import Literal

from rules.dice import DiceSource
from rules.dos.models import Outcome, PoolDie, PoolRoll
from rules.events import EventLog

D10 = 10
#: DOS-3 decision: at most this many extra dice per base die (reached with probability 10**-100).
MAX_CHAIN = 100


def roll_pool(dice: DiceSource, slot: str, size: int, log: EventLog) -> PoolRoll:
    """Roll ``size`` d10 in ``slot`` with ones, tens, luck and bad luck (DOS-1..7).

    Draw order (DOS-7): the base dice, then for each surviving 10 in base order its whole chain.
    Ones cancel the highest other base dice, the first rolled first among equals (DOS-2).
    """
    base = dice.roll_many(slot, D10, size)
    ones = [i for i, v in enumerate(base) if v == 1]
    others = [i for i, v in enumerate(base) if v != 1]
    tens = sum(1 for v in base if v == D10)
    luck = tens > size - tens
    bad_luck = len(ones) > size - len(ones)
    log.add("dos.pool.rolled", slot=slot, size=size, dice=list(base))

    cancelled: set[int] = set()
    if ones and len(ones) > len(others):
        cancelled = set(range(size))
        log.add("dos.pool.all_cancelled", slot=slot, ones=len(ones), others=len(others))
    elif ones:
        highest = sorted(others, key=lambda i: (-base[i], i))[: len(ones)]
        for one, i in zip(ones, highest, strict=True):
            cancelled.add(i)
            log.add("dos.die.cancelled", slot=slot, index=i, value=base[i], by=one)

    pool: list[PoolDie] = [
        {"value": v, "cancelled": i in cancelled, "extra": False} for i, v in enumerate(base)
    ]
    result = sum(v for i, v in enumerate(base) if i not in cancelled)
    for i, v in enumerate(base):
        if v != D10 or i in cancelled:
            continue
        chain: list[int] = []
        while len(chain) < MAX_CHAIN:
            extra = dice.roll(slot, D10)
            chain.append(extra)
            if extra != D10:
                break
        for e in chain:
            pool.append({"value": e, "cancelled": False, "extra": True})
        result += sum(chain)
        log.add("dos.die.exploded", slot=slot, index=i, extra=chain)

    if luck:
        log.add("dos.luck", slot=slot, tens=tens, others=size - tens)
    if bad_luck:
        log.add("dos.bad_luck", slot=slot, ones=len(ones), others=size - len(ones))
    log.add("dos.pool.result", slot=slot, result=result)
    return {"slot": slot, "dice": pool, "result": result, "luck": luck, "bad_luck": bad_luck}


def total(stat: int, result: int, percent: int) -> int:
    """DOS-8, DOS-10: floor((stat + dice result) x (100 + modifier) / 100)."""
    return (stat + result) * (100 + percent) // 100


def outcome(roll: PoolRoll, total_: int, dc: int, ties: Literal["fail", "succeed"]) -> Outcome:
    """DOS-11: luck succeeds and bad luck fails whatever the total; otherwise total > DC."""
    if roll["luck"]:
        return "luck"
    if roll["bad_luck"]:
        return "bad_luck"
    if total_ > dc or (ties == "succeed" and total_ == dc):
        return "success"
    return "failure"


def opposed_winner(
    a: PoolRoll, a_total: int, b: PoolRoll, b_total: int
) -> Literal["a", "b"] | None:
    """DOS-12: luck beats no luck, bad luck loses to no bad luck, otherwise the higher total."""
    if a["luck"] != b["luck"]:
        return "a" if a["luck"] else "b"
    if a["bad_luck"] != b["bad_luck"]:
        return "b" if a["bad_luck"] else "a"
    if a_total == b_total:
        return None
    return "a" if a_total > b_total else "b"
