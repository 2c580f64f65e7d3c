"""Response bodies: a result (a tree of ``rules.record.Record`` dataclasses) as compact JSON bytes.

orjson writes dataclasses field by field in declaration order, compact, UTF-8 unescaped: the bytes
pydantic writes for the same schema (a property test compares the two over every endpoint, and the
golden files pin them). Two cases go elsewhere:

- request-shaped pydantic models inside a result (``/dos/damage``'s target, a DoS turn's states) are
  dumped by their own serialiser (``default``); the hot paths' states (a DoS attack's defender, a
  battle's next state, the riders' sides) are plain dicts already, copies of the models' fields;
- an integer beyond 64 bits (an integer seed may have 128 digits) is refused by orjson: the whole body
  is then written by pydantic-core's serialiser, which gives the same bytes at any size.
"""

from __future__ import annotations

from typing import Any

import orjson
import pydantic_core
from pydantic import BaseModel


def _default(value: Any) -> Any:
    if isinstance(value, BaseModel):  # written by its own serialiser, embedded as it is
        return orjson.Fragment(value.__pydantic_serializer__.to_json(value))
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def encode(result: Any) -> bytes:
    """``result`` as the JSON body of a response."""
    try:
        return orjson.dumps(result, default=_default)
    except TypeError:
        # orjson: "Integer exceeds 64-bit range" (or anything else it does not know): pydantic-core
        # handles big integers, dataclasses and models alike.
        return pydantic_core.to_json(result)
