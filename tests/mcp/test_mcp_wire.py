"""The raw side of the MCP transports (``service.mcp_wire``): arguments as sent, batches and keys
twice refused, protocol versions named."""

from __future__ import annotations

import json

import pytest

from service.mcp_wire import SUPPORTED, DuplicateKeyIn, Refusal, Wire, member, version_refusal


def call(request_id: object, arguments: str) -> str:
    return (
        f'{{"jsonrpc": "2.0", "id": {json.dumps(request_id)}, "method": "tools/call",'
        f' "params": {{"name": "dos", "arguments": {arguments}}}}}'
    )


def test_the_arguments_are_kept_as_sent_by_the_message_id() -> None:
    wire = Wire()
    arguments = '{"endpoint": "/dos/test",  "request": {"stat": 24, "stat": 1}}'
    wire.take(call(3, arguments).encode())
    wire.take(call("a", "{}"))
    wire.take('{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "x"}}')
    wire.take('{"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"arguments": 1}}')
    assert wire.raw_arguments(3) == (True, arguments.encode())
    assert wire.raw_arguments(3) == (False, None)  # taken once
    assert wire.raw_arguments("a") == (True, b"{}")
    assert wire.raw_arguments(4) == (True, None)  # a call without arguments
    assert wire.raw_arguments(5) == (False, None)  # not a call


def test_a_batch_is_refused_and_what_is_not_json_is_left_to_the_sdk() -> None:
    for batch in (f"[{call(1, '{}')}, {call(2, '[1]')}]", "[]", " [7]"):
        with pytest.raises(Refusal) as refused:
            Wire().take(batch)
        answer = json.loads(refused.value.message())
        assert answer["id"] is None and answer["error"]["code"] == -32600
        assert "batch" in answer["error"]["message"] and "on its own" in answer["error"]["message"]
    wire = Wire()
    for text in ("{not json", "", "[", '"x"', '{"id": {"a": 1}, "method": "tools/call"}'):
        wire.take(text)  # left to the SDK, which answers it
    assert wire.arguments == {}


def test_an_unsupported_protocol_version_names_the_supported_ones() -> None:
    assert version_refusal(None) is None
    for version in SUPPORTED:
        assert version_refusal(version) is None
    refused = version_refusal("1999-01-01")
    assert refused is not None
    answer = json.loads(refused.message())
    assert answer["error"]["code"] == -32022
    assert answer["error"]["data"] == {"supported": list(SUPPORTED), "requested": "1999-01-01"}
    message = answer["error"]["message"]
    assert "'1999-01-01'" in message and all(v in message for v in SUPPORTED)
    assert "_meta" not in message


@pytest.mark.parametrize(
    ("message", "key", "request_id"),
    [
        ('{"jsonrpc": "2.0", "id": 1, "method": "ping", "method": "tools/list"}', "method", 1),
        ('{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "ping"}', "id", 2),
        (
            '{"jsonrpc": "2.0", "id": "x", "method": "tools/call",'
            ' "params": {"name": "dos", "arguments": {}, "arguments": {}}}',
            "arguments",
            "x",
        ),
    ],
)
def test_a_key_twice_in_the_envelope_is_refused(message: str, key: str, request_id: object) -> None:
    with pytest.raises(Refusal) as refused:
        Wire().take(message)
    answer = json.loads(refused.value.message())
    assert answer["id"] == request_id and answer["error"]["code"] == -32600
    assert repr(key) in answer["error"]["message"]


def test_member_reads_one_key_raw() -> None:
    raw = b'{"endpoint": "/dos/test", "request": {"stat": 24,  "skill": 3}}'
    assert member(raw, "request") == (b'{"stat": 24,  "skill": 3}', {"stat": 24, "skill": 3})
    assert member(raw, "nothing") == (None, None)
    with pytest.raises(DuplicateKeyIn):
        member(b'{"endpoint": 1, "endpoint": 2}', "endpoint")
    for bad in (b"[1]", b'{"a": 1} x', b"{"):
        with pytest.raises(ValueError):
            member(bad, "a")
