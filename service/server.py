"""The HTTP server's limits: uvicorn with h11, and a time limit on a request's headers.

uvicorn's h11 protocol refuses request headers over ``h11_max_incomplete_event_size`` bytes in all
with a 400 (h11 counts the bytes buffered for an unfinished request head and fails once they pass
the bound: at most one read, 64-256 KiB, is ever held). Its httptools protocol has no such limit (a
50 MB header was served), so the service names h11 explicitly.

Neither protocol limits the time a client may take to send its headers or its body: a connection
that sends half a request line, or half a body, stays open as long as the client likes (uvicorn's
keep-alive timer only runs between requests). :class:`H11Protocol` adds one timer per request: from
the connection's start (and from the first byte of each later request) the head must be complete
within ``DRAGONROLL_REQUEST_TIMEOUT`` seconds, and from the head's arrival the body within as many
again; else the connection is closed (the app sees the client gone: an access line with 499). The
body's size is limited by ``service.middleware.limits``. Everything used here is uvicorn's public
protocol class and its attributes (``conn``, ``transport``, ``loop``); docs/operations.md.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol as UvicornH11Protocol

from service.settings import load

#: The most bytes of request headers (request line included) a request may have.
MAX_HEADER_BYTES = 16 * 1024


class H11Protocol(UvicornH11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head, or body, takes too long."""

    #: Seconds a request's head may take to arrive: ``DRAGONROLL_REQUEST_TIMEOUT``, read once per
    #: process (uvicorn is given the class; each worker process imports it anew).
    header_seconds: float | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if H11Protocol.header_seconds is None:
            H11Protocol.header_seconds = load().request_timeout
        self.seconds: float = H11Protocol.header_seconds
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self.arm_head_timer()

    def data_received(self, data: bytes) -> None:
        before = self.conn.their_state
        super().data_received(data)
        state = self.conn.their_state
        if state is h11.IDLE:
            self.arm_head_timer()  # a request has begun and its head is not complete yet
        elif state is not before and state is h11.SEND_BODY:
            self.cancel_head_timer()
            self.arm_head_timer()  # the head is in: the body has as long again
        elif state is not h11.SEND_BODY:
            self.cancel_head_timer()  # the whole request is in

    def on_response_complete(self) -> None:
        self.cancel_head_timer()  # between requests the keep-alive timer runs
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_head_timer()
        super().connection_lost(exc)

    def arm_head_timer(self) -> None:
        if self.head_timer is None and not self.transport.is_closing():
            self.head_timer = self.loop.call_later(self.seconds, self.head_timed_out)

    def cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timed_out(self) -> None:
        self.head_timer = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


def server_options(graceful_seconds: int, log_config: dict[str, Any] | None) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` / ``uvicorn.Config`` the service is served with
    (``python -m service``; the benchmarks give the bare app the same)."""
    return {
        "http": H11Protocol,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": graceful_seconds,
        "log_config": log_config,
        "access_log": False,
        "server_header": False,
        "proxy_headers": False,
        "limit_concurrency": load().limit_concurrency or None,
    }
