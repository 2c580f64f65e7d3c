"""Exact odds of a notation, drawing nothing: each dice term's total as integer counts over one
denominator (``rules.odds.Counts``), full and listed (its cut chains left out), combined by the
tree's operators; keep and drop among exploding dice are ``rules.notation.ranked``'s
(docs/notation.md, "Odds").
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb, log2, prod

from rules.errors import InvalidRequest, LimitExceeded
from rules.notation.models import NotationOdds, NotationOddsRequest
from rules.notation.parser import (
    DEPTH,
    Binary,
    Call,
    Dialect,
    Dice,
    Group,
    Negate,
    Node,
    Notation,
    Number,
    Pool,
    node_range,
    ranks,
    term_range,
)
from rules.notation.ranked import (
    Face,
    alike,
    atoms_of,
    exploding,
    most_of,
    order,
    ranked_odds,
    reaching,
    stages_of,
)
from rules.notation.ranked import Pool as RankedPool
from rules.notation.roll import Roller, notation_of
from rules.odds import (
    Counts,
    Distribution,
    ValueProb,
    coefficients,
    distribution,
    kronecker,
    prob_of,
    width_for,
)

#: Distinct totals an answer may list (each in three lists), and pairs an operator may combine.
MAX_VALUES = 5_000
MAX_PAIRS = 250_000
#: Digits of all the exact fractions of an answer, about (the 4 MiB answer limit).
MAX_DIGITS = 1_500_000
#: Steps of the keep/drop programme (values x dice x dice / 2), and those steps x the bits of its
#: polynomials (each step a product of one).
MAX_KEEP_STEPS = 200_000
MAX_KEEP_WORK = 4_000_000_000
#: Bits of a term's distribution as one polynomial (values x bits of a count): about 1 MB.
MAX_TERM_BITS = 8_000_000

Pair = tuple[Counts, Counts]  # (full, listed)


def notation_odds(req: NotationOddsRequest, shorthands: Mapping[str, str]) -> NotationOdds:
    roller = Roller(shorthands)
    parsed = roller.notation(req)
    repeat = roller.repeat(req)
    estimate(parsed, repeat)
    exact = parsed.dialect == "avrae"  # d20 divides exactly and truncates the total alone
    full, listed = node_odds(parsed.tree, exact=exact)
    if exact:
        full, listed = full.mapped(int), listed.mapped(int)
    listed = listed.scaled(full.denominator)
    if len(full.counts) > MAX_VALUES:
        raise _too_large(
            f"the total takes {len(full.counts):,} values; odds list at most {MAX_VALUES:,}"
        )
    if len(full.counts) * len(str(full.denominator)) * 6 > MAX_DIGITS:
        raise _too_large("the exact fractions of this answer would be too long to send")
    tail = full.mass - listed.mass
    dc = parsed.dc
    return {
        "notation": req.notation,
        "dialect": parsed.dialect,
        "formula": parsed.formula,
        "total": distribution(full, listed, tail),
        "at_least": _cumulative(full, reverse=True),
        "at_most": _cumulative(full, reverse=False),
        "repeat": repeat,
        "sum": repeated_sum(full, listed, repeat) if _sum_fits(full, repeat) else None,
        "dc": dc,
        "successes": None
        if dc is None or not _dc_fits(full, repeat)
        else reaching_dc(full, dc, repeat),
    }


def size_of(
    notation: str, shorthands: Mapping[str, str], dialect: Dialect = "foundry", repeat: int = 1
) -> int:
    """The steps the odds of ``notation`` take at most (:func:`estimate`); what would be too large
    to compute or to send is refused here, before anything is computed."""
    return estimate(notation_of(notation, shorthands, dialect), repeat)


# ---------------------------------------------------------------- repeats (issue 44)


def repeated_sum(full: Counts, listed: Counts, n: int) -> Distribution:
    """The sum of ``n`` independent repetitions: one big-integer power of the total's
    distribution (its tail: the rolls where any repetition's chain was cut)."""
    whole = power(full, n)
    shown = whole if listed is full else power(listed, n)
    return distribution(whole, shown, whole.mass - shown.mass)


def reaching_dc(full: Counts, dc: int, n: int) -> list[ValueProb]:
    """How many of ``n`` repetitions reach ``dc`` (a total of at least it, avrae's ``!rrr``): a
    binomial over the exact chance of one."""
    hit = sum(c for v, c in full.counts.items() if v >= dc)
    miss = full.denominator - hit
    denominator = full.denominator**n
    return [
        {"value": k, "p": prob_of(comb(n, k) * hit**k * miss ** (n - k), denominator)}
        for k in range(n + 1)
    ]


def _sum_fits(full: Counts, repeat: int) -> bool:
    """Whether the repetitions' sum is answered: repeated, and its values and their exact
    fractions within an answer's bounds (else ``sum`` is null: one repetition's odds stand)."""
    if repeat == 1 or not full.counts:
        return False
    span = repeat * (max(full.counts) - min(full.counts)) + 1
    return span <= MAX_VALUES and span * repeat * len(str(full.denominator)) * 6 <= MAX_DIGITS


def _dc_fits(full: Counts, repeat: int) -> bool:
    return (repeat + 1) * repeat * len(str(full.denominator)) <= MAX_DIGITS


def _repeat_steps(shape: Shape, repeat: int) -> float:
    """Steps of :func:`repeated_sum` and :func:`reaching_dc` for ``repeat`` repetitions of a
    total of ``shape``, at their bound (none where the sum is too wide to be answered)."""
    span = repeat * (shape.hi - shape.lo) + 1
    bits = repeat * shape.bits + 8
    if repeat == 1 or span > MAX_VALUES or span * bits * 0.31 * 6 > MAX_DIGITS:
        return float(repeat * _mul(bits)) if repeat > 1 else 0.0
    return 2 * _mul(span * bits / 2) + span * (10 + 3 * _mul(bits)) + repeat * _mul(bits)


# ---------------------------------------------------------------- the estimate
#
# What the loops below do, counted from the notation alone, in *steps*: one step is about one pass
# of a Python loop over dictionaries of big integers (about 0.1 us here); a product of two big
# integers of ``b`` bits counts (b / 30)^1.585 / MUL_WORDS steps (Karatsuba). Every term and every
# operator counts, each at its bound: a term's totals are its range, an operator's at most the
# product of its operands' (and its range). ``tests/rules/notation/test_odds.py`` measures the
# costliest accepted shape of each kind under about a second of CPU.

#: Steps an odds answer may take (about a second of CPU: ``test_the_costliest_answers_are_fast``).
MAX_STEPS = 3_500_000
#: Sorted tuples of kept totals a pool's programme may hold.
MAX_POOL_STATES = 200_000
#: Digit operations (30-bit digits) of a big-integer product per step.
MUL_WORDS = 30
#: Steps of one pass of the keep/drop programme, and bits of its polynomial per step more.
KEEP_STEP = 6
#: Steps of one move of ``rules.notation.ranked``'s programme (its dice through each stage).
RANKED_STEP = 14
KEEP_BITS = 2_000


@dataclass(frozen=True, slots=True)
class Shape:
    """What the estimate knows of a node's distribution: its range, the most values it takes (a
    bound), the bits of its denominator."""

    lo: int
    hi: int
    values: int
    bits: float

    @property
    def span(self) -> int:
        return self.hi - self.lo + 1


def _mul(bits: float, other: float | None = None) -> float:
    """Steps of one product of big integers of ``bits`` and ``other`` bits (Karatsuba; a lopsided
    product is the larger in slices of the smaller's size)."""
    small = max(bits if other is None else min(bits, other), 30.0)
    large = max(bits if other is None else max(bits, other), small)
    return float(large / small * (small / 30) ** 1.585 / MUL_WORDS)


def estimate(parsed: Notation, repeat: int = 1) -> int:
    """The steps the odds of ``parsed`` take (the comment above), its ``repeat`` repetitions'
    sum too; refuses, before anything is computed, what would pass :data:`MAX_STEPS`,
    :data:`MAX_PAIRS` or the answer's size."""
    steps: list[float] = []
    shape = _shape(parsed.tree, steps, parsed.dialect)
    steps.append(_repeat_steps(shape, repeat))
    values = min(shape.values, shape.span, MAX_VALUES + 1)  # more is refused once computed
    if values * shape.bits * 0.31 * 6 > MAX_DIGITS:
        raise _too_large("the exact fractions of this answer would be too long to send")
    # the answer: three lists of exact fractions (a gcd and two quotients each)
    total = sum(steps) + values * (10 + 3 * _mul(shape.bits))
    if total > MAX_STEPS:
        raise _too_large(
            f"computing these odds exactly takes about {total:,.0f} steps (each term's dice, "
            f"explosions and values, each operator's pairs); at most {MAX_STEPS:,}"
        )
    return int(total)


def _shape(node: Node, steps: list[float], dialect: Dialect) -> Shape:
    if isinstance(node, Dice):
        return _term_shape(node, steps, dialect)
    if isinstance(node, Number):
        return Shape(node.value, node.value, 1, 0.0)
    if isinstance(node, Group):
        return _shape(node.inner, steps, dialect)
    if isinstance(node, Negate):
        inner = _shape(node.operand, steps, dialect)
        steps.append(2 * inner.values)
        return Shape(-inner.hi, -inner.lo, inner.values, inner.bits)
    if isinstance(node, Pool):
        return _pool_shape(node, steps, dialect)
    if isinstance(node, Call):
        lo, hi = node_range(node)
        division = node.quotient
        if division is None:
            inner = _shape(node.arg, steps, dialect)
            steps.append(2 * inner.values)
            return Shape(lo, hi, min(inner.values, hi - lo + 1), inner.bits)
        a, b = _shape(division.left, steps, dialect), _shape(division.right, steps, dialect)
        pairs = a.values * b.values
        if pairs > MAX_PAIRS:
            raise _too_large(
                f"{node.name}( at column {node.column} divides up to {a.values:,} x "
                f"{b.values:,} values; at most {MAX_PAIRS:,}"
            )
        steps.append(4 * pairs)
        return Shape(lo, hi, min(pairs, hi - lo + 1), a.bits + b.bits)
    a, b = _shape(node.left, steps, dialect), _shape(node.right, steps, dialect)
    lo, hi = node_range(node)
    bits = a.bits + b.bits
    pairs = a.values * b.values
    if node.op in ("+", "-"):
        dense = a.span + b.span + _mul(a.span * (bits + 8), b.span * (bits + 8))
        steps.append(2 * min(pairs * 2, dense) + 4 * (a.values + b.values))
        return Shape(lo, hi, min(pairs, hi - lo + 1), bits)
    if pairs > MAX_PAIRS:
        raise _too_large(
            f"'{node.op}' at column {node.column} combines up to {a.values:,} x {b.values:,} "
            f"values; at most {MAX_PAIRS:,}"
        )
    steps.append(4 * pairs)
    return Shape(lo, hi, min(pairs, hi - lo + 1), bits)


def _pool_shape(node: Pool, steps: list[float], dialect: Dialect) -> Shape:
    """A pool's steps: its items, then its programme over the sorted tuples of kept totals (a
    count of successes: each total scored, the scores summed)."""
    shapes = [_shape(item, steps, dialect) for item in node.items]
    if node.success is not None:  # each total scored, then 3 x 3 pairs an item
        steps.append(sum(2 * s.values + 9 * len(shapes) for s in shapes))
        lo, hi = node_range(node)
        return Shape(lo, hi, hi - lo + 1, sum(s.bits for s in shapes))
    first, last = ranks(len(shapes), () if node.keep is None else (node.keep,))
    m = last - first
    widest = max(s.values for s in shapes)
    states = 1.0
    for shape in shapes:  # the sorted tuples of m totals, at most
        steps.append(3 * states * shape.values * (m + 1))
        states = min(states * shape.values, float(comb(widest + m - 1, m)))
    if states > MAX_POOL_STATES:
        raise _too_large(
            f"the pool at column {node.column} keeps {m} of {len(shapes)} totals of up to "
            f"{widest:,} values: too many to compute exactly"
        )
    lo, hi = node_range(node)
    return Shape(lo, hi, hi - lo + 1, sum(s.bits for s in shapes))


def _term_shape(term: Dice, steps: list[float], dialect: Dialect) -> Shape:
    """A term's steps; its errors name it as the request's dialect writes it."""
    sides = len(term.faces)
    lo, hi = term_range(term)
    bits = _denominator_bits(term)
    scores = [term.score(term.clamp(v)) for v in term.showing]
    die_span = max(scores) - min(scores)
    cost = float(2 * sides)  # the die, its rerolls
    chain = die_span + 1  # a die's values, explosions included
    if term.explode is not None:
        booming = sum(1 for v in term.faces if term.explode(v))
        for level in range(1, term.explosions + 1):
            cost += sides + booming * 3 * ((level + 1) * die_span + 1)
        chain = (term.explosions + 1) * die_span + 1
    die_bits = bits / term.count
    if term.count_from is not None:  # nested dice: the count's own terms, then a power a count
        count = _shape(term.count_from, steps, dialect)
        cost += count.values * (3 * chain + 2 * _mul((hi - lo + 1) * (bits + 8) / 2))
    elif term.matching is not None and term.match_count:
        cost += _matches_cost(term)
    elif _ranked(term):
        cost += _ranked_cost(term, lo, hi, bits, dialect)
    elif term.keeps:
        first, last = window(term)
        n = term.count
        width = n * die_bits + 8
        raw = chain if term.compound else len({term.clamp(v) for v in term.showing})
        keep_steps = raw * (n + 1) * (n + 2) / 2
        spread = die_span * (last - first) + 1
        if keep_steps > MAX_KEEP_STEPS or keep_steps * spread * width > MAX_KEEP_WORK:
            raise _too_large(
                f"{term.text(dialect)} (column {term.column}): keep/drop over {n} dice of {raw} "
                "values is too large"
            )
        # each step: a binomial, a power and a polynomial of spread x width bits multiplied
        cost += keep_steps * (KEEP_STEP + spread * width / KEEP_BITS) + 2 * spread
    else:
        width = bits + 8
        total_bits = (hi - lo + 1) * width
        if total_bits > MAX_TERM_BITS:
            raise _too_large(
                f"{term.text(dialect)} (column {term.column}): its {hi - lo + 1:,} totals over "
                f"denominators of {bits:,.0f} bits are too large to compute exactly"
            )
        # the power by squaring (its last product dominates), the coefficients read back
        cost += 3 * chain + 2 * _mul(total_bits / 2) + 2 * (hi - lo + 1)
    steps.append(cost)
    return Shape(lo, hi, hi - lo + 1, bits)


def _matches_cost(term: Dice) -> float:
    """Steps of :func:`matches_odds`: for each face, each state (dice placed, values matched) and
    each count of dice showing it; refused past :data:`MAX_KEEP_STEPS` x 5."""
    n = term.count
    states = (n + 1) * (min(len(term.faces), n // (term.matching or 2)) + 1)
    steps = len(term.faces) * states * (n + 2) / 2
    if steps > MAX_KEEP_STEPS * 5:
        raise _too_large(
            f"{term.text('roll20')} (column {term.column}): the matches of {n} dice of "
            f"{len(term.faces)} faces take {steps:,.0f} steps, too many to count exactly"
        )
    return steps * 3


def _ranked_cost(term: Dice, lo: int, hi: int, bits: float, dialect: Dialect) -> float:
    """Steps of ``rules.notation.ranked``'s programme for ``term``, counted at its bound: for each
    face in the programme's order, the states it meets (each atom it has met: its counts so far;
    each stage: its count, and a guessed stage its guess) times the dice it may show, each a
    product of a polynomial of the kept scores' span; then ``C^n`` (one power over the atoms'
    slots) and each final state times its weight."""
    n = term.count
    if term.explode is not None and not term.compound:
        faces, keys = atoms_of(term, rerolled(term))
        most = list(most_of(keys, n, term.explosions))
        sizes = [sum(1 for f in faces if f.atom == k) for k in range(len(keys))]
        bound_bits = sum(m * log2(size) for m, size in zip(most, sizes, strict=True))
    else:  # the dice alike: one atom of the die's values (a compounding chain's sums)
        values = (term.explosions + 1) * (max(term.faces) - min(term.faces)) + 1
        faces = [Face(v, v, 0, 1) for v in range(values)]
        most, bound_bits = [n], bits
    slots = prod(m + 1 for m in most)
    if slots > MAX_POOL_STATES:
        raise _too_large(
            f"{term.text(dialect)} (column {term.column}): keep/drop over {n} dice and their "
            f"explosions: {slots:,} counts of dice, too many to compute exactly"
        )
    ordered, guessed, stages = order(tuple(faces), stages_of(term))
    reach = reaching(stages, sum(most))
    kept = 1.0
    for stage, g, r in zip(stages, guessed, reach, strict=True):
        kept *= ((r + 1) * (r + 2) / 2 if stage.top else r + 1) if g else stage.top + 1
    width = max(bits, bound_bits) + 8
    scores = [term.score(term.clamp(v)) for v in term.faces]
    low = min(0, *scores)
    poly = ((hi - lo) - low * sum(most) + 1) * width
    touched: set[int] = set()
    transitions = 0.0
    for face in ordered:
        k = face.atom
        other = prod(most[a] + 1 for a in touched if a != k)
        transitions += (
            other * kept * ((most[k] + 1) * (most[k] + 2) / 2 if k in touched else most[k] + 1)
        )
        touched.add(k)
    if transitions > MAX_KEEP_STEPS * 5:
        raise _too_large(
            f"{term.text(dialect)} (column {term.column}): keep/drop over {n} dice and their "
            f"explosions takes {transitions:,.0f} steps of its programme, too many"
        )
    power = 2 * _mul(slots * width) + 3 * slots if term.explode is not None else 0.0
    final = slots * kept * (2 + _mul(poly, width))
    return float(transitions * (RANKED_STEP + poly / KEEP_BITS) + power + final)


def _denominator_bits(term: Dice) -> float:
    """Bits of the denominator of a term's distribution: each die's rerolled face (over the faces
    that stand, or sides^2 rerolled once), then sides for each explosion it may take."""
    sides = len(term.faces)
    if term.reroll is None:
        base = log2(sides)
    elif term.reroll_once:
        base = 2 * log2(sides)
    else:
        base = log2(len(term.standing)) if len(term.standing) > 1 else 0.0
    return term.count * (base + term.explosions * log2(sides))


def _too_large(msg: str) -> LimitExceeded:
    return LimitExceeded(f"notation: {msg}", [InvalidRequest.at(("notation",), msg).errors[0]])


def _cumulative(d: Counts, *, reverse: bool) -> list[ValueProb]:
    out: list[ValueProb] = []
    running = 0
    for v in sorted(d.counts, reverse=reverse):
        running += d.counts[v]
        out.append({"value": v, "p": prob_of(running, d.denominator)})
    return out[::-1] if reverse else out


# ---------------------------------------------------------------- the tree


def node_odds(node: Node, *, exact: bool = False) -> Pair:
    """A node's distribution (full, listed); ``exact``: ``/`` divides exactly (avrae), its values
    fractions where it made one."""
    if isinstance(node, Dice):
        return term_odds(node)
    if isinstance(node, Number):
        one = Counts({node.value: 1}, 1)
        return one, one
    if isinstance(node, Group):
        return node_odds(node.inner, exact=exact)
    if isinstance(node, Negate):
        full, listed = node_odds(node.operand, exact=exact)
        return full.mapped(lambda v: -v), listed.mapped(lambda v: -v)
    if isinstance(node, Call):
        return call_odds(node)
    if isinstance(node, Pool):
        items = [node_odds(item, exact=exact) for item in node.items]
        full = pool_odds(node, [f for f, _ in items])
        if all(f is li for f, li in items):
            return full, full
        return full, pool_odds(node, [li for _, li in items])
    a, b = node_odds(node.left, exact=exact), node_odds(node.right, exact=exact)
    full = combine(node, a[0], b[0], exact=exact)
    if a[0] is a[1] and b[0] is b[1]:  # no chain was cut on either side: one computation
        return full, full
    return full, combine(node, a[1], b[1], exact=exact)


def combine(node: Binary, a: Counts, b: Counts, *, exact: bool = False) -> Counts:
    if node.op in ("+", "-"):
        return _sum(a, b.mapped(lambda v: -v) if node.op == "-" else b)
    if len(a.counts) * len(b.counts) > MAX_PAIRS:  # pragma: no cover - the estimate refuses it
        raise _too_large(
            f"'{node.op}' at column {node.column} combines {len(a.counts):,} x "
            f"{len(b.counts):,} values; at most {MAX_PAIRS:,}"
        )
    if exact:
        return _pairwise(a, b, _quotient if node.op == "/" else operator.mul)
    f: Callable[[int, int], int] = int.__mul__ if node.op == "*" else int.__floordiv__
    return _pairwise(a, b, f)


def _quotient(a: int, b: int) -> int:
    """avrae's (d20's) ``/``: the exact quotient, a fraction where it is not whole (held in a
    distribution's values until the total is truncated)."""
    q = Fraction(a) / b
    return q.numerator if q.denominator == 1 else q  # type: ignore[return-value]


def pool_odds(node: Pool, items: list[Counts]) -> Counts:
    """A pool's total: the items are independent (each has its own dice); the kept ones are the
    top (or bottom) m of their totals, so a dynamic programme over the items holds, for each
    sorted tuple of the m best totals so far, its count. Roll20's grouped successes: the sum of
    each item's score (+1, -1, 0)."""
    if node.success is not None:
        scored = [item.mapped(node.score) for item in items]
        counted = scored[0]
        for more in scored[1:]:
            counted = _pairwise(counted, more, lambda x, y: x + y)
        return counted
    first, last = ranks(len(items), () if node.keep is None else (node.keep,))
    m = last - first
    top = first == 0  # kh, dl: the m highest; kl, dh: the m lowest
    state: dict[tuple[int, ...], int] = {(): 1}
    denominator = 1
    for item in items:
        nxt: dict[tuple[int, ...], int] = {}
        for kept, c in state.items():
            for v, cv in item.counts.items():
                key = tuple(sorted((*kept, v), reverse=top)[:m])
                nxt[key] = nxt.get(key, 0) + c * cv
        state = nxt
        denominator *= item.denominator
    out: dict[int, int] = {}
    for kept, c in state.items():
        _add(out, sum(kept), c)
    return Counts(out, denominator)


def call_odds(node: Call) -> Pair:
    division = node.quotient
    if division is None:
        full, listed = node_odds(node.arg)
        return full.mapped(node.apply), listed.mapped(node.apply)
    a, b = node_odds(division.left), node_odds(division.right)
    full = _pairwise(a[0], b[0], node.apply)
    if a[0] is a[1] and b[0] is b[1]:
        return full, full
    return full, _pairwise(a[1], b[1], node.apply)


def _sum(a: Counts, b: Counts) -> Counts:
    """``a + b``: one big-integer product over the span of the values (``Counts.plus``), or, when
    the values are sparse (``1d6*1000 + 1d6``), the pairs themselves, whichever is fewer steps."""
    if not a.counts or not b.counts:
        return Counts({}, a.denominator * b.denominator)
    whole = all(type(v) is int for v in a.counts) and all(type(v) is int for v in b.counts)
    span = max(a.counts) - min(a.counts) + max(b.counts) - min(b.counts) + 2
    if not whole or len(a.counts) * len(b.counts) * 2 < span:  # avrae's quotients: pair by pair
        return _pairwise(a, b, lambda x, y: x + y)
    return a.plus(b)


def _pairwise(a: Counts, b: Counts, f: Callable[[int, int], int]) -> Counts:
    out: dict[int, int] = {}
    for x, cx in a.counts.items():
        for y, cy in b.counts.items():
            v = f(x, y)
            out[v] = out.get(v, 0) + cx * cy
    return Counts(out, a.denominator * b.denominator)


# ---------------------------------------------------------------- a die, a term


def _add(d: dict[int, int], v: int, c: int) -> None:
    d[v] = d.get(v, 0) + c


def rerolled(term: Dice) -> Counts:
    """A base die's face after its rerolls (raw values, before min/max)."""
    faces = term.faces
    sides = len(faces)
    if term.reroll is None:
        return Counts(dict.fromkeys(faces, 1), sides)
    matching = [v for v in faces if term.reroll(v)]
    m = len(matching)
    if not term.reroll_once:  # again and again: the die given it does not match (exact)
        return Counts({v: 1 for v in faces if not term.reroll(v)}, sides - m)
    depth = term.rerolls
    # over sides^(depth+1): a face kept at draw k+1 (k rerolls before it) counts m^k s^(depth-k)
    stays = sum(m**k * sides ** (depth - k) for k in range(depth + 1))
    counts = {v: (m**depth if term.reroll(v) else stays) for v in faces}
    return Counts(counts, sides ** (depth + 1))


def die_odds(term: Dice) -> Pair:
    """One die's worth: its rerolled face, then its explosions (each a plain die), each die
    clamped, selected and scored; compounding (``!!``), the chain's sum so."""
    worth: Callable[[int], int] = term.worth
    explode = term.explode
    base = rerolled(term)
    if explode is None:
        d = base.mapped(worth)
        return d, d
    each: Callable[[int], int] = (lambda v: v) if term.compound else worth
    # an explosion's die: its face's worth (Roll20's penetrating die, its face less 1)
    added: Callable[[int], int] = (lambda v: each(v - 1)) if term.penetrate else each
    sides = len(term.faces)
    plain = {v: 1 for v in term.faces}
    # T_D: the die at the depth: it stands; the listed part leaves out the faces that would explode
    full = Counts({}, sides)
    listed = Counts({}, sides)
    for v in term.faces:
        _add(full.counts, added(v), 1)
        if term.explode_once or not explode(v):
            _add(listed.counts, added(v), 1)
    for _ in range(term.explosions - 1):
        full, listed = _level(plain, sides, full, listed, term, each=added)
    full, listed = _level(base.counts, base.denominator, full, listed, term, each=each)
    if term.compound:
        return full.mapped(worth), listed.mapped(worth)
    return full, listed


def _level(
    faces: Mapping[int, int],
    denominator: int,
    full: Counts,
    listed: Counts,
    term: Dice,
    *,
    each: Callable[[int], int],
) -> Pair:
    """A die of ``faces`` (counts over ``denominator``) whose exploding faces add a die ``full``."""
    assert term.explode is not None
    out_full: dict[int, int] = {}
    out_listed: dict[int, int] = {}
    scale = full.denominator
    for v, c in faces.items():
        s = each(v)
        if term.explode(v):
            for w, cw in full.counts.items():
                _add(out_full, s + w, c * cw)
            for w, cw in listed.counts.items():
                _add(out_listed, s + w, c * cw)
        else:
            _add(out_full, s, c * scale)
            _add(out_listed, s, c * scale)
    return Counts(out_full, denominator * scale), Counts(out_listed, denominator * scale)


def term_odds(term: Dice) -> Pair:
    if term.count_from is not None:
        return nested_odds(term)
    if term.matching is not None and term.match_count:
        d = matches_odds(term)
        return d, d
    if _ranked(term):
        return ranked_odds(ranked_pool(term), stages_of(term))
    if term.keeps:
        d = kept_odds(term)
        return d, d
    full, listed = die_odds(term)
    if full is listed:
        d = power(full, term.count)
        return d, d
    return power(full, term.count), power(listed, term.count)


def nested_odds(term: Dice) -> Pair:
    """Nested dice (``(2d6)d6``): for each count of dice its expression can total, that many dice
    (a power of one die), weighed by the count's chance (independent: the count has its own
    dice)."""
    assert term.count_from is not None
    count_full, count_listed = node_odds(term.count_from)
    die_full, die_listed = die_odds(term)
    full = _mixture(count_full, die_full, term.count)
    if count_full is count_listed and die_full is die_listed:
        return full, full
    return full, _mixture(count_listed, die_listed, term.count).scaled(full.denominator)


def _mixture(counts: Counts, die: Counts, most: int) -> Counts:
    """The sum of N dice of ``die``, N distributed as ``counts`` (0 to ``most``), over one
    denominator."""
    out: dict[int, int] = {}
    for n, c in counts.counts.items():
        scale = c * die.denominator ** (most - n)
        for v, k in power(die, n).counts.items():
            _add(out, v, k * scale)
    return Counts(out, counts.denominator * die.denominator**most)


def matches_odds(term: Dice) -> Counts:
    """Roll20's ``mt``: how many values at least ``term.matching`` of the ``n`` dice show (and
    meet its target). Over the faces in turn, how many of the dice left show each (a binomial
    of them), holding for each (dice placed, values matched) its count of rolls."""
    assert term.matching is not None
    n, least, target = term.count, term.matching, term.match_target
    state: dict[tuple[int, int], int] = {(0, 0): 1}
    for v in term.faces:
        counts = target is None or target(v)
        nxt: dict[tuple[int, int], int] = {}
        for (placed, matched), c in state.items():
            for shown in range(n - placed + 1):
                key = (placed + shown, matched + (counts and shown >= least))
                nxt[key] = nxt.get(key, 0) + c * comb(n - placed, shown)
        state = nxt
    out: dict[int, int] = {}
    for (placed, matched), c in state.items():
        if placed == n:
            _add(out, matched, c)
    return Counts(out, len(term.faces) ** n)


def power(d: Counts, n: int) -> Counts:
    if not d.counts:
        return Counts({}, d.denominator**n)
    denominator = d.denominator**n
    width = width_for(denominator)
    low = min(d.counts)
    poly = kronecker(d, low, width) ** n
    return Counts(
        {n * low + v: c for v, c in enumerate(coefficients(poly, width)) if c}, denominator
    )


def _plain(term: Dice) -> dict[str, object]:
    fields = {name: getattr(term, name) for name in Dice.__dataclass_fields__}
    return {**fields, "minimum": None, "maximum": None, "failures_only": False}


def window(term: Dice) -> tuple[int, int]:
    """The ranks kept, counted from the highest die (0) down: [first, last)."""
    return ranks(term.count, term.keeps)


def _ranked(term: Dice) -> bool:
    """Whether ``rules.notation.ranked`` answers the term: keep/drop among exploding dice, or
    avrae's set operators that rank (``10d6k1ph1``, ``4d6kh1kl1``)."""
    exploding = term.explode is not None and not term.compound
    return any(op.ranked for op in term.sets) or bool(term.keeps and exploding)


def raw_die(term: Dice) -> Counts:
    """A die of a term without explosions, or compounding (``!!``, its chain's sum, as the roller
    counts it), before min/max: the raw values its keeps rank."""
    if term.compound:
        fields = {**_plain(term), "keeps": (), "sets": (), "success": None, "failure": None}
        chain = Dice(**fields)  # type: ignore[arg-type]
        return die_odds(chain)[0]
    return rerolled(term)


def ranked_pool(term: Dice) -> RankedPool:
    if term.explode is not None and not term.compound:
        return exploding(term, rerolled(term))
    return alike(term, raw_die(term))


def kept_odds(term: Dice) -> Counts:
    """The sum of the kept dice's scores (docs/notation.md, "Odds"); a compounding die (``!!``) is its
    chain's sum, as the roller counts it."""
    raw = raw_die(term)
    die = raw.mapped(term.clamp)  # raw order = clamped order: min/max are monotone
    n = term.count
    values = sorted(die.counts, reverse=True)
    first, last = window(term)
    scores = {v: term.score(v) for v in values}
    low = min(scores.values())
    denominator = die.denominator**n
    width = width_for(denominator)
    steps = len(values) * (n + 1) * (n + 2) // 2
    spread = (max(scores.values()) - low) * (last - first) + 1
    if steps > MAX_KEEP_STEPS or steps * spread * width > MAX_KEEP_WORK:
        raise _too_large(
            f"{term.text()}: keep/drop over {n} dice of {len(values)} values is too large"
        )
    # state[m]: placed m dice (the m highest), a polynomial in (score - low x kept so far)
    state: dict[int, int] = {0: 1}
    for v in values:
        c = die.counts[v]
        step = (scores[v] - low) * width
        nxt: dict[int, int] = {}
        for m, poly in state.items():
            power = 1
            for j in range(n - m + 1):
                kept = max(0, min(m + j, last) - max(m, first))
                term_poly = poly * comb(n - m, j) * power << (kept * step)
                nxt[m + j] = nxt.get(m + j, 0) + term_poly
                power *= c
        state = nxt
    poly = state.get(n, 0)
    shift = low * (last - first)
    return Counts({shift + v: c for v, c in enumerate(coefficients(poly, width)) if c}, denominator)


__all__ = ["DEPTH", "notation_odds"]
