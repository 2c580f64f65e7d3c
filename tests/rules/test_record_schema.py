"""Every typed-dict record of every system refuses unknown keys in the schema, as the dataclasses
did (``additionalProperties: false``): pydantic reads it from the record's config."""

from __future__ import annotations

from typing import Any

import pytest

import rules.models
from rules.dnd5e import models as dnd5e
from rules.dos import models as dos
from rules.dragon import models as dragon
from rules.riders import models as riders
from tests.rules.record_keys import typed_dicts

RECORDS = [r for m in (rules.models, dos, dragon, riders, dnd5e) for r in typed_dicts(m)]


def test_every_system_with_records_is_listed() -> None:
    assert {r.__module__ for r in RECORDS} >= {
        "rules.models",
        "rules.dos.models",
        "rules.dragon.models",
        "rules.riders.models",
        "rules.dnd5e.models",
    }


@pytest.mark.parametrize("record", RECORDS, ids=lambda obj: f"{obj.__module__}.{obj.__name__}")
def test_records_refuse_unknown_keys_in_the_schema(record: Any) -> None:
    assert record.__pydantic_config__ == {"extra": "forbid"}
