"""The common dice notation (issue 29, docs/notation.md): ``4d6kh3``, ``2d20kl1+5``, ``8d10cs>=7``,
``3d6!`` parsed, rolled term by term from the ``sha256-v1`` source, narrated, and answered with its
exact odds. An entry without a game: served at ``/dice``, its event codes ``notation.*``."""

from rules.notation.system import SYSTEM

__all__ = ["SYSTEM"]
