"""The notation's event codes, for ``EventLog``: their texts are in rules/notation/text.py."""

from rules.narration import codes
from rules.notation.text import TEXTS

SENTENCES = codes(TEXTS)
