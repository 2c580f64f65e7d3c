"""What the MCP transports read of a message before the SDK parses it (Python's ``json``, the last of
two equal keys winning): a batch or an envelope naming a key twice is refused (:class:`Refusal`),
and each ``tools/call``'s ``arguments`` kept as sent, so that the endpoint checks the very body an
HTTP request would carry (docs/mcp.md, "Protocol edges").
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"
#: The protocol versions this server speaks (the locked SDK's).
SUPPORTED = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)
BATCH = (
    "a JSON-RPC batch (an array of messages) is not supported: MCP has no batches since"
    " 2025-06-18; send each message on its own"
)


class Refusal(Exception):
    """A message refused before the SDK reads it: a JSON-RPC error (HTTP 400)."""

    def __init__(self, code: int, message: str, request_id: Any = None, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.text = message
        self.request_id = request_id
        self.data = data

    def message(self) -> bytes:
        error: dict[str, Any] = {"code": self.code, "message": self.text}
        if self.data is not None:
            error["data"] = self.data
        body = {"jsonrpc": "2.0", "id": self.request_id, "error": error}
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def duplicate(key: str, request_id: Any) -> Refusal:
    msg = f"the key {key!r} appears twice in one object: send each key once"
    return Refusal(INVALID_REQUEST, msg, request_id)


def version_refusal(requested: str | None) -> Refusal | None:
    """The error for an ``MCP-Protocol-Version`` this server does not speak (``None``: it does)."""
    if requested is None or requested in SUPPORTED:
        return None
    message = (
        f"MCP-Protocol-Version {requested!r} is not one this server speaks:"
        f" {', '.join(HANDSHAKE_PROTOCOL_VERSIONS)} (after an initialize handshake) or"
        f" {', '.join(MODERN_PROTOCOL_VERSIONS)} (per request); send one of them"
    )
    data = {"supported": list(SUPPORTED), "requested": requested}
    return Refusal(UNSUPPORTED_PROTOCOL_VERSION, message, None, data)


class Wire:
    """The raw side of one transport: an HTTP request, or a stdio connection."""

    def __init__(self) -> None:
        #: the raw ``arguments`` of each tools/call by the message's id (``None``: no arguments)
        self.arguments: dict[Any, bytes | None] = {}

    def take(self, raw: bytes | str) -> None:
        """Note the raw arguments of a message if it is a tools/call; raises :class:`Refusal` for
        a batch or a key twice in its envelope. A message that is not JSON is left to the SDK."""
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        try:
            start = _skip(text, 0)
            if text.startswith("[", start):
                _DECODER.raw_decode(text, start)  # JSON that is an array: a batch
                raise Refusal(INVALID_REQUEST, BATCH)
            if text.startswith("{", start):
                self._message(Members(text, start))
        except (ValueError, RecursionError, UnicodeDecodeError):
            return  # not JSON: the SDK answers it as it does

    def _message(self, envelope: Members) -> None:
        request_id = envelope.spans.get("id", (0, 0, None))[2]
        if not isinstance(request_id, (str, int, type(None))):
            return  # not a JSON-RPC id: the SDK refuses the message
        if envelope.duplicate is not None:
            raise duplicate(envelope.duplicate, request_id)
        method = envelope.spans.get("method")
        if method is None or method[2] != "tools/call" or "params" not in envelope.spans:
            return
        p_start, _, _ = envelope.spans["params"]
        if not envelope.text.startswith("{", p_start):
            return
        params = Members(envelope.text, p_start, whole=False)
        if params.duplicate is not None:
            raise duplicate(params.duplicate, request_id)
        if "arguments" in params.spans:
            a_start, a_end, _ = params.spans["arguments"]
            self.arguments[request_id] = envelope.text[a_start:a_end].encode("utf-8")
        else:
            self.arguments[request_id] = None

    def raw_arguments(self, request_id: Any) -> tuple[bool, bytes | None]:
        """(found, the raw arguments) of a tools/call this wire took."""
        if request_id in self.arguments:
            return True, self.arguments.pop(request_id)
        return False, None


def member(raw: bytes, key: str) -> tuple[bytes | None, Any]:
    """The raw text and the value of ``key`` in the JSON object ``raw`` (``None``: not there);
    a ``ValueError`` when ``raw`` is not one JSON object, :class:`DuplicateKeyIn` when it names a
    key twice."""
    found = Members(raw.decode("utf-8"))
    if found.duplicate is not None:
        raise DuplicateKeyIn(found.duplicate)
    if key not in found.spans:
        return None, None
    start, end, value = found.spans[key]
    return found.text[start:end].encode("utf-8"), value


class DuplicateKeyIn(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class Members:
    """The members of the JSON object ``text[start:]``: ``spans`` (key -> value start, value end,
    value), the first ``duplicate`` key, and where the object ends; with ``whole``, nothing but
    whitespace may follow it."""

    def __init__(self, text: str, start: int = 0, *, whole: bool = True) -> None:
        self.text = text
        self.spans: dict[str, tuple[int, int, Any]] = {}
        self.duplicate: str | None = None
        self.end = self._read(_skip(text, start))
        if whole and _skip(text, self.end) != len(text):
            raise ValueError("text after the object")

    def _read(self, start: int) -> int:
        text = self.text
        i = _skip(text, _expect(text, start, "{"))
        if text.startswith("}", i):
            return i + 1
        while True:
            key, i = _DECODER.raw_decode(text, _skip(text, i))
            if not isinstance(key, str):
                raise ValueError("a key that is not a string")
            i = _skip(text, _expect(text, i, ":"))
            value, end = _DECODER.raw_decode(text, i)
            if key in self.spans and self.duplicate is None:
                self.duplicate = key
            self.spans[key] = (i, end, value)
            i = _skip(text, end)
            if text.startswith("}", i):
                return i + 1
            i = _expect(text, i, ",")


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _expect(text: str, i: int, char: str) -> int:
    i = _skip(text, i)
    if not text.startswith(char, i):
        raise ValueError(f"expected {char!r} at {i}")
    return i + 1
