"""Build: the rules engine's hot modules compiled to C with mypyc, when a C compiler is there.

The modules are listed in ``pyproject.toml`` (``[tool.dragonroll] compiled``); they are plain,
fully annotated Python (``mypy --strict``) and run unchanged when not compiled. Compiled, a resolution
takes about a third less CPU, with the same bytes out (``tests/compiled`` compares them with the source).
Next to the extensions the build writes ``rules/_build.json``, the SHA-256 of each compiled source, so
the service and the tests can tell when a source changed after its build (``rules.build``).

``DRAGONROLL_COMPILE``: ``auto`` (the default: compile when a C compiler, mypy and the runtime
dependencies are there), ``1`` (compile or fail), ``0`` (pure Python).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
MANIFEST = Path("rules") / "_build.json"


def compiled_modules() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["tool"]["dragonroll"]["compiled"])


def source(module: str) -> Path:
    return Path(*module.split(".")).with_suffix(".py")


def ext_modules() -> list[Any]:
    mode = os.environ.get("DRAGONROLL_COMPILE", "auto").strip().lower()
    if mode not in {"auto", "1", "true", "yes", "0", "false", "no"}:
        raise SystemExit(f"DRAGONROLL_COMPILE={mode!r}: use auto (the default), 1 or 0")
    if mode in {"0", "false", "no"}:
        return []
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    # mypyc type-checks the modules: it needs mypy and the runtime dependencies (pydantic) installed.
    missing = [name for name in ("mypyc", "pydantic") if importlib.util.find_spec(name) is None]
    if shutil.which(compiler) is None:
        missing.append(f"a C compiler ({compiler})")
    if missing:
        if mode == "auto":
            print(
                f"dragonroll: no {', '.join(missing)}: the engine stays pure Python",
                file=sys.stderr,
            )
            return []
        raise SystemExit(f"DRAGONROLL_COMPILE={mode} but no {', '.join(missing)} here")
    from mypyc.build import mypycify  # noqa: PLC0415 (a pure Python build needs no mypy)

    files = [str(source(m)) for m in compiled_modules()]
    return list(mypycify(files, opt_level="3", debug_level="1", separate=True))


class BuildExt(build_ext):
    """Builds the extensions on every core, then records the sources they were built from."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.parallel = self.parallel or os.cpu_count() or 1

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        digests = {
            m: hashlib.sha256((ROOT / source(m)).read_bytes()).hexdigest()
            for m in compiled_modules()
        }
        target = (ROOT if self.inplace else Path(self.build_lib)) / MANIFEST
        target.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt})
