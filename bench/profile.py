"""Where a request's time goes: pyinstrument over in-process ASGI calls, bare app vs the service.

``python -m bench.profile [--requests 20000] [--path /dos/test] [--html out.html]`` calls each app
directly (no server, no sockets: uvicorn's share is the same for both) and prints the share of the
time spent in each layer: FastAPI's entry and middleware stack, the router, the route's own handling,
and, for the service, validation, the resolver (dice, pool, events, result models) and serialisation.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from pyinstrument import Profiler

from bench.bench import BARE, ROOT, body_text, every_endpoint, scope_for, url_path

LAYERS = {
    "service": [
        ("FastAPI.__call__ (all)", "FastAPI.__call__", "fastapi/applications.py"),
        ("  telemetry check", "NativeTelemetry.enabled", ""),
        ("  request id + access line", "RequestIdAndAccessLine.__call__", ""),
        ("    metrics", "RequestMetrics.__call__", ""),
        ("      CORS", "Cors.__call__", ""),
        ("  router (APIRouter.app)", "APIRouter.app", ""),
        ("    the endpoint (serve)", "serve", "service/routing.py"),
        ("      validate + budget (admit)", "ResolverEndpoint.admit", ""),
        ("      resolve + narrate + encode (finish)", "ResolverEndpoint.finish", ""),
        ("        resolver (engine)", "{resolver}", ""),
        (
            "          dice (DiceSource.roll, .roll_many)",
            "DiceSource.roll|DiceSource.roll_many",
            "",
        ),
        ("        event sentences (narrate)", "narrate", "rules/narration.py"),
        ("        serialise (encode: orjson)", "encode", "service/encoding.py"),
    ],
    "bare": [
        ("FastAPI.__call__ (all)", "FastAPI.__call__", "fastapi/applications.py"),
        ("  telemetry check", "NativeTelemetry.enabled", ""),
        ("  router (APIRouter.app)", "APIRouter.app", ""),
        ("    route (request_response)", "APIRoute.handle", "starlette/routing.py"),
        ("      solve_dependencies (body)", "solve_dependencies", ""),
        ("      serialize_response", "serialize_response", ""),
    ],
}


async def drive(app: Any, path: str, bodies: list[bytes]) -> float:
    async def send(message: Any) -> None:
        return None

    start = time.perf_counter()
    for body in bodies:

        async def receive(body: bytes = body) -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        await app(scope_for(path, len(body)), receive, send)
    return (time.perf_counter() - start) / len(bodies)


def inclusive(session_root: Any, name: str, file_part: str) -> float:
    """Total time of frames whose function is ``name`` (outermost occurrences only)."""
    total = 0.0
    stack = [session_root]
    while stack:
        frame = stack.pop()
        cls = getattr(frame, "class_name", None)
        qualified = f"{cls}.{frame.function}" if cls else frame.function
        if name in (qualified, frame.function) and file_part in (frame.file_path or ""):
            total += frame.time
            continue
        stack.extend(frame.children)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--path", default="/dos/test")
    parser.add_argument("--html", type=Path, help="also write the service's profile as HTML")
    args = parser.parse_args(argv)
    n = max(100, min(args.requests, 200_000))
    sys.path.insert(0, str(ROOT))
    from bench.bare_app import app as bare
    from service.app import create_app
    from service.endpoints import ResolverEndpoint, endpoints

    svc = create_app()
    route = endpoints(svc)[url_path(args.path)]
    assert isinstance(route, ResolverEndpoint), "profiles a resolver"
    body = dict(every_endpoint())[args.path]
    runs = {
        "bare": (bare, BARE[0], [body_text(BARE[1], f"p{i}").encode() for i in range(n)]),
        "service": (
            svc,
            url_path(args.path),
            [body_text(body, f"p{i}").encode() for i in range(n)],
        ),
    }
    for name, (app, path, bodies) in runs.items():
        asyncio.run(drive(app, path, bodies[:200]))  # warm up (builds the middleware stack)
        plain = asyncio.run(drive(app, path, bodies))
        profiler = Profiler(interval=0.0002)
        profiler.start()
        asyncio.run(drive(app, path, bodies))
        profiler.stop()
        root = profiler.last_session.root_frame() if profiler.last_session else None
        assert root is not None
        _, entry, entry_file = LAYERS[name][0]
        whole = inclusive(root, entry, entry_file) or root.time
        print(f"{name} {path}: {plain * 1e6:.1f} us per request in-process (no profiler)")
        for label, pattern, file_part in LAYERS[name]:
            function = pattern.replace("{resolver}", getattr(route.resolver, "__name__", "?"))
            share = sum(inclusive(root, name, file_part) for name in function.split("|")) / whole
            print(f"  {label:<40} {share:6.1%}")
        if args.html and name == "service":
            args.html.write_text(profiler.output_html())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
