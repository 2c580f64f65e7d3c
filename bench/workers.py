"""``make bench-workers``: the server's CPU time per request with 2 uvicorn workers against 1.

Two workers cannot each run at full speed beside the load generator on a 2-core machine, so requests
per second say little about how the service scales; the CPU time the server spends per request
does: with 2 workers it should stay within 10% of 1 worker's (no shared lock, no cross-process
work). Both servers run at once (``python -m service --workers 1`` and ``--workers 2``), the idle
one costing nothing; in each round a wrk run against each (32 connections per worker), back to back, and the
CPU time (user + system) of the whole process tree (the supervisor and its workers,
``/proc/<pid>/stat`` and ``/proc/<pid>/task/*/children``) read before and after. Printed: the median
us per request of each and the ratio 2 workers / 1 worker per round, with its median.

Usage: ``python -m bench.workers [--rounds 3] [--duration 5] [path ...]`` (default ``/dos/test``).
Loopback only, never more than 2 workers; both servers are stopped at the end.
"""

from __future__ import annotations

import statistics
import sys
from typing import Any

from bench.bench import (
    CONNECTIONS,
    ENDPOINTS,
    SERVICE,
    Server,
    body_text,
    paired_run,
    ratio_summary,
    serve,
    tree_cpu_seconds,
    url_path,
    wrk,
)

#: The bound the issue sets: 2 workers' CPU per request at most this many times 1 worker's.
WITHIN = 1.10


#: wrk's connections per worker: each worker has as many requests in flight in both runs (with 64
#: connections for one worker and for two alike, each of two workers would wake for half as many
#: requests at a time, and pay its event loop's round per request more often).
PER_WORKER = CONNECTIONS // 2


def per_request_us(server: Server, path: str, body: str, seconds: float, workers: int) -> float:
    before = tree_cpu_seconds(server.proc.pid)
    result = wrk(server.base + path, body, seconds, PER_WORKER * workers)
    return 1e6 * (tree_cpu_seconds(server.proc.pid) - before) / max(result.requests, 1)


def measure(
    paths: list[str], rounds: int, seconds: float, python: str | None = None
) -> dict[str, dict[str, Any]]:
    """Per path: the us per request of 1 and 2 workers in each round, and their ratios."""
    bodies = dict(ENDPOINTS)
    out: dict[str, dict[str, Any]] = {}
    with (
        serve("workers-1", SERVICE, 1, python) as one,
        serve("workers-2", SERVICE, 2, python) as two,
    ):
        for path in paths:
            body = body_text(bodies[path])
            for server in (one, two):  # warm up (every worker: 64 connections spread over them)
                wrk(server.base + url_path(path), body, 2, CONNECTIONS)
            pairs = [
                (
                    per_request_us(one, url_path(path), body, seconds, 1),
                    per_request_us(two, url_path(path), body, seconds, 2),
                )
                for _ in range(rounds)
            ]
            ratios = [b / a for a, b in pairs]
            out[path] = {
                "one_us": statistics.median(a for a, _ in pairs),
                "two_us": statistics.median(b for _, b in pairs),
                "ratios": ratios,
                "ratio": statistics.median(ratios),
            }
    return out


def report(figures: dict[str, dict[str, Any]]) -> bool:
    """Print the figures; whether every path is within ``WITHIN``."""
    ok = True
    for path, f in figures.items():
        within = f["ratio"] <= WITHIN
        ok = ok and within
        print(
            f"  {path:<16} 1 worker {f['one_us']:6.1f} us | 2 workers {f['two_us']:6.1f} us"
            f" | 2/1 {ratio_summary(f['ratios'])}"
            f" {'within' if within else 'OVER'} {WITHIN:.2f}x"
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    run = paired_run(__doc__, ["/dos/test"], 5.0, argv)
    print(
        f"server CPU per request (process tree), wrk -c{PER_WORKER} a worker,"
        f" {run.seconds:g}s x {run.rounds}"
    )
    report(measure(run.paths, run.rounds, run.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
