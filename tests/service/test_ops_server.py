"""The real server: ``python -m service`` under uvicorn, its log lines, and a graceful SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import wait_ready

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, **env: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service"],
            cwd=ROOT,
            env={
                **os.environ,
                "DRAGONROLL_PORT": str(self.port),
                "DRAGONROLL_LOG_FORMAT": "json",
                **env,
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        # The log is read as it comes: a pipe nobody reads fills (64 KiB) and then holds the
        # server's every write, its event loop with it.
        self.err: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        wait_ready(self.proc, self.url("/readyz"))

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> tuple[int, list[dict[str, Any]]]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=20)
        self.reader.join(timeout=5)
        lines = "".join(self.err).splitlines()
        return self.proc.returncode, [json.loads(x) for x in lines if x.startswith("{")]


def assert_clean_exit(code: int, lines: list[dict[str, Any]]) -> None:
    """uvicorn drains, runs the lifespan's shutdown, then re-raises SIGTERM (exit -15) or exits 0."""
    assert code in (0, -signal.SIGTERM), code
    events = [x.get("event", "") for x in lines]
    assert "stopping" in events and "Application shutdown complete." in events, events


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server(DRAGONROLL_GRACEFUL_TIMEOUT="10")
    try:
        yield srv
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()
            srv.proc.communicate()


def test_sigterm_lets_the_in_flight_request_finish(server: Server) -> None:
    body = json.dumps({"pool": 5, "seed": "graceful"}).encode()
    head = (
        f"POST /dos/roll HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nX-Request-ID: inflight-1\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head + body[:10])  # the request is in flight: headers in, body half sent
        time.sleep(0.3)
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert server.proc.poll() is None, "the server exited with a request in flight"
        with pytest.raises(OSError):  # no new connections once draining
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
        conn.sendall(body[10:])
        response = b""
        while chunk := conn.recv(65536):
            response += chunk
    status_line, _, rest = response.partition(b"\r\n")
    assert status_line == b"HTTP/1.1 200 OK", response
    headers, _, payload = rest.partition(b"\r\n\r\n")
    assert b"x-request-id: inflight-1" in headers.lower()
    assert json.loads(payload)["seed"] == "graceful"
    code, lines = server.stop()
    assert_clean_exit(code, lines)
    [line] = [x for x in lines if x.get("event") == "request"]
    assert (line["route"], line["status"], line["request_id"]) == ("/dos/roll", 200, "inflight-1")


def test_uvicorn_lines_share_the_json_format(server: Server) -> None:
    with urllib.request.urlopen(server.url("/livez"), timeout=5) as r:
        assert r.status == 200
        assert "server" not in {k.lower() for k in r.headers}
    code, lines = server.stop()
    assert_clean_exit(code, lines)
    assert any(x.get("logger", "").startswith("uvicorn") for x in lines), lines
    assert any(x.get("event") == "ready" for x in lines)
    assert all({"event", "level", "timestamp"} <= x.keys() for x in lines)
    assert not [x for x in lines if x.get("event") == "request"]  # health stays out of the log


def test_a_bad_setting_stops_start_up_with_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "service"],
        cwd=ROOT,
        env={**os.environ, "DRAGONROLL_PORT": "eighty"},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines() == [
        "dragonroll: bad setting DRAGONROLL_PORT: "
        "Input should be a valid integer, unable to parse string as an integer"
    ]
