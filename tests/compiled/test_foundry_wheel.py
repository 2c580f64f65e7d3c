"""The wheel the image ships carries the Foundry module (``service.foundry``): installed outside the
source tree, the service answers the same manifest and the same zip as the source does."""

from __future__ import annotations

import base64
import json
import os
import subprocess
from pathlib import Path

from tests.compiled.test_compiled import COMPILED_PYTHON, needs_build
from tests.conftest import Api

#: Run by the wheel's interpreter outside the source tree: the manifest and the zip, as base64.
FETCH = """
import asyncio, base64, json
from service.app import create_app

app = create_app()

async def get(path):
    sent = []
    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}
    async def send(message):
        sent.append(message)
    await app({"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
               "root_path": "", "query_string": b"", "headers": [(b"host", b"testserver")],
               "scheme": "http", "http_version": "1.1", "asgi": {"version": "3.0"},
               "client": ("127.0.0.1", 1), "server": ("testserver", 80)}, receive, send)
    assert sent[0]["status"] == 200, sent
    return b"".join(m.get("body", b"") for m in sent[1:])

manifest = asyncio.run(get("/foundry/module.json"))
download = json.loads(manifest)["download"].removeprefix("http://testserver")
print(json.dumps({"manifest": manifest.decode(), "zip": base64.b64encode(asyncio.run(get(download))).decode()}))
"""


@needs_build
def test_the_wheel_serves_the_module_as_the_source_does(api: Api, tmp_path: Path) -> None:
    assert COMPILED_PYTHON is not None
    here_manifest = api.get("/foundry/module.json")
    here_zip = api.get(here_manifest.json()["download"].removeprefix("http://testserver")).content
    run = subprocess.run(
        [COMPILED_PYTHON, "-P", "-c", FETCH],
        check=False,
        cwd=tmp_path,
        env={**os.environ, "DRAGONROLL_LOG_LEVEL": "error"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    there = json.loads(run.stdout)
    assert there["manifest"] == here_manifest.text
    assert base64.b64decode(there["zip"]) == here_zip
