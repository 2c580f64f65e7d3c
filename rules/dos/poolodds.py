"""The exact distribution of a DoS pool (DOS-1..7): result, luck and bad luck, no die drawn.

The pool of ``n`` d10 is counted, not enumerated. With ``k`` ones (k <= n - k) the ``m = n - k``
other base dice lose their ``k`` highest (DOS-2), so the ``L = n - 2k`` lowest are kept. Name ``w``
the highest kept value: every die below ``w`` is kept (``a`` of them, values 2..w-1), ``g = L - a``
dice showing ``w`` are kept, and the ``s = m - a`` dice left all show ``w`` or more (at least ``g``
show ``w``). So, over the ``10^n`` equally likely rolls::

    rolls(k, w, a) = C(n, k) C(m, a) (x^2 + ... + x^(w-1))^a x^(g w + k) N(w, s, g)

with ``N(w, s, g)`` the ways ``s`` dice in ``w..10`` show ``w`` at least ``g`` times (1 for
``w = 10``: the ``s`` dice are all tens). Only ``w = 10`` keeps tens: ``g`` of them survive and
explode (DOS-3); luck needs more tens than other dice, which only happens there (``s > n - s``).
More ones than other dice is bad luck with result 0 (DOS-5). The ``q`` explosion chains of ``q``
surviving tens together show ``J`` tens (negative binomial) and ``q`` last dice of 1..9, so they add
``10 J + (x + ... + x^9)^q``; ``J`` is cut where the chance of more is below :data:`TAIL_BELOW`
(DOS-3's cap of 100 extra dice per chain lies far beyond the cut), and that mass is the ``tail``.

Polynomials in the result are Python integers, one coefficient per ``width`` bits (Kronecker
substitution, :func:`rules.odds.kronecker`): one big-integer product does a whole convolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.odds import Counts, coefficients, width_for

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
        """The result whatever the flags, the tail left out."""
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
    narrow = width_for(10**n)
    normal, kept_tens, bad_luck, tens_mass = _base(n, narrow)
    cut = chain_cut(n, tens_mass)
    denominator = 10 ** (2 * n + cut)
    width = width_for(denominator)
    scale = 10 ** (n + cut)
    none: dict[int, int] = dict(_decode(normal, narrow, scale))
    last = _powers(_faces(1, 9, width), n)
    chained = {False: 0, True: 0}  # every chained polynomial of a flag, summed before decoding
    for (q, lucky), poly in kept_tens.items():
        chained[lucky] += _chains(_widen(poly, narrow, width) * last[q], q, cut, n, width)
    for v, c in _decode(chained[False], width, 1):
        none[v] = none.get(v, 0) + c
    luck = dict(_decode(chained[True], width, 1))
    return PoolOdds(
        size=n,
        none=Counts(none, denominator),
        luck=Counts(luck, denominator),
        bad_luck=Counts({0: bad_luck * scale} if bad_luck else {}, denominator),
        tail_none=_base_mass(n, False) * scale - sum(none.values()),
        tail_luck=_base_mass(n, True) * scale - sum(luck.values()),
        tail_from=D10 * (cut + 2) + 1,  # a surviving 10, a chain of cut + 1 tens and a last die
    )


def _widen(poly: int, narrow: int, width: int) -> int:
    """A Kronecker polynomial re-encoded with wider coefficients."""
    size = width // 8
    return int.from_bytes(
        b"".join(c.to_bytes(size, "little") for c in coefficients(poly, narrow)),
        "little",
    )


def _decode(poly: int, width: int, scale: int) -> list[tuple[int, int]]:
    """(value, count x scale) of every nonzero coefficient of a Kronecker polynomial."""
    return [(v, c * scale) for v, c in enumerate(coefficients(poly, width)) if c]


def _faces(low: int, high: int, width: int) -> int:
    """x^low + ... + x^high as a Kronecker polynomial (0 when empty)."""
    return sum(1 << (v * width) for v in range(low, high + 1))


def _at_least(w: int, s: int) -> list[int]:
    """N(w, s, g) for g = 0..s: the ways s dice in w..10 show w at least g times."""
    if w == D10:
        return [1] * (s + 1)
    terms = [comb(s, e) * (D10 - w) ** (s - e) for e in range(s + 1)]
    out = [0] * (s + 2)
    for e in range(s, -1, -1):
        out[e] = out[e + 1] + terms[e]
    return out[: s + 1]


def _base(n: int, width: int) -> tuple[int, dict[tuple[int, bool], int], int, dict[int, int]]:
    """The base dice (DOS-2, DOS-5, DOS-6) over 10^n.

    Returns the no-surviving-ten polynomial, the polynomials by (surviving tens, luck) before the
    chains, the count of bad-luck rolls, and the rolls by number of surviving tens.
    """
    bad_luck = sum(comb(n, k) * 9 ** (n - k) for k in range(n + 1) if k > n - k)
    normal = 0
    kept_tens: dict[tuple[int, bool], int] = {}
    tens_mass: dict[int, int] = {}
    powers = {w: _powers(_faces(2, w - 1, width), n) for w in range(2, D10 + 1)}
    at_least = {w: [_at_least(w, s) for s in range(n + 1)] for w in range(2, D10 + 1)}
    for k in range(n // 2 + 1):
        m, keep = n - k, n - 2 * k
        ck = comb(n, k)
        if keep == 0:
            normal += (ck * 9**m) << (k * width)
            continue
        for w in range(2, D10 + 1):
            for a in range(keep):
                g, s = keep - a, m - a
                coeff = ck * comb(m, a) * at_least[w][s][g]
                if not coeff or not powers[w][a]:
                    continue
                term = (powers[w][a] * coeff) << ((g * w + k) * width)
                if w < D10:
                    normal += term
                else:
                    key = (g, s > n - s)
                    kept_tens[key] = kept_tens.get(key, 0) + term
                    tens_mass[g] = tens_mass.get(g, 0) + coeff * (w - 2) ** a
    return normal, kept_tens, bad_luck, tens_mass


def _powers(base: int, n: int) -> list[int]:
    out = [1]
    for _ in range(n):
        out.append(out[-1] * base)
    return out


def _chains(poly: int, q: int, cut: int, n: int, width: int) -> int:
    """``poly`` (with the q last dice) and the q chains' tens, J <= cut, over the denominator.

    P(10 J + S) = C(q + J - 1, J) ways(S) / 10^(q + J), S the sum of q last dice of 1..9; ``poly``
    is over 10^n (its last dice counted as ways), the result over 10^(2n + cut).
    """
    out = 0
    for j in range(cut + 1):
        out += (poly * (comb(q + j - 1, j) * 10 ** (n + cut - q - j))) << (D10 * j * width)
    return out


def _base_mass(n: int, lucky: bool) -> int:
    """Rolls (over 10^n) with luck (``lucky``) or with neither luck nor bad luck."""
    luck: int = sum(comb(n, t) * 9 ** (n - t) for t in range(n + 1) if t > n - t)
    bad: int = sum(comb(n, k) * 9 ** (n - k) for k in range(n + 1) if k > n - k)
    return luck if lucky else int(10**n) - luck - bad
