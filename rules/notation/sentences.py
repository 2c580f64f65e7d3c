"""The notation's event codes, for ``EventLog``: their texts are in rules/notation/text.py."""

from rules.narration import codes
from rules.notation.text import TEXTS

#: The notation's rules version (docs/dice.md, "Rules versions").
RULES_VERSION = "notation-2"
SENTENCES = codes(TEXTS)
