"""Dragon Riders board-game combat: bonuses, 2d6 roll-off, counterattack, damage (rules/riders.md)."""

from rules.riders.system import SYSTEM

__all__ = ["SYSTEM"]
