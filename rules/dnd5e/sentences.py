"""The fifth-edition event codes, for ``EventLog``: their texts are in
rules/dnd5e/text.py and the catalogs (``rules.narration``)."""

from rules.dnd5e.text import TEXTS
from rules.narration import codes

SENTENCES = codes(TEXTS)
