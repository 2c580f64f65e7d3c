"""MkDocs hooks (``mkdocs.yml`` ``hooks``): the navigation's "Systems" section is the registry's.

``mkdocs.yml`` leaves that section empty; :func:`on_config` fills it with one page per game of
``rules.registry.SYSTEMS``, in the registry's order, titled with the system's English name:
``docs/systems/<id>.md`` (a test checks that each exists). A system added to the registry is in the
navigation with no line in ``mkdocs.yml``; a page it lacks fails ``make docs``.
"""

from __future__ import annotations

from typing import Any

SECTION = "Systems"


def systems_nav() -> list[dict[str, str]]:
    """The "Systems" section: ``{English name: systems/<id>.md}`` per game of the registry."""
    from rules.registry import SYSTEMS

    return [{s.name["en"]: f"systems/{s.id}.md"} for s in SYSTEMS if s.game]


def on_config(config: Any, **kwargs: Any) -> Any:
    nav = config["nav"]
    sections = [entry for entry in nav if isinstance(entry, dict) and SECTION in entry]
    if len(sections) != 1 or sections[0][SECTION]:
        raise ValueError(f"mkdocs.yml: the nav needs one empty {SECTION!r} section to fill")
    sections[0][SECTION] = systems_nav()
    return config
