"""Requests kept as regression cases, replayed through the same four contract checks.

Bodies that schemathesis' generation and the property tests reached while this suite was written
(integral floats for integers, slot names outside the slot pattern, the largest seeds, empty and huge
scripts, contradicting modifiers ...). The long fuzz (``make fuzz-long``, 1,500 examples per
operation) found no failure; add any example it finds here, with the operation it ran against.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.contract.test_schemathesis import CHECKS, schema

SEED_MAX = 2**53 - 1  # Number.MAX_SAFE_INTEGER: larger integer seeds go as strings

CASES: list[tuple[str, Any, int]] = [
    # schemathesis sends integral floats for "integer"; the strict models refuse them (422)
    ("/dos/test", {"stat": 44, "skill": 13.0, "dc": 47, "seed": 1}, 422),
    # patternProperties do not forbid other keys in the document; the model does (422)
    ("/dos/test", {"stat": 0, "skill": 1, "dc": 0, "dice": {"ÿ not a slot": [1]}}, 422),
    ("/dos/roll", {"pool": 100, "seed": SEED_MAX}, 200),
    ("/dos/roll", {"pool": 100, "seed": -SEED_MAX}, 200),
    ("/dos/roll", {"pool": 1, "seed": SEED_MAX + 1}, 422),
    ("/dos/roll", {"pool": 1, "seed": -SEED_MAX - 1}, 422),
    # positive_data_acceptance once found a 129-digit integer seed the document allowed
    ("/dos/roll", {"pool": 1, "seed": 10**128}, 422),
    ("/dos/roll", {"pool": 1, "seed": str(10**127)}, 200),
    ("/dos/roll", {"pool": 0, "seed": " " * 128}, 200),
    ("/dos/roll", {"pool": 0, "seed": "x" * 129}, 422),
    ("/dos/roll", {"pool": 3, "seed": "s", "dice": {"roll": []}}, 422),
    ("/dos/roll", {"pool": 1, "seed": "s", "dice": {"roll": [2**32 - 1]}}, 422),
    ("/dos/roll", {"pool": 1, "seed": "s", "dice": {"roll": [5] * 1000}}, 200),
    ("/dos/roll", {"pool": 1, "seed": "s", "dice": {"roll": [5] * 1001}}, 422),
    (
        "/dos/test",
        {"stat": 1, "skill": 1, "dc": 1, "difficulty": "hard", "modifier_percent": 5},
        422,
    ),
    ("/dos/test", {"stat": 10**6, "skill": 100, "dc": -(10**6), "modifier_percent": 100}, 200),
    ("/dos/opposed", {"a": {"stat": 0, "skill": 0}, "b": {"stat": 0, "skill": 0}, "seed": 0}, 200),
    # the work budget (docs/hardening.md): 100,000 base dice are refused, 10,000 resolve
    (
        "/dos/complex",
        {"stat": 0, "skill": 100, "dc": 10**6, "attempts": 1000, "successes_needed": 1000},
        422,
    ),
    (
        "/dos/complex",
        {"stat": 0, "skill": 100, "dc": 10**6, "attempts": 100, "successes_needed": 100},
        200,
    ),
    ("/dos/complex", {"stat": 0, "skill": 1, "dc": 0, "attempts": 2, "successes_needed": 3}, 422),
]


@pytest.mark.parametrize(("path", "body", "status"), CASES)
def test_regression_case_keeps_the_contract(path: str, body: Any, status: int) -> None:
    case = schema[path]["POST"].Case(body=body, media_type="application/json")
    response = case.call_and_validate(checks=CHECKS)
    assert response.status_code == status, response.text
