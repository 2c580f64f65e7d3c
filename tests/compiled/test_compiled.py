"""The compiled engine (mypyc, ``setup.py``), built into a wheel as the image builds it, answers exactly
as the Python source does.

``make test-compiled`` builds the wheel with ``DRAGONROLL_COMPILE=1``, installs it into its own
virtualenv and runs these tests with ``DRAGONROLL_COMPILED_PYTHON`` naming that virtualenv's
interpreter; CI (``.ci/run``) runs it after ``make test``. Without it, only the first test runs.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from rules.registry import compiled
from scripts.gen_golden import requests
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
LISTED: list[str] = list(compiled())
#: Seeds per golden request in the comparison with the source (besides the recorded one).
SEEDS = 12
COMPILED_PYTHON = os.environ.get("DRAGONROLL_COMPILED_PYTHON")
needs_build = pytest.mark.skipif(
    not COMPILED_PYTHON, reason="no compiled build to test: run `make test-compiled`"
)

#: Run by the compiled build's interpreter, outside the source tree (``-P``, another directory), so
#: it imports the installed wheel: the listed modules it runs compiled, then an answer per request.
RESPOND = """
import asyncio, json, sys
from service.app import create_app
from service.health import compiled_modules

app = create_app()

async def post(path, body):
    sent = []
    read = []
    async def receive():
        if read:  # after the body, as a server does: nothing until the client goes
            await asyncio.Event().wait()
        read.append(True)
        return {"type": "http.request", "body": body, "more_body": False}
    async def send(message):
        sent.append(message)
    headers = [(b"content-type", b"application/json")]
    await app({"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
               "root_path": "", "query_string": b"", "headers": headers, "scheme": "http",
               "http_version": "1.1", "asgi": {"version": "3.0"}, "client": ("127.0.0.1", 1),
               "server": ("127.0.0.1", 80)}, receive, send)
    return [sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:]).decode()]

specs = json.load(sys.stdin)
answers = [asyncio.run(post(s["path"], json.dumps(s["body"]).encode())) for s in specs]
json.dump({"compiled": compiled_modules(), "answers": answers}, sys.stdout)
"""


def test_listed_modules_exist_and_hold_no_result_types() -> None:
    # Pydantic models must stay Python classes (pydantic reads their annotations for validation
    # and the OpenAPI document): a compiled module only uses them.
    for name in LISTED:
        source = (ROOT / (name.replace(".", "/") + ".py")).read_text()
        assert "(Model)" not in source and "(BaseModel)" not in source, name


@needs_build
def test_the_compiled_build_answers_byte_for_byte_as_the_source(api: Api, tmp_path: Path) -> None:
    """Golden requests, each with its own seed and more, through this process's source and through
    the compiled wheel in its own interpreter."""
    specs: list[dict[str, object]] = []
    for request_file in requests():
        spec = json.loads(request_file.read_text(encoding="utf-8"))
        # odds take no seed: each is asked once (a refused seed's problem carries a request id)
        for i in range(1 if "/odds" in spec["path"] else SEEDS + 1):
            body = dict(spec["body"])
            if i:
                body["seed"] = f"build-{i}"
            specs.append({"path": spec["path"], "body": body})
    here = [[r.status_code, r.text] for r in (api.post(s["path"], s["body"]) for s in specs)]  # type: ignore[arg-type]
    assert COMPILED_PYTHON is not None
    run = subprocess.run(
        [COMPILED_PYTHON, "-P", "-c", RESPOND],
        check=False,
        cwd=tmp_path,
        env={**os.environ, "DRAGONROLL_LOG_LEVEL": "error"},
        input=json.dumps(specs),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    there = json.loads(run.stdout)
    assert sorted(there["compiled"]) == sorted(LISTED)  # the wheel really runs them compiled
    assert len(there["answers"]) == len(here)
    for spec, mine, theirs in zip(specs, here, there["answers"], strict=True):
        assert mine == theirs, spec
