"""``make bench-cpu``: the worker's CPU time per request under load, dragonroll against the bare app.

Requests per second depend on how the two cores are shared between the worker and wrk; the CPU time
the worker itself spends per request does not, so it is the steadier measure on a small VM. For each
endpoint, in each round: a wrk run (64 connections) against the bare FastAPI app and one against
the endpoint, back to back, each worker's CPU time (user + system, ``/proc/<pid>/stat``) read
before and after. Printed per endpoint: the median CPU time per request of each, and the ratio
bare / endpoint per round (above 1.0x: the endpoint costs less than the bare app) with its median.

Usage: ``python -m bench.cpu [--rounds 3] [--duration 4] [path ...]`` (default: the five endpoints
the issue names). Loopback only; both servers are stopped at the end.
"""

from __future__ import annotations

import statistics
import sys

from bench.bench import (
    BARE,
    BARE_APP,
    CONNECTIONS,
    ENDPOINTS,
    SERVICE,
    Server,
    body_text,
    cpu_seconds,
    paired_run,
    ratio_summary,
    serve,
    url_path,
    wrk,
)

NAMED = ["/dos/test", "/dos/attack", "/dragon/battle", "/riders/combat", "/dnd5e/attack"]


def main(argv: list[str] | None = None) -> int:
    run = paired_run(__doc__, NAMED, 4.0, argv)
    bodies = dict(ENDPOINTS)
    runs: dict[str, list[tuple[float, float]]] = {}  # path -> (bare us, endpoint us) per round
    with (
        serve("service", SERVICE) as svc,
        serve("bare", BARE_APP) as bare,
    ):
        targets = {p: (svc, url_path(p), body_text(bodies[p])) for p in run.paths}
        baseline = (bare, BARE[0], body_text(BARE[1]))
        for server, path, body in [baseline, *targets.values()]:  # warm up
            wrk(server.base + path, body, 1, CONNECTIONS)

        def per_request(target: tuple[Server, str, str]) -> float:
            server, path, body = target
            before = cpu_seconds(server.proc.pid)
            result = wrk(server.base + path, body, run.seconds, CONNECTIONS)
            return 1e6 * (cpu_seconds(server.proc.pid) - before) / max(result.requests, 1)

        for _ in range(run.rounds):
            for path, target in targets.items():
                runs.setdefault(path, []).append((per_request(baseline), per_request(target)))
    print(f"worker CPU per request, wrk -c{CONNECTIONS} {run.seconds:g}s x {run.rounds} rounds")
    for path, pairs in runs.items():
        print(
            f"  {path:<16} {statistics.median(s for _, s in pairs):6.1f} us"
            f" | bare {statistics.median(b for b, _ in pairs):6.1f} us"
            f" | {ratio_summary([b / s for b, s in pairs])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
