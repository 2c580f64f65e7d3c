"""The edge on uvicorn's httptools parser (``service.server``), on a real ``python -m service`` over
loopback sockets: the 16 KiB head limit on every arrival pattern (one read, many small reads, many
small headers, one huge header, a head pipelined behind another request), exactly at its bound, and
a request with both ``Content-Length`` and ``Transfer-Encoding`` refused with its connection closed
(RFC 9112 section 6.1). The head and body timers are in ``test_server_limits.py``."""

from __future__ import annotations

import contextlib
import re
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest

from service.server import MAX_HEADER_BYTES, HttpToolsProtocol, server_options
from tests.service.test_server_limits import TIMEOUT, Server, closed_after, read_response

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    srv = Server()
    try:
        yield srv
    finally:
        srv.kill()


def head_of(size: int, *, path: str = "/livez", headers: int = 1) -> bytes:
    """A GET's head of exactly ``size`` bytes (blank line included), the padding spread over
    ``headers`` headers."""
    start = f"GET {path} HTTP/1.1\r\nHost: x\r\n".encode()
    room = size - len(start) - 2
    lines: list[bytes] = []
    for i in range(headers):
        name = f"X-Pad-{i}: ".encode()
        share = room // headers if i < headers - 1 else room - sum(len(x) for x in lines)
        lines.append(name + b"a" * (share - len(name) - 2) + b"\r\n")
    head = start + b"".join(lines) + b"\r\n"
    assert len(head) == size, (len(head), size)
    return head


def statuses(data: bytes) -> list[bytes]:
    """The status codes of the responses in what the server sent (one after another's body)."""
    return re.findall(rb"HTTP/1\.1 (\d{3}) ", data)


def send_slowly(conn: socket.socket, data: bytes, piece: int, pause: float = 0.005) -> None:
    """``data`` in writes of ``piece`` bytes with a pause between them (so the server reads many)."""
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with contextlib.suppress(OSError):  # the server may close while we are still sending
        for at in range(0, len(data), piece):
            conn.sendall(data[at : at + piece])
            time.sleep(pause)


def still_serving(server: Server) -> None:
    with urllib.request.urlopen(server.url("/livez"), timeout=5) as r:
        assert r.status == 200


def test_the_service_runs_on_httptools_with_its_limits() -> None:
    options = server_options(10, None)
    assert options["http"] is HttpToolsProtocol
    assert "h11_max_incomplete_event_size" not in options
    assert "limit_concurrency" in options


# --- the head's size -----------------------------------------------------------------------------


@pytest.mark.parametrize("split", [None, 1, 7, 1000])
def test_a_head_of_exactly_16_kib_is_served_and_one_byte_more_is_431(
    server: Server, split: int | None
) -> None:
    """At the bound in one read, and arriving in pieces of 1, 7 and 1000 bytes (the blank line
    split between reads)."""
    for size, expected in ((MAX_HEADER_BYTES, b"200"), (MAX_HEADER_BYTES + 1, b"431")):
        head = head_of(size)
        conn = server.connect()
        if split is None:
            conn.sendall(head)
        else:
            # the first 15 KiB at once, the rest in pieces: the bound is crossed piece by piece
            conn.sendall(head[:15_000])
            send_slowly(conn, head[15_000:], split, 0.0005 if split < 10 else 0.005)
        response = _first_response(conn)
        conn.close()
        assert response.startswith(b"HTTP/1.1 " + expected), (size, split, response[:200])
    still_serving(server)


def _first_response(conn: socket.socket) -> bytes:
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        assert chunk, data
        data += chunk
    return data


@pytest.mark.parametrize(
    ("pattern", "head"),
    [
        ("one read", head_of(17 * 1024)),
        ("many small headers", head_of(20 * 1024, headers=1000)),
        ("a long request line", b"GET /livez?" + b"q" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
    ],
)
def test_a_head_over_16_kib_is_431_and_closed(server: Server, pattern: str, head: bytes) -> None:
    conn = server.connect()
    with contextlib.suppress(OSError):
        conn.sendall(head)
    seconds, response = closed_after(conn, 5)
    conn.close()
    assert response.startswith(b"HTTP/1.1 431 "), (pattern, response[:200])
    assert b"connection: close" in response.lower()
    assert seconds < 3, seconds  # closed by the server, not by the head timer
    still_serving(server)


def test_a_head_over_16_kib_in_many_small_reads_is_431(server: Server) -> None:
    conn = server.connect()
    send_slowly(conn, head_of(24 * 1024, headers=300), 512)
    response = read_response(conn, 5)
    conn.close()
    assert response.startswith(b"HTTP/1.1 431 "), response[:200]
    still_serving(server)


def test_one_huge_header_is_refused_without_being_read(server: Server) -> None:
    """50 MB of one header: 431 once 16 KiB have come, and the rest is never taken in (the server
    closes; the client's writes fail long before 50 MB)."""
    conn = server.connect()
    conn.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: ")
    sent, chunk = 0, b"a" * 65536
    with contextlib.suppress(OSError):
        while sent < 50 * 1024 * 1024:
            conn.sendall(chunk)
            sent += len(chunk)
    response = read_response(conn, 5)
    conn.close()
    assert response.startswith(b"HTTP/1.1 431 "), response[:200]
    assert sent < 50 * 1024 * 1024, sent
    still_serving(server)


_POSTED = b'{"pool": 3, "seed": "p"}'


@pytest.mark.parametrize(
    ("first", "size"),
    [
        (b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", 20 * 1024),
        (
            b"POST /dos/roll HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(_POSTED)).encode() + b"\r\n\r\n" + _POSTED,
            17 * 1024,
        ),
    ],
    ids=["behind-a-get", "behind-a-post-body"],
)
def test_a_head_pipelined_behind_a_request_is_counted(
    server: Server, first: bytes, size: int
) -> None:
    """A small request (a GET; a POST and its body) and a large head in one write: the first is
    answered, the second refused."""
    conn = server.connect()
    conn.sendall(first + head_of(size))
    response = read_response(conn, 5)
    conn.close()
    assert statuses(response) == [b"200", b"431"], response[:400]


def test_many_pipelined_requests_in_one_write_are_all_served(server: Server) -> None:
    """200 small GETs in one 7 KB write, then a POST with its body: no head is counted twice."""
    body = b'{"pool": 2, "seed": 9}'
    post = (
        b"POST /dos/roll HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
    )
    gets = b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n" * 200
    conn = server.connect()
    conn.sendall(gets + post)
    response = read_response(conn, 10)
    conn.close()
    codes = statuses(response)
    assert codes == [b"200"] * 201, codes[-3:]


def test_blank_lines_sent_slowly_do_not_hold_a_connection(server: Server) -> None:
    """Empty lines before a request line are skipped by the parser, and keep the head timer
    running: a client trickling CRLFs is closed like any slow head."""
    conn = server.connect()
    start = time.monotonic()
    with contextlib.suppress(OSError):
        while time.monotonic() - start < TIMEOUT + 3:
            conn.sendall(b"\r\n")
            time.sleep(0.3)
    _, data = closed_after(conn, 5)
    conn.close()
    assert data == b""
    assert time.monotonic() - start <= TIMEOUT + 4


# --- Content-Length with Transfer-Encoding ----------------------------------------------------------


SMUGGLED = b"GET /dos/smuggled HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest.mark.parametrize(
    "framing",
    [
        b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n",
        b"Transfer-Encoding: chunked\r\nContent-Length: 4\r\n",
        b"Content-Length: 0\r\nTransfer-Encoding: gzip, chunked\r\n",
        b"Transfer-Encoding: identity\r\nContent-Length: 4\r\n",
    ],
    ids=["cl-te", "te-cl", "cl0-te-list", "te-identity-cl"],
)
def test_content_length_with_transfer_encoding_is_400_and_closed(
    server: Server, framing: bytes
) -> None:
    """What follows such a request is never read as a second request (RFC 9112 section 6.1)."""
    head = b"POST /dos/roll HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing
    conn = server.connect()
    conn.sendall(head + b"\r\n0\r\n\r\n" + SMUGGLED)
    seconds, response = closed_after(conn, 5)
    conn.close()
    assert statuses(response) == [b"400"], response[:400]
    assert b"connection: close" in response.lower()
    assert b"not-found" not in response and b"smuggled" not in response
    assert seconds < 3, seconds
    still_serving(server)
