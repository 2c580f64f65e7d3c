"""The response encoder (``service.encoding``): orjson for speed, pydantic's bytes exactly."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter

from rules.dos.models import Defender
from rules.models import Event, Roll
from service.encoding import encode
from tests.conftest import Api

AWKWARD = '\x00\x08\x1f\x7f "\\/ é ß \u2028\u2029 \ufeff 😀 </script>'


def test_strings_are_escaped_as_pydantic_escapes_them() -> None:
    event = Event(
        code="x.y", params={"name": AWKWARD, "list": [AWKWARD, None, True, -7]}, text=AWKWARD
    )
    assert encode(event) == TypeAdapter(Event).dump_json(event)
    assert json.loads(encode(event))["text"] == AWKWARD


def test_a_result_holds_plain_values_only() -> None:
    """A pydantic model (or a dataclass, or an integer beyond 64 bits) inside a result is a bug in
    the resolver that built it: the encoder refuses it rather than writing it some other way."""
    for odd in (Defender(dexterity=20, hp=5, max_hp=30), 10**100):
        with pytest.raises(TypeError):
            encode({"rolls": [Roll(slot="a", sides=10, value=3, source="seed")], "odd": odd})


def test_an_integer_seed_is_a_safe_javascript_integer(api: Api) -> None:
    """Integer seeds stay within +-(2^53 - 1), what JSON.stringify writes exactly; larger ones are
    sent as their decimal text, which seeds the same stream."""
    seed = 2**53 - 1
    r = api.post("/dos/roll", json={"pool": 3, "seed": seed})
    assert r.status_code == 200, r.text
    assert r.json()["seed"] == seed
    again = api.post("/dos/roll", json={"pool": 3, "seed": str(seed)})
    assert again.json()["rolls"] == r.json()["rolls"]  # an integer seed is its decimal text
    for beyond in (seed + 1, -seed - 1, 10**127):
        refused = api.post("/dos/roll", json={"pool": 3, "seed": beyond})
        assert refused.status_code == 422, refused.text
        assert any(e["loc"][:2] == ["body", "seed"] for e in refused.json()["errors"]), refused.text
    assert api.post("/dos/roll", json={"pool": 3, "seed": str(10**127)}).status_code == 200
