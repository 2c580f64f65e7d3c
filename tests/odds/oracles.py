"""Shared oracle helpers: exact fractions from answers, Monte Carlo bounds, run counts."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from rules.dice import DiceSource

#: Seeded Monte Carlo resolutions per check; DRAGONROLL_ODDS_RUNS=1000000 for the full oracle
#: (``make bench-odds`` prints nothing of it: it is a test setting).
RUNS = int(os.environ.get("DRAGONROLL_ODDS_RUNS", "1500"))
#: Resolutions of the one full Monte Carlo oracle per system (tests/odds/test_monte_carlo.py): 10^5
#: in ``make unit``; ``make fuzz-long`` sets DRAGONROLL_ODDS_FULL_RUNS=1000000 (issue 18's 10^6).
FULL_RUNS = int(os.environ.get("DRAGONROLL_ODDS_FULL_RUNS", "100000"))


def exact(p: dict[str, Any]) -> Fraction:
    """The exact fraction of a probability object, checked to be in lowest terms and to match p."""
    n, d = (int(x) for x in p["exact"].split("/"))
    f = Fraction(n, d)
    assert (f.numerator, f.denominator) == (n, d), f"{p['exact']} is not in lowest terms"
    assert abs(float(f) - p["p"]) <= 1e-12
    return f


def within(p: Fraction, hits: int, runs: int, sigmas: float = 4.0) -> bool:
    """Whether ``hits`` of ``runs`` is within ``sigmas`` standard errors of ``p`` (at least one
    count of slack, for probabilities near 0 or 1)."""
    se = (float(p) * (1 - float(p)) / runs) ** 0.5
    return abs(hits / runs - float(p)) <= sigmas * se + 1 / runs


def tally(resolve: Callable[[DiceSource], Hashable], runs: int, seed: str) -> Counter[Any]:
    """What ``resolve`` (a resolver of the engine, its request bound) gives over ``runs`` seeded
    resolutions, run i seeded ``{seed}/{i}`` as a simulation's run i is."""
    found: Counter[Any] = Counter()
    for i in range(runs):
        found[resolve(DiceSource(f"{seed}/{i}", None, None))] += 1
    return found


def marginal(found: Counter[Any], keep: Callable[[Any], bool]) -> int:
    """How many tallied resolutions ``keep`` holds for."""
    return sum(n for key, n in found.items() if keep(key))
