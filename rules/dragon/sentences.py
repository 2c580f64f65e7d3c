"""The dragon battle event codes and rules version, for ``EventLog``: their texts are in
rules/dragon/text.py and the catalogs (``rules.narration``)."""

from rules.dragon.text import TEXTS
from rules.narration import codes

#: This system's rules version (docs/dice.md, "Rules versions"): bumped whenever an answer of this
#: system could change for the same request and seed (a rule, a draw order, an event, a text in any
#: language, a Foundry flavor). Every answer carries it; ``GET /systems`` lists it.
RULES_VERSION = "dragon-6"
SENTENCES = codes(TEXTS)
