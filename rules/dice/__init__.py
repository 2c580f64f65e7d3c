"""Dice: the seeded ``sha256-v1`` stream, scripted dice and the record of every die drawn."""

from rules.dice.source import DiceSource, DieRecord, SlotSpec
from rules.dice.stream import RNG, SlotStream, seed_text, stream_values

__all__ = ["RNG", "DiceSource", "DieRecord", "SlotSpec", "SlotStream", "seed_text", "stream_values"]
