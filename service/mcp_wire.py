"""What the MCP transports do to the raw messages, before the SDK parses them and after it writes.

**In: the raw arguments.** The SDK parses a JSON-RPC message as Python's ``json`` does, the last of
two equal keys winning, so ``{"stat": 24, "stat": 1}`` would reach a tool as ``stat`` 1 (over HTTP
that body is a 422 naming the key). :meth:`Wire.take` reads each message as it arrived (an HTTP
body, a stdio line) first: an envelope that names a key twice (``method``, ``params``, ``name``,
``arguments`` ...) is refused whole (a JSON-RPC ``-32600``), and the text of each ``tools/call``'s
``arguments`` is kept by the message's id, so that the call hands the endpoint the request's bytes
as they were sent: the very body an HTTP request would carry, checked by the same code (duplicate
keys, depth, numbers).

**Out: the answer once.** A tool's answer is already JSON bytes (the endpoint's, up to 4 MiB). Put
in a result as a Python value it would be parsed, validated and written again by the SDK (several
copies of a 4 MB answer in memory). Instead the result carries a placeholder, ``{"dragonroll:answer":
"<token>"}``, and :meth:`Wire.splice` puts the bytes in its place in the message the SDK wrote.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from typing import Any

PLACEHOLDER = "dragonroll:answer"
_SPLICE = re.compile(rb'\{\s*"dragonroll:answer"\s*:\s*"([0-9a-f]{32})"\s*\}')
_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


class EnvelopeRefused(Exception):
    """A message that names one key twice outside a tool's arguments (a JSON-RPC -32600)."""

    def __init__(self, key: str, request_id: Any) -> None:
        super().__init__(key)
        self.key = key
        self.request_id = request_id

    def message(self) -> bytes:
        body = {
            "jsonrpc": "2.0",
            "id": self.request_id,
            "error": {
                "code": -32600,
                "message": f"the key {self.key!r} appears twice in one object: send each key once",
            },
        }
        return json.dumps(body, separators=(",", ":")).encode()


class Wire:
    """The raw side of one transport: an HTTP request, or a stdio connection."""

    def __init__(self) -> None:
        #: the raw ``arguments`` of each tools/call by the message's id (``None``: no arguments)
        self.arguments: dict[Any, bytes | None] = {}
        #: answers waiting to be spliced into the message that carries them, by token
        self.answers: dict[str, bytes] = {}

    def take(self, raw: bytes | str) -> None:
        """Note the raw arguments of each tools/call of a message; raises :class:`EnvelopeRefused`
        for a duplicated key in its envelope. A message that is not JSON is left to the SDK."""
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        try:
            self._take(text)
        except (ValueError, RecursionError, UnicodeDecodeError):
            return  # not JSON (or not an object): the SDK answers it as it does

    def _take(self, text: str) -> None:
        start = _skip(text, 0)
        if text.startswith("[", start):  # a batch: each of its messages
            for value_start in _items(text, start):
                if text.startswith("{", value_start):
                    self._message(Members(text, value_start, whole=False))
        elif text.startswith("{", start):
            self._message(Members(text, start))

    def _message(self, envelope: Members) -> None:
        request_id = envelope.spans.get("id", (0, 0, None))[2]
        if not isinstance(request_id, (str, int, type(None))):
            return  # not a JSON-RPC id: the SDK refuses the message
        if envelope.duplicate is not None:
            raise EnvelopeRefused(envelope.duplicate, request_id)
        method = envelope.spans.get("method")
        if method is None or method[2] != "tools/call" or "params" not in envelope.spans:
            return
        p_start, _, _ = envelope.spans["params"]
        if not envelope.text.startswith("{", p_start):
            return
        params = Members(envelope.text, p_start, whole=False)
        if params.duplicate is not None:
            raise EnvelopeRefused(params.duplicate, request_id)
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

    def placeholder(self, answer: bytes) -> dict[str, str]:
        """The value a result carries instead of ``answer`` (:meth:`splice` puts it back)."""
        token = secrets.token_hex(16)
        self.answers[token] = answer
        return {PLACEHOLDER: token}

    def splice(self, message: bytes) -> bytes:
        """``message`` with each placeholder replaced by its answer's bytes."""
        if not self.answers:
            return message

        def put(match: re.Match[bytes]) -> bytes:
            return self.answers.pop(match.group(1).decode("ascii"), match.group(0))

        return _SPLICE.sub(put, message)

    def forget(self) -> None:
        """Drop what no message carried (an answer whose call was cancelled)."""
        self.answers.clear()
        self.arguments.clear()


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


def _items(text: str, start: int) -> Iterator[int]:
    i = _skip(text, _expect(text, start, "["))
    if text.startswith("]", i):
        return
    while True:
        i = _skip(text, i)
        _, end = _DECODER.raw_decode(text, i)
        yield i
        i = _skip(text, end)
        if text.startswith("]", i):
            return
        i = _expect(text, i, ",")
