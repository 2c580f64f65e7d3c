"""The registry: the one list of the systems the service serves (STYLE 21; docs/development.md,
"Adding a system"). Everything that lists systems or endpoints is built from it; its order is the
order of the OpenAPI document and of ``GET /systems``.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules import dnd5e, dos, dragon, notation, riders
from rules.narration import Texts, texts_of
from rules.system import Capability, System


def served(systems: Iterable[System]) -> tuple[System, ...]:
    """``systems``, checked to be served together: each with an id, a path prefix and a rules
    version of its own (a ``ValueError`` that names the clash, else)."""
    systems = tuple(systems)
    for what, key in (("id", "id"), ("path prefix", "prefix"), ("rules version", "rules_version")):
        seen: dict[str, str] = {}
        for system in systems:
            value = getattr(system, key)
            if value in seen:
                raise ValueError(
                    f"systems {seen[value]!r} and {system.id!r} have the {what} {value!r}: give "
                    "each its own"
                )
            seen[value] = system.id
    return systems


SYSTEMS: tuple[System, ...] = served(
    (
        dos.SYSTEM,
        dragon.SYSTEM,
        riders.SYSTEM,
        dnd5e.SYSTEM,
        notation.SYSTEM,  # the dice roller, an entry without a game, at /dice
    )
)
#: Their ids, in the same order.
IDS: tuple[str, ...] = tuple(system.id for system in SYSTEMS)
#: Their source messages (``rules.narration.texts_of``): what the service narrates them from, and
#: what the tests and tools that read the registry's catalogs hand ``rules.narration``.
TEXTS: Texts = texts_of(SYSTEMS)
#: The engine modules every system shares that the wheel and the image compile with mypyc
#: (setup.py); each system's own are its descriptor's ``compiled``.
SHARED_COMPILED: tuple[str, ...] = (
    "rules.dice.stream",
    "rules.dice.source",
    "rules.events",
    "rules.narration",
)


def compiled(systems: tuple[System, ...] = SYSTEMS) -> tuple[str, ...]:
    """Every module compiled with mypyc (``setup.py``): the shared ones, then each system's."""
    return (*SHARED_COMPILED, *(module for system in systems for module in system.compiled))


def find(system_id: str, systems: tuple[System, ...] = SYSTEMS) -> System:
    """The system with the id ``system_id`` (a ``KeyError`` naming the ids there are, else)."""
    for system in systems:
        if system.id == system_id:
            return system
    raise KeyError(f"no system {system_id!r}: one of {', '.join(s.id for s in systems)}")


def having(capability: Capability, systems: tuple[System, ...] = SYSTEMS) -> tuple[System, ...]:
    """The systems that have ``capability`` (``rules.system.Capability``), in the registry's order:
    what a test of a capability parametrizes over (``having(Capability.FOUNDRY)``), so a system
    without it is not asked for it and one that gains it is tested at once."""
    return tuple(system for system in systems if capability in system.capabilities)
