"""The request body's limits: its size, and the time it may take to arrive.

``receive`` is wrapped, never read ahead: the endpoint that reads the body meets the limit there, as
an exception its handler answers (``service.problems``): a body announced (``Content-Length``) or
grown (chunked) past ``limit`` bytes is a 413, one still arriving ``seconds`` after the request began
is a 408; both close the connection. A slow client thus holds a request for at most ``seconds``
(the server closes one that takes as long to send its headers: ``service.server``).
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.problems import BodyTimeout, BodyTooLarge


class BodyLimit:
    def __init__(self, app: ASGIApp, *, limit: int, seconds: float) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.app(scope, self.limited(scope, receive), send)

    def limited(self, scope: Scope, receive: Receive) -> Receive:
        limit, seconds = self.limit, self.seconds
        announced = next((v for k, v in scope["headers"] if k == b"content-length"), b"")
        too_large = announced.isdigit() and int(announced) > limit
        deadline = asyncio.get_running_loop().time() + seconds
        received = 0
        done = False

        async def limited_receive() -> Message:
            nonlocal received, done
            if too_large:
                raise BodyTooLarge(limit)
            if done:  # the body is in: what follows is a disconnect, whenever it comes
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(seconds) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
                done = not message.get("more_body", False)
            return message

        return limited_receive
