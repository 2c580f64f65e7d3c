"""The compiled engine (mypyc, ``setup.py``) is what runs, it is current, and it answers exactly as
the Python source does."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rules import build
from scripts.gen_golden import requests
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
LISTED: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["dragonroll"][
    "compiled"
]
#: Seeds per golden request in the comparison with the source (besides the recorded one).
SEEDS = 12


def test_listed_modules_exist_and_hold_no_result_types() -> None:
    # Result dataclasses and pydantic models must stay Python classes (orjson reads their __dict__,
    # pydantic their annotations): a compiled module only uses them.
    for name in LISTED:
        source = (ROOT / (name.replace(".", "/") + ".py")).read_text()
        assert "(Record)" not in source and "(Model)" not in source, name


def test_the_listed_modules_are_compiled_when_the_build_compiles() -> None:
    modules = [importlib.import_module(name) for name in LISTED]
    compiled = set(build.compiled_modules())
    if os.environ.get("DRAGONROLL_COMPILE") != "1" and not compiled:
        pytest.skip("this build is pure Python (no C compiler, or DRAGONROLL_COMPILE=0)")
    assert [m.__name__ for m in modules if m.__name__ not in compiled] == []
    assert build.stale_modules() == []


def test_a_source_changed_after_its_build_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "rules"
    package.mkdir()
    (package / ("fast" + build._EXTENSIONS[0])).write_bytes(b"")
    (package / "fast.py").write_text("x = 1\n")
    module = type(sys)("rules.fast")
    module.__file__ = str(package / ("fast" + build._EXTENSIONS[0]))
    monkeypatch.setitem(sys.modules, "rules.fast", module)
    manifest = package / "_build.json"
    digest = "5b9bbf5ab4d1d7b9e6a6af1c5d7c8e8c1d5ed1b58e0ecf0cba3fd51fd5d0e8e6"
    manifest.write_text(json.dumps({"rules.fast": digest}))
    assert "rules.fast" in build.stale_modules(manifest)
    real = hashlib.sha256(b"x = 1\n").hexdigest()
    manifest.write_text(json.dumps({"rules.fast": real}))
    assert "rules.fast" not in build.stale_modules(manifest)
    manifest.unlink()  # a build that recorded nothing cannot vouch for its sources
    assert "rules.fast" in build.stale_modules(manifest)


def test_the_source_answers_byte_for_byte_as_the_compiled_engine(api: Api, tmp_path: Path) -> None:
    """Golden requests, each with its own seed and more, through a copy of the tree with nothing
    compiled (run in another interpreter) and through this process's engine."""
    specs: list[tuple[str, object]] = []
    for request_file in requests():
        spec = json.loads(request_file.read_text(encoding="utf-8"))
        # odds take no seed: each is asked once (a refused seed's problem carries a request id)
        for i in range(1 if "/odds" in spec["path"] else SEEDS + 1):
            body = dict(spec["body"])
            if i:
                body["seed"] = f"build-{i}"
            specs.append((spec["path"], body))
    here = [(r.status_code, r.text) for r in (api.post(path, body) for path, body in specs)]

    copy = tmp_path / "src"
    for part in ("rules", "service", "scripts"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("*.so", "*.pyc"))
    env = {**os.environ, "PYTHONPATH": str(copy), "DRAGONROLL_LOG_LEVEL": "error"}
    probe = "import rules.dice.stream as m, sys; sys.stdout.write(m.__file__)"
    where = subprocess.run(
        [sys.executable, "-P", "-c", probe],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.endswith(".py"), where.stdout  # the copy really runs the source
    run = subprocess.run(
        [sys.executable, "-P", "scripts/gen_golden.py", "--respond"],
        check=False,
        cwd=copy,
        env=env,
        input=json.dumps([{"path": p, "body": b} for p, b in specs]),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    there = [tuple(answer) for answer in json.loads(run.stdout)]
    assert len(there) == len(here)
    for (path, body), mine, theirs in zip(specs, here, there, strict=True):
        assert mine == theirs, (path, body)
