"""Rolling a notation (docs/notation.md): term by term, left to right, one slot per dice term.

Within a term (slot ``term.<n>``) the base dice are drawn first, in one go; then the rerolls, then the
explosions, each in the order Foundry draws them: the term's results are scanned from the first,
and each that must be rerolled (or explodes) draws its new die at once, appended to the results, so
the new dice are scanned in their turn (breadth first: the base dice's rerolls, then theirs). ``ro``
and ``xo`` scan the dice they start with only. A die explodes at most
:data:`~rules.notation.parser.DEPTH` times in a chain; the last die of a chain so cut stands. A die
is rerolled at most that many times too, the last of its rerolls drawn from the faces that stand
(a die of that many sides, its n-th value the n-th such face), so a chain of rerolls always ends
on a face that stands: "reroll until" exactly.
Then min/max apply to every die left, keep and drop in their written order, success counting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.errors import InvalidRequest
from rules.events import EventLog, foundry_trace
from rules.notation.models import (
    NotationRollRequest,
    NotationRollResult,
    PoolResult,
    Status,
    TermDie,
    TermResult,
)
from rules.notation.parser import (
    DEPTH,
    SHORTHANDS,
    Binary,
    Call,
    Dialect,
    Dice,
    Group,
    Negate,
    Node,
    Notation,
    NotationError,
    Number,
    Pool,
    parse,
)
from rules.notation.sentences import SENTENCES


@lru_cache(maxsize=1024)
def _parsed(text: str, table: tuple[tuple[str, str], ...], dialect: Dialect) -> Notation:
    return parse(text, dict(table), dialect)


def notation_of(text: str, shorthands: Mapping[str, str], dialect: Dialect = "foundry") -> Notation:
    """``text`` parsed with ``shorthands`` in ``dialect``; a bad notation is a 422 at
    ``notation``."""
    try:
        return _parsed(text, tuple(sorted(shorthands.items())), dialect)
    except NotationError as exc:
        raise InvalidRequest.at(("notation",), f"notation: {exc}") from None


@dataclass
class _Die:
    value: int
    boom: int = 0  # explosions in its chain before it
    again: int = 0  # rerolls in its chain before it
    root: int | None = None  # the index of the die whose explosion chain it continues
    active: bool = True
    rerolled: bool = False
    exploded: bool = False
    dropped: bool = False
    counts: int = 0
    face: int | None = None  # the face drawn, when it shows another value (Roll20's ``!p``)


def roll_term(term: Dice, dice: DiceSource, dialect: Dialect = "foundry") -> TermResult:
    """Draw one dice term and read it (the module docstring)."""
    slot = term.slot
    results = [_Die(term.face(v)) for v in dice.roll_many(slot, term.sides, term.count)]
    if term.reroll is not None:
        _scan(results, term, dice, reroll=True)
    if term.explode is not None:
        _scan(results, term, dice, reroll=False)
        if term.compound:
            results = _compounded(results)
    _keep(results, term)
    _sets(results, term)
    for die in results:
        if die.active and not die.dropped:
            die.counts = term.score(term.clamp(die.value))
    shown: list[TermDie] = [
        {"value": d.value, "status": _status(d, term), "exploded": d.exploded, "counts": d.counts}
        for d in results
    ]
    if term.sort is not None:  # Roll20's sa/sd: in order of value (stable), the total unchanged
        shown.sort(key=lambda d: d["value"], reverse=term.sort == "d")
    return {
        "slot": slot,
        "notation": term.text(dialect),
        "label": term.label,
        "dice": shown,
        "total": sum(d.counts for d in results),
    }


def _scan(results: list[_Die], term: Dice, dice: DiceSource, *, reroll: bool) -> None:
    """Foundry's scan: each active result that matches draws its new die at once, appended."""
    when = term.reroll if reroll else term.explode
    assert when is not None
    once = term.reroll_once if reroll else term.explode_once
    limit = 1 if once else DEPTH
    initial = len(results)
    checked = 0
    while checked < len(results) and not (once and checked >= initial):
        die = results[checked]
        checked += 1
        depth = die.again if reroll else die.boom
        if (
            not die.active
            or depth >= limit
            or not when(die.value if die.face is None else die.face)
        ):
            continue
        if reroll and depth + 1 == limit and not once:
            # the chain's last reroll: a die of the faces that stand (one face: no draw)
            standing = term.standing
            drawn = dice.roll(term.slot, len(standing)) if len(standing) > 1 else 1
            new = _Die(standing[drawn - 1])
        else:
            new = _Die(term.face(dice.roll(term.slot, term.sides)))
            if term.penetrate and not reroll:  # Roll20's penetrating die: its face less 1
                new.face, new.value = new.value, new.value - 1
        if reroll:
            die.active, die.rerolled, new.again = False, True, depth + 1
        else:
            die.exploded, new.boom = True, depth + 1
            new.root = checked - 1 if die.root is None else die.root
        results.append(new)


def _compounded(results: list[_Die]) -> list[_Die]:
    """Roll20's ``!!``: each chain of explosions one die, its value their sum (its dice are still
    in ``rolls``, in draw order)."""
    out: list[_Die] = []
    for die in results:
        if die.root is None:
            out.append(die)
        else:
            root = out[die.root]
            root.value += die.value
            root.exploded = root.exploded or die.exploded
    return out


def _sets(results: list[_Die], term: Dice) -> None:
    """avrae's set operators in their written order, as d20 applies them: each picks, of the dice
    still kept, its highest, its lowest and those whose value matches; ``k`` drops the others,
    ``p`` drops them."""
    for op in term.sets:
        live = [i for i, d in enumerate(results) if d.active and not d.dropped]
        # d20 sorts the kept dice stably each way: among equal values the earlier is picked
        # first, as the highest and as the lowest (2d4kh1kl1 on 1, 1 keeps one die)
        high = sorted(live, key=lambda i: (-term.clamp(results[i].value), i))[: op.ranks("h")]
        low = sorted(live, key=lambda i: (term.clamp(results[i].value), i))[: op.ranks("l")]
        picked = set(high) | set(low)
        picked |= {i for i in live if op.matches(term.clamp(results[i].value))}
        for i in live:
            if (i in picked) != op.keep:
                results[i].dropped = True


def _keep(results: list[_Die], term: Dice) -> None:
    """kh/kl/dh/dl in their written order, each on the dice still kept; ties: the earlier die
    ranks higher."""
    for keep in term.keeps:
        live = [i for i, d in enumerate(results) if d.active and not d.dropped]
        ranked = sorted(live, key=lambda i: (-term.clamp(results[i].value), i))  # highest first
        n = min(keep.n, len(ranked))
        if keep.how == "kh":
            out = ranked[n:]
        elif keep.how == "kl":
            out = ranked[: len(ranked) - n]
        elif keep.how == "dh":
            out = ranked[:n]
        else:
            out = ranked[len(ranked) - n :]
        for i in out:
            results[i].dropped = True


def _status(die: _Die, term: Dice) -> Status:
    if die.rerolled:
        return "rerolled"
    if die.dropped:
        return "dropped"
    if term.success is not None and die.counts > 0:
        return "success"
    if term.failure is not None and die.counts < 0:
        return "failure"
    if term.failures_only and die.counts > 0:  # Foundry's cf alone: a failure counts 1
        return "failure"
    return "exploded" if die.exploded else "kept"


def evaluate(node: Node, totals: Mapping[int, int]) -> int:
    """The total of a tree, each dice term's total given (``/`` floors)."""
    if isinstance(node, Dice):
        return totals[node.index]
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Group):
        return evaluate(node.inner, totals)
    if isinstance(node, Negate):
        return -evaluate(node.operand, totals)
    if isinstance(node, Pool):
        totals_of = [evaluate(item, totals) for item in node.items]
        return sum(t for t, kept in zip(totals_of, node.kept(totals_of), strict=True) if kept)
    if isinstance(node, Call):
        division = node.quotient
        if division is not None:
            return node.apply(evaluate(division.left, totals), evaluate(division.right, totals))
        return node.apply(evaluate(node.arg, totals))
    a, b = evaluate(node.left, totals), evaluate(node.right, totals)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if b == 0:  # pragma: no cover - refused by the parser (a divisor's range excludes 0)
        raise InvalidRequest.at(("notation",), "notation: a division by 0")
    return a // b


#: Bytes of an answer at most: its envelope and total, each name's mentions, each term's entry
#: (and its Foundry term), each die drawn (in ``rolls``, in its term, in the events' lists and
#: texts; with ``foundry``, in its Foundry term too): measured at most 196 bytes a die (1,000
#: sides, ``lang: ar``), 584 a term, 1,100 the rest (``tests/service/test_api_dice.py``).
ANSWER_BASE = 1_500
NAME_BYTES = 16
TERM_BYTES = 700
DIE_BYTES = {False: 170, True: 215}


@dataclass(frozen=True)
class Roller:
    """The ``/dice`` endpoints' functions over one shorthand table (DRAGONROLL_DICE_SHORTHANDS)."""

    shorthands: Mapping[str, str] = field(default_factory=lambda: dict(SHORTHANDS))

    def notation(self, req: NotationRollRequest) -> Notation:
        return notation_of(req.notation, self.shorthands, req.dialect)

    def slots(self, req: NotationRollRequest) -> SlotSpec:
        """One slot per dice term: ``term.<n>`` (its die size)."""
        return {t.slot: t.sides for t in self.notation(req).terms}

    def work(self, req: NotationRollRequest) -> Work:
        """Every die the notation can draw: each term's dice x (1 + rerolls + explosions a die may
        take), counted before any is drawn; and the answer's bytes at most (every die drawn shows
        in ``rolls``, in its term and in the events; :data:`DIE_BYTES`). A roll costs about 25 us
        of CPU per die counted, all told (``"+".join(["100d1000!>1"] * 9)``, 9,900 dice with
        ``foundry`` and ``lang: ar``: 1.9 MB, about 0.3 s)."""
        parsed = self.notation(req)
        draws = parsed.draws
        answer = (
            ANSWER_BASE
            + len(req.notation) * 4
            + NAME_BYTES * len(req.name or "")
            + TERM_BYTES * len(parsed.terms)
            + DIE_BYTES[req.foundry] * draws
        )
        return Work(
            draws,
            ("notation",),
            "the dice x (1 + rerolls + explosions) of each term",
            answer=answer,
            answer_how="the answer's size, counted from the dice the notation can draw",
        )

    def roll(self, req: NotationRollRequest, dice: DiceSource) -> NotationRollResult:
        parsed = self.notation(req)
        log = EventLog(SENTENCES)
        terms = [roll_term(t, dice, parsed.dialect) for t in parsed.terms]
        for term, result in zip(parsed.terms, terms, strict=True):
            tell(log, term, result)
        total = evaluate(
            parsed.tree, {t.index: r["total"] for t, r in zip(parsed.terms, terms, strict=True)}
        )
        log.add(
            "notation.total",
            roller=req.name,
            gender=req.gender if req.name else None,
            formula=parsed.formula,
            total=total,
        )
        totals = {t.index: r["total"] for t, r in zip(parsed.terms, terms, strict=True)}
        return {
            **foundry_trace(dice, log),
            "notation": req.notation,
            "dialect": parsed.dialect,
            "formula": parsed.formula,
            "comment": parsed.comment,
            "total": total,
            "terms": terms,
            "pools": [pool_result(p, totals, parsed.dialect) for p in pools_of(parsed.tree)],
        }


def pools_of(node: Node) -> list[Pool]:
    """The pools of a tree, left to right (outer before inner)."""
    if isinstance(node, Pool):
        return [node, *(p for item in node.items for p in pools_of(item))]
    if isinstance(node, Group):
        return pools_of(node.inner)
    if isinstance(node, Negate):
        return pools_of(node.operand)
    if isinstance(node, Call):
        return pools_of(node.arg)
    if isinstance(node, Binary):
        return pools_of(node.left) + pools_of(node.right)
    return []


def pool_result(pool: Pool, totals: Mapping[int, int], dialect: Dialect) -> PoolResult:
    values = [evaluate(item, totals) for item in pool.items]
    kept = pool.kept(values)
    return {
        "column": pool.column,
        "notation": pool.text(dialect),
        "items": [
            {"notation": item.text(dialect), "total": v, "kept": k}
            for item, v, k in zip(pool.items, values, kept, strict=True)
        ],
        "total": sum(v for v, k in zip(values, kept, strict=True) if k),
    }


def tell(log: EventLog, spec: Dice, term: TermResult) -> None:
    """A term's events: its rerolls, its explosions, then what it shows and totals."""
    dice = term["dice"]
    common = {"term": int(term["slot"].split(".")[1]), "notation": term["notation"]}
    rerolled = [d["value"] for d in dice if d["status"] == "rerolled"]
    if rerolled:
        log.add("notation.rerolled", **common, dice=rerolled)
    exploded = [d["value"] for d in dice if d["exploded"]]
    if exploded:
        log.add("notation.exploded", **common, dice=exploded, count=len(exploded))
    shown = [d["value"] for d in dice if d["status"] != "rerolled"]
    dropped = [d["value"] for d in dice if d["status"] == "dropped"]
    if spec.success is not None:
        successes = sum(1 for d in dice if d["status"] == "success")
        failures = sum(1 for d in dice if d["status"] == "failure")
        log.add(
            "notation.counted",
            **common,
            dice=shown,
            failing=spec.failure is not None,
            successes=successes,
            failures=failures,
            total=term["total"],
        )
    elif dropped:
        kept = [d["value"] for d in dice if d["status"] not in ("rerolled", "dropped")]
        log.add(
            "notation.kept", **common, dice=shown, kept=kept, dropped=dropped, total=term["total"]
        )
    else:
        log.add("notation.rolled", **common, dice=shown, total=term["total"])
