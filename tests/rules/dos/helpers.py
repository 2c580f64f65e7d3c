from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from rules.dice import DiceSource

M = TypeVar("M", bound=BaseModel)


def build(model: type[M], **fields: Any) -> M:
    """Validate a request the way the service does: from JSON, strictly."""
    import json

    return model.model_validate_json(json.dumps(fields))


def source(req: Any, slots: Any, seed: str | int = "test") -> DiceSource:
    return DiceSource(req.seed if req.seed is not None else seed, req.dice, slots(req))
