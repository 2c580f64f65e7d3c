"""The response encoder (``service.encoding``): orjson for speed, pydantic's bytes exactly."""

from __future__ import annotations

import json

import pydantic_core
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


def test_request_shaped_models_inside_a_result_use_their_own_serialiser() -> None:
    state = Defender(dexterity=20, hp=5, max_hp=30)
    assert encode(
        [state, Roll(slot="a", sides=10, value=3, source="seed")]
    ) == pydantic_core.to_json([state, Roll(slot="a", sides=10, value=3, source="seed")])


def test_integers_beyond_64_bits_fall_back_to_pydantic() -> None:
    big = 10**100
    assert encode(
        {"seed": big, "rolls": [Roll(slot="a", sides=10, value=3, source="seed")]}
    ) == pydantic_core.to_json(
        {"seed": big, "rolls": [Roll(slot="a", sides=10, value=3, source="seed")]}
    )


def test_a_128_digit_integer_seed_is_answered_and_returned(api: Api) -> None:
    seed = 10**127
    r = api.post("/dos/roll", json={"pool": 3, "seed": seed})
    assert r.status_code == 200, r.text
    assert r.json()["seed"] == seed
    again = api.post("/dos/roll", json={"pool": 3, "seed": str(seed)})
    assert again.json()["rolls"] == r.json()["rolls"]  # an integer seed is its decimal text
