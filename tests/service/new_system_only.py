"""A pytest plugin for ``tests/service/test_new_system.py``'s run of the suites over a copy with a
new system: a test parametrized over another system (its id or its path's first segment in the
test's id, ``DRAGONROLL_OTHER_SYSTEMS``) and not over the new one (``DRAGONROLL_NEW_SYSTEM``) is
deselected, since it proves nothing of the new system and the main suite runs it anyway."""

from __future__ import annotations

import os
import re

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    new = os.environ["DRAGONROLL_NEW_SYSTEM"]
    others = "|".join(map(re.escape, os.environ["DRAGONROLL_OTHER_SYSTEMS"].split(",")))
    another = re.compile(rf"(?<![a-z0-9])({others})(?![a-z0-9])")
    keep, drop = [], []
    for item in items:
        spec = getattr(item, "callspec", None)
        ident = spec.id if spec is not None else ""
        (drop if ident and new not in ident and another.search(ident) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
