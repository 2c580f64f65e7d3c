"""Odds before anyone rolls: the pieces every system's ``odds.py`` shares. A probability is
:class:`Prob`, exact in lowest terms; a distribution is integer counts over one denominator
(:class:`Counts`: exact, cheap to add and convolve, fractions only when written); an odds request
refuses ``seed`` and ``dice`` (:class:`NoDice`); a simulation is summarised here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field, with_config
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from rules.models import Model

#: The percentiles every distribution reports.
PERCENTILES = (5, 25, 50, 75, 95)


# ---------------------------------------------------------------- requests


def _refuse(value: Any) -> Any:
    raise PydanticCustomError(
        "odds_no_dice",
        "odds draw no dice: leave out `seed` and `dice` (send them to the resolving endpoint)",
    )


Refused = Annotated[Any, BeforeValidator(_refuse)]


class NoDice(Model):
    """Mixed in first: the resolving request's ``seed`` and ``dice``, refused when sent."""

    seed: SkipJsonSchema[Refused] = None
    dice: SkipJsonSchema[Refused] = None


# ---------------------------------------------------------------- probabilities


@with_config(ConfigDict(extra="forbid"))
class Prob(TypedDict):
    """A probability: ``exact`` is the fraction in lowest terms, ``p`` its nearest float."""

    p: Annotated[float, Field(description="The probability as a float (0..1).")]
    exact: Annotated[str, Field(description='The exact probability "n/d" in lowest terms.')]


@with_config(ConfigDict(extra="forbid"))
class ValueProb(TypedDict):
    value: Annotated[int, Field(description="A value the quantity can take.")]
    p: Annotated[Prob, Field(description="Its probability.")]


@with_config(ConfigDict(extra="forbid"))
class Percentiles(TypedDict):
    """The smallest value whose cumulative probability reaches 5, 25, 50, 75 and 95 %."""

    p5: int
    p25: int
    p50: int
    p75: int
    p95: int


@with_config(ConfigDict(extra="forbid"))
class Distribution(TypedDict):
    result: Annotated[
        list[ValueProb],
        Field(description="Every value with a nonzero probability, ascending (the tail apart)."),
    ]
    tail: Annotated[
        Prob,
        Field(
            description="The mass of cut explosion chains (DoS), beyond the values listed; else 0."
        ),
    ]
    mean: Annotated[float, Field(description="The mean (the tail, if any, at its first value).")]
    percentiles: Annotated[Percentiles, Field(description="5/25/50/75/95 percentiles.")]


def prob(x: Fraction) -> Prob:
    return {"p": float(x), "exact": f"{x.numerator}/{x.denominator}"}


def prob_of(count: int, denominator: int) -> Prob:
    """``count / denominator`` as a :class:`Prob`: what :func:`prob` writes, without a Fraction
    (a 30-dice pool writes 1,200 of them); ``int / int`` is correctly rounded, as ``float()``."""
    common = gcd(count, denominator)
    return {"p": count / denominator, "exact": f"{count // common}/{denominator // common}"}


@dataclass(frozen=True)
class Counts:
    """A finite distribution: ``counts[value] / denominator``; counts are nonnegative integers."""

    counts: dict[int, int]
    denominator: int

    @property
    def mass(self) -> int:
        return sum(self.counts.values())

    def scaled(self, denominator: int) -> Counts:
        factor, rest = divmod(denominator, self.denominator)
        assert rest == 0, "a common denominator must be a multiple"
        return Counts({v: c * factor for v, c in self.counts.items()}, denominator)

    def mapped(self, f: Any) -> Counts:
        out: dict[int, int] = {}
        for v, c in self.counts.items():
            w = f(v)
            out[w] = out.get(w, 0) + c
        return Counts(out, self.denominator)

    def plus(self, other: Counts) -> Counts:
        """The sum of two independent values (one big-integer product: see :func:`kronecker`)."""
        denominator = self.denominator * other.denominator
        if not self.counts or not other.counts:
            return Counts({}, denominator)
        width = width_for(denominator)
        a, b = min(self.counts), min(other.counts)
        product = kronecker(self, a, width) * kronecker(other, b, width)
        return Counts(
            {a + b + v: c for v, c in enumerate(coefficients(product, width)) if c}, denominator
        )

    def times(self, n: int) -> Counts:
        out = Counts({0: 1}, 1)
        for _ in range(n):
            out = out.plus(self)
        return out

    def fraction(self, keep: Any) -> Fraction:
        return Fraction(sum(c for v, c in self.counts.items() if keep(v)), self.denominator)


def dice(count: int, sides: int) -> Counts:
    """The sum of ``count`` dice of ``sides`` sides: (x + ... + x^sides)^count, one power."""
    denominator = sides**count
    width = width_for(denominator)
    faces = sum(1 << (v * width) for v in range(sides))
    return Counts(
        {count + v: c for v, c in enumerate(coefficients(faces**count, width)) if c}, denominator
    )


# Polynomials with integer coefficients as Python integers, one coefficient per ``width`` bits
# (Kronecker substitution): one big-integer product is a whole convolution, in C. The pool of 30
# DoS dice takes 16 ms of CPU this way and several seconds with dictionaries of counts.


def width_for(bound: int) -> int:
    return (bound.bit_length() // 8 + 1) * 8


def kronecker(d: Counts, low: int, width: int) -> int:
    """``d``'s counts as a polynomial, value ``low`` at x^0."""
    size = width // 8
    top = max(d.counts)
    return int.from_bytes(
        b"".join(d.counts.get(v, 0).to_bytes(size, "little") for v in range(low, top + 1)),
        "little",
    )


def widen(poly: int, width: int, wider: int) -> int:
    """A Kronecker polynomial re-encoded with wider coefficients: one slice per byte of a
    coefficient, not one step per coefficient (the 30-dice DoS pool re-encodes 60 polynomials)."""
    size, bigger = width // 8, wider // 8
    count = -(-poly.bit_length() // width)
    raw = poly.to_bytes(count * size, "little")
    out = bytearray(count * bigger)
    for byte in range(size):
        out[byte::bigger] = raw[byte::size]
    return int.from_bytes(out, "little")


def run(poly: int, count: int, width: int) -> int:
    """``poly`` x (1 + x + ... + x^(count-1)) by doubling: a few shifts and additions, no product."""
    out, size = poly, 1
    for bit in bin(count)[3:]:
        out += out << (size * width)
        size *= 2
        if bit == "1":
            out = poly + (out << width)
            size += 1
    return out


def coefficients(poly: int, width: int) -> list[int]:
    size = width // 8
    raw = poly.to_bytes((poly.bit_length() + 7) // 8 or 1, "little")
    return [int.from_bytes(raw[v : v + size], "little") for v in range(0, len(raw), size)]


def merge(parts: Iterable[Counts]) -> Counts:
    """Disjoint parts of one distribution, over their largest denominator (a multiple of each)."""
    parts = list(parts)
    denominator = max(p.denominator for p in parts)
    out: dict[int, int] = {}
    for part in parts:
        for v, c in part.scaled(denominator).counts.items():
            out[v] = out.get(v, 0) + c
    return Counts(out, denominator)


def distribution(d: Counts, listed: Counts | None = None, tail: int = 0) -> Distribution:
    """``d`` (its mass must be 1) written out: values, mean and percentiles.

    With ``listed`` (``d`` less ``tail``, the cut mass that ``d`` holds at one value), the values
    are ``listed``'s and the tail is given apart; the mean and percentiles are ``d``'s.
    """
    assert d.mass == d.denominator, "a distribution's probabilities sum to 1"
    shown = listed if listed is not None else d
    entries: list[ValueProb] = [
        {"value": v, "p": prob_of(shown.counts[v], shown.denominator)}
        for v in sorted(shown.counts)
        if shown.counts[v]
    ]
    mean = Fraction(sum(v * c for v, c in d.counts.items()), d.denominator)
    return {
        "result": entries,
        "tail": prob_of(tail, d.denominator),
        "mean": float(mean),
        "percentiles": percentiles(d),
    }


def counts(fractions: Mapping[int, Fraction]) -> Counts:
    denominator = lcm(*(f.denominator for f in fractions.values()))
    return Counts(
        {v: f.numerator * (denominator // f.denominator) for v, f in fractions.items() if f},
        denominator,
    )


def percentiles(d: Counts) -> Percentiles:
    """The smallest value v with P(value <= v) >= q, for each q in :data:`PERCENTILES`."""
    found: dict[int, int] = {}
    running = 0
    pending = list(PERCENTILES)
    for v in sorted(d.counts):
        running += d.counts[v]
        while pending and running * 100 >= pending[0] * d.denominator:
            found[pending.pop(0)] = v
    return {"p5": found[5], "p25": found[25], "p50": found[50], "p75": found[75], "p95": found[95]}


def wilson(wins: int, runs: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (z = 1.96)."""
    if runs == 0:
        return 0.0, 1.0
    z = 1.959963984540054
    phat = wins / runs
    denom = 1 + z * z / runs
    centre = (phat + z * z / (2 * runs)) / denom
    half = z * ((phat * (1 - phat) / runs + z * z / (4 * runs * runs)) ** 0.5) / denom
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == runs else min(1.0, centre + half)
    return low, high


# ---------------------------------------------------------------- simulations

#: Runs per simulation (each a whole fight through the resolving engine).
MAX_RUNS = 1000
Runs = Annotated[
    int,
    Field(ge=1, le=MAX_RUNS, description="Fights to play, 1-1000; run i is seeded `{seed}/{i}`."),
]


class NoScript(Model):
    """Mixed in first: a simulation draws from its seed only, so ``dice`` is refused."""

    dice: SkipJsonSchema[Refused] = None


@with_config(ConfigDict(extra="forbid"))
class OutcomeRate(TypedDict):
    outcome: Annotated[str, Field(description="How a fight ended.")]
    runs: Annotated[int, Field(description="Runs that ended so.")]
    rate: Annotated[float, Field(description="runs / total runs.")]
    ci95: Annotated[
        list[float], Field(description="The 95% Wilson score interval of the rate: [low, high].")
    ]


@with_config(ConfigDict(extra="forbid"))
class Example(TypedDict):
    outcome: str
    run: Annotated[int, Field(description="The run's index i.")]
    seed: Annotated[str, Field(description="`{seed}/{i}`: replays the run (see the endpoint).")]
    length: int


@with_config(ConfigDict(extra="forbid"))
class Simulation(TypedDict):
    seed: Annotated[str | int, Field(description="The seed used (the request's or a new one).")]
    runs: int
    interval: Annotated[str, Field(description='"wilson": how `ci95` is computed (z = 1.96).')]
    outcomes: Annotated[
        list[OutcomeRate], Field(description="Every possible ending, in a fixed order.")
    ]
    length_unit: Annotated[str, Field(description="What `mean_length` counts.")]
    mean_length: float
    examples: Annotated[
        list[Example],
        Field(description="The first run of each ending that occurred, and the longest run."),
    ]


def run_seed(seed: str | int, i: int) -> str:
    return f"{seed}/{i}"


def summarize(
    seed: str | int, endings: Sequence[tuple[str, int]], possible: Iterable[str], unit: str
) -> Simulation:
    """Rates with Wilson intervals, the mean length and example runs of (ending, length) per run."""
    runs = len(endings)
    outcomes: list[OutcomeRate] = []
    for name in possible:
        k = sum(1 for e, _ in endings if e == name)
        low, high = wilson(k, runs)
        outcomes.append({"outcome": name, "runs": k, "rate": k / runs, "ci95": [low, high]})
    examples: list[Example] = []
    seen: set[str] = set()
    for i, (name, length) in enumerate(endings):
        if name not in seen:
            seen.add(name)
            examples.append(
                {"outcome": name, "run": i, "seed": run_seed(seed, i), "length": length}
            )
    longest = max(range(runs), key=lambda i: (endings[i][1], -i))
    if all(e["run"] != longest for e in examples):
        name, length = endings[longest]
        examples.append(
            {"outcome": name, "run": longest, "seed": run_seed(seed, longest), "length": length}
        )
    return {
        "seed": seed,
        "runs": runs,
        "interval": "wilson",
        "outcomes": outcomes,
        "length_unit": unit,
        "mean_length": sum(n for _, n in endings) / runs,
        "examples": examples,
    }
