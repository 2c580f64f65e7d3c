"""Fifth-edition SRD combat: surprise, initiative, turn budgets, checks, attacks, dying (rules/dnd5e.md).

Material from the System Reference Document 5.1 by Wizards of the Coast LLC, licensed CC-BY-4.0;
the rules are implemented and described in the project's own words.
"""

from rules.dnd5e.system import SYSTEM

__all__ = ["SYSTEM"]
