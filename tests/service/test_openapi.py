"""The committed OpenAPI document is the app's: regenerate it with `make openapi` when this fails."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scripts.gen_openapi import ROOT, TARGET


def test_openapi_document_matches_the_app() -> None:
    """In a fresh interpreter, as `make openapi` writes it: what other tests did in this process
    (schemas built, caches filled) cannot change the document compared."""
    committed = TARGET.read_text(encoding="utf-8")
    code = "import sys; from scripts.gen_openapi import render; sys.stdout.write(render())"
    fresh = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(committed) == json.loads(fresh), (
        "openapi/openapi.json drifted: run `make openapi`"
    )


def test_every_operation_documents_its_slots_and_problems() -> None:
    doc = json.loads(Path(TARGET).read_text(encoding="utf-8"))
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method != "post":
                continue
            assert "Dice slots" in op["description"], path
            for status in ("400", "413", "415", "422"):
                content = op["responses"][status]["content"]
                assert "application/problem+json" in content, (path, status)
