"""The service's one JSON writer: answers, problems and log lines.

orjson writes dicts in insertion order, compact, UTF-8 unescaped: the bytes pydantic writes for the
same schema, as long as every key is given in declaration order (a property test compares the two
over every endpoint, the golden files pin them, and ``tests/rules/record_keys.py`` walks results for
the order). A result holds plain values only (dicts, lists, strings, integers within 64 bits,
booleans, None: requests bound every number, integer seeds to +-(2^53 - 1)); orjson refuses
anything else with a ``TypeError``, so a mixed tree is a bug the tests catch, not a slower path.
Problems (``service.problems``) are written by :func:`encode` too, and the JSON log lines by
:func:`log_line` (structlog's ``JSONRenderer`` serializer, ``service.logs``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson


def encode(result: Any) -> bytes:
    """``result``, a tree of plain values, as a response's body."""
    return orjson.dumps(result)


def log_line(event: Any, default: Callable[[Any], Any] | None = None, **_: Any) -> str:
    """One log line (structlog's ``serializer`` protocol: ``json.dumps``'s signature, a str back);
    values orjson cannot write go through structlog's ``default`` (their ``repr``)."""
    return orjson.dumps(event, default=default).decode("utf-8")
