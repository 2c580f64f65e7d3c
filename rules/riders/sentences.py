"""The Dragon Riders event codes, for ``EventLog``: their texts are in
rules/riders/text.py and the catalogs (``rules.narration``)."""

from rules.narration import codes
from rules.riders.text import TEXTS

SENTENCES = codes(TEXTS)
