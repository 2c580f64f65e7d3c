"""The first request example of each resolving endpoint (its descriptor's ``examples``): the
OpenAPI document's example, so Swagger UI, ReDoc, the playground and the clients start from a
request that works."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.registry import SYSTEMS
from rules.system import System


def examples(systems: Iterable[System] = SYSTEMS) -> dict[str, dict[str, Any]]:
    """Path -> the first request example of each resolving endpoint of ``systems``."""
    return {
        system.prefix + endpoint.path: dict(next(iter(endpoint.examples.values())))
        for system in systems
        for endpoint in system.endpoints
        if endpoint.examples
    }


EXAMPLES: dict[str, dict[str, Any]] = examples()
