"""The committed OpenAPI document is the app's: regenerate it with `make openapi` when this fails."""

from __future__ import annotations

import json
from pathlib import Path

from scripts.gen_openapi import TARGET, render


def test_openapi_document_matches_the_app() -> None:
    committed = TARGET.read_text(encoding="utf-8")
    assert json.loads(committed) == json.loads(render()), (
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
