"""``make bench-shortcut``: what the resolver shortcut buys through a server, in requests per second.

A resolver POST has two ways through the service (README, "Speed"; ``service.app.Dragonroll``): the
shortcut (the path looked up in a dict, the edge middleware run straight around the route) and
FastAPI's own (its middleware stack, exception middleware and router). Issue 15 keeps a second way
only if ``make bench`` shows it buys at least 10% throughput on the endpoints it serves. This runs the
service twice under uvicorn, one worker each, as ``make bench`` does: as shipped, and with the shortcut
off (:func:`create_app_without_shortcut`, every request through FastAPI's path), and drives both with
wrk (64 connections), alternating, round after round. Printed per endpoint: each one's requests per
second (median over the rounds) and the ratio with / without the shortcut per round and its median.

Usage: ``python -m bench.shortcut [--rounds 3] [--duration 5] [path ...]`` (default: every resolver
row of ``bench.bench.ENDPOINTS``). Loopback only; both servers are stopped at the end.
"""

from __future__ import annotations

import statistics
import sys

from bench.bench import (
    CONNECTIONS,
    ENDPOINTS,
    body_text,
    paired_run,
    ratio_summary,
    serve,
    url_path,
    wrk,
)
from service.app import Dragonroll, create_app


def create_app_without_shortcut() -> Dragonroll:
    """The service as ``create_app`` makes it, but with no resolver path for the shortcut to find:
    every request takes FastAPI's path (what ``tests/service/test_dispatch.py`` compares with)."""
    app = create_app()
    app._routes = {}
    return app


def main(argv: list[str] | None = None) -> int:
    rows = [p for p, _ in ENDPOINTS if "#" not in p]
    run = paired_run(__doc__, rows, 5.0, argv)
    bodies = dict(ENDPOINTS)
    runs: dict[str, list[tuple[float, float]]] = {}  # path -> (with, without) req/s per round
    with (
        serve("service", ["service.app:create_app", "--factory"]) as fast,
        serve("without", ["bench.shortcut:create_app_without_shortcut", "--factory"]) as slow,
    ):
        for path in run.paths:
            body = body_text(bodies[path])
            urls = (fast.base + url_path(path), slow.base + url_path(path))
            for url in urls:  # warm up
                wrk(url, body, 1, CONNECTIONS)
            for _ in range(run.rounds):
                with_, without = (wrk(url, body, run.seconds, CONNECTIONS) for url in urls)
                if with_.non_2xx or without.non_2xx or with_.errors or without.errors:
                    raise SystemExit(f"{path}: failed requests under load (update its body)")
                runs.setdefault(path, []).append((with_.rps, without.rps))
    print(f"the resolver shortcut, wrk -c{CONNECTIONS} {run.seconds:g}s x {run.rounds} rounds")
    for path, pairs in runs.items():
        print(
            f"  {path:<16} {statistics.median(w for w, _ in pairs):7.0f} req/s with"
            f" | {statistics.median(wo for _, wo in pairs):7.0f} without"
            f" | {ratio_summary([w / wo for w, wo in pairs])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
