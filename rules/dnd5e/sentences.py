"""The fifth-edition event codes and rules version, for ``EventLog``: their texts are in
rules/dnd5e/text.py and the catalogs (``rules.narration``)."""

from rules.dnd5e.text import TEXTS
from rules.narration import codes

#: This system's rules version (docs/dice.md, "Rules versions"): bumped whenever an answer of this
#: system could change for the same request and seed (a rule, a draw order, an event, a text in any
#: language, a Foundry flavor). Every answer carries it; ``GET /systems`` lists it.
RULES_VERSION = "dnd5e-6"
SENTENCES = codes(TEXTS)
