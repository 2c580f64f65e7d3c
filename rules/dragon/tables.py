"""The dragon battle's tables: die sizes (DRG-T1..T3) and change levels (DRG-T4)."""

from __future__ import annotations

#: DRG-T1: the size of the dragon's battle dice by age.
DRAGON_DICE: dict[int, int] = {1: 8, 2: 10, 3: 12, 4: 12, 5: 20, 6: 20}
#: DRG-T2: the size of the dragon die by age.
DRAGON_DIE: dict[int, int] = {1: 12, 2: 20, 3: 20, 4: 30, 5: 30, 6: 100}
#: DRG-T3: the entity die ladder; level 1 is d4, level 6 d20, then d30 and d100.
LADDER: tuple[int, ...] = (4, 6, 8, 10, 12, 20, 30, 100)
#: DRG-T4: (lowest result, change level), highest first. Below 3 there is no change.
CHANGE_LEVELS: tuple[tuple[int, int], ...] = (
    (31, 6),
    (25, 5),
    (17, 4),
    (11, 3),
    (7, 2),
    (5, 1),
    (3, 0),
)
CHANGE_SCALE: dict[int, str] = {
    0: "an individual",
    1: "a group",
    2: "a village",
    3: "a cluster of villages",
    4: "a big city",
    5: "a kingdom",
    6: "the world",
}


def ladder_die(level: int, features: int) -> int:
    """DRG-T3: the die of an entity of ``level`` with ``features`` level-raising battle features.

    Steps beyond the top of the ladder stay at d100, the ladder's last step.
    """
    step = min(level - 1 + features, len(LADDER) - 1)
    return LADDER[step]


def step_up(sides: int) -> int:
    """One step above a die (DRG-8, DRG-14): the next ladder size above it; d100 and up stay."""
    for size in LADDER:
        if size > sides:
            return size
    return sides


def change_level(result: int) -> int | None:
    """DRG-T4: the change level a result reaches, or ``None`` below 3."""
    for lowest, level in CHANGE_LEVELS:
        if result >= lowest:
            return level
    return None
