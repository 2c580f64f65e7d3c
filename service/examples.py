"""One realistic request per resolving endpoint, drawn from the rule files' worked examples.

Each endpoint's descriptor carries its examples (``rules.system.Endpoint.examples``, in
``rules/<system>/system.py``); the first is the OpenAPI document's request example
(``service.openapi``), so Swagger UI, ReDoc, the playground page (``GET /``) and generated clients
all start from a request that works; a test validates each against its endpoint's model and
resolves it.
"""

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
