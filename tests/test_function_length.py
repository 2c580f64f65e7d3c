"""A function fits on a screen (STYLE 18): none in ``rules/`` or ``service/`` is over 60 lines.

A function's length is counted from its ``def`` (decorators excluded) to its last line, nested
functions and classes included, docstring and comments too: what a reader scrolls through.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "service")
MAX_LINES = 60


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    """(qualified name, lines) of every function in ``tree``, nested ones included."""
    found: list[tuple[str, int]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            assert node.end_lineno is not None
            found.append((name, node.end_lineno - node.lineno + 1))
            found += _functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            found += _functions(node, prefix + node.name + ".")
        else:
            found += _functions(node, prefix)
    return found


def _lengths() -> dict[str, int]:
    lengths: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            where = path.relative_to(ROOT).as_posix()
            for name, lines in _functions(tree):
                lengths[f"{where}:{name}"] = lines
    return lengths


LENGTHS = _lengths()


def test_every_function_fits_on_a_screen() -> None:
    too_long = {f"{where} ({lines} lines)" for where, lines in LENGTHS.items() if lines > MAX_LINES}
    assert not too_long, f"split into named phases (at most {MAX_LINES} lines each): {too_long}"


def test_the_count_sees_nested_and_method_definitions() -> None:
    source = "class A:\n    def f(self):\n        def g():\n            pass\n        return g\n"
    assert _functions(ast.parse(source)) == [("A.f", 4), ("A.f.g", 2)]
