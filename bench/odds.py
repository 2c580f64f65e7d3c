"""``make bench-odds``: exact odds, in-process, cold and warm, against one plain ``/dos/test``.

Each case goes through its route's whole in-process path (``OddsRoute.resolve``: validate the body,
compute, write the JSON), as does the baseline, one ``/dos/test`` resolution of a 30-dice pool
(``ResolverRoute.resolve``, the median of many). Cold is the first call with the pool cache cleared;
warm is the median of the calls after it. Printed: milliseconds and the ratio to the baseline.
Not a test: the figures depend on the machine (issue 18's targets: the 30-dice test cold under
50 ms, the 100 dragon pairs under 100 ms).

Usage: ``python -m bench.odds [--warm 5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from rules.dos.poolodds import pool_odds
from service.app import create_app
from service.routing import ResolverRoute, resolver_paths

TEST = {"stat": 20, "skill": 30, "dc": 200}
ATTACK = {
    "attacker": {
        "dexterity": 30,
        "strength": 20,
        "skill": 30,
        "weapon": {"kind": "melee", "damage": 6},
    },
    "defender": {"dexterity": 30, "block": 20, "hp": 40, "armor": 2},
    "defense": "block",
}


def dragon_pairs(pairs: int) -> dict[str, Any]:
    """A round with ``pairs`` pairs of 20 d20 against 20 d20 (the dragon's first)."""
    entities = [
        {
            "id": "e0",
            "controller": "gm",
            "kind": "group",
            "prosperity": 20,
            "level": 6,
            "target": "dragon",
        }
    ]
    for n in range(1, 2 * pairs - 1, 2):
        for a, b in ((n, n + 1), (n + 1, n)):
            entities.append(
                {"id": f"e{a}", "controller": "gm" if a % 2 else "player", "kind": "group",
                 "prosperity": 20, "level": 6, "target": f"e{b}"}
            )  # fmt: skip
    return {"dragon": {"age": 5, "battle": 20, "target": "e0"}, "entities": entities}


def timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", type=int, default=5, help="warm calls per case")
    args = parser.parse_args(argv)
    routes: dict[str, ResolverRoute] = dict(resolver_paths(create_app().router.routes))

    def post(path: str, body: dict[str, Any]) -> Callable[[], bytes]:
        raw = json.dumps(body).encode()
        return lambda: routes[path].resolve(raw)[0]

    plain = post("/dos/test", {**TEST, "seed": "bench"})
    for _ in range(20):
        plain()
    baseline = statistics.median(timed(plain) for _ in range(200))
    half = dragon_pairs(50)
    dragon = [post("/dragon/odds", half), post("/dragon/odds", half)]
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("/dos/odds/test, 30 dice", post("/dos/odds/test", TEST)),
        ("/dos/odds/attack, 30 dice vs a 20-dice block", post("/dos/odds/attack", ATTACK)),
        ("/dragon/odds, 100 pairs of 20 d20 vs 20 d20", lambda: [d() for d in dragon]),
    ]
    print(f"baseline: one /dos/test (30 dice) {baseline:.3f} ms")
    print(f"{'case':48} {'cold ms':>9} {'x test':>8} {'warm ms':>9} {'x test':>8}")
    for name, call in cases:
        pool_odds.cache_clear()
        cold = timed(call)
        warm = statistics.median(timed(call) for _ in range(max(1, args.warm)))
        print(f"{name:48} {cold:9.1f} {cold / baseline:7.0f}x {warm:9.1f} {warm / baseline:7.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
