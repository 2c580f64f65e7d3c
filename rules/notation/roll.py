"""Rolling a notation: term by term, left to right, one slot per dice term (``term.<n>``); within a
term the base dice, the rerolls and the explosions in the order Foundry draws them, then min/max,
keep and drop, counting (docs/notation.md, "The dice: slots and draw order").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.errors import InvalidRequest
from rules.events import EventLog, foundry_trace
from rules.notation.data import DataError, references, substitute
from rules.notation.models import (
    NotationRollRequest,
    NotationRollResult,
    PoolResult,
    Repetition,
    Status,
    TermDie,
    TermResult,
)
from rules.notation.parser import (
    DEPTH,
    SHORTHANDS,
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
)
from rules.notation.reading import others_reading, read_notation
from rules.notation.sentences import SENTENCES


@lru_cache(maxsize=1024)
def _parsed(text: str, table: tuple[tuple[str, str], ...], dialect: Dialect) -> Notation:
    return read_notation(text, dict(table), dialect)


def notation_of(
    text: str,
    shorthands: Mapping[str, str],
    dialect: Dialect = "foundry",
    table: tuple[tuple[str, str], ...] | None = None,
    data: Mapping[str, Any] | None = None,
) -> Notation:
    """``text`` as pasted, read with ``shorthands`` in ``dialect`` (rules/notation/reading.py), its
    data references replaced from ``data`` (rules/notation/data.py); a bad notation is a 422 at
    ``notation``, naming the dialects that would read it. ``table`` is the shorthands as the
    cache's key, if the caller holds it (:class:`Roller` does)."""
    read = text
    if references(text, dialect):
        try:
            read = substitute(text, data, dialect)
        except DataError as exc:
            raise InvalidRequest.at(("notation",), f"notation: {exc}") from None
    try:
        return _parsed(read, table or tuple(sorted(shorthands.items())), dialect)
    except NotationError as exc:
        hint = "" if '"dialect"' in exc.message else _hint(read, shorthands, dialect)
        replaced = f" (in {read!r}, its data references replaced)" if read != text else ""
        raise InvalidRequest.at(("notation",), f"notation: {exc}{replaced}{hint}") from None


def _hint(text: str, shorthands: Mapping[str, str], dialect: Dialect) -> str:
    others = others_reading(text, shorthands, dialect)
    if not others:
        return ""
    said = " or ".join(f'"dialect": "{d}"' for d in others)
    return f" ({' and '.join(others)} {'reads' if len(others) == 1 else 'read'} it: add {said})"


@dataclass(slots=True)
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


def roll_term(term: Dice, dice: DiceSource, text: str) -> tuple[TermResult, list[int] | None]:
    """Draw one dice term (written ``text``) and read it (docs/notation.md, "The dice: slots and
    draw order"); and, where a die shows another value than the face that exploded (Roll20's
    compounding ``!!`` and penetrating ``!p``), the faces that exploded, in draw order (the events
    name them)."""
    slot = term.slot
    drawn = dice.roll_many(slot, term.sides, term.count)
    plain = term.kind in ("plain", "percent")  # each die shows the face drawn
    results = [_Die(v) for v in drawn] if plain else [_Die(term.face(v)) for v in drawn]
    if term.reroll is not None:
        _scan(results, term, dice, reroll=True)
    booms: list[int] | None = None
    if term.explode is not None:
        _scan(results, term, dice, reroll=False)
        if term.compound or term.penetrate:
            booms = [d.value if d.face is None else d.face for d in results if d.exploded]
        if term.compound:
            results = _compounded(results)
    if term.keeps:
        _keep(results, term)
    if term.sets:
        _sets(results, term)
    # a kept die adds its value, unless min/max or a count change it
    scored = _scored(term)
    for die in results:
        if die.active and not die.dropped:
            die.counts = term.score(term.clamp(die.value)) if scored else die.value
    matched = None if term.matching is None else _matched(results, term)
    status = _status if scored else _plain_status
    shown: list[TermDie] = [
        {"value": d.value, "status": status(d, term), "exploded": d.exploded, "counts": d.counts}
        for d in results
    ]
    if term.sort is not None:  # Roll20's sa/sd: in order of value (stable), the total unchanged
        shown.sort(key=lambda d: d["value"], reverse=term.sort == "d")
    result: TermResult = {
        "slot": slot,
        "notation": text,
        "label": term.label,
        "dice": shown,
        "total": sum(d.counts for d in results),
        "matches": matched,
    }
    return result, booms


def _matched(results: list[_Die], term: Dice) -> list[int]:
    """Roll20's matches: the values at least ``term.matching`` dice show (meeting its target), in
    order of value; with ``mt`` the first die of each counts 1 and the others 0 (the term totals
    the matches), with ``m`` the total is unchanged."""
    seen: dict[int, int] = {}
    for die in results:
        seen[die.value] = seen.get(die.value, 0) + 1
    assert term.matching is not None
    target = term.match_target
    values = sorted(
        v for v, n in seen.items() if n >= term.matching and (target is None or target(v))
    )
    if term.match_count:
        firsts = {v: next(d for d in results if d.value == v) for v in values}
        for die in results:
            die.counts = 1 if firsts.get(die.value) is die else 0
    return values


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
        # highest first; min/max are monotone, so clamped values rank as the values do, ties
        # (which clamping makes) by draw order
        ranked = sorted(live, key=lambda i: (-term.clamp(results[i].value), i))
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


def _scored(term: Dice) -> bool:
    return not (
        term.minimum is None
        and term.maximum is None
        and term.success is None
        and term.failure is None
    )


def _plain_status(die: _Die, term: Dice) -> Status:
    if die.rerolled:
        return "rerolled"
    if die.dropped:
        return "dropped"
    return "exploded" if die.exploded else "kept"


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


def evaluate(node: Node, totals: Mapping[int, int], *, exact: bool = False) -> int:
    """The total of a tree, each dice term's total given: ``/`` floors; ``exact`` (avrae, as
    d20 divides), ``/`` divides exactly and the total alone is truncated (toward 0)."""
    value = value_of(node, totals, exact)
    return int(value)


def value_of(node: Node, totals: Mapping[int, int], exact: bool) -> int | Fraction:
    """A node's value: an integer, or with ``exact`` division a fraction where ``/`` made one."""
    if isinstance(node, Dice):
        return totals[node.index]
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Group):
        return value_of(node.inner, totals, exact)
    if isinstance(node, Negate):
        return -value_of(node.operand, totals, exact)
    if isinstance(node, Pool):
        totals_of = [value_of(item, totals, exact) for item in node.items]
        if node.success is not None:  # Roll20's grouped successes
            return sum(node.score(t) for t in totals_of)
        return sum(t for t, kept in zip(totals_of, node.kept(totals_of), strict=True) if kept)
    if isinstance(node, Call):
        division = node.quotient
        if division is not None:
            return node.apply(evaluate(division.left, totals), evaluate(division.right, totals))
        return node.apply(evaluate(node.arg, totals))
    a, b = value_of(node.left, totals, exact), value_of(node.right, totals, exact)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if b == 0:  # pragma: no cover - refused by the parser (a divisor's range excludes 0)
        raise InvalidRequest.at(("notation",), "notation: a division by 0")
    if exact:
        quotient = Fraction(a) / b
        return quotient.numerator if quotient.denominator == 1 else quotient
    return int(a // b)


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
    #: the shorthands as the parse cache's key, made once (it was made for each lookup: 5 a roll)
    table: tuple[tuple[str, str], ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", tuple(sorted(self.shorthands.items())))

    def notation(self, req: NotationRollRequest) -> Notation:
        return notation_of(req.notation, self.shorthands, req.dialect, self.table, req.data)

    def slots(self, req: NotationRollRequest) -> SlotSpec:
        return {t.slot: t.sides for t in self.notation(req).terms}

    def work(self, req: NotationRollRequest) -> Work:
        """Every die the notation can draw: each term's dice x (1 + rerolls + explosions a die may
        take), counted before any is drawn; and the answer's bytes at most (every die drawn shows
        in ``rolls``, in its term and in the events; :data:`DIE_BYTES`). A roll costs about 25 us
        of CPU per die counted, all told (``"+".join(["100d1000!>1"] * 9)``, 9,900 dice with
        ``foundry`` and ``lang: ar``: 1.9 MB, about 0.3 s)."""
        parsed = self.notation(req)
        repeat = self.repeat(req)
        draws = parsed.draws * repeat
        answer = (
            ANSWER_BASE
            + len(req.notation) * 4
            + NAME_BYTES * len(req.name or "")
            + TERM_BYTES * len(parsed.terms) * repeat
            + DIE_BYTES[req.foundry] * draws
        )
        return Work(
            draws,
            ("notation",),
            "the dice x (1 + rerolls + explosions) of each term, x the repeats",
            answer=answer,
            answer_how="the answer's size, counted from the dice the notation can draw",
        )

    def repeat(self, req: NotationRollRequest) -> int:
        """How many times the request rolls its notation: ``repeat``, or the notation's own
        (avrae's ``!rr 6``); both given, they must agree."""
        own = self.notation(req).repeat
        if req.repeat is not None and own is not None and req.repeat != own:
            raise InvalidRequest.at(
                ("repeat",),
                f"repeat is {req.repeat}, but the notation's command repeats it {own} times: "
                "give one of them",
            )
        return req.repeat or own or 1

    def roll(self, req: NotationRollRequest, dice: DiceSource) -> NotationRollResult:
        parsed = self.notation(req)
        n = self.repeat(req)
        log = EventLog(SENTENCES)
        if n == 1 and parsed.dc is None:
            total, terms, pools = _rolled(parsed, dice, log)
            log.add(
                "notation.total",
                roller=req.name,
                gender=req.gender if req.name else None,
                formula=parsed.formula,
                total=total,
            )
            return _answer(
                req, parsed, dice, log, total=total, terms=terms, pools=pools, repetitions=[]
            )
        repetitions = _repeated(parsed, dice, log, n)
        totals = [r["total"] for r in repetitions]
        successes = None if parsed.dc is None else sum(t >= parsed.dc for t in totals)
        log.add(
            "notation.repeated",
            checked=parsed.dc is not None,
            formula=parsed.formula,
            repeat=n,
            totals=totals,
            total=sum(totals),
            successes=successes,
            dc=parsed.dc,
        )
        return _answer(
            req, parsed, dice, log, total=sum(totals), terms=[], pools=[], repetitions=repetitions
        )


def _rolled(
    parsed: Notation, dice: DiceSource, log: EventLog
) -> tuple[int, list[TermResult], list[PoolResult]]:
    terms: list[TermResult] = []
    totals: dict[int, int] = {}
    for spec, text in zip(parsed.terms, parsed.texts, strict=True):
        term = spec
        if spec.count_from is not None:  # nested dice: its count rolled first (its terms before)
            term = replace(spec, count=evaluate(spec.count_from, totals))
        result, booms = roll_term(term, dice, text)
        tell(log, term, result, booms)
        terms.append(result)
        totals[term.index] = result["total"]
    total = evaluate(parsed.tree, totals, exact=parsed.dialect == "avrae")
    return total, terms, [pool_result(p, totals, parsed.dialect) for p in parsed.pools]


def _repeated(parsed: Notation, dice: DiceSource, log: EventLog, n: int) -> list[Repetition]:
    """Repetition i (from 1) rolled from the seed ``{seed}/{i}`` (a script, shared, read on in
    order), so that an ordinary request with that seed replays it alone."""
    out: list[Repetition] = []
    for i in range(1, n + 1):
        seed = f"{dice.seed}/{i}"
        before = len(dice.records())
        total, terms, pools = _rolled(parsed, dice.reseeded(seed), log)
        log.add("notation.repetition", index=i, total=total)
        drawn = len(dice.records()) - before
        out.append({"seed": seed, "total": total, "terms": terms, "pools": pools, "drawn": drawn})
    return out


def _answer(
    req: NotationRollRequest,
    parsed: Notation,
    dice: DiceSource,
    log: EventLog,
    *,
    total: int,
    terms: list[TermResult],
    pools: list[PoolResult],
    repetitions: list[Repetition],
) -> NotationRollResult:
    dc = parsed.dc
    return {
        **foundry_trace(dice, log),
        "notation": req.notation,
        "dialect": parsed.dialect,
        "command": parsed.command,
        "mode": parsed.mode,
        "advantage": parsed.advantage,
        "formula": parsed.formula,
        "comment": parsed.comment,
        "total": total,
        "terms": terms,
        "pools": pools,
        "repeat": max(1, len(repetitions)),
        "repetitions": repetitions,
        "dc": dc,
        "successes": None if dc is None else sum(r["total"] >= dc for r in repetitions),
    }


def pool_result(pool: Pool, totals: Mapping[int, int], dialect: Dialect) -> PoolResult:
    """A pool's items, each total as shown (avrae's exact quotients truncated), and the kept."""
    exact = dialect == "avrae"
    values = [value_of(item, totals, exact) for item in pool.items]
    counting = pool.success is not None  # Roll20's grouped successes: every total counts
    kept = [True] * len(values) if counting else pool.kept(values)
    total = (
        sum(pool.score(v) for v in values)
        if counting
        else sum(v for v, k in zip(values, kept, strict=True) if k)
    )
    return {
        "column": pool.column,
        "notation": pool.text(dialect),
        "items": [
            {"notation": item.text(dialect), "total": int(v), "kept": k}
            for item, v, k in zip(pool.items, values, kept, strict=True)
        ],
        "total": int(total),
    }


def tell(log: EventLog, spec: Dice, term: TermResult, booms: list[int] | None = None) -> None:
    """A term's events: its rerolls, its explosions (the faces that exploded: ``booms`` where a
    die shows another value), then what it shows and totals (Foundry's ``cf`` alone: its count
    of failures)."""
    dice = term["dice"]
    common = {"term": int(term["slot"].split(".")[1]), "notation": term["notation"]}
    rerolled = [d["value"] for d in dice if d["status"] == "rerolled"]
    if rerolled:
        log.add("notation.rerolled", **common, dice=rerolled)
    exploded = [d["value"] for d in dice if d["exploded"]] if booms is None else booms
    if exploded:
        log.add("notation.exploded", **common, dice=exploded, count=len(exploded))
    shown = [d["value"] for d in dice if d["status"] != "rerolled"]
    dropped = [d["value"] for d in dice if d["status"] == "dropped"]
    if spec.matching is not None:  # Roll20's m, mt
        matched = term["matches"] or []
        log.add(
            "notation.matched",
            **common,
            counting=spec.match_count,
            dice=shown,
            values=matched,
            matches=len(matched),
            total=term["total"],
        )
    elif spec.failures_only and spec.failure is not None:
        log.add(
            "notation.counted",
            **common,
            dice=shown,
            failing="only",
            successes=0,
            failures=term["total"],
            total=term["total"],
        )
    elif spec.success is not None:
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
