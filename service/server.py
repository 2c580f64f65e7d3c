"""The HTTP server's limits: uvicorn on httptools, through a subclass of its public
``HttpToolsProtocol`` that counts a request's head before the parser sees it (a 431 past
:data:`MAX_HEADER_BYTES`), refuses ``Content-Length`` with ``Transfer-Encoding`` and closes a client
slow to send its head, its body or to read its answer (docs/operations.md, "The server"). It uses
the protocol's public callbacks and attributes only (``parser``, ``headers``, ``transport``,
``loop``, ``server_state``).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as UvicornHttpToolsProtocol

from service.settings import load

#: The most bytes of a request's head (request line, headers and the blank line after them).
MAX_HEADER_BYTES = 16 * 1024
#: Seconds a worker may take to answer its supervisor's health check (``--workers`` over 1).
WORKER_HEALTHCHECK_SECONDS = 15
#: The most bytes of an answer not yet sent that the kernel takes for one connection.
UNSENT_IN_KERNEL = 128 * 1024
#: The end of a head.
BLANK_LINE = b"\r\n\r\n"
#: Not in a body: the parser is in a head, or between requests.
HEAD = -2
#: In a chunked body (its end is the parser's to find).
CHUNKED = -1


class Refused(Exception):
    """A request the parser took but the edge refuses (``Content-Length`` with ``Transfer-Encoding``)."""


def _too_large_answer() -> bytes:
    text = f"Request header fields too large: the head is limited to {MAX_HEADER_BYTES} bytes.\n"
    return (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        b"content-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(text)).encode("ascii") + b"\r\n"
        b"connection: close\r\n\r\n" + text.encode("ascii")
    )


TOO_LARGE = _too_large_answer()


class HttpToolsProtocol(UvicornHttpToolsProtocol):
    """uvicorn's httptools protocol with the head limited in size, the head and the body in time,
    and an answer's reading in time: a client that leaves its answer unread (the connection's
    write buffer full, uvicorn's writing paused) for ``DRAGONROLL_REQUEST_TIMEOUT`` is closed, and
    what it held freed (``service.middleware.answers``)."""

    #: Seconds a request's head may take to arrive, and its body: ``DRAGONROLL_REQUEST_TIMEOUT``,
    #: read once per process (uvicorn is given the class; each worker process imports it anew).
    request_seconds: float | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if HttpToolsProtocol.request_seconds is None:
            HttpToolsProtocol.request_seconds = load().request_timeout
        self.seconds: float = HttpToolsProtocol.request_seconds
        self.timer: asyncio.TimerHandle | None = None
        #: bytes of the head so far (while ``body_left`` is ``HEAD``)
        self.head_bytes = 0
        #: the last bytes of the head so far (a blank line may be split between two reads)
        self.head_tail = b""
        #: ``HEAD``, ``CHUNKED``, or the bytes of a ``Content-Length`` body still to come
        self.body_left = HEAD
        #: a head was refused: answered 431 once the requests before it are
        self.refused = False
        #: the client has not read its answer since writing paused
        self.unread: asyncio.TimerHandle | None = None

    # --- the transport's events -----------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm_timer()
        sock = transport.get_extra_info("socket")
        if sock is not None and hasattr(socket, "TCP_NOTSENT_LOWAT"):
            # The kernel takes at most this much of an answer not yet sent: the rest waits in
            # this process, where the answers held are counted and capped (without it a client
            # that reads nothing left each answer whole in the kernel's buffers, unseen).
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NOTSENT_LOWAT, UNSENT_IN_KERNEL)

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_timer()
        if self.unread is not None:
            self.unread.cancel()
            self.unread = None
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The client is not reading as fast as the answer is written: it has as long as it may
        take to send a request to read some of it."""
        super().pause_writing()
        if self.unread is None and not self.transport.is_closing():
            self.unread = self.loop.call_later(self.seconds, self.timed_out)

    def resume_writing(self) -> None:
        if self.unread is not None:
            self.unread.cancel()
            self.unread = None
        super().resume_writing()

    def data_received(self, data: bytes) -> None:
        """Feed ``data`` to the parser in pieces that end where a head or a body ends."""
        view = memoryview(data)
        pos, size = 0, len(data)
        if self.refused:
            return
        while pos < size and self.parser is not None and not self.transport.is_closing():
            left = self.body_left
            if left == HEAD:
                room = MAX_HEADER_BYTES - self.head_bytes
                end = self.head_end(data, pos)
                if end < 0 and size - pos <= room:  # the head goes on in a later read
                    self.head_bytes += size - pos
                    self.head_tail = (self.head_tail + data[max(pos, size - 3) :])[-3:]
                    super().data_received(view[pos:])  # type: ignore[arg-type]
                    break
                if end < 0 or end - pos > room:
                    self.refuse_head()
                    return
                # A blank line before the request line (RFC 9112 section 2.2) is skipped by the
                # parser: then the head goes on past this piece, still counted.
                self.head_bytes += end - pos
                self.head_tail = b""
            elif left == CHUNKED:
                end = min(size, pos + MAX_HEADER_BYTES)
            else:
                end = min(size, pos + left)
                self.body_left = left - (end - pos)
            if end <= pos:
                # No piece to cut (a body the parser has not closed yet): the parser takes the
                # rest as it comes, so this loop always ends.
                super().data_received(view[pos:])  # type: ignore[arg-type]
                break
            super().data_received(view[pos:end])  # type: ignore[arg-type]
            if left == CHUNKED and self.body_left == HEAD:
                # The body ended in this piece: what followed it may be a head, counted from the
                # piece's first byte.
                self.head_bytes = end - pos
                self.head_tail = data[max(pos, end - 3) : end]
            pos = end
        if self.timer is None and (self.body_left != HEAD or self.head_bytes):
            # A request is under way and not all in: its head, or its body, has as long from here
            # (a request that came whole in one read never sets a timer).
            self.arm_timer()

    def head_end(self, data: bytes, pos: int) -> int:
        """Where the head ends in ``data`` from ``pos`` (the index just past its blank line), or -1;
        the blank line may have begun in an earlier read (``head_tail``)."""
        tail = self.head_tail
        if tail:
            at = (tail + data[pos : pos + 3]).find(BLANK_LINE)
            if at >= 0:
                return pos + at + 4 - len(tail)
        at = data.find(BLANK_LINE, pos)
        return at + 4 if at >= 0 else -1

    def refuse_head(self) -> None:
        """Answer 431 and close, once the requests before this one (pipelined) are answered;
        nothing more is read meanwhile."""
        self.logger.warning("Request head over %d bytes: refused (431).", MAX_HEADER_BYTES)
        self.cancel_timer()
        self.refused = True
        if self.cycle is None or (self.cycle.response_complete and not self.pipeline):
            self.send_too_large()
        else:
            self.flow.pause_reading()

    def send_too_large(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(TOO_LARGE)
            self.transport.close()

    # --- the parser's callbacks -----------------------------------------------------------------

    def on_headers_complete(self) -> None:
        length = 0
        chunked = False
        for name, value in self.headers:
            if name == b"content-length":
                length = int(value)  # llhttp has checked it: digits, one value
            elif name == b"transfer-encoding":
                chunked = True
        if chunked and any(name == b"content-length" for name, _ in self.headers):
            # RFC 9112 section 6.1: refused, the connection closed (uvicorn answers a parser error
            # with 400 and closes); llhttp refuses it before this is reached.
            raise Refused("Content-Length with Transfer-Encoding")
        self.head_bytes = 0
        self.cancel_timer()  # the head is in: the body has as long again (data_received)
        self.body_left = CHUNKED if chunked else length
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.body_left = HEAD
        self.cancel_timer()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self.cancel_timer()  # between requests the keep-alive timer runs
        super().on_response_complete()
        if self.refused and not self.pipeline and self.cycle.response_complete:
            self.send_too_large()  # the requests before the refused head are answered

    # --- the timer --------------------------------------------------------------------------------

    def arm_timer(self) -> None:
        if self.timer is None and not self.transport.is_closing():
            self.timer = self.loop.call_later(self.seconds, self.timed_out)

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def timed_out(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            self.transport.close()


def server_options(graceful_seconds: int, log_config: dict[str, Any] | None) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` / ``uvicorn.Config`` the service is served with
    (``python -m service``)."""
    return {
        "http": HttpToolsProtocol,
        "ws": "none",
        "timeout_keep_alive": load().keep_alive_timeout,
        # With --workers, uvicorn's supervisor pings each worker and kills one that has not answered
        # within this many seconds (its default, 5 s, is less than a worker takes to start on a
        # loaded 2-core machine: every worker was killed while importing, and again, and again). It
        # handles signals between its pings: a longer wait would hold a SIGTERM during start-up.
        "timeout_worker_healthcheck": WORKER_HEALTHCHECK_SECONDS,
        "timeout_graceful_shutdown": graceful_seconds,
        "log_config": log_config,
        "access_log": False,
        "server_header": False,
        "proxy_headers": False,
        "limit_concurrency": load().limit_concurrency or None,
    }
