"""Dragon battle: one round of a dragon's violent conflict with entities (rules/dragon.md)."""

from rules.dragon.system import SYSTEM

__all__ = ["SYSTEM"]
