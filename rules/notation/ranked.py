"""Exact odds of a dice term whose dice are ranked where ``rules.notation.odds``'s keep/drop
programme does not hold: exploding dice that keep and drop rank among the rest (``4d6!d1``,
``3d6x>4kh2``, avrae's ``4d6e6kh3``) and ranked keeps beside value selectors (avrae's
``10d6k1ph1``). The atoms, a chain's generating function and the ranking programme:
docs/notation.md, "Odds".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import product
from math import comb, prod

from rules.notation.parser import Dice, Keep
from rules.odds import Counts, coefficients, width_for

Poly = dict[tuple[int, ...], int]  # a polynomial over the atoms: exponents -> coefficient


@dataclass(frozen=True, slots=True)
class Stage:
    """One keep or drop, on the dice still kept: it picks the ``top`` highest, the ``bottom``
    lowest and those whose value ``matches``; keeps them (``keep``) or drops them."""

    keep: bool
    top: int = 0
    bottom: int = 0
    matches: Callable[[int], bool] | None = None

    def mirrored(self) -> Stage:
        return Stage(self.keep, self.bottom, self.top, self.matches)


@dataclass(frozen=True, slots=True)
class Face:
    """A value a die can show, in its atom, with its weight (1 where the atoms carry it)."""

    value: int  # clamped: ranked, selected and scored
    score: int
    atom: int
    weight: int


@dataclass(frozen=True, slots=True)
class Pool:
    """A term's dice: its faces, and the weight of each count of dice per atom (full, listed)."""

    faces: tuple[Face, ...]
    full: Poly
    listed: Poly
    denominator: int
    most: tuple[int, ...]  # the most dice each atom can hold


def stages_of(term: Dice) -> tuple[Stage, ...]:
    """The term's keeps and drops in the order the roller applies them (its keeps, or avrae's set
    operators)."""
    out: list[Stage] = []
    for k in term.keeps:
        keep = k.how in ("kh", "kl")
        out.append(Stage(keep, k.n, 0) if k.how[1] == "h" else Stage(keep, 0, k.n))
    out += [
        Stage(
            op.keep,
            op.ranks("h"),
            op.ranks("l"),
            op.matches if any(not isinstance(p, Keep) for p in op.picks) else None,
        )
        for op in term.sets
    ]
    return tuple(out)


# ---------------------------------------------------------------- the pool


#: An atom's key: its faces explode; the base die's weight on them; whose dice it holds: both
#: the base dice and the explosions' (``"any"``), or, when an explosion's die shows another value
#: than its face (Roll20's ``!p``), the base dice's (``"base"``) or the explosions' (``"added"``).
Atom = tuple[bool, int, str]


def atoms_of(term: Dice, base: Counts) -> tuple[list[Face], list[Atom]]:
    """An exploding term's faces in their atoms (the weight of ``base``: the base die's face
    after its rerolls), and the atoms' keys."""
    explode = term.explode
    assert explode is not None
    keys: list[Atom] = []
    faces: list[Face] = []
    kinds = (("base", 0), ("added", 1)) if term.penetrate else (("any", 0),)
    for kind, less in kinds:
        for v in term.faces:
            weight = 1 if kind == "added" else base.counts.get(v, 0)
            key = (explode(v), weight, kind)
            if key not in keys:
                keys.append(key)
            value = term.clamp(v - less)
            faces.append(Face(value, term.score(value), keys.index(key), 1))
    return faces, keys


def most_of(keys: list[Atom], n: int, depth: int) -> tuple[int, ...]:
    """The most dice of ``n`` chains each atom can hold (a chain's dice: its base die, then up to
    ``depth`` explosions, all but its last on faces that explode)."""
    most = {"any": (n * (depth + 1), n), "base": (n, n), "added": (n * depth, n)}
    return tuple(most[kind][0 if x else 1] for x, _, kind in keys)


def alike(term: Dice, die: Counts) -> Pool:
    """``term``'s dice alike, each of ``die`` (raw values: its rerolled face, or a compounding
    chain's sum): one atom."""
    n = term.count
    faces = tuple(
        Face(term.clamp(v), term.score(term.clamp(v)), 0, c) for v, c in die.counts.items()
    )
    weights: Poly = {(n,): 1}
    return Pool(faces, weights, weights, die.denominator**n, (n,))


def exploding(term: Dice, base: Counts) -> Pool:
    """``term``'s exploding dice, its base die ``base``: the chain's generating function over the
    atoms (docs/notation.md, "Odds")."""
    n = term.count
    faces, keys = atoms_of(term, base)
    atoms = len(keys)
    sides, depth = len(term.faces), term.explosions
    most = most_of(keys, n, depth)

    def var(k: int, c: int = 1) -> Poly:
        return {tuple(int(i == k) for i in range(atoms)): c}

    def of(booms: bool, kinds: tuple[str, ...]) -> list[int]:
        return [k for k, (x, _, kind) in enumerate(keys) if x == booms and kind in kinds]

    tx: Poly = _sum(var(k) for k in of(True, ("any", "added")))
    tq: Poly = _sum(var(k) for k in of(False, ("any", "added")))

    def chain(last: Poly) -> Poly:
        e = last
        for level in range(depth - 1, 0, -1):
            e = _add(_scale(tq, sides ** (depth - level)), _mul(tx, e))
        stays = _sum(var(k, keys[k][1] * sides**depth) for k in of(False, ("any", "base")))
        booms = _sum(var(k, keys[k][1]) for k in of(True, ("any", "base")))
        return _add(stays, _mul(booms, e))

    denominator = (base.denominator * sides**depth) ** n
    full = _power(chain(_add(tq, tx)), n, most, denominator)
    listed = full if term.explode_once else _power(chain(tq), n, most, denominator)
    return Pool(tuple(faces), full, listed, denominator, most)


def _add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for k, c in b.items():
        out[k] = out.get(k, 0) + c
    return out


def _sum(parts: Iterator[Poly]) -> Poly:
    out: Poly = {}
    for p in parts:
        out = _add(out, p)
    return out


def _scale(a: Poly, c: int) -> Poly:
    return {k: v * c for k, v in a.items()}


def _mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, ca in a.items():
        for kb, cb in b.items():
            k = tuple(x + y for x, y in zip(ka, kb, strict=True))
            out[k] = out.get(k, 0) + ca * cb
    return out


def _power(c: Poly, n: int, most: tuple[int, ...], denominator: int) -> Poly:
    """``c^n`` by one big-integer power: each monomial a slot of ``width`` bits (its index in
    the atoms' mixed radix, ``most`` + 1 each)."""
    width = width_for(denominator)
    strides = [prod(m + 1 for m in most[:k]) for k in range(len(most))]
    poly = 0
    for key, coef in c.items():
        poly += coef << (width * sum(e * s for e, s in zip(key, strides, strict=True)))
    out: Poly = {}
    for slot, coef in enumerate(coefficients(poly**n, width)):
        if coef:
            exponents: list[int] = []
            index = slot
            for m in most:
                index, e = divmod(index, m + 1)
                exponents.append(e)
            out[tuple(exponents)] = coef
    return out


# ---------------------------------------------------------------- the ranking


def ranked_odds(pool: Pool, stages: tuple[Stage, ...]) -> tuple[Counts, Counts]:
    """The distribution of the kept dice's scores (full, listed): the ranking programme
    (docs/notation.md, "Odds")."""
    faces, guessed, stages = order(pool.faces, stages)
    low = min(0, *(f.score for f in faces))
    width = width_for(max(pool.denominator, bound(pool)))
    most = pool.most
    caps = tuple(s.top for s in stages)
    reach = reaching(stages, sum(most))
    # a state: (dice per atom, dice each stage has seen, each guessed stage's guess)
    state: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int] = {}
    # a guessed stage ranked from the bottom alone holds the dice it has still to see (its guess
    # to start); with a top too, its count and its guess
    for guess in product(
        *(range(r + 1) if g else (0,) for g, r in zip(guessed, reach, strict=True))
    ):
        left = tuple(
            t if g and not s.top else 0 for g, s, t in zip(guessed, stages, guess, strict=True)
        )
        state[((0,) * len(most), left, guess)] = 1
    for face in faces:
        k = face.atom
        nxt: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int] = {}
        for (atoms, seen, guess), poly in state.items():
            have = atoms[k]
            weight = 1
            for j in range(most[k] - have + 1):
                moved = _through(
                    stages,
                    guessed=guessed,
                    caps=caps,
                    seen=seen,
                    guess=guess,
                    value=face.value,
                    j=j,
                )
                if moved is None:
                    break  # a guessed stage saw more dice than its guess: so would more
                kept, after = moved
                shift = kept * face.score - low * j
                key = ((*atoms[:k], have + j, *atoms[k + 1 :]), after, guess)
                add = (poly * comb(have + j, j) * weight) << (shift * width)
                nxt[key] = nxt.get(key, 0) + add
                weight *= face.weight
        state = nxt
    full, listed = _weighed(state, pool, stages, guessed)
    whole = _read(full, low, width, pool.denominator)
    if pool.listed is pool.full:
        return whole, whole
    return whole, _read(listed, low, width, pool.denominator)


def _weighed(
    state: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int],
    pool: Pool,
    stages: tuple[Stage, ...],
    guessed: tuple[bool, ...],
) -> tuple[dict[int, int], dict[int, int]]:
    """The programme's end: each state whose guesses came true, weighed by the rolls that put its
    dice in its atoms (all of them, and the listed ones), by its number of dice."""
    full: dict[int, int] = {}
    listed: dict[int, int] = {}
    for (atoms, seen, guess), poly in state.items():
        if any(
            g and c != (t if st.top else 0)
            for g, st, c, t in zip(guessed, stages, seen, guess, strict=True)
        ):
            continue
        n = sum(atoms)
        for out, weights in ((full, pool.full), (listed, pool.listed))[
            : 1 if pool.listed is pool.full else 2
        ]:
            w = weights.get(atoms)
            if w:
                out[n] = out.get(n, 0) + poly * w
    return full, listed


def bound(pool: Pool) -> int:
    """The most ways a programme's coefficient counts (its atoms' faces, each to its dice)."""
    return prod(
        sum(f.weight for f in pool.faces if f.atom == a) ** m for a, m in enumerate(pool.most)
    )


def reaching(stages: tuple[Stage, ...], dice: int) -> tuple[int, ...]:
    """The most dice each stage can see: after a keep of ranks alone, its ranks."""
    out = []
    for stage in stages:
        out.append(dice)
        if stage.keep and stage.matches is None:
            dice = min(dice, stage.top + stage.bottom)
    return tuple(out)


def order(
    faces: tuple[Face, ...], stages: tuple[Stage, ...]
) -> tuple[tuple[Face, ...], tuple[bool, ...], tuple[Stage, ...]]:
    """The faces in the programme's order (from the highest value, or from the lowest when fewer
    stages rank from the top than from the bottom), the stages as that order sees them, and which
    of them rank from the other end (their count guessed)."""
    down = sum(1 for s in stages if s.bottom)
    up = sum(1 for s in stages if s.top)
    if up < down:
        return (
            tuple(sorted(faces, key=lambda f: f.value)),
            tuple(bool(s.top) for s in stages),
            tuple(s.mirrored() for s in stages),
        )
    return (
        tuple(sorted(faces, key=lambda f: -f.value)),
        tuple(bool(s.bottom) for s in stages),
        stages,
    )


def _through(
    stages: tuple[Stage, ...],
    *,
    guessed: tuple[bool, ...],
    caps: tuple[int, ...],
    seen: tuple[int, ...],
    guess: tuple[int, ...],
    value: int,
    j: int,
) -> tuple[int, tuple[int, ...]] | None:
    """``j`` dice of ``value`` through the stages: how many stay kept, and each stage's count."""
    a = j
    after: list[int] = []
    for stage, g, cap, c, t in zip(stages, guessed, caps, seen, guess, strict=True):
        matched = stage.matches is not None and stage.matches(value)
        if g and not stage.top:  # c: the dice it has still to see, these among them
            if a > c:
                return None
            picked = a if matched else _overlap(c - a, c, 0, stage.bottom)
            after.append(c - a)
        else:
            picked = a if matched else _overlap(c, c + a, 0, stage.top)
            if g:
                if c + a > t:
                    return None
                if not matched:  # d20 picks tied dice from one end, the earliest, both ways
                    picked = max(picked, _overlap(t - c - a, t - c, 0, stage.bottom))
                after.append(c + a)
            else:
                after.append(min(c + a, cap))
        a = picked if stage.keep else a - picked
    return a, tuple(after)


def _overlap(a: int, b: int, c: int, d: int) -> int:
    return max(0, min(b, d) - max(a, c))


def _read(by_count: dict[int, int], low: int, width: int, denominator: int) -> Counts:
    """The programme's polynomials (one per count of dice: each die's exponent its score less
    ``low``, a dropped die's ``-low``) read back as the term's totals."""
    out: dict[int, int] = {}
    for n, poly in by_count.items():
        for e, c in enumerate(coefficients(poly, width)):
            if c:
                v = e + low * n
                out[v] = out.get(v, 0) + c
    return Counts(out, denominator)


__all__ = ["Pool", "Stage", "alike", "exploding", "ranked_odds", "stages_of"]
