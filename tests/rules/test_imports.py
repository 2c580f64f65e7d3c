"""rules/ is a pure engine that imports upward nothing (STYLE 1): no module of it imports the web
layer (``service``, FastAPI, Starlette), and its modules import each other without a cycle, so any
of them can be read, imported and tested from the bottom up (the descriptor imports the engine and
the texts, the registry the descriptors; nothing below imports back).

Read from the source (``ast``): every ``import`` and ``from ... import`` of every module, at any
depth (a function's own import counts too). ``from rules.x import y`` is an edge to the module
``rules.x.y`` where that is a module, else to ``rules.x``; a package's ``__init__.py`` is the
package's module. The implicit import of a parent package (``rules.dos`` before ``rules.dos.models``)
is not an edge: it is how Python finds the module, not something the module asked for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
UPWARD = ("service", "fastapi", "starlette", "uvicorn", "httpx")


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(RULES.rglob("*.py"))}


def imported(path: Path) -> Iterator[tuple[str, int]]:
    """Each module ``path`` imports (by absolute name), with the line that imports it."""
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from its package up
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in MODULES else base), node.lineno


def graph() -> dict[str, set[str]]:
    return {
        name: {target for target, _ in imported(path) if target in MODULES and target != name}
        for name, path in MODULES.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_from_every_module() -> None:
    edges = graph()
    assert len(MODULES) > 60
    assert "rules.system" in edges["rules.registry"]  # an import of a name from a module
    assert "rules.dos" in edges["rules.registry"]  # ``from rules import dos``: the package
    assert "rules.dos.budget" in edges["rules.dos.system"]  # ``from rules.dos import budget``


def test_rules_has_no_import_cycle() -> None:
    found = cycles(graph())
    assert found == [], "import cycles in rules/: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_rules_imports_nothing_of_the_web_layer(name: str) -> None:
    for target, line in imported(MODULES[name]):
        assert target.split(".")[0] not in UPWARD, f"{MODULES[name]}:{line} imports {target}"
