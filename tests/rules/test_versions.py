"""A system's rules or texts do not change without its rules version (docs/dice.md, "Rules
versions"; the fingerprint: ``tests/rules/versions.py``)."""

from __future__ import annotations

import json

import pytest

from rules.registry import SYSTEMS
from rules.system import System
from tests.rules.versions import RECORD, fingerprint

RECORDED = json.loads(RECORD.read_text(encoding="utf-8"))
GAMES = list(SYSTEMS)


def test_every_system_is_recorded() -> None:
    assert set(RECORDED) == {s.id for s in GAMES}, "re-record: make versions"


@pytest.mark.parametrize("system", GAMES, ids=[s.id for s in GAMES])
def test_a_change_to_a_system_bumps_its_version(system: System) -> None:
    recorded = RECORDED[system.id]
    changed = fingerprint(system) != recorded["fingerprint"]
    bumped = system.rules_version != recorded["rules_version"]
    assert not (changed and not bumped), (
        f"the {system.id} engine, the shared code or its texts changed but its rules_version is "
        f"still {system.rules_version!r}: if an answer can change, bump its rules_version "
        f"in rules/{system.id}/system.py and `make golden`; then (or, when no answer can "
        "change, alone) `make versions`"
    )
    assert (system.rules_version, changed) == (recorded["rules_version"], False), (
        "re-record tests/rules/versions.json: make versions"
    )
