"""The dragon battle event codes, for ``EventLog``: their texts are in
rules/dragon/text.py and the catalogs (``rules.narration``)."""

from rules.dragon.text import TEXTS
from rules.narration import codes

SENTENCES = codes(TEXTS)
