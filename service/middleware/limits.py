"""The request body's size limit: ``receive`` is wrapped, never read ahead, so the endpoint that reads
the body meets the limit there, as an exception its handler answers (a 413; docs/operations.md,
"Limits and hardening"). How long a body may take to arrive is the server's limit (``service.server``).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.problems import BodyTooLarge


class BodyLimit:
    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if announced is None:
            receive = self.counted(receive)
        elif not announced.isdigit() or int(announced) > self.limit:
            receive = self.refused
        await self.app(scope, receive, send)

    async def refused(self) -> Message:
        raise BodyTooLarge(self.limit)

    def counted(self, receive: Receive) -> Receive:
        limit = self.limit
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        return counted_receive
