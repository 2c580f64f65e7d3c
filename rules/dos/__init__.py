"""Dragons of Shadows: d10 pools, tests and combat (rules/dos.md)."""

from rules.dos.system import SYSTEM

__all__ = ["SYSTEM"]
