"""How this process runs the engine: which ``rules`` modules are compiled (mypyc) and which are source.

``setup.py`` compiles the modules listed in ``pyproject.toml`` (``[tool.dragonroll] compiled``) when a C
compiler is there; each is then an extension module next to its ``.py`` file, and Python imports the
extension. The source stays the reference: compiled or not, a request gives the same bytes. The build
records the SHA-256 of each source it compiled in ``rules/_build.json``.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import sys
from pathlib import Path

_EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
MANIFEST = Path(__file__).with_name("_build.json")


def compiled_modules() -> list[str]:
    """The ``rules`` modules loaded so far from a compiled extension, by name."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("rules.")
        and not name.endswith("__mypyc")  # mypyc's runtime half of a module, not a module
        and str(getattr(module, "__file__", "")).endswith(_EXTENSIONS)
    )


def stale_modules(manifest: Path = MANIFEST) -> list[str]:
    """Compiled modules whose source is not the one they were built from (rebuild: ``make venv``).

    Python imports the extension whatever the source says, so an edit to a compiled module's source
    does nothing until the build runs again. A module whose source is not installed is not checked.
    """
    try:
        built: dict[str, str] = json.loads(manifest.read_text())
    except (OSError, ValueError):
        built = {}
    stale = []
    for name in compiled_modules():
        extension = Path(str(sys.modules[name].__file__))
        source = extension.parent / (name.rsplit(".", 1)[1] + ".py")
        if source.exists() and hashlib.sha256(source.read_bytes()).hexdigest() != built.get(name):
            stale.append(name)
    return stale
