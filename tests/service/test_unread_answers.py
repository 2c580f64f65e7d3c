"""The answer bytes held for clients that have not read them (``service.middleware.answers``):
counted from an answer's start until its last piece has been taken, capped for the process (a 503
with Retry-After past the cap, the probes never refused), a large body sent in pieces."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.responses import Response

from service.middleware.answers import PIECE, Held, UnreadAnswers
from service.settings import Settings

MiB = 1024 * 1024


async def answer(scope: Any, receive: Any, send: Any) -> None:
    size = int(scope["path"].rsplit("/", 1)[-1])
    await Response(b"x" * size, media_type="application/json")(scope, receive, send)


def scope(path: str) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "path": path, "headers": [], "query_string": b""}


class Client:
    """A client that reads nothing until :meth:`read` (each send waits, as uvicorn waits for a
    paused connection to drain before it takes the next piece)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.reading = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and self.messages:
            await self.reading.wait()
        self.messages.append(message)

    def status(self) -> int:
        return int(self.messages[0]["status"])

    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])


async def no_body() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


def test_an_answer_is_counted_until_read_and_the_cap_refuses_the_next() -> None:
    async def go() -> None:
        held = Held(3 * MiB)
        app = UnreadAnswers(answer, held=held, exempt=frozenset({"/livez/10"}))
        slow = Client()
        first = asyncio.ensure_future(app(scope(f"/a/{2 * MiB}"), no_body, slow.send))
        await asyncio.sleep(0.01)
        assert held.bytes == 2 * MiB, "held while its client reads nothing"
        # this answer would pass the cap: refused, its body never sent
        late = Client()
        late.reading.set()
        await app(scope(f"/b/{2 * MiB}"), no_body, late.send)
        assert late.status() == 503 and b"DRAGONROLL_UNREAD_ANSWER_BYTES" in late.body()
        headers = dict(late.messages[0]["headers"])
        assert headers[b"retry-after"] == b"1" and headers[b"connection"] == b"close"
        # a small one fits; a probe is never refused
        small = Client()
        small.reading.set()
        await app(scope("/c/1000"), no_body, small.send)
        assert small.status() == 200 and len(small.body()) == 1000
        held.bytes += 10 * MiB  # full: every new request is refused at once, but the probes
        probe, refused = Client(), Client()
        probe.reading.set()
        refused.reading.set()
        await app(scope("/livez/10"), no_body, probe.send)
        await app(scope("/c/10"), no_body, refused.send)
        assert probe.status() == 200 and refused.status() == 503 and held.refused == 2
        held.bytes -= 10 * MiB
        slow.reading.set()
        await first
        assert slow.status() == 200 and slow.body() == b"x" * (2 * MiB)
        pieces = [len(m["body"]) for m in slow.messages[1:]]
        assert max(pieces) == PIECE and pieces[-1] == 0 and len(pieces) == 2 * MiB // PIECE + 1
        assert held.bytes == 0, "released once read"

    asyncio.run(go())


def test_the_cap_is_a_setting() -> None:
    assert Settings().unread_answer_bytes == 96 * MiB
    assert Settings(unread_answer_bytes=8 * MiB).unread_answer_bytes == 8 * MiB
