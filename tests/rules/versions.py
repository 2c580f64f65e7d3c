"""Each system's fingerprint: what its rules version covers (docs/dice.md, "Rules versions").

A system's answers are made by its engine (``rules/<system>/*.py`` but its descriptor,
``system.py``, which holds documentation and examples), by every module of ``rules/`` the engine
imports, followed transitively (the dice spec ``rules/dice/``, the events, the narration, the
Foundry rolls, the models; the dice notation's parser, which reads a 5e damage formula), and by its
texts: its English sources and their translations in every catalog. Every system of the registry
is recorded, the notation (``/dice``) too. The fingerprint is a SHA-256 of them: the code
as its syntax tree without docstrings (a comment, a docstring or a reformat changes nothing), the
texts as their entries (context, source, translations, fuzzy flag).

``tests/rules/versions.json`` records each system's ``rules_version`` and fingerprint;
``test_versions.py`` fails when a fingerprint changes and the version does not. Re-record with
``python -m tests.rules.versions`` (``make versions``) after bumping the version, or, when no
answer can change (a refactor), without bumping it, and say so in the commit.
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from rules.narration import DOMAIN, LANGUAGES, LOCALE_DIR
from rules.registry import SYSTEMS
from rules.system import System

ROOT = Path(__file__).resolve().parents[2]
RECORD = Path(__file__).with_name("versions.json")
#: What no answer is made by: each package's descriptor (documentation and examples) and the
#: registry (the list of descriptors).
NOT_RULES = frozenset({"system.py", "rules/registry.py"})


def sources(system: System) -> list[Path]:
    """The modules of ``rules/`` that make the system's answers: its package's, and every module
    of ``rules/`` they import, transitively (the dice spec, the events, the narration, the Foundry
    rolls; the notation's parser for a 5e damage formula), descriptors and the registry aside."""
    seen: set[Path] = set()
    todo = [p for p in (ROOT / "rules" / system.id).glob("*.py") if p.name not in NOT_RULES]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path):
            module = ROOT / Path(*name.split("."))
            for candidate in (module.with_suffix(".py"), module / "__init__.py"):
                relative = str(candidate.relative_to(ROOT))
                if candidate.is_file() and not {candidate.name, relative} & NOT_RULES:
                    todo.append(candidate)
    return sorted(seen)


def _imports(path: Path) -> list[str]:
    """The ``rules`` modules ``path`` imports (``from rules.x import y`` may name a module y)."""
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "rules"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "rules":
            assert node.module is not None and node.level == 0
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def code(path: Path) -> str:
    """A module's syntax tree without its docstrings, as text."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.dump(tree, annotate_fields=False)


def texts(system: System) -> list[Any]:
    """The system's messages: English sources, then each catalog's entries for them."""
    out: list[Any] = sorted(
        (m.context, m.text, m.plural or "") for m in (*system.texts, *system.flavors)
    )
    mine = {m.context for m in (*system.texts, *system.flavors)}
    for lang in LANGUAGES:
        with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
            catalog = read_po(f)
        out += sorted(
            (lang, m.context, str(m.id), str(m.string), m.fuzzy)
            for m in catalog
            if m.context in mine
        )
    return out


def fingerprint(system: System) -> str:
    digest = hashlib.sha256()
    for path in sources(system):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + code(path).encode() + b"\0")
    digest.update(json.dumps(texts(system), ensure_ascii=False).encode())
    return digest.hexdigest()


def current() -> dict[str, dict[str, str]]:
    return {
        s.id: {"rules_version": s.rules_version, "fingerprint": fingerprint(s)} for s in SYSTEMS
    }


if __name__ == "__main__":
    RECORD.write_text(json.dumps(current(), indent=2) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {RECORD.relative_to(ROOT)}\n")
