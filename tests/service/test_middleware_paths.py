"""The middlewares' cheaper paths give what the general ones gave (``service.middleware``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.middleware.cors import CORSMiddleware

from service.middleware.cors import Cors
from tests.conftest import http_scope


def answered(middleware: Any, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The response headers ``middleware`` sends for a GET without ``Origin`` whose app answers
    with ``headers``."""
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": list(headers)})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = http_scope("GET", "/dos/test", [(b"host", b"x"), (b"accept", b"*/*")])
    asyncio.run(middleware(app)(scope, receive, send))
    assert sent[1]["type"] == "http.response.body"
    return list(sent[0]["headers"])


@pytest.mark.parametrize(
    "headers",
    [
        [],
        [(b"content-type", b"application/json")],
        [(b"vary", b"Accept-Language"), (b"content-length", b"2")],
        [
            (b"a", b"1"),
            (b"vary", b"Accept-Language"),
            (b"b", b"2"),
            (b"vary", b"Accept"),
            (b"c", b"3"),
        ],
    ],
    ids=["none", "no-vary", "one-vary", "two-varies"],
)
@pytest.mark.parametrize("origins", [("*",), ("https://vtt.example.org",)])
def test_an_answer_to_a_request_without_origin_is_varied_as_starlette_does(
    headers: list[tuple[bytes, bytes]], origins: tuple[str, ...]
) -> None:
    ours = answered(lambda app: Cors(app, origins=origins), headers)
    starlettes = answered(
        lambda app: CORSMiddleware(
            app,
            allow_origins=list(origins),
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID"],
            max_age=86400,
            allow_private_network=True,
        ),
        headers,
    )
    assert ours == starlettes
