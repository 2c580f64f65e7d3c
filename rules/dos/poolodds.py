"""The exact distribution of a DoS pool (DOS-1..7): result, luck and bad luck, no die drawn. The
pool is counted, not enumerated, in closed form, its polynomials single Python integers (Kronecker
substitution, :func:`rules.odds.kronecker`): the rolls without a surviving ten are
:func:`_normal`'s, those with ``q`` surviving tens and their chains :func:`_chained`'s
(docs/odds.md, "How the numbers are made").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.odds import Counts, coefficients, run, widen, width_for

D10 = 10
#: The explosion chains are cut where the mass beyond is below this (reported as `truncation`).
TAIL_BELOW = Fraction(1, 10**15)


@dataclass(frozen=True)
class PoolOdds:
    """A pool's result by flag, counts over one denominator, the cut chains' mass apart.

    ``none`` holds the rolls with neither luck nor bad luck; with ``tail_none`` and ``tail_luck``
    (the rolls whose chains were cut, DOS-3) the parts sum to the denominator.
    """

    size: int
    none: Counts
    luck: Counts
    bad_luck: Counts
    tail_none: int
    tail_luck: int
    tail_from: int

    @property
    def denominator(self) -> int:
        return self.none.denominator

    @property
    def tail(self) -> int:
        return self.tail_none + self.tail_luck

    def flags(self) -> tuple[Counts, Counts, Counts]:
        """(none, luck, bad luck), each tail counted as the result ``tail_from``: the smallest a
        cut roll can have, so every outcome decided below it is exact."""
        return (
            _with(self.none, self.tail_from, self.tail_none),
            _with(self.luck, self.tail_from, self.tail_luck),
            self.bad_luck,
        )

    def result(self) -> Counts:
        out = dict(self.none.counts)
        for part in (self.luck, self.bad_luck):
            for v, c in part.counts.items():
                out[v] = out.get(v, 0) + c
        return Counts(out, self.denominator)


def _with(d: Counts, value: int, count: int) -> Counts:
    if not count:
        return d
    out = dict(d.counts)
    out[value] = out.get(value, 0) + count
    return Counts(out, d.denominator)


def chain_cut(n: int, tens_mass: dict[int, int]) -> int:
    """The most chain tens ``J`` kept: P(J > cut) < :data:`TAIL_BELOW`, weighing each number ``q`` of
    surviving tens by its rolls ``tens_mass[q]`` (over 10^n)."""
    # P(J = j | q) = C(q + j - 1, j) 9^q / 10^(q + j); ``below[q]`` is P(J <= j | q) x 10^(q + j).
    # The rest, sum over q of mass_q / 10^n x (1 - P(J <= j | q)), is compared over 10^(n + top + j).
    top = max(tens_mass, default=0)
    below = dict.fromkeys(tens_mass, 0)
    bound = TAIL_BELOW
    j = 0
    while True:
        rest = 0
        for q, mass in tens_mass.items():
            below[q] = below[q] * 10 + comb(q + j - 1, j) * 9**q
            rest += mass * (10 ** (q + j) - below[q]) * 10 ** (top - q)
        if rest * bound.denominator < bound.numerator * 10 ** (n + top + j):
            return j
        j += 1


@lru_cache(maxsize=128)
def pool_odds(n: int) -> PoolOdds:
    """The exact distribution of an ``n``-dice pool (cached: it depends on ``n`` alone)."""
    if n == 0:
        return PoolOdds(0, Counts({0: 1}, 1), Counts({}, 1), Counts({}, 1), 0, 0, 1)
    cut = chain_cut(n, _tens_mass(n))
    denominator = 10 ** (2 * n + cut)
    width = width_for(denominator)
    scale = 10 ** (n + cut)
    narrow = width_for(10**n)
    normal, bad_luck = _normal(n, narrow)
    none: dict[int, int] = dict(_decode(normal, narrow, scale))
    chained, lucky = _chained(n, cut, width)
    for v, c in _decode(chained, width, 1):
        none[v] = none.get(v, 0) + c
    luck = dict(_decode(lucky, width, 1))
    return PoolOdds(
        size=n,
        none=Counts(none, denominator),
        luck=Counts(luck, denominator),
        bad_luck=Counts({0: bad_luck * scale} if bad_luck else {}, denominator),
        tail_none=_base_mass(n, False) * scale - sum(none.values()),
        tail_luck=_base_mass(n, True) * scale - sum(luck.values()),
        tail_from=D10 * (cut + 2) + 1,  # a surviving 10, a chain of cut + 1 tens and a last die
    )


def _decode(poly: int, width: int, scale: int) -> list[tuple[int, int]]:
    return [(v, c * scale) for v, c in enumerate(coefficients(poly, width)) if c]


def _at_least(w: int, s: int) -> list[int]:
    """N(w, s, g) for g = 0..s: the ways s dice in w..10 show w at least g times."""
    if w == D10:
        return [1] * (s + 1)
    terms = [comb(s, e) * (D10 - w) ** (s - e) for e in range(s + 1)]
    out = [0] * (s + 2)
    for e in range(s, -1, -1):
        out[e] = out[e + 1] + terms[e]
    return out[: s + 1]


def _powers(count: int, n: int, width: int) -> list[int]:
    """(1 + x + ... + x^(count-1))^a for a = 0..n."""
    out = [1]
    for _ in range(n):
        out.append(run(out[-1], count, width) if count else 0)
    return out


def _normal(n: int, width: int) -> tuple[int, int]:
    """The base rolls (over 10^n) that keep no 10 (DOS-2, DOS-5): their result's polynomial and
    the count of bad-luck rolls. The highest kept value ``w`` is 2..9, or nothing is kept."""
    bad_luck = sum(comb(n, k) * 9 ** (n - k) for k in range(n + 1) if k > n - k)
    normal = 0
    powers = {w: _powers(w - 2, n, width) for w in range(2, D10)}  # (x^2 + ... + x^(w-1)) / x^2
    at_least = {w: [_at_least(w, s) for s in range(n + 1)] for w in range(2, D10)}
    for k in range(n // 2 + 1):
        m, keep = n - k, n - 2 * k
        ck = comb(n, k)
        if keep == 0:
            normal += (ck * 9**m) << (k * width)
            continue
        for w in range(2, D10):
            for a in range(keep):
                g, s = keep - a, m - a
                coeff = ck * comb(m, a) * at_least[w][s][g]
                if coeff and powers[w][a]:
                    normal += (powers[w][a] * coeff) << ((g * w + k + 2 * a) * width)
    return normal, bad_luck


def _multinomial(n: int, k: int, q: int) -> int:
    """Orders of ``k`` ones, ``k + q`` tens and ``n - 2k - q`` dice of 2..9 among ``n`` dice."""
    return comb(n, k) * comb(n - k, k + q)


def _tens_mass(n: int) -> dict[int, int]:
    """The rolls (over 10^n) by number ``q`` >= 1 of surviving tens: ``k`` ones cancel ``k`` of
    ``k + q`` tens, and every other die (2..9, 8 faces) is kept."""
    return {
        q: sum(_multinomial(n, k, q) * 8 ** (n - 2 * k - q) for k in range((n - q) // 2 + 1))
        for q in range(1, n + 1)
    }


def _surviving(n: int, q: int, middle: list[int], width: int) -> tuple[int, list[int]]:
    """The base rolls with ``q`` surviving tens, (none, luck) polynomials over 10^n, both divided
    by x^low (returned first): their ``k`` ones count 1, the tens 10, the other dice 2..9."""
    kmax = (n - q) // 2
    low = kmax + D10 * q + 2 * (n - 2 * kmax - q)
    parts = [0, 0]
    for k in range(kmax + 1):
        a = n - 2 * k - q
        shift = k + D10 * q + 2 * a - low
        parts[2 * (k + q) > n] += (middle[a] * _multinomial(n, k, q)) << (shift * width)
    return low, parts


def _chained(n: int, cut: int, width: int) -> tuple[int, int]:
    """The rolls with surviving tens and their chains (DOS-3), (none, luck) over 10^(2n + cut).

    The ``q`` chains of ``q`` surviving tens show ``J`` tens with C(q + J - 1, J) / 10^J and ``q``
    last dice of 1..9 (``(x + ... + x^9)^q``, over 10^q). Each product is taken at the width its
    coefficients need, then widened (a product at the final width costs twice as much: 30 dice);
    :func:`_pascal` weighs and sums the chains.
    """
    narrow = width_for(10**n)
    middle, last = _powers(8, n, narrow), _powers(9, n, narrow)
    levels: tuple[list[int], list[int]] = ([], [])
    for q in range(1, n + 1):
        wide = width_for(10**n * 9**q)
        low, parts = _surviving(n, q, middle, narrow)
        ways = widen(last[q], narrow, wide)
        for level, poly in zip(levels, parts, strict=True):
            product = widen(widen(poly, narrow, wide) * ways, wide, width)
            level.append((product * 10 ** (n - q)) << ((low + q) * width))
    return _pascal(levels[0], cut, width), _pascal(levels[1], cut, width)


def _pascal(level: list[int], cut: int, width: int) -> int:
    """sum over q and J <= cut of C(q + J - 1, J) x^(10 J) 10^(cut - J) level[q - 1].

    The weights C(q + J - 1, J) come from repeated suffix sums (one more per J), additions only;
    10^(cut - J) x^(10 J) by Horner's rule.
    """
    out = 0
    for j in range(cut + 1):
        acc = 0
        for i in range(len(level) - 1, -1, -1):
            acc += level[i]
            level[i] = acc
        out = out * 10 + (acc << (D10 * j * width))
    return out


def _base_mass(n: int, lucky: bool) -> int:
    """Rolls (over 10^n) with luck (``lucky``) or with neither luck nor bad luck."""
    luck: int = sum(comb(n, t) * 9 ** (n - t) for t in range(n + 1) if t > n - t)
    bad: int = sum(comb(n, k) * 9 ** (n - k) for k in range(n + 1) if k > n - k)
    return luck if lucky else int(10**n) - luck - bad
