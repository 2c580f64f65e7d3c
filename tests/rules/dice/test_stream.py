"""sha256-v1: the 288 reference streams, rejection sampling and the scripted dice source."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import pytest

from rules.dice import DiceSource, SlotStream, stream_values
from rules.errors import DiceExhausted, DiceScriptError

VECTORS = json.loads((Path(__file__).parents[2] / "data" / "rng-vectors.json").read_text())


def test_vectors_file_is_the_reference() -> None:
    assert VECTORS["rng"] == "sha256-v1"
    assert len(VECTORS["cases"]) == 288


@pytest.mark.parametrize(
    "case", VECTORS["cases"], ids=lambda c: f"{c['seed'][:12]}|{c['label']}|d{c['sides']}"
)
def test_reproduces_reference_stream(case: dict[str, object]) -> None:
    values = case["values"]
    assert isinstance(values, list)
    assert (
        stream_values(str(case["seed"]), str(case["label"]), int(str(case["sides"])), 16) == values
    )


def test_integer_seed_is_its_decimal_text() -> None:
    assert stream_values(-7, "check", 10, 16) == stream_values("-7", "check", 10, 16)
    assert stream_values(42, "attack", 20, 16) == stream_values("42", "attack", 20, 16)


def test_block_layout_by_hand() -> None:
    """The first word of block 0 of ('hello', 'check') decides the first d6 when not rejected."""
    digest = hashlib.sha256(b"hello\x1fcheck\x1f" + struct.pack(">Q", 0)).digest()
    first = struct.unpack(">I", digest[:4])[0]
    limit = 2**32 - (2**32 % 6)
    if first < limit:
        assert SlotStream("hello", "check").die(6) == 1 + first % 6


def test_rejection_skips_words_at_or_above_the_limit() -> None:
    # With 3,000,000,000 sides the limit is 3e9: about 30% of words are rejected.
    stream = SlotStream("0", "check")
    words = [stream.word() for _ in range(64)]
    expected = [1 + w % 3_000_000_000 for w in words if w < 3_000_000_000]
    assert stream_values("0", "check", 3_000_000_000, len(expected)) == expected


def test_sides_out_of_range() -> None:
    with pytest.raises(ValueError):
        SlotStream("0", "x").die(1)
    with pytest.raises(ValueError):
        SlotStream("0", "x").die(2**32)


def test_slots_are_independent() -> None:
    dice = DiceSource("s")
    a1 = dice.roll("a", 10)
    dice.roll("b", 10)
    a2 = dice.roll("a", 10)
    assert [a1, a2] == stream_values("s", "a", 10, 2)


def test_script_then_records_in_draw_order() -> None:
    dice = DiceSource("s", {"a": [3, 4]}, {"a": 10, "b": 10})
    assert [dice.roll("a", 10), dice.roll("b", 10), dice.roll("a", 10)][::2] == [3, 4]
    assert [(r.slot, r.source) for r in dice.rolls] == [("a", "dice"), ("b", "seed"), ("a", "dice")]
    dice.settle()
    assert dice.unused() == {}


def test_unused_script_values_are_reported() -> None:
    dice = DiceSource("s", {"a": [3, 4, 5]}, {"a": 10})
    dice.roll("a", 10)
    assert dice.unused() == {"a": [4, 5]}


def test_exhausted_script_counts_what_was_missing() -> None:
    dice = DiceSource("s", {"a": [3]}, {"a": 10})
    for _ in range(4):
        dice.roll("a", 10)
    with pytest.raises(DiceExhausted) as err:
        dice.settle()
    assert (err.value.slot, err.value.sides, err.value.needed, err.value.given) == ("a", 10, 3, 1)
    assert "3 more d10" in err.value.detail


def test_script_value_out_of_range_for_a_fixed_slot() -> None:
    with pytest.raises(DiceScriptError) as err:
        DiceSource("s", {"a": [11]}, {"a": 10})
    assert err.value.errors[0].loc == ("dice", "a", 0)


def test_script_value_out_of_range_when_drawn() -> None:
    dice = DiceSource("s", {"a": [7]}, {"a": None})
    with pytest.raises(DiceScriptError, match="d6"):
        dice.roll("a", 6)


def test_unknown_slot_is_rejected_and_names_the_known_ones() -> None:
    with pytest.raises(DiceScriptError, match="its slots are: check"):
        DiceSource("s", {"chek": [1]}, {"check": 10})
