"""DoS resolvers without combat: a bare pool, a simple, an opposed and a complex test (DOS-1..13)."""

from __future__ import annotations

from rules.dice import DiceSource, SlotSpec
from rules.dos.models import (
    Attempt,
    ComplexRequest,
    ComplexResult,
    OpposedRequest,
    OpposedResult,
    PoolRequest,
    RollResult,
    SideResult,
    TestRequest,
    TestResult,
)
from rules.dos.pool import D10, opposed_reason, opposed_winner, outcome, roll_pool, total
from rules.dos.sentences import SENTENCES
from rules.events import EventLog, foundry_trace


def roll_slots(req: PoolRequest) -> SlotSpec:
    return {"roll": D10}


def roll(req: PoolRequest, dice: DiceSource) -> RollResult:
    """A bare pool roll in slot ``roll`` (DOS-1..7)."""
    log = EventLog(SENTENCES)
    pool = roll_pool(dice, "roll", req.pool, log)
    return {**foundry_trace(dice, log), "roll": pool}


def test_slots(req: TestRequest) -> SlotSpec:
    return {"check": D10}


def test(req: TestRequest, dice: DiceSource) -> TestResult:
    """A simple test (DOS-11) in slot ``check``."""
    log = EventLog(SENTENCES)
    pool = roll_pool(dice, "check", req.skill, log)
    percent = req.percent
    tot = total(req.stat, pool["result"], percent)
    out = outcome(pool, tot, req.dc, req.options.ties)
    success = out in ("success", "luck")
    log.add(
        f"dos.test.{out}",
        stat=req.stat,
        result=pool["result"],
        percent=percent,
        total=tot,
        dc=req.dc,
    )
    return {
        **foundry_trace(dice, log),
        "roll": pool,
        "modifier_percent": percent,
        "total": tot,
        "dc": req.dc,
        "success": success,
        "outcome": out,
        "margin": tot - req.dc,
    }


def opposed_slots(req: OpposedRequest) -> SlotSpec:
    return {"a": D10, "b": D10}


def opposed(req: OpposedRequest, dice: DiceSource) -> OpposedResult:
    """An opposed test (DOS-12): side ``a`` rolls in slot ``a``, then side ``b`` in slot ``b``."""
    log = EventLog(SENTENCES)
    sides: dict[str, SideResult] = {}
    for name, side in (("a", req.a), ("b", req.b)):
        pool = roll_pool(dice, name, side.skill, log)
        percent = side.percent
        tot = total(side.stat, pool["result"], percent)
        log.add(
            "dos.opposed.total",
            side=name,
            stat=side.stat,
            result=pool["result"],
            percent=percent,
            total=tot,
        )
        sides[name] = {"roll": pool, "modifier_percent": percent, "total": tot}
    a, b = sides["a"], sides["b"]
    winner = opposed_winner(a["roll"], a["total"], b["roll"], b["total"])
    if winner is None:
        log.add("dos.opposed.tie", total=a["total"])
    else:
        loser = "b" if winner == "a" else "a"
        log.add(
            "dos.opposed.winner",
            winner=winner,
            loser=loser,
            winner_total=sides[winner]["total"],
            loser_total=sides[loser]["total"],
            reason=opposed_reason(winner, a["roll"], b["roll"]),
        )
    return {**foundry_trace(dice, log), "a": a, "b": b, "winner": winner}


def complex_slots(req: ComplexRequest) -> SlotSpec:
    return {f"attempt.{n}": D10 for n in range(1, req.attempts + 1)}


def complex_test(req: ComplexRequest, dice: DiceSource) -> ComplexResult:
    """A complex test (DOS-13): attempt n rolls in slot ``attempt.n`` until enough successes."""
    log = EventLog(SENTENCES)
    # What every attempt shares, read once: the pool, the stat, the DC and its reading (DOS-11).
    percent = req.percent
    skill, stat, dc, needed = req.skill, req.stat, req.dc, req.successes_needed
    ties = req.options.ties
    attempts: list[Attempt] = []
    successes = 0
    for n in range(1, req.attempts + 1):
        pool = roll_pool(dice, f"attempt.{n}", skill, log)
        tot = total(stat, pool["result"], percent)
        out = outcome(pool, tot, dc, ties)
        ok = out in ("success", "luck")
        successes += ok
        attempts.append({"n": n, "roll": pool, "total": tot, "success": ok, "outcome": out})
        log.add("dos.complex.attempt", n=n, total=tot, dc=dc, outcome=out, successes=successes)
        if successes >= needed:
            break
    success = successes >= needed
    partial = not success and successes > 0
    if success:
        log.add("dos.complex.success", attempts=len(attempts), successes=successes)
    else:
        log.add(
            "dos.complex.failure",
            attempts=len(attempts),
            successes=successes,
            needed=needed,
            partial=partial,
        )
    return {
        **foundry_trace(dice, log),
        "modifier_percent": percent,
        "attempts": attempts,
        "successes": successes,
        "success": success,
        "partial": partial,
    }
