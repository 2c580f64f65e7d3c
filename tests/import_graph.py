"""The import graph of a package of this project, read from its source (``ast``): every ``import``
and ``from ... import`` of every module, at any depth (a function's own import counts too).

``from a.x import y`` is an edge to the module ``a.x.y`` where that is a module, else to ``a.x``; a
package's ``__init__.py`` is the package's module. The implicit import of a parent package
(``rules.dos`` before ``rules.dos.models``) is not an edge: it is how Python finds the module, not
something the module asked for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by name."""
    return {module_name(root, p): p for p in sorted(root.rglob("*.py"))}


def imported(root: Path, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """Each module ``path`` imports (by absolute name), with the line that imports it."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
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
                yield (full if full in known else base), node.lineno


def graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` -> the modules of the package it imports."""
    known = modules(root)
    return {
        name: {t for t, _ in imported(root, path, known) if t in known and t != name}
        for name, path in known.items()
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
