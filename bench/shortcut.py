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

import argparse
import statistics
import sys

from bench.bench import CONNECTIONS, ENDPOINTS, body_text, ensure_wrk, serve, url_path, wrk
from service.app import Dragonroll, create_app


def create_app_without_shortcut() -> Dragonroll:
    """The service as ``create_app`` makes it, but with no resolver path for the shortcut to find:
    every request takes FastAPI's path (what ``tests/service/test_dispatch.py`` compares with)."""
    app = create_app()
    app._routes = {}
    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    rows = [p for p, _ in ENDPOINTS if "#" not in p]
    parser.add_argument("paths", nargs="*", default=rows)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per wrk run")
    args = parser.parse_args(argv)
    bodies = dict(ENDPOINTS)
    unknown = [p for p in args.paths if p not in bodies]
    if unknown:
        parser.error(f"no benchmark body for {', '.join(unknown)}; known: {', '.join(bodies)}")
    rounds = max(1, min(args.rounds, 20))
    seconds = max(1.0, min(args.duration, 60.0))
    ensure_wrk()
    runs: dict[str, list[tuple[float, float]]] = {}  # path -> (with, without) req/s per round
    with (
        serve("service", ["service.app:create_app", "--factory"]) as fast,
        serve("without", ["bench.shortcut:create_app_without_shortcut", "--factory"]) as slow,
    ):
        for path in args.paths:
            body = body_text(bodies[path])
            urls = (fast.base + url_path(path), slow.base + url_path(path))
            for url in urls:  # warm up
                wrk(url, body, 1, CONNECTIONS)
            for _ in range(rounds):
                with_, without = (wrk(url, body, seconds, CONNECTIONS) for url in urls)
                if with_.non_2xx or without.non_2xx or with_.errors or without.errors:
                    raise SystemExit(f"{path}: failed requests under load (update its body)")
                runs.setdefault(path, []).append((with_.rps, without.rps))
    print(f"the resolver shortcut, wrk -c{CONNECTIONS} {seconds:g}s x {rounds} rounds")
    for path, pairs in runs.items():
        ratios = [w / wo for w, wo in pairs]
        print(
            f"  {path:<16} {statistics.median(w for w, _ in pairs):7.0f} req/s with"
            f" | {statistics.median(wo for _, wo in pairs):7.0f} without"
            f" | {statistics.median(ratios):.2f}x (rounds: {', '.join(f'{r:.2f}' for r in ratios)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
