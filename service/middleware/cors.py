"""CORS: Starlette's ``CORSMiddleware``, with its refused preflights answered as problems that grant
nothing, and Chrome's Private Network Access preflights answered for the origins allowed
(``private_network``; docs/operations.md, "Limits and hardening").
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import problems


class Cors(CORSMiddleware):
    def __init__(
        self, app: ASGIApp, *, origins: tuple[str, ...], private_network: bool = True
    ) -> None:
        super().__init__(
            app,
            allow_origins=list(origins),
            allow_credentials=False,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID"],
            max_age=86400,
            allow_private_network=private_network,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not any(name == b"origin" for name, _ in scope["headers"]):
            # No Origin (not a browser's cross-origin call, so no preflight either): Starlette would
            # only add Origin to the answer's Vary, as this does without building two header maps.
            await self.app(scope, receive, _vary_origin(send))
            return
        if scope["type"] == "http" and scope["method"] == "OPTIONS":
            headers = Headers(scope=scope)
            if "origin" in headers and "access-control-request-method" in headers:
                answer = self.preflight_response(request_headers=headers)
                if answer.status_code < 400:
                    await answer(scope, receive, send)
                    return
                # "Disallowed CORS origin, headers": what was refused
                refused = bytes(answer.body).decode("utf-8", "replace").split("CORS ", 1)[-1]
                detail = f"this preflight is refused ({refused}); see docs/operations.md, CORS"
                # The refusal depends on the origin and the request headers: Starlette's Vary stays;
                # no grant at all (Allow-Origin, Allow-Private-Network) goes with a refusal.
                vary = {"vary": answer.headers["vary"]} if "vary" in answer.headers else None
                await problems.send_problem(
                    scope, send, problems.problem("preflight-refused", detail), vary
                )
                return
        await super().__call__(scope, receive, send)


def _vary_origin(send: Send) -> Send:
    """``send`` with ``Origin`` added to the answer's ``Vary``, as Starlette's ``CORSMiddleware``
    adds it to an answer to a request without one: the ``Vary`` values joined into the first
    ``Vary`` header (the others dropped), or a ``Vary: Origin`` last."""

    async def send_varied(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            first = -1
            values: list[bytes] = []
            for at in range(len(headers) - 1, -1, -1):
                name, value = headers[at]
                if name == b"vary":
                    values.append(value)
                    if first >= 0:
                        del headers[first]
                    first = at
            values.reverse()
            values.append(b"Origin")
            if first >= 0:
                headers[first] = (b"vary", b", ".join(values))
            else:
                headers.append((b"vary", b"Origin"))
            message["headers"] = headers
        await send(message)

    return send_varied
