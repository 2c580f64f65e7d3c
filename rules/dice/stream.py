"""The seeded dice stream ``sha256-v1`` (DESIGN.md, "Randomness", normative; docs/dice.md): any client
in any language recomputes a die from the seed, the slot and the die sizes drawn before it.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Final

RNG = "sha256-v1"
MAX_SIDES = 2**32 - 1
_WORDS = struct.Struct(">8I")
_COUNTER = struct.Struct(">Q")
_FIRST = _COUNTER.pack(0)
_SPAN = 2**32


#: SHA-256, hashlib's (public API, STYLE 16): CPython's private built-in one saved ~340 ns a block
#: (5 blocks in a battle: under 1% of it, within bench/inprocess.py's noise), not the 10% it must earn.
_SHA256: Final = hashlib.sha256


def seed_text(seed: str | int) -> str:
    return str(seed) if isinstance(seed, int) else seed


class SlotStream:
    """The endless stream of one (seed, slot): 32-bit words, and dice cut from them."""

    __slots__ = ("_block", "_next", "_prefix", "_words")

    def __init__(self, seed: str, slot: str) -> None:
        self._prefix = f"{seed}\x1f{slot}\x1f".encode("ascii")
        self._block = 1
        self._words = _WORDS.unpack(_SHA256(self._prefix + _FIRST).digest())
        self._next = 0

    def _refill(self) -> tuple[int, ...]:
        digest = _SHA256(self._prefix + _COUNTER.pack(self._block)).digest()
        self._block += 1
        self._words = words = _WORDS.unpack(digest)
        self._next = 0
        return words

    def word(self) -> int:
        words = self._words if self._next < len(self._words) else self._refill()
        w = words[self._next]
        self._next += 1
        return w

    def die(self, sides: int) -> int:
        """The next die of ``sides`` sides: the next word under the limit (a word at or over it is
        discarded: for a d10, once in about 7e8 words)."""
        limit = _limit(sides)
        while True:
            w = self.word()
            if w < limit:
                return 1 + w % sides

    def dice(self, sides: int, count: int) -> list[int]:
        limit = _limit(sides)
        words, i = self._words, self._next
        out: list[int] = []
        while len(out) < count:
            if i == len(words):
                words, i = self._refill(), 0
            w = words[i]
            i += 1
            if w < limit:
                out.append(1 + w % sides)
        self._next = i
        return out


def _limit(sides: int) -> int:
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"a die needs 2..{MAX_SIDES} sides, not {sides}")
    return _SPAN - _SPAN % sides


def stream_values(seed: str | int, slot: str, sides: int, count: int) -> list[int]:
    stream = SlotStream(seed_text(seed), slot)
    return stream.dice(sides, count)
