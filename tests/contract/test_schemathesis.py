"""Contract fuzzing: schemathesis over every operation of the committed ``openapi/openapi.json``.

The document is the one clients read, so the fuzz runs against it (not the app's live copy) and the
app answers in-process. Each case must pass four checks: no server error, a status code the document
declares, a content type the document declares for that status, and a body that matches its schema.
``DRAGONROLL_FUZZ_EXAMPLES`` raises the number of examples per operation (``make fuzz-long``).
"""

from __future__ import annotations

import os
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.app import create_app

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
MAX_EXAMPLES = int(os.environ.get("DRAGONROLL_FUZZ_EXAMPLES", "60"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

schema = schemathesis.openapi.from_path(DOCUMENT)
schema.app = create_app()


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_operation_keeps_its_contract(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
