"""/docs and /redoc render in a real headless Chromium with no internet and under their strict CSP.

CI installs Debian's chromium (see .ci/run); elsewhere the test is skipped when no chromium is found.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from tests.service.test_ops_server import Server

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("CI") != "true":
    pytest.skip("no chromium on this machine (CI installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    srv = Server()
    try:
        yield srv
    finally:
        srv.stop()


def render(url: str) -> tuple[str, str]:
    """The DOM after scripts ran, and Chromium's console log."""
    assert CHROMIUM is not None, "CI must install chromium (apt-get install chromium)"
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=10000",
                "--enable-logging=stderr",
                "--v=0",
                "--dump-dom",
                url,
            ],
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    return done.stdout, done.stderr


def blocked(console: str) -> list[str]:
    """Every CSP violation (ReDoc's CDN logo included: service/docs.py serves its bundle with a local one)."""
    return [line for line in console.splitlines() if "Content Security Policy" in line]


def test_swagger_ui_renders_every_system(server: Server) -> None:
    dom, console = render(server.url("/docs"))
    for path in ("/dos/roll", "/dos/turn", "/dragon/battle", "/riders/combat", "/dnd5e/attack"):
        assert f'data-path="{path}"' in dom, path
    assert blocked(console) == []


def test_redoc_renders_every_system(server: Server) -> None:
    dom, console = render(server.url("/redoc"))
    for title in ("Dragons of Shadows", "Dragon battle", "Dragon Riders", "Roll a d10 pool"):
        assert title in dom, title
    assert blocked(console) == []
