"""A port another process listens on stops ``python -m service`` with one line naming the port and
the settings to change, exit status 1, before the app is built (no ``ready`` line)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.__main__ import port_taken

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def listening() -> Iterator[int]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


@pytest.mark.parametrize("given", ["flag", "setting"])
def test_a_taken_port_is_one_line_and_exit_1(listening: int, given: str) -> None:
    args = ["--port", str(listening)] if given == "flag" else []
    env = {**os.environ, "DRAGONROLL_LOG_FORMAT": "json"}
    if given == "setting":
        env["DRAGONROLL_PORT"] = str(listening)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "service", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    lines = [x for x in proc.stderr.splitlines() if not x.startswith("import time:")]
    assert lines == [
        f"dragonroll: port {listening} on 127.0.0.1 is taken: choose a free one with --port or "
        "DRAGONROLL_PORT"
    ]
    assert proc.stdout == ""  # no `ready` line, no uvicorn line
    imported = {x.rsplit("|", 1)[-1].strip() for x in proc.stderr.splitlines()}
    assert "service.app" not in imported  # refused before the app was built


def test_a_listened_port_is_taken_a_free_one_or_one_in_time_wait_is_not(listening: int) -> None:
    assert port_taken("127.0.0.1", listening)
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            accepted, _ = server.accept()
            accepted.close()  # the server's end closes first: it is left in TIME_WAIT
            client.recv(1)
    assert not port_taken("127.0.0.1", port)  # as uvicorn binds it (SO_REUSEADDR)
