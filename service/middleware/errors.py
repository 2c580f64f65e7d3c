"""The last resort: an exception nothing answered becomes a 500 problem, logged with its traceback."""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import problems


class LastResort:
    """Inside the request id, metrics and CORS (so the 500 carries their headers and is counted),
    outside FastAPI's exception handlers. The traceback is logged at ERROR with the request id,
    never sent; once the response has started, the exception goes on to the server."""

    def __init__(self, app: ASGIApp, *, logger: Any) -> None:
        self.app = app
        self.log = logger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def noting_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, noting_send)
        except Exception as exc:
            self.log.error(
                "unhandled exception after the response started"
                if started
                else "unhandled exception",
                request_id=scope.get("request_id"),
                method=scope["method"],
                path=scope["path"],
                exc_info=exc,
            )
            if started:
                raise
            body = problems.problem("internal-error", problems.INTERNAL_ERROR)
            await problems.send_problem(scope, send, body)
