"""The answer bytes held for clients that have not read them, capped for the whole process: counted
from an answer's ``http.response.start`` until the server has handed its last piece to a client
that reads, a request past the cap answered a 503 (docs/hardening.md, "Failure paths"; the cap and
the pod's memory: docs/operations.md, "Memory").
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import problems

#: The size of the pieces a large answer is sent in (small answers go in one piece).
PIECE = 64 * 1024
#: scope key: the limit a request was refused by (for ``dragonroll_limit_rejections_total``).
LIMIT = "unread_answers"


class Held:
    """The answer bytes held now, and the most allowed (``cap``)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.bytes = 0
        self.refused = 0

    def full(self, more: int = 0) -> bool:
        return self.bytes + more > self.cap


class UnreadAnswers:
    """Counts each answer's bytes while it is held; refuses past the cap (a 503)."""

    def __init__(self, app: ASGIApp, *, held: Held, exempt: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.held = held
        #: paths never refused (the probes: a full cap must not fail a liveness check)
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.exempt:
            await self.app(scope, receive, send)
            return
        if self.held.full():
            await self.refuse(scope, send)
            return
        counted = 0
        refused = False

        async def held_send(message: Message) -> None:
            nonlocal counted, refused
            if refused:
                return  # the answer's body, replaced by the 503 already sent
            if message["type"] == "http.response.start":
                size = _length(message)
                if size and self.held.full(size):
                    refused = True
                    await self.refuse(scope, send)
                    return
                counted = size
                self.held.bytes += size
                await send(message)
                return
            await _in_pieces(message, send)

        try:
            await self.app(scope, receive, held_send)
        finally:
            self.held.bytes -= counted

    async def refuse(self, scope: Scope, send: Send) -> None:
        self.held.refused += 1
        detail = (
            "the service holds as many answers for clients that have not read them as it may"
            " (DRAGONROLL_UNREAD_ANSWER_BYTES): try again in 1 s"
        )
        headers = {"retry-after": "1", "connection": "close"}
        await problems.send_problem(scope, send, problems.problem("overloaded", detail), headers)
        scope[problems.LIMIT_KEY] = LIMIT


def _length(message: Message) -> int:
    for name, value in message.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0


async def _in_pieces(message: Message, send: Send) -> None:
    """A body message sent in pieces of :data:`PIECE` bytes, then an empty last one: the server
    waits for the client to read before it takes each (uvicorn drains a paused connection before a
    send), so when the last returns the answer has left this process (or its client is gone)."""
    body = message.get("body", b"")
    if len(body) <= PIECE or message.get("more_body", False):
        await send(message)
        return
    view = memoryview(body)
    for start in range(0, len(body), PIECE):
        piece = bytes(view[start : start + PIECE])
        await send({"type": "http.response.body", "body": piece, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})
