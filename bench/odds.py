"""``make bench-odds``: exact odds, in-process, cold and warm, against one plain ``/dos/test``.

Each case goes through its route's whole in-process path (``OddsEndpoint.resolve``: validate the body,
compute, write the JSON), as does the baseline, one ``/dos/test`` resolution of a 30-dice pool
(``ResolverEndpoint.resolve``, the median of many). Cold is the first call in a fresh interpreter
(the app built, no pool computed: the median of ``--cold`` processes); warm is the median of the
calls after it in this process. Printed: CPU milliseconds of the process (``time.process_time``:
other processes on a shared machine slow the wall clock, not this count) and the ratio to the
baseline. Not a test: the figures depend on the machine (issue 18's targets: the 30-dice test cold
under 50 ms, the 100 dragon pairs under 100 ms; issue 29's 20d6kh10 under 50 ms).

Usage: ``python -m bench.odds [--warm 5] [--cold 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from service.app import create_app
from service.endpoints import Endpoint, endpoints

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
OPPOSED = {"a": {"stat": 20, "skill": 50}, "b": {"stat": 25, "skill": 50}}
#: /dice/odds questions the size of 20d6kh10 (issue 29: under 50 ms).
SIZED = {"notation": "10d10!cs>=8 + 4d6kh3"}


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
    """CPU milliseconds of this process for one call (what a shared machine disturbs least)."""
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def routes() -> dict[str, Endpoint]:
    return endpoints(create_app())


def post(routes: dict[str, Endpoint], path: str, body: dict[str, Any]) -> Callable[[], bytes]:
    raw = json.dumps(body).encode()
    return lambda: routes[path].resolve(raw)[0]


def cases(r: dict[str, Endpoint]) -> list[tuple[str, Callable[[], Any]]]:
    half = dragon_pairs(50)
    dragon = [post(r, "/dragon/odds", half), post(r, "/dragon/odds", half)]
    return [
        ("/dos/odds/test, 30 dice", post(r, "/dos/odds/test", TEST)),
        ("/dos/odds/attack, 30 dice vs a 20-dice block", post(r, "/dos/odds/attack", ATTACK)),
        ("/dragon/odds, 100 pairs of 20 d20 vs 20 d20", lambda: [d() for d in dragon]),
        (
            "/dos/odds/opposed, 50 dice vs 50 dice (the limit)",
            post(r, "/dos/odds/opposed", OPPOSED),
        ),
        ("/dice/odds, 20d6kh10", post(r, "/dice/odds", {"notation": "20d6kh10"})),
        ("/dice/odds, 10d10!cs>=8 + 4d6kh3", post(r, "/dice/odds", SIZED)),
    ]


def cold(case: int) -> float:
    """The first call of a case in a fresh interpreter (the app built, nothing computed yet)."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.odds", "--cold-case", str(case)],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", type=int, default=5, help="warm calls per case")
    parser.add_argument("--cold", type=int, default=3, help="fresh processes per case")
    parser.add_argument("--cold-case", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    r = routes()
    if args.cold_case is not None:
        print(timed(cases(r)[args.cold_case][1]))
        return 0
    plain = post(r, "/dos/test", {**TEST, "seed": "bench"})
    for _ in range(20):
        plain()
    baseline = statistics.median(timed(plain) for _ in range(200))
    print(f"baseline: one /dos/test (30 dice) {baseline:.3f} ms CPU")
    print(f"{'case':48} {'cold ms':>9} {'x test':>8} {'warm ms':>9} {'x test':>8}")
    for i, (name, call) in enumerate(cases(r)):
        first = statistics.median(cold(i) for _ in range(max(1, args.cold)))
        call()
        warm = statistics.median(timed(call) for _ in range(max(1, args.warm)))
        print(
            f"{name:48} {first:9.1f} {first / baseline:7.0f}x {warm:9.1f} {warm / baseline:7.0f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
