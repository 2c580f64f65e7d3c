"""The roll card, an MCP App (extension ``io.modelcontextprotocol/ui``) showing a tool's answer: one
HTML document with everything in it (the shared modules and the card's own bundled into one script,
their styles, every language's catalog), since a host's frame has no network (docs/mcp.md, "The roll
card").
"""

from __future__ import annotations

import json
import posixpath
import re
from functools import cache
from pathlib import Path
from typing import Any

from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID

from rules.narration import LANGUAGES

#: The card's resource; every system tool's ``_meta`` names it.
CARD_URI = "ui://dragonroll/roll-card.html"
TOOL_META: dict[str, Any] = {"ui": {"resourceUri": CARD_URI}}
#: The card's ``_meta.ui`` as a resource: a border around it, and no network at all (no CSP
#: domain: everything it shows comes in its one HTML document and in the host's messages).
RESOURCE_META: dict[str, Any] = {"ui": {"prefersBorder": True, "csp": {}}}
#: What the server advertises under ``capabilities.extensions`` (SEP-2133: no settings).
EXTENSIONS: dict[str, dict[str, Any]] = {EXTENSION_ID: {}}
MIME_TYPE = APP_MIME_TYPE
#: The result's ``_meta`` key the card reads: the call's facts.
CALL_META = "dragonroll.dev/call"

STATIC = Path(__file__).parent / "static"
TEMPLATE = STATIC / "mcp" / "roll-card.html"
ENTRY = STATIC / "mcp" / "roll-card.js"
STYLES = (STATIC / "shared" / "card.css", STATIC / "mcp" / "roll-card.css")
CATALOGS = STATIC / "playground" / "i18n"

_IMPORT = re.compile(r'^import \{([^}]*)\} from "(\.\.?/[\w./-]+)";$', re.M)
_REEXPORT = re.compile(r'^export \{([^}]*)\} from "(\.\.?/[\w./-]+)";$', re.M)
_EXPORT = re.compile(r"^export (?=(?:async function|function|const|let|class) )", re.M)
_DECLARED = re.compile(r"^(?:async function|function|const|let|class) (\w+)", re.M)


@cache
def html(version: str = "") -> str:
    """The card's one HTML document (built once a process: a few milliseconds)."""
    catalogs = {
        lang: json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        for lang in LANGUAGES
        if (CATALOGS / f"{lang}.json").is_file()
    }
    parts = {
        "version": version,
        "style": "\n".join(path.read_text(encoding="utf-8") for path in STYLES),
        "catalogs": _in_script(json.dumps(catalogs, ensure_ascii=False, separators=(",", ":"))),
        "script": _in_script(bundle(ENTRY)),
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], text)


def _in_script(text: str) -> str:
    """``text`` safe inside a ``<script>`` element (no ``</`` to end it early)."""
    return text.replace("</", "<\\/")


def bundle(entry: Path) -> str:
    """The ES module ``entry`` and every module it imports (relative imports, one a line, as the
    shared modules write them), as one script: each module a function scope that returns its
    exports, in the order they are needed; the entry's code last. A form it does not read is an
    error, not a guess."""
    order: list[str] = []
    _visit(entry.relative_to(STATIC).as_posix(), order, set())
    modules = [
        f"modules[{json.dumps(key)}] = (() => {{\n{_module(key)}\n}})();" for key in order[:-1]
    ]
    return "\n".join(["const modules = {};", *modules, _body(order[-1])])


def _source(key: str) -> str:
    return (STATIC / key).read_text(encoding="utf-8")


def _imported(key: str, relative: str) -> str:
    """The key (a path under ``static/``) of what module ``key`` imports as ``relative``."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(key), relative))


def _visit(key: str, order: list[str], seen: set[str]) -> None:
    if key in seen:
        return
    seen.add(key)
    text = _source(key)
    for pattern in (_IMPORT, _REEXPORT):
        for match in pattern.finditer(text):
            _visit(_imported(key, match.group(2)), order, seen)
    order.append(key)


def _names(listed: str) -> list[tuple[str, str]]:
    """``a, b as c`` as ``[(a, a), (b, c)]``."""
    out = []
    for item in listed.split(","):
        words = item.split()
        if words:
            out.append((words[0], words[-1]))
    return out


def _body(key: str) -> str:
    """A module's code with its imports read from ``modules`` and its ``export`` words taken off."""

    def imported(match: re.Match[str]) -> str:
        names = ", ".join(a if a == b else f"{a}: {b}" for a, b in _names(match.group(1)))
        return f"const {{ {names} }} = modules[{json.dumps(_imported(key, match.group(2)))}];"

    text = _EXPORT.sub("", _REEXPORT.sub(imported, _IMPORT.sub(imported, _source(key))))
    left = re.search(r"^\s*(import|export)\b.*$", text, re.M)
    if left is not None:
        raise ValueError(f"{key}: a form the card's bundle does not read: {left.group(0)}")
    return text


def _module(key: str) -> str:
    text = _source(key)
    declared = "\n".join(
        line.removeprefix("export ") for line in text.splitlines() if _EXPORT.match(line)
    )
    exported = [m.group(1) for m in _DECLARED.finditer(declared)]
    exported += [b for listed, _ in _REEXPORT.findall(text) for _, b in _names(listed)]
    return f"{_body(key)}\nreturn {{ {', '.join(exported)} }};"
