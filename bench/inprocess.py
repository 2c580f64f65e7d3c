"""CPU time per request, in one process: every endpoint of the service and the bare FastAPI app.

``python -m bench.inprocess [--requests 1000] [--rounds 7] [--stack] [--json out.json]`` (the source;
``.venv-compiled/bin/python -P bench/inprocess.py`` measures the compiled wheel) calls each app as ASGI
directly (no server, no sockets: uvicorn's share is the same for both), endpoint after endpoint and
the bare app's ``/check`` between them, round after round, and prints per endpoint the median CPU
time of this process per request (``time.process_time``) and the ratio to the bare app (bare time /
endpoint time: above 1.0 the endpoint costs less than the bare app's request, so it serves more).

CPU time of one process, measured in alternation with its baseline, is what a shared machine
disturbs least: other processes slow the wall clock, not the instructions this one runs. Every
request has a fresh seed; the service logs its JSON access line (to ``/dev/null``), as in production.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    # Run as a script by another interpreter (``python -P bench/inprocess.py``): the tree goes last,
    # so an installed dragonroll (the compiled wheel) is the one measured.
    sys.path.append(str(ROOT))

from bench.bench import BARE, ENDPOINTS, body_text, every_endpoint, scope_for, url_path  # noqa: E402


async def _drive(app: Any, path: str, bodies: list[bytes]) -> tuple[float, int]:
    """(CPU seconds per request, the status of the last answer)."""
    status = 0

    async def send(message: Any) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    start = time.process_time()
    for body in bodies:

        async def receive(body: bytes = body) -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        await app(scope_for(path, len(body)), receive, send)
    return (time.process_time() - start) / len(bodies), status


def measure(
    requests: int, rounds: int, rows: list[tuple[str, dict[str, Any]]] | None = None
) -> dict[str, dict[str, float]]:
    """Per row of ``rows`` (default ``ENDPOINTS``): the median microseconds per request, and the
    ratio to the bare app's."""
    from bench.bare_app import app as bare
    from service.app import create_app
    from service.settings import Settings

    service = create_app(Settings(log_format="json"))
    targets = [(f"bare {BARE[0]}", bare, BARE[0], BARE[1])]
    targets += [(path, service, url_path(path), body) for path, body in rows or ENDPOINTS]
    times: dict[str, list[float]] = {name: [] for name, *_ in targets}
    for r in range(rounds + 1):  # round 0 warms up (builds the stacks, fills the caches)
        for name, app, path, body in targets:
            n = min(50, requests) if r == 0 else requests
            bodies = [body_text(body, f"r{r}n{i}").encode() for i in range(n)]
            seconds, status = asyncio.run(_drive(app, path, bodies))
            if status != 200:
                raise SystemExit(f"{name}: status {status} (update its body in bench/bench.py)")
            if r:
                times[name].append(seconds)
        if r == 0:  # as the service's lifespan does: what lives as long as the process, frozen
            gc.collect()
            gc.freeze()
    bare_us = statistics.median(times[targets[0][0]]) * 1e6
    return {
        name: {
            "us_per_request": round(statistics.median(t) * 1e6, 1),
            "ratio_to_bare": round(bare_us / (statistics.median(t) * 1e6), 2),
        }
        for name, t in times.items()
    }


def measure_quietly(
    requests: int, rounds: int, rows: list[tuple[str, dict[str, Any]]] | None = None
) -> dict[str, dict[str, float]]:
    """:func:`measure` with the service's access lines sent to ``/dev/null``."""
    saved = sys.stderr
    with open(os.devnull, "w") as devnull:
        sys.stderr = devnull  # the access lines
        try:
            return measure(max(10, requests), max(1, rounds), rows)
        finally:
            sys.stderr = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument(
        "--all",
        action="store_true",
        help="every endpoint of the app (the others with their documented example)",
    )
    args = parser.parse_args(argv)
    figures = measure_quietly(args.requests, args.rounds, every_endpoint() if args.all else None)
    from service.health import compiled_modules

    print(
        f"dragonroll from {Path(sys.modules['service'].__file__ or '').parent.parent}, "
        f"{len(compiled_modules())} rules modules compiled"
    )
    print(f"{'endpoint':<32} {'us/request':>10} {'x bare':>7}")
    for name, row in figures.items():
        print(f"{name:<32} {row['us_per_request']:>10.1f} {row['ratio_to_bare']:>7.2f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
