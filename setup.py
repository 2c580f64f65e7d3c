"""Build: the rules engine's hot modules compiled to C with mypyc, for the wheel and the image only.

The modules are the registry's (``rules.registry.compiled()``: the shared engine modules, then each
system's descriptor's ``compiled``); they are plain, fully annotated Python (``mypy --strict``) and run unchanged when not compiled. Compiled, a request costs
a third to a half less CPU (docs/performance.md), with the same bytes out (``make test-compiled``
compares every golden request's answer with the source's).

``DRAGONROLL_COMPILE=1`` compiles (or fails: no C compiler, no mypy); anything else, the default,
builds pure Python. An editable install (``make venv``) always stays pure Python, so an edit to
``rules/`` takes effect on the next run with nothing to rebuild: the compiled modules only ever live in
a wheel (``pip wheel .``, the Dockerfile's build stage), never beside their source.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def compiled_modules() -> list[str]:
    """The registry's list (imported only to compile: it needs the runtime dependencies)."""
    sys.path.insert(0, str(ROOT))
    from rules.registry import compiled  # noqa: PLC0415

    return list(compiled())


def source(module: str) -> Path:
    return Path(*module.split(".")).with_suffix(".py")


def ext_modules() -> list[Any]:
    if os.environ.get("DRAGONROLL_COMPILE", "0").strip() != "1":
        return []
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    # mypyc type-checks the modules: it needs mypy and the runtime dependencies (pydantic) installed.
    missing = [name for name in ("mypyc", "pydantic") if importlib.util.find_spec(name) is None]
    if shutil.which(compiler) is None:
        missing.append(f"a C compiler ({compiler})")
    if missing:
        raise SystemExit(f"DRAGONROLL_COMPILE=1 but no {', '.join(missing)} here")
    from mypyc.build import mypycify  # noqa: PLC0415 (a pure Python build needs no mypy)

    files = [str(source(m)) for m in compiled_modules()]
    return list(mypycify(files, opt_level="3", debug_level="1", separate=True))


class BuildExt(build_ext):
    """Builds the extensions on every core, into the wheel's build tree only."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.parallel = self.parallel or os.cpu_count() or 1

    def run(self) -> None:
        if self.inplace and self.extensions:
            raise SystemExit(
                "DRAGONROLL_COMPILE=1 builds wheels only (pip wheel ., docker build): an editable "
                "install stays pure Python, so an edit to rules/ takes effect without a rebuild"
            )
        super().run()


#: The pages the MCP server serves as resources (service.mcp), from docs/ into the wheel's
#: service/pages/ (an editable install reads them from docs/ itself).
PAGES = ("dice.md", "systems/*.md")


class BuildPy(build_py):
    """Builds the packages, and copies the MCP resources' pages into the wheel's build tree."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        docs = ROOT / "docs"
        for pattern in PAGES:
            for page in sorted(docs.glob(pattern)):
                target = Path(self.build_lib, "service", "pages", page.relative_to(docs))
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(page, target)


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
