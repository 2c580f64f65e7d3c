"""Strategies drawn from the committed OpenAPI document, so every endpoint is covered as it lands.

``OPERATIONS`` lists every POST operation of ``openapi/openapi.json``; ``bodies(path)`` draws request
bodies that the document says are valid (schemathesis' positive generation), with integral floats
turned into ints (JSON Schema counts ``3.0`` as an integer; our strict models do not, and a 422 for it
would only make the property vacuous).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from bench.bench import ENDPOINTS
from rules.models import MAX_SAFE_INTEGER

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
SCHEMA = schemathesis.openapi.from_path(DOCUMENT)
OPERATIONS = {
    op.path: op
    for op in (result.ok() for result in SCHEMA.get_all_operations())
    if op.method.lower() == "post"
}
PATHS = sorted(OPERATIONS)

#: Examples per property and endpoint; DRAGONROLL_PROPERTY_EXAMPLES raises it (``make fuzz-long``).
EXAMPLES = int(os.environ.get("DRAGONROLL_PROPERTY_EXAMPLES", "25"))
PROFILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

#: A seed as DESIGN.md allows it: 1-128 printable ASCII characters, or an integer within +-(2^53 - 1).
seeds = st.one_of(
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=128),
    st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER),
)


def _ints(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ints(v) for v in value]
    return value


#: A known valid body per endpoint: the golden requests (tests/golden), then the benchmark's table.
KNOWN: dict[str, Any] = {path: {**body, "seed": "table"} for path, body in ENDPOINTS}
for _file in sorted((DOCUMENT.parents[1] / "tests" / "golden").glob("*/*.request.json")):
    _spec = json.loads(_file.read_text(encoding="utf-8"))
    if _spec.get("status", 200) == 200:
        KNOWN[_spec["path"]] = _spec["body"]
HINT = "add a golden request for it in tests/golden (make golden)"


def bodies(path: str, mode: GenerationMode = GenerationMode.POSITIVE) -> st.SearchStrategy[Any]:
    """Request bodies for ``POST path`` that match (or, NEGATIVE, break) the document's schema.

    Positive bodies include the endpoint's known valid body, so an endpoint whose requests must
    refer to their own ids (targets, pairs) still gets requests that resolve.
    """
    generated = OPERATIONS[path].as_strategy(mode).map(lambda case: _ints(case.body))
    if mode is GenerationMode.POSITIVE and path in KNOWN:
        return st.one_of(st.just(KNOWN[path]), generated)
    return generated


def seeded(body: Any, seed: str | int) -> dict[str, Any]:
    """The body with its seed set and its scripted dice dropped: every die comes from the seed."""
    out = dict(body) if isinstance(body, dict) else {}
    out.pop("dice", None)
    out["seed"] = seed
    return out


#: The engine alone is fast: properties that call it directly run four times the examples.
ENGINE_PROFILE = settings(PROFILE, max_examples=EXAMPLES * 4)
