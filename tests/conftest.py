"""Shared fixtures: an in-process HTTP client over ``httpx.ASGITransport`` (STYLE 14)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
import urllib.request
from typing import Any

import httpx
import pytest
from hypothesis import settings

from service.app import create_app

# No per-example deadline anywhere (a busy CI machine is not a bug), and in CI the same examples every
# run, so a red build is never a roll of the dice; locally hypothesis keeps exploring new ones.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, database=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


#: Modules whose tests start first (longest first): with ``make unit``'s ``--dist loadscope`` each
#: module runs on one xdist worker, its module fixtures built once, and a long module started last
#: would keep one worker busy after the other has finished. The toy-system proof is the longest
#: (two ``make generate`` runs and fifteen suites in a copy of the project, about 3 minutes).
FIRST = ("tests/service/test_new_system.py",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``FIRST`` modules, then the other ``slow`` ones (servers, browsers), then the rest, each
    group in collection order (a stable sort: every xdist worker sees the same order)."""

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        if path in FIRST:
            return FIRST.index(path)
        return len(FIRST) + (0 if item.get_closest_marker("slow") else 1)

    items.sort(key=rank)


class Api:
    """A small synchronous face on an ``httpx.AsyncClient`` bound to one app instance."""

    def __init__(self, **settings: Any) -> None:
        from service.settings import Settings

        self.app = create_app(Settings(**settings))

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        transport = httpx.ASGITransport(app=self.app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.request(method, path, **kwargs)

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return asyncio.run(self._request(method, path, **kwargs))

    def post(self, path: str, json: Any = None, **kwargs: Any) -> httpx.Response:
        if json is not None:
            kwargs["json"] = json
        return self.request("POST", path, **kwargs)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)


def http_scope(
    method: str, path: str, headers: list[tuple[bytes, bytes]] | None = None
) -> dict[str, Any]:
    """The ASGI scope of an HTTP/1.1 request, for tests that call an app as plain ASGI."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers or [],
        "client": ("127.0.0.1", 1),
        "server": ("t", 80),
    }


#: Seconds a server subprocess may take to get ready: generous, for a loaded machine (the suite runs
#: two workers on two cores, often beside other work: 20 s was not enough). A server that exits
#: before it is ready fails the test at once, with its output.
READY_SECONDS = 120


def wait_ready(proc: subprocess.Popen[Any], url: str, seconds: float = READY_SECONDS) -> None:
    """Return once ``url`` (a server's ``/readyz``) answers 200; fail at once when ``proc`` exits
    first, or after ``seconds`` (the process killed), with what it wrote."""
    start = time.monotonic()
    pause = 0.05
    while True:
        if proc.poll() is not None:
            out = proc.communicate()
            raise AssertionError(
                f"the server exited ({proc.returncode}) before it was ready: {out}"
            )
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:  # not listening yet, or 503 (not ready yet)
            pass
        if time.monotonic() - start > seconds:
            proc.kill()
            raise AssertionError(
                f"the server was not ready after {seconds} s: {proc.communicate()}"
            )
        time.sleep(pause)
        pause = min(pause * 1.5, 0.5)


@pytest.fixture(scope="session")
def api() -> Api:
    return Api()


def assert_problem(
    response: httpx.Response, status: int, kind: str | None = None
) -> dict[str, Any]:
    """The response is an RFC 9457 problem of that status (and kind); returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response.headers
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert {"type", "title", "detail"} <= body.keys()
    if kind is not None:
        assert body["type"].endswith("/" + kind), body
    return body
