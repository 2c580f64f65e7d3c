"""Response bodies: a result (typed dicts built as dict literals, ``rules.models.Envelope``) as
compact JSON bytes.

orjson writes dicts in insertion order, compact, UTF-8 unescaped: the bytes pydantic writes for the
same schema, as long as every key is given in declaration order (a property test compares the two
over every endpoint, the golden files pin them, and ``tests/rules/record_keys.py`` walks results for
the order). A result holds plain values only (dicts, lists, strings, integers within 64 bits,
booleans, None: requests bound every number, integer seeds to +-(2^53 - 1)); orjson refuses
anything else with a ``TypeError``, so a mixed tree is a bug the tests catch, not a slower path.
"""

from __future__ import annotations

from typing import Any

import orjson


def encode(result: Any) -> bytes:
    """``result``, a tree of plain values, as a response's body."""
    return orjson.dumps(result)
