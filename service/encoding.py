"""The service's one JSON writer (orjson), for answers, problems and log lines: the bytes pydantic would
write for the same schema, as long as a result holds plain values, its keys in declaration order
(docs/development.md, "Habits").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson


def encode(result: Any) -> bytes:
    return orjson.dumps(result)


def log_line(event: Any, default: Callable[[Any], Any] | None = None, **_: Any) -> str:
    """One log line (structlog's ``serializer`` protocol: ``json.dumps``'s signature, a str back);
    values orjson cannot write go through structlog's ``default`` (their ``repr``)."""
    return orjson.dumps(event, default=default).decode("utf-8")
