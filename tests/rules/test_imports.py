"""rules/ is a pure engine that imports upward nothing (STYLE 1): no module of it imports the web
layer (``service``, FastAPI, Starlette), and its modules import each other without a cycle, so any
of them can be read, imported and tested from the bottom up (the descriptor imports the engine and
the texts, the registry the descriptors; nothing below imports back). The graph is read from the
source (``tests/import_graph.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import cycles, graph, imported, modules

RULES = Path(__file__).resolve().parents[2] / "rules"
UPWARD = ("service", "fastapi", "starlette", "uvicorn", "httpx")
MODULES = modules(RULES)


def test_the_graph_is_read_from_every_module() -> None:
    edges = graph(RULES)
    assert len(MODULES) > 60
    assert "rules.system" in edges["rules.registry"]  # an import of a name from a module
    assert "rules.dos" in edges["rules.registry"]  # ``from rules import dos``: the package
    assert "rules.dos.budget" in edges["rules.dos.system"]  # ``from rules.dos import budget``


def test_rules_has_no_import_cycle() -> None:
    found = cycles(graph(RULES))
    assert found == [], "import cycles in rules/: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_rules_imports_nothing_of_the_web_layer(name: str) -> None:
    for target, line in imported(RULES, MODULES[name], MODULES):
        assert target.split(".")[0] not in UPWARD, f"{MODULES[name]}:{line} imports {target}"
