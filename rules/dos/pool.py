"""The DoS pool roll (DOS-1..8, DOS-10) and the outcome of a roll against a DC (DOS-11, DOS-12)."""

from __future__ import annotations

from collections.abc import Sequence
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
    """
    base = dice.roll_many(slot, D10, size)
    log.add("dos.pool.rolled", slot=slot, size=size, dice=base)  # nothing changes ``base`` after
    ones, tens = base.count(1), base.count(D10)
    pool: list[PoolDie] = []
    for v in base:
        pool.append({"value": v, "cancelled": False, "extra": False})
    result = sum(base)
    if ones:
        for i in _cancel(base, ones, slot, log):
            pool[i]["cancelled"] = True
            result -= base[i]
    if tens:
        extra = _explode(dice, slot, pool, log)
        for e in extra:
            pool.append({"value": e, "cancelled": False, "extra": True})
        result += sum(extra)
    luck = tens > size - tens  # DOS-6: more base 10s than other base dice (before cancelling)
    bad_luck = ones > size - ones  # DOS-5: more base 1s than other base dice
    if luck:
        log.add("dos.luck", slot=slot, tens=tens, others=size - tens)
    if bad_luck:
        log.add("dos.bad_luck", slot=slot, ones=ones, others=size - ones)
    log.add("dos.pool.result", slot=slot, result=result)
    return {"slot": slot, "dice": pool, "result": result, "luck": luck, "bad_luck": bad_luck}


def _cancel(base: list[int], ones: int, slot: str, log: EventLog) -> Sequence[int]:
    """DOS-2: the indices of the base dice the ones cancel.

    Each one cancels the highest other base die, the first rolled first among equals; with more
    ones than other dice, every die is cancelled.
    """
    others = len(base) - ones
    if ones > others:
        log.add("dos.pool.all_cancelled", slot=slot, ones=ones, others=others)
        return range(len(base))
    # Highest first; a reverse sort keeps the first rolled first among equals, so the ones come
    # last in the order they were rolled: the k-th one, order[others + k], cancels order[k].
    order = sorted(range(len(base)), key=base.__getitem__, reverse=True)
    for k in range(ones):
        i = order[k]
        log.add("dos.die.cancelled", slot=slot, index=i, value=base[i], by=order[others + k])
    return order[:ones]


def _explode(dice: DiceSource, slot: str, pool: list[PoolDie], log: EventLog) -> list[int]:
    """DOS-3: each base die that is a surviving 10, in base order, adds a d10, and another while a
    10 comes up (at most ``MAX_CHAIN``). Returns the extra dice in draw order."""
    extra: list[int] = []
    for i, die in enumerate(pool):
        if die["value"] != D10 or die["cancelled"]:
            continue
        chain = [dice.roll(slot, D10)]
        while chain[-1] == D10 and len(chain) < MAX_CHAIN:
            chain.append(dice.roll(slot, D10))
        extra += chain
        log.add("dos.die.exploded", slot=slot, index=i, extra=chain)
    return extra


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


def opposed_reason(
    winner: Literal["a", "b"] | None, a: PoolRoll, b: PoolRoll
) -> Literal["total", "luck", "bad_luck", "tie"]:
    """DOS-12: why an opposed test went as it did (``opposed_winner``'s answer, told)."""
    if winner is None:
        return "tie"
    w, lo = (a, b) if winner == "a" else (b, a)
    if w["luck"] and not lo["luck"]:
        return "luck"
    if lo["bad_luck"] and not w["bad_luck"]:
        return "bad_luck"
    return "total"
