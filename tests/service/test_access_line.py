"""Issue 8: the request lines of one event-loop iteration leave in one write, complete and in order."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.settings import Settings
from tests.conftest import http_scope
from tests.service.test_ops import log_lines

# --- the access line: one write per event-loop iteration ------------------------------------------


class CountingStream(io.StringIO):
    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def _scope(path: str, rid: str) -> dict[str, Any]:
    return http_scope(
        "POST", path, [(b"content-type", b"application/json"), (b"x-request-id", rid.encode())]
    )


def _json_app(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, CountingStream]:
    stream = CountingStream()
    monkeypatch.setattr("sys.stderr", stream)
    from service.app import create_app

    return create_app(Settings(log_format="json")), stream


def test_concurrent_requests_give_complete_lines_in_order_in_few_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, stream = _json_app(monkeypatch)
    finished: list[str] = []

    async def one(i: int) -> None:
        async def receive() -> dict[str, Any]:
            await asyncio.sleep(0)  # the body arrives later: the requests interleave
            return {"type": "http.request", "body": json.dumps({"pool": 1 + i % 5}).encode()}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                finished.append(f"r-{i}")

        await app(_scope("/dos/roll" if i % 7 else "/dos/nothing", f"r-{i}"), receive, send)

    async def go() -> None:
        await asyncio.gather(*(one(i) for i in range(60)))

    asyncio.run(go())
    text = stream.getvalue()
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]  # every line whole
    assert [x["request_id"] for x in lines] == finished  # in the order they ended
    assert len(finished) == 60
    assert stream.writes <= 4  # the 60 lines left in a handful of writes, not 60


def test_a_line_waits_only_for_the_rest_of_its_loop_iteration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, stream = _json_app(monkeypatch)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b'{"pool": 2}'}

    async def send(message: dict[str, Any]) -> None:
        return None

    async def go() -> tuple[str, str]:
        await app(_scope("/dos/roll", "r-1"), receive, send)
        before = stream.getvalue()
        await asyncio.sleep(0)  # one loop iteration
        return before, stream.getvalue()

    before, after = asyncio.run(go())
    assert before == ""
    assert json.loads(after)["request_id"] == "r-1"


def test_the_lifespan_flushes_the_lines_still_buffered(monkeypatch: pytest.MonkeyPatch) -> None:
    app, stream = _json_app(monkeypatch)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b'{"pool": 2}'}

    async def send(message: dict[str, Any]) -> None:
        return None

    async def go() -> str:
        async with app.router.lifespan_context(app):
            await app(_scope("/dos/roll", "r-last"), receive, send)  # never suspends
        return stream.getvalue()  # read before the loop runs the scheduled flush

    events = [(x["event"], x.get("request_id")) for x in log_lines(asyncio.run(go()))]
    assert events == [("ready", None), ("request", "r-last"), ("stopping", None)]


def test_a_line_outside_a_running_loop_is_written_at_once() -> None:
    from service.logs import make_access_line

    stream = CountingStream()
    line = make_access_line(Settings(log_format="json"), stream)
    assert line is not None
    line("POST", "/dos/roll", "/dos/roll", 200, 500, "r-1", "dos")
    line("GET", "unmatched", "/x", 404, 250, "r-2", None)
    assert [json.loads(x)["request_id"] for x in stream.getvalue().splitlines()] == ["r-1", "r-2"]
    assert stream.writes == 2


@pytest.mark.parametrize(
    "ns",
    [
        1_700_000_000_000_000_000,  # a whole second: isoformat shows no fraction
        1_700_000_000_000_000_999,  # under a microsecond: still none
        1_700_000_000_000_005_000,
        1_700_000_000_999_999_999,  # floored, never rounded up into the next second
        1_700_000_001_000_001_000,  # the next second: the cached date and time are redone
        253_402_300_799_123_456_000,  # 9999-12-31T23:59:59.123456
    ],
)
def test_the_timestamp_is_datetimes_isoformat_in_utc_with_z(ns: int) -> None:
    import datetime

    from service.logs import _BufferedAccessLine

    line = _BufferedAccessLine(io.StringIO())
    line.timestamp(ns - 10**9)  # a second cached before
    when = datetime.datetime.fromtimestamp(ns // 10**9, datetime.UTC)
    want = when.replace(microsecond=ns // 1000 % 10**6).isoformat().replace("+00:00", "Z")
    assert line.timestamp(ns) == want


@given(st.integers(min_value=0, max_value=10**15))
def test_a_duration_is_written_as_json_writes_its_milliseconds(us: int) -> None:
    from service.logs import milliseconds

    assert milliseconds(us) == json.dumps(us / 1000)


@pytest.mark.parametrize("us", [0, 1, 10, 100, 999, 1000, 1001, 12_000, 123_456])
def test_a_duration_in_milliseconds_reads_as_a_float(us: int) -> None:
    from service.logs import milliseconds

    assert float(milliseconds(us)) == us / 1000
