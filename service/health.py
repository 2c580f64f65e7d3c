"""Health: ``/livez`` (the process answers), ``/healthz`` (its alias), ``/readyz`` (ready to resolve:
the dice reproduce a few streams of ``rng-vectors.json``, copied here since the test data is not
shipped in the image; docs/operations.md, "Health").
"""

from __future__ import annotations

import importlib.machinery
import sys

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import JSONResponse

from rules.dice import RNG, stream_values

LIVE = "/livez"
HEALTH = "/healthz"
READY = "/readyz"
PATHS = frozenset({LIVE, HEALTH, READY})
_EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)

#: (seed, slot, sides, first 16 values): five streams of tests/data/rng-vectors.json.
VECTORS: tuple[tuple[str, str, int, tuple[int, ...]], ...] = (
    ("0", "check", 3, (2, 3, 2, 3, 1, 1, 1, 2, 3, 1, 1, 3, 3, 3, 3, 2)),
    ("42", "check", 20, (3, 11, 5, 14, 9, 3, 2, 15, 19, 11, 18, 6, 14, 14, 4, 15)),
    ("-7", "attack", 6, (3, 5, 6, 1, 4, 4, 6, 4, 1, 3, 2, 4, 2, 2, 2, 2)),
    ("Sarathi vs kobolds", "pool.dragon", 10, (8, 1, 3, 2, 2, 1, 10, 8, 9, 10, 4, 6, 2, 2, 6, 4)),
    (
        "hello",
        "initiative.k1",
        3_000_000_000,
        (
            1279228153, 2973643784, 2338087116, 345564961, 1205685136, 556001214,
            970329672, 2867187211, 2723179895, 208813444, 554069861, 2009929451,
            133982131, 596879369, 356962709, 968329578,
        ),
    ),
)  # fmt: skip


def dice_self_test() -> list[str]:
    """The streams that do not reproduce their vectors (empty when the dice are right)."""
    failed = []
    for seed, slot, sides, values in VECTORS:
        if tuple(stream_values(seed, slot, sides, len(values))) != values:
            failed.append(f"{seed!r}/{slot}/d{sides}")
    return failed


def add_health_routes(app: FastAPI) -> None:
    """``app.state.ready`` starts False; the lifespan sets it once the self-test passed."""
    app.state.ready = False

    async def livez(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        if request.app.state.ready:
            return JSONResponse({"status": "ready", "rng": RNG})
        return JSONResponse({"status": "starting", "rng": RNG}, status_code=503)

    app.add_route(LIVE, livez, methods=["GET"], include_in_schema=False)
    app.add_route(HEALTH, livez, methods=["GET"], include_in_schema=False)
    app.add_route(READY, readyz, methods=["GET"], include_in_schema=False)


def compiled_modules() -> list[str]:
    """The ``rules`` modules this process runs compiled (a wheel built with ``DRAGONROLL_COMPILE=1``,
    as in the image), by name; none in a development install."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("rules.")
        and not name.endswith("__mypyc")  # mypyc's runtime half of a module, not a module
        and str(getattr(module, "__file__", "")).endswith(_EXTENSIONS)
    )
